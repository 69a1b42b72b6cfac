#include "widgets/docs/documentpane.h"

#include "core/docs/documentindex.h"
#include "core/docs/documentsession.h"
#include "core/docs/hitlistmodel.h"
#include "core/workbench/workbenchcontext.h"
#include "widgets/docs/documentview.h"

#include <QCheckBox>
#include <QComboBox>
#include <QCompleter>
#include <QFileInfo>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QKeyEvent>
#include <QLabel>
#include <QLineEdit>
#include <QListView>
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
#include <QVBoxLayout>
#include <QtConcurrent/QtConcurrentRun>

namespace hako {

namespace {

// Paints a hit's snippet with its matched terms highlighted.
class HitDelegate : public QStyledItemDelegate {
public:
    using QStyledItemDelegate::QStyledItemDelegate;
    void paint(QPainter* p, const QStyleOptionViewItem& option,
               const QModelIndex& index) const override
    {
        QStyleOptionViewItem opt = option;
        initStyleOption(&opt, index);
        const qlonglong page = index.data(docs::HitListModel::PageRole).toLongLong();
        const QString label = page > 0
                                  ? QStringLiteral("line%1 (p.%2): ")
                                        .arg(index.data(docs::HitListModel::LineRole).toLongLong())
                                        .arg(page)
                                  : QStringLiteral("line%1: ")
                                        .arg(index.data(docs::HitListModel::LineRole).toLongLong());
        const QString snippet = index.data(docs::HitListModel::SnippetRole).toString();
        opt.text.clear();
        opt.widget->style()->drawControl(QStyle::CE_ItemViewItem, &opt, p, opt.widget);
        QTextLayout layout(label + snippet, opt.font);
        QList<QTextLayout::FormatRange> formats;
        QTextCharFormat gutter;
        gutter.setForeground(opt.palette.color(QPalette::PlaceholderText));
        formats.append({0, int(label.size()), gutter});
        for (const QVariant& m : index.data(docs::HitListModel::MarksRole).toList()) {
            const QPoint r = m.toPoint();
            QTextCharFormat f;
            f.setBackground(QColor(255, 214, 102));
            f.setForeground(Qt::black);
            f.setFontWeight(QFont::Bold);
            formats.append({int(label.size()) + r.x(), r.y() - r.x(), f});
        }
        layout.setFormats(formats);
        layout.beginLayout();
        QTextLine line = layout.createLine();
        line.setLineWidth(1e6);
        layout.endLayout();
        p->save();
        p->setClipRect(opt.rect);
        p->setPen(opt.palette.color(opt.state & QStyle::State_Selected ? QPalette::HighlightedText
                                                                       : QPalette::Text));
        layout.draw(p, QPointF(opt.rect.left() + 4,
                               opt.rect.top() + (opt.rect.height() - line.height()) / 2));
        p->restore();
    }
};

} // namespace

DocumentPane::DocumentPane(QWidget* parent) : QWidget(parent)
{
    m_view = new DocumentView(this);
    m_command = new QLineEdit(this);
    m_command->setPlaceholderText(
        tr("search 白鳥 停車場 · show 181-182 · rank query · answer text   (Enter to run)"));
    m_command->setEnabled(false);
    m_hitModel = new docs::HitListModel(this);
    m_transcriptModel = new docs::TranscriptModel(this);
    m_hits = new QListView(this);
    m_hits->setModel(m_hitModel);
    m_hits->setItemDelegate(new HitDelegate(m_hits));
    m_hits->setUniformItemSizes(true);
    m_transcript = new QTableView(this);
    m_transcript->setModel(m_transcriptModel);
    m_transcript->horizontalHeader()->setStretchLastSection(true);
    m_transcript->verticalHeader()->hide();
    m_transcript->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_cost = new QLabel(tr("Cost: 0"), this);
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
    bar->addWidget(new QLabel(tr("Units:"), this));
    bar->addWidget(m_units);
    bar->addWidget(m_ruby);
    bar->addStretch(1);
    auto* side = new QWidget(this);
    auto* sideLayout = new QVBoxLayout(side);
    sideLayout->setContentsMargins(0, 0, 0, 0);
    sideLayout->addWidget(m_command);
    sideLayout->addWidget(m_hits, 3);
    sideLayout->addWidget(m_cost);
    sideLayout->addWidget(m_transcript, 2);
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
    connect(m_ruby, &QCheckBox::toggled, m_view, &DocumentView::setShowRuby);
    connect(m_units, &QComboBox::currentIndexChanged, this,
            [this] { setUnits(docs::UnitKind(m_units->currentData().toInt())); });

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

DocumentPane::~DocumentPane() = default;

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

void DocumentPane::openDocument(const QString& path)
{
    const int generation = ++m_generation; // a newer request supersedes older ones
    m_progress->setValue(0);
    m_progress->show();
    m_loading = true;
    m_message->hide();
    m_command->setEnabled(false);
    QPointer<DocumentPane> self(this);
    auto progress = [self, generation](int percent) {
        QMetaObject::invokeMethod(
            self.data(),
            [self, generation, percent] {
                if (self && self->m_generation == generation)
                    self->m_progress->setValue(percent);
            },
            Qt::QueuedConnection);
    };
    // The first screen is decoded on its own and shown at once; the whole text and its index
    // follow, and the view keeps its scroll position when they replace it.
    auto preview = [self, generation](std::shared_ptr<const docs::Document> head) {
        QMetaObject::invokeMethod(
            self.data(),
            [self, generation, head] {
                if (self && self->m_generation == generation && !self->m_session)
                    self->showPreview(head);
            },
            Qt::QueuedConnection);
    };
    setSession(nullptr);
    m_pending.clear();
    docs::IndexOptions indexOptions;
    indexOptions.units = docs::UnitKind(m_units->currentData().toInt());
    (void)QtConcurrent::run([path, progress, preview, indexOptions] {
        // A small file (or a PDF) comes whole from the first read; errors are the same too.
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
        auto index =
            docs::DocumentIndex::build(std::make_shared<docs::Document>(std::move(doc).value()),
                                       indexOptions, {}, [&](int p) { progress(30 + p * 7 / 10); });
        return std::make_tuple(index, QString(), warnings.join(QLatin1Char('\n')));
    })
        .then(this, [this, generation](const std::tuple<std::shared_ptr<const docs::DocumentIndex>,
                                                        QString, QString>& result) {
            if (generation != m_generation)
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
    setSession(std::make_shared<docs::DocumentSession>(index));
    // The first screen or the same text with other units: the reader stays where they were.
    const bool keepPosition =
        m_view->document() &&
        (m_view->document()->isPartial() || m_view->document() == index->documentPtr().get());
    const int scroll = m_view->verticalScrollBar()->value();
    m_view->setDocument(index->documentPtr());
    if (keepPosition)
        m_view->verticalScrollBar()->setValue(scroll);
    m_hitModel->setHits({});
    m_transcriptModel->clear();
    m_cost->setText(tr("Cost: 0"));
    m_command->setEnabled(true);
    m_command->setFocus();
    Q_EMIT documentReady(index->document().path());
    // Commands typed while indexing run now, in the order they were entered.
    const QStringList pending = std::exchange(m_pending, {});
    for (const QString& command : pending)
        runCommand(command);
}

void DocumentPane::setUnits(docs::UnitKind units)
{
    const int row = m_units->findData(int(units));
    if (row >= 0 && row != m_units->currentIndex()) {
        m_units->setCurrentIndex(row); // comes back here through the signal
        return;
    }
    if (!m_session || m_session->index()->options().units == units)
        return;
    // Re-index the loaded text with the new units in the background; the session starts over,
    // because its numbers meant the old units.
    const int generation = ++m_generation;
    auto document = m_session->index()->documentPtr();
    setSession(nullptr);
    m_progress->setValue(0);
    m_progress->show();
    m_loading = true;
    docs::IndexOptions options;
    options.units = units;
    (void)QtConcurrent::run([document, options] {
        return docs::DocumentIndex::build(document, options);
    }).then(this, [this, generation](std::shared_ptr<const docs::DocumentIndex> index) {
        if (generation == m_generation)
            onIndexed(index, QString(), QString());
    });
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
    if (!m_session) {
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
    const int generation = m_generation;
    (void)QtConcurrent::run([session, command] {
        return session->execute(command);
    }).then(this, [this, generation](const docs::CommandResult& r) {
        if (generation == m_generation)
            onCommandDone(r);
    });
}

void DocumentPane::onCommandDone(const docs::CommandResult& r)
{
    if (!r.suggestions.isEmpty()) {
        m_suggested = r.suggestions;
        updateCompletions();
    }
    if (!r.hits.isEmpty())
        m_hitModel->setHits(r.hits);
    m_transcriptModel->append({r.input, r.output, r.cost, r.totalCost, m_session->memo(),
                               QDateTime::currentDateTimeUtc()});
    m_transcript->scrollToBottom();
    m_cost->setText(tr("Cost: %1").arg(r.totalCost));
    if (!r.hits.isEmpty())
        selectHit(0);
    Q_EMIT commandFinished(r.output);
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
