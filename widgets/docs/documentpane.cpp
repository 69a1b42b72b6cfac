#include "widgets/docs/documentpane.h"

#include "core/docs/documentindex.h"
#include "core/docs/documentsession.h"
#include "core/docs/hitlistmodel.h"
#include "core/util/outputfile.h"
#include "core/util/whenready.h"
#include "core/workbench/workbenchcontext.h"
#include "widgets/common/accessibleparts.h"
#include "widgets/docs/documentview.h"
#include "widgets/docs/rubyfreetext.h"

#include <QCheckBox>
#include <QComboBox>
#include <QCompleter>
#include <QCoreApplication>
#include <QDockWidget>
#include <QFileDialog>
#include <QFileInfo>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QKeyEvent>
#include <QLabel>
#include <QLineEdit>
#include <QListView>
#include <QMenu>
#include <QPainter>
#include <QPointer>
#include <QProgressBar>
#include <QRegularExpression>
#include <QScrollBar>
#include <QShortcut>
#include <QSplitter>
#include <QStringListModel>
#include <QStyledItemDelegate>
#include <QTableView>
#include <QTextLayout>
#include <QToolButton>
#include <QVBoxLayout>
#include <QtConcurrent/QtConcurrentRun>
#include <QtMath>

#include <cmath>
#include <functional>

namespace hako {

namespace {

constexpr int kTextMargin = 4;

// Lays `layout` out in lines `width` wide (a hit in a long Aozora paragraph wraps instead of
// running off the cell); returns its height.
qreal wrapLayout(QTextLayout& layout, qreal width)
{
    QTextOption option;
    option.setWrapMode(QTextOption::WrapAtWordBoundaryOrAnywhere);
    layout.setTextOption(option);
    layout.beginLayout();
    qreal y = 0;
    for (QTextLine line = layout.createLine(); line.isValid(); line = layout.createLine()) {
        line.setLineWidth(std::max<qreal>(10, width));
        line.setPosition(QPointF(0, y));
        y += line.height();
    }
    layout.endLayout();
    return y;
}

// Draws text with its format ranges wrapped to an item's cell (the cell's background was drawn
// already), vertically centred when it fits.
void paintText(QPainter* p, const QStyleOptionViewItem& opt, QTextLayout& layout,
               const QList<QTextLayout::FormatRange>& formats)
{
    layout.setFormats(formats);
    const qreal height = wrapLayout(layout, opt.rect.width() - 2 * kTextMargin);
    p->save();
    p->setClipRect(opt.rect);
    p->setPen(opt.palette.color(opt.state & QStyle::State_Selected ? QPalette::HighlightedText
                                                                   : QPalette::Text));
    layout.draw(p, QPointF(opt.rect.left() + kTextMargin,
                           opt.rect.top() + std::max<qreal>(0, (opt.rect.height() - height) / 2)));
    p->restore();
}

// The height of `text` wrapped to `width`, as paintText lays it out.
QSize wrappedSize(const QString& text, const QFont& font, int width)
{
    QTextLayout layout(text, font);
    const qreal height = wrapLayout(layout, width - 2 * kTextMargin);
    return QSize(width, int(std::ceil(height)) + 4);
}

// Marks ([x, y) points) of a model role.
QList<QPoint> marksOf(const QModelIndex& index, int role)
{
    QList<QPoint> marks;
    for (const QVariant& m : index.data(role).toList())
        marks.append(m.toPoint());
    return marks;
}

// Paints a hit's snippet with its matched terms highlighted, wrapped to the list's width; with
// ruby read, without its markup (as the document view shows the line).
class HitDelegate : public QStyledItemDelegate {
public:
    HitDelegate(std::function<bool()> rubyRead, QObject* parent)
        : QStyledItemDelegate(parent), m_rubyRead(std::move(rubyRead))
    {}

    /// The hit as shown: the unit's label, then the snippet; `marks` get the matched terms.
    QString shownText(const QModelIndex& index, QList<QPoint>* marks = nullptr) const
    {
        // The unit as the command printed it: sentence and paragraph hits by their own
        // numbers, which `show` takes.
        const QString label =
            index.data(docs::HitListModel::LabelRole).toString() + QStringLiteral(": ");
        QList<QPoint> found = marksOf(index, docs::HitListModel::MarksRole);
        QString snippet = index.data(docs::HitListModel::SnippetRole).toString();
        if (m_rubyRead())
            snippet = rubyFreeText(snippet, &found);
        if (marks) {
            for (QPoint& m : found)
                m += QPoint(int(label.size()), int(label.size()));
            *marks = found;
        }
        return label + snippet;
    }

    void paint(QPainter* p, const QStyleOptionViewItem& option,
               const QModelIndex& index) const override
    {
        QStyleOptionViewItem opt = option;
        initStyleOption(&opt, index);
        QList<QPoint> marks;
        const QString text = shownText(index, &marks);
        const int labelLength =
            int(index.data(docs::HitListModel::LabelRole).toString().size()) + 2;
        opt.text.clear();
        opt.widget->style()->drawControl(QStyle::CE_ItemViewItem, &opt, p, opt.widget);
        QTextLayout layout(text, opt.font);
        QList<QTextLayout::FormatRange> formats;
        QTextCharFormat gutter;
        gutter.setForeground(opt.palette.color(QPalette::PlaceholderText));
        formats.append({0, labelLength, gutter});
        for (const QPoint& r : marks) {
            QTextCharFormat f;
            f.setBackground(QColor(255, 214, 102));
            f.setForeground(Qt::black);
            f.setFontWeight(QFont::Bold);
            formats.append({r.x(), r.y() - r.x(), f});
        }
        paintText(p, opt, layout, formats);
    }

    QSize sizeHint(const QStyleOptionViewItem& option, const QModelIndex& index) const override
    {
        const auto* view = qobject_cast<const QAbstractItemView*>(option.widget);
        const int width = view ? view->viewport()->width() : option.rect.width();
        return wrappedSize(shownText(index), option.font, width);
    }

private:
    std::function<bool()> m_rubyRead;
};

// Paints the transcript's output column with the bold ranges of search output (the model
// gives the text without `**` markers), wrapped to the column; with ruby read, without its
// markup.
class BoldDelegate : public QStyledItemDelegate {
public:
    BoldDelegate(std::function<bool()> rubyRead, QObject* parent)
        : QStyledItemDelegate(parent), m_rubyRead(std::move(rubyRead))
    {}

    QString shownText(const QModelIndex& index, QList<QPoint>* marks = nullptr) const
    {
        QList<QPoint> bold = marksOf(index, docs::TranscriptModel::BoldRole);
        QString text = index.data().toString();
        if (m_rubyRead())
            text = rubyFreeText(text, &bold);
        if (marks)
            *marks = bold;
        return text;
    }

    void paint(QPainter* p, const QStyleOptionViewItem& option,
               const QModelIndex& index) const override
    {
        QStyleOptionViewItem opt = option;
        initStyleOption(&opt, index);
        QList<QPoint> marks;
        const QString text = shownText(index, &marks);
        opt.text.clear();
        opt.widget->style()->drawControl(QStyle::CE_ItemViewItem, &opt, p, opt.widget);
        QTextLayout layout(text, opt.font);
        QList<QTextLayout::FormatRange> formats;
        for (const QPoint& r : marks) {
            QTextCharFormat f;
            f.setFontWeight(QFont::Bold);
            formats.append({r.x(), r.y() - r.x(), f});
        }
        paintText(p, opt, layout, formats);
    }

    QSize sizeHint(const QStyleOptionViewItem& option, const QModelIndex& index) const override
    {
        const auto* view = qobject_cast<const QTableView*>(option.widget);
        const int width = view ? view->columnWidth(index.column()) : option.rect.width();
        return wrappedSize(shownText(index), option.font, width);
    }

private:
    std::function<bool()> m_rubyRead;
};

} // namespace

void DocumentPane::createLists()
{
    m_hits = new QListView(this);
    m_hits->setModel(m_hitModel);
    auto rubyRead = [this] {
        return m_view->rubyShown();
    };
    m_hits->setItemDelegate(new HitDelegate(rubyRead, m_hits));
    // Rows as tall as their wrapped text, laid out again when the pane is resized.
    m_hits->setWordWrap(true);
    m_hits->setResizeMode(QListView::Adjust);
    m_transcript = new QTableView(this);
    m_transcript->setModel(m_transcriptModel);
    m_transcript->horizontalHeader()->setStretchLastSection(true);
    m_transcript->verticalHeader()->hide();
    m_transcript->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_transcript->setItemDelegateForColumn(docs::TranscriptModel::Output,
                                           new BoldDelegate(rubyRead, m_transcript));
    m_transcript->setWordWrap(true);
    m_transcript->verticalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
}

DocumentPane::DocumentPane(QWidget* parent) : QWidget(parent)
{
    m_view = new DocumentView(this);
    m_command = new QLineEdit(this);
    m_command->setPlaceholderText(
        tr("search 白鳥 停車場 · show 181-182 · rank query · answer text   (Enter to run)"));
    m_command->setEnabled(false);
    m_hitModel = new docs::HitListModel(this);
    m_transcriptModel = new docs::TranscriptModel(this);
    createLists();
    m_cost = new QLabel(tr("Cost: 0"), this);
    m_file = new QLabel(tr("No document"), this);
    m_file->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_message = new QLabel(this);
    m_message->setWordWrap(true);
    m_message->hide();
    m_progress = new QProgressBar(this);
    m_progress->setRange(0, 100);
    m_progress->hide();
    m_units = new QComboBox(this);
    m_units->addItem(tr("Lines"), int(docs::UnitKind::Lines));
    m_units->addItem(tr("Sentences"), int(docs::UnitKind::Sentences));
    m_units->addItem(tr("Paragraphs"), int(docs::UnitKind::Paragraphs));
    m_units->setToolTip(tr("What search results and show numbers refer to: lines as in the file, "
                           "or sentences/paragraphs cut to at most 200 characters (for texts "
                           "with very long lines)"));
    m_ruby = new QCheckBox(tr("Ruby"), this);
    m_ruby->setChecked(true);
    m_ruby->setToolTip(tr("Show Aozora Bunko ruby as small readings above the text"));
    m_mode = new QComboBox(this);
    m_mode->addItem(tr("Seed output"), int(docs::OutputMode::Seed));
    m_mode->addItem(tr("Context output"), int(docs::OutputMode::Context));
    m_mode->setToolTip(tr("Seed: the seed game's exact output (first 20 characters of each hit). "
                          "Context: a snippet around the first match, every term bold, the "
                          "true page and hit counts, and suggestions when nothing matches"));
    m_export = new QToolButton(this);
    m_export->setText(tr("Export"));
    m_export->setToolTip(tr("Save the session's transcript as JSON or Markdown"));
    m_export->setPopupMode(QToolButton::InstantPopup);
    m_export->setEnabled(false);
    auto* exportMenu = new QMenu(m_export);
    exportMenu->addAction(tr("Transcript as JSON…"), this,
                          [this] { chooseExport(ExportFormat::Json); });
    exportMenu->addAction(tr("Transcript as Markdown…"), this,
                          [this] { chooseExport(ExportFormat::Markdown); });
    m_export->setMenu(exportMenu);
    // Names for screen readers and the accessibility-driven journey tests.
    m_view->setAccessibleName(tr("Document text"));
    m_command->setAccessibleName(tr("Document command"));
    m_hits->setAccessibleName(tr("Document hits"));
    m_transcript->setAccessibleName(tr("Document transcript"));
    // The labels (file name, cost, message) are read by their text, which is what changes.
    m_progress->setAccessibleName(tr("Document indexing progress"));
    m_units->setAccessibleName(tr("Document units"));
    m_mode->setAccessibleName(tr("Document output mode"));
    m_ruby->setAccessibleName(tr("Show ruby"));
    m_export->setAccessibleName(tr("Export transcript"));
    // Completion: the commands, then everything typed before and the searches suggested when
    // nothing was found, most recent first.
    m_completions = new QStringListModel(this);
    auto* completer = new QCompleter(m_completions, this);
    completer->setCaseSensitivity(Qt::CaseInsensitive);
    completer->setCompletionMode(QCompleter::PopupCompletion);
    m_command->setCompleter(completer);
    updateCompletions();

    auto* bar = new QHBoxLayout;
    bar->setContentsMargins(4, 2, 4, 2);
    bar->addWidget(m_file, 1);
    bar->addWidget(m_cost);
    auto* unitsLabel = new QLabel(tr("Units:"), this);
    unitsLabel->setBuddy(m_units);
    bar->addWidget(unitsLabel);
    bar->addWidget(m_units);
    bar->addWidget(m_mode);
    bar->addWidget(m_ruby);
    bar->addWidget(m_export);
    // The hits above the transcript, each down to a row or two: the pane shares the bottom
    // strip of the window with the console and must not make it tall.
    auto* lists = new QSplitter(Qt::Vertical, this);
    lists->addWidget(m_hits);
    lists->addWidget(m_transcript);
    lists->setStretchFactor(0, 3);
    lists->setStretchFactor(1, 2);
    for (QAbstractItemView* list :
         {static_cast<QAbstractItemView*>(m_hits), static_cast<QAbstractItemView*>(m_transcript)})
        list->setMinimumHeight(list->fontMetrics().height() + 8);
    auto* side = new QWidget(this);
    auto* sideLayout = new QVBoxLayout(side);
    sideLayout->setContentsMargins(0, 0, 0, 0);
    sideLayout->addWidget(m_command);
    sideLayout->addWidget(lists, 1);
    auto* splitter = new QSplitter(this);
    splitter->addWidget(m_view);
    splitter->addWidget(side);
    splitter->setStretchFactor(0, 3);
    splitter->setStretchFactor(1, 2);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(m_message);
    layout->addWidget(m_progress);
    layout->addLayout(bar);
    layout->addWidget(splitter, 1);
    connectControls();
    // Qt's own parts (clear and corner buttons, combo box text) get names too.
    AccessibleParts::name(this);
}

void DocumentPane::connectControls()
{
    connect(m_ruby, &QCheckBox::toggled, m_view, &DocumentView::setShowRuby);
    // The lists show the text the way the document view does: readings hidden or raw.
    connect(m_ruby, &QCheckBox::toggled, this, [this] {
        m_hits->doItemsLayout();
        m_hits->viewport()->update();
        m_transcript->resizeRowsToContents();
        m_transcript->viewport()->update();
    });
    connect(m_units, &QComboBox::currentIndexChanged, this,
            [this] { setUnits(docs::UnitKind(m_units->currentData().toInt())); });
    connect(m_mode, &QComboBox::currentIndexChanged, this,
            [this] { setMode(docs::OutputMode(m_mode->currentData().toInt())); });

    connect(m_command, &QLineEdit::returnPressed, this, [this] {
        const QString text = m_command->text().trimmed();
        if (text.isEmpty())
            return;
        m_history.append(text);
        m_historyPos = int(m_history.size());
        updateCompletions();
        m_command->clear();
        runCommand(text);
    });
    m_command->installEventFilter(this);
    connect(m_hits, &QListView::clicked, this,
            [this](const QModelIndex& i) { selectHit(i.row()); });
    auto* next = new QShortcut(QKeySequence(Qt::Key_F3), this);
    next->setContext(Qt::WidgetWithChildrenShortcut);
    connect(next, &QShortcut::activated, this, &DocumentPane::nextHit);
    auto* prev = new QShortcut(QKeySequence(Qt::SHIFT | Qt::Key_F3), this);
    prev->setContext(Qt::WidgetWithChildrenShortcut);
    connect(prev, &QShortcut::activated, this, &DocumentPane::previousHit);
}

DocumentPane::~DocumentPane()
{
    // The lists' delegates ask this pane whether ruby is shown whenever the lists lay out,
    // which QWidget's destructor makes them do: they go while the pane is still whole.
    delete m_hits;
    delete m_transcript;
}

bool DocumentPane::eventFilter(QObject* watched, QEvent* event)
{
    if (watched == m_command && event->type() == QEvent::KeyPress) {
        const auto* key = static_cast<QKeyEvent*>(event);
        if (key->key() == Qt::Key_Up && m_historyPos > 0) {
            m_command->setText(m_history.at(--m_historyPos));
            return true;
        }
        if (key->key() == Qt::Key_Down && m_historyPos < m_history.size()) {
            ++m_historyPos;
            m_command->setText(m_history.value(m_historyPos));
            return true;
        }
    }
    return QWidget::eventFilter(watched, event);
}

void DocumentPane::raiseDock()
{
    // The pane does not know who docks it; the nearest dock widget is brought forward.
    for (QWidget* w = parentWidget(); w; w = w->parentWidget()) {
        if (auto* dock = qobject_cast<QDockWidget*>(w)) {
            dock->show();
            dock->raise();
            return;
        }
    }
}

void DocumentPane::openDocument(const QString& path)
{
    raiseDock();
    m_file->setText(QFileInfo(path).fileName());
    m_file->setToolTip(QFileInfo(path).absoluteFilePath());
    const LatestJob::Ticket ticket = m_latest.start(); // a newer request supersedes older ones
    m_progress->setValue(0);
    m_progress->show();
    m_loading = true;
    m_message->hide();
    m_command->setEnabled(false);
    QPointer<DocumentPane> self(this);
    auto progress = [self, ticket](int percent) {
        QMetaObject::invokeMethod(
            self.data(),
            [self, ticket, percent] {
                if (self && self->m_latest.isCurrent(ticket))
                    self->m_progress->setValue(percent);
            },
            Qt::QueuedConnection);
    };
    // The first screen is decoded on its own and shown at once; the whole text and its index
    // follow, and the view keeps its scroll position when they replace it.
    auto preview = [self, ticket](std::shared_ptr<const docs::Document> head) {
        QMetaObject::invokeMethod(
            self.data(),
            [self, ticket, head] {
                if (self && self->m_latest.isCurrent(ticket) && !self->m_session)
                    self->showPreview(head);
            },
            Qt::QueuedConnection);
    };
    if (m_session)
        m_session->disconnect(this);
    setSession(nullptr);
    m_export->setEnabled(false);
    m_pending.clear();
    docs::IndexOptions indexOptions;
    indexOptions.units = docs::UnitKind(m_units->currentData().toInt());
    whenReady(this, QtConcurrent::run([path, progress, preview, indexOptions] {
                  // A small file (or a PDF) comes whole from the first read; errors are the
                  // same too.
                  Result<docs::Document> doc = docs::loadDocumentHead(path);
                  if (doc.ok() && doc->isPartial()) {
                      preview(std::make_shared<docs::Document>(std::move(doc).value()));
                      doc = docs::loadDocument(path);
                  }
                  if (!doc)
                      return std::make_tuple(std::shared_ptr<const docs::DocumentIndex>(),
                                             doc.error().message, QString());
                  QStringList warnings;
                  for (const Diagnostic& w : doc->warnings())
                      warnings.append(w.toString());
                  progress(30);
                  auto index = docs::DocumentIndex::build(
                      std::make_shared<docs::Document>(std::move(doc).value()), indexOptions, {},
                      [&](int p) { progress(30 + p * 7 / 10); });
                  return std::make_tuple(index, QString(), warnings.join(QLatin1Char('\n')));
              }),
              [this, ticket](const std::tuple<std::shared_ptr<const docs::DocumentIndex>, QString,
                                              QString>& result) {
                  if (!m_latest.isCurrent(ticket))
                      return;
                  onIndexed(std::get<0>(result), std::get<1>(result), std::get<2>(result));
              });
}

void DocumentPane::setWorkbenchContext(WorkbenchContext* context)
{
    m_context = context;
    if (context)
        context->setDocumentSession(m_session, this);
}

void DocumentPane::setSession(std::shared_ptr<docs::DocumentSession> session)
{
    m_session = std::move(session);
    if (m_context)
        m_context->setDocumentSession(m_session, this);
}

void DocumentPane::onIndexed(std::shared_ptr<const docs::DocumentIndex> index, const QString& error,
                             const QString& warnings)
{
    m_progress->hide();
    m_loading = false;
    if (!index) {
        m_message->setText(error);
        m_message->setStyleSheet(QStringLiteral("background:#f8d7da;padding:4px"));
        m_message->show();
        Q_EMIT failed(error);
        return;
    }
    m_message->hide();
    if (!warnings.isEmpty()) {
        m_message->setText(warnings);
        m_message->setStyleSheet(QStringLiteral("background:#fff3cd;padding:4px"));
        m_message->show();
    }
    // The first screen or the same text with other units: the reader stays where they were.
    const bool keepPosition =
        m_view->document() &&
        (m_view->document()->isPartial() || m_view->document() == index->documentPtr().get());
    const int scroll = m_view->verticalScrollBar()->value();
    if (m_session) {
        // Other units of the same text: the session, its transcript and its cost go on.
        m_session->setIndex(index);
        onRecorded(m_session.get(), {});
    } else {
        docs::SessionOptions options;
        options.mode = docs::OutputMode(m_mode->currentData().toInt());
        setSession(std::make_shared<docs::DocumentSession>(index, options));
        // Commands run by a PDL program on a worker thread reach the transcript too; the
        // session pointer tells late events of a replaced session apart.
        const docs::DocumentSession* raw = m_session.get();
        connect(
            m_session.get(), &docs::DocumentSession::commandRecorded, this,
            [this, raw](const docs::TranscriptEntry& entry) { onRecorded(raw, entry); },
            Qt::QueuedConnection);
        // Their hits too: the session announces every result, whoever ran the command.
        connect(
            m_session.get(), &docs::DocumentSession::commandExecuted, this,
            [this, raw](const docs::CommandResult& result) { onExecuted(raw, result); },
            Qt::QueuedConnection);
        m_transcriptModel->clear();
        m_cost->setText(tr("Cost: 0"));
    }
    if (m_view->document() != index->documentPtr().get())
        m_view->setDocument(index->documentPtr());
    m_view->setIndex(index);
    if (keepPosition)
        m_view->verticalScrollBar()->setValue(scroll);
    m_hitModel->setHits({});
    m_export->setEnabled(true);
    m_command->setEnabled(true);
    m_command->setFocus();
    Q_EMIT documentReady(index->document().path());
    // Commands typed while indexing run now, in the order they were entered.
    const QStringList pending = std::exchange(m_pending, {});
    for (const QString& command : pending)
        runCommand(command);
    // Units chosen while the index was being built: index again with them.
    const auto chosen = docs::UnitKind(m_units->currentData().toInt());
    if (index->options().units != chosen)
        setUnits(chosen);
}

QString DocumentPane::shownHitText(int row) const
{
    const auto* d = static_cast<const HitDelegate*>(m_hits->itemDelegate());
    return d->shownText(m_hitModel->index(row, 0));
}

QString DocumentPane::shownTranscriptOutput(int row) const
{
    const auto* d = static_cast<const BoldDelegate*>(
        m_transcript->itemDelegateForColumn(docs::TranscriptModel::Output));
    return d->shownText(m_transcriptModel->index(row, docs::TranscriptModel::Output));
}

void DocumentPane::setUnits(docs::UnitKind units)
{
    const int row = m_units->findData(int(units));
    if (row >= 0 && row != m_units->currentIndex()) {
        m_units->setCurrentIndex(row); // comes back here through the signal
        return;
    }
    if (!m_session || m_loading || m_session->index()->options().units == units)
        return;
    // Re-index the loaded text with the new units in the background; the session goes on
    // (setIndex records the change in the transcript). Commands typed meanwhile wait.
    const LatestJob::Ticket ticket = m_latest.start();
    auto document = m_session->index()->documentPtr();
    m_progress->setValue(0);
    m_progress->show();
    m_loading = true;
    docs::IndexOptions options;
    options.units = units;
    whenReady(this, QtConcurrent::run([document, options] {
                  return docs::DocumentIndex::build(document, options);
              }),
              [this, ticket](std::shared_ptr<const docs::DocumentIndex> index) {
                  if (m_latest.isCurrent(ticket))
                      onIndexed(index, QString(), QString());
              });
}

void DocumentPane::setMode(docs::OutputMode mode)
{
    const int row = m_mode->findData(int(mode));
    if (row >= 0 && row != m_mode->currentIndex()) {
        m_mode->setCurrentIndex(row); // comes back here through the signal
        return;
    }
    if (!m_session)
        return; // the next session starts in the chosen mode
    docs::SessionOptions options = m_session->options();
    options.mode = mode;
    m_session->setOptions(options);
}

bool DocumentPane::exportTranscript(const QString& path, ExportFormat format, QString* error)
{
    auto fail = [error](const QString& message) {
        if (error)
            *error = message;
        return false;
    };
    if (!m_session)
        return fail(tr("No document is open."));
    const QByteArray bytes = format == ExportFormat::Json
                                 ? m_session->transcriptJson()
                                 : m_session->transcriptMarkdown().toUtf8();
    QString why;
    if (!writeOutputFile(path, bytes, &why))
        return fail(tr("Cannot write %1: %2").arg(path, why));
    return true;
}

void DocumentPane::chooseExport(ExportFormat format)
{
    if (!m_session)
        return;
    const bool json = format == ExportFormat::Json;
    const QString base = QFileInfo(m_session->index()->document().path()).completeBaseName();
    const QString path = QFileDialog::getSaveFileName(
        this, tr("Export Transcript"),
        base + (json ? QStringLiteral("-transcript.json") : QStringLiteral("-transcript.md")),
        json ? tr("JSON (*.json)") : tr("Markdown (*.md)"));
    if (path.isEmpty())
        return;
    QString error;
    if (!exportTranscript(path, format, &error)) {
        m_message->setText(error);
        m_message->setStyleSheet(QStringLiteral("background:#f8d7da;padding:4px"));
        m_message->show();
    }
}

void DocumentPane::updateCompletions()
{
    QStringList items;
    for (qsizetype i = m_history.size() - 1; i >= 0; --i)
        items.append(m_history[i]);
    // Suggestions read `search 停車場 (2)`: the command without its hit count.
    static const QRegularExpression count(QStringLiteral("\\s*\\(\\d+\\)$"));
    for (QString s : m_suggested)
        items.append(s.remove(count));
    for (const char* c : {"search ", "show ", "answer ", "rank ", "page ", "memo "})
        items.append(QString::fromLatin1(c));
    items.removeDuplicates();
    m_completions->setStringList(items);
}

void DocumentPane::showPreview(std::shared_ptr<const docs::Document> head)
{
    m_view->setDocument(std::move(head));
    // Commands may be typed already; they wait for the index.
    m_command->setEnabled(true);
}

void DocumentPane::runCommand(const QString& command)
{
    if (!m_session || m_loading) {
        if (m_loading) {
            m_pending.append(command);
            m_message->setText(tr("Indexing %1%… \"%2\" runs when the index is ready.")
                                   .arg(m_progress->value())
                                   .arg(command));
            m_message->setStyleSheet(QStringLiteral("background:#d1ecf1;padding:4px"));
            m_message->show();
        }
        return;
    }
    auto session = m_session;
    const LatestJob::Ticket ticket = m_latest.current();
    // Queued behind the session's announcement of the command (onExecuted), which shows its
    // hits.
    whenReady(this, QtConcurrent::run([session, command] { return session->execute(command); }),
              [this, ticket](const docs::CommandResult& r) {
                  if (m_latest.isCurrent(ticket))
                      onCommandDone(r);
              });
}

void DocumentPane::onCommandDone(const docs::CommandResult& r)
{
    // The hits, the transcript and the cost were shown when the session announced the
    // command (onExecuted, queued before this result).
    onRecorded(m_session.get(), {});
    Q_EMIT commandFinished(r.output);
}

void DocumentPane::onExecuted(const docs::DocumentSession* session, const docs::CommandResult& r)
{
    if (!m_session || session != m_session.get())
        return; // an event of a session replaced since
    if (!r.suggestions.isEmpty()) {
        m_suggested = r.suggestions;
        updateCompletions();
    }
    if (!r.hits.isEmpty())
        m_hitModel->setHits(r.hits);
    onRecorded(session, {});
    if (!r.hits.isEmpty())
        selectHit(0);
}

void DocumentPane::onRecorded(const docs::DocumentSession* session,
                              const docs::TranscriptEntry& entry)
{
    Q_UNUSED(entry);
    // The session's record is the truth; its announcements may arrive before or after the
    // result of the command that made them, so whoever comes first copies what is new.
    if (!m_session || session != m_session.get())
        return; // an event of a session replaced since
    const QList<docs::TranscriptEntry> entries = m_session->transcript();
    const qsizetype shown = m_transcriptModel->rowCount();
    if (entries.size() <= shown)
        return;
    for (qsizetype i = shown; i < entries.size(); ++i)
        m_transcriptModel->append(entries[i]);
    m_transcript->scrollToBottom();
    m_cost->setText(tr("Cost: %1").arg(entries.last().totalCost));
    Q_EMIT transcriptChanged();
}

void DocumentPane::selectHit(int row)
{
    if (row < 0 || row >= m_hitModel->rowCount())
        return;
    m_hits->setCurrentIndex(m_hitModel->index(row));
    const docs::DocHit& h = m_hitModel->hits().at(row);
    m_view->highlight(h.origStart, std::max(h.origEnd, h.origStart + 1));
}

void DocumentPane::nextHit()
{
    const int rows = m_hitModel->rowCount();
    if (rows > 0)
        selectHit((m_hits->currentIndex().row() + 1) % rows);
}

void DocumentPane::previousHit()
{
    const int rows = m_hitModel->rowCount();
    if (rows > 0)
        selectHit((m_hits->currentIndex().row() - 1 + rows) % rows);
}

} // namespace hako
