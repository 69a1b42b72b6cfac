#include "widgets/trace/nodedetailview.h"

#include "core/pdl/imagecontent.h"
#include "core/pdl/trace/tracemodel.h"
#include "core/pdl/trace/tracesource.h"
#include "core/pdl/trace/tracewriter.h"
#include "core/pdl/trace/valuetreemodel.h"
#include "core/util/outputfile.h"
#include "core/workbench/workbenchcontext.h"
#include "widgets/common/blockkindcolor.h"
#include "widgets/common/contentparts.h"
#include "widgets/common/thememanager.h"
#include "widgets/trace/nodedetailhtml.h"
#include "widgets/trace/tracepanestyle.h"

#include <QFileDialog>
#include <QFontDatabase>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QScrollBar>
#include <QStackedWidget>
#include <QTabWidget>
#include <QTextBrowser>
#include <QToolButton>
#include <QTreeView>
#include <QUrl>
#include <QVBoxLayout>

#include <nlohmann/json.hpp>

namespace hako {

using pdl::TraceItem;
using pdl::Value;

namespace {

QPlainTextEdit* makeTextView(QWidget* parent)
{
    auto* edit = new QPlainTextEdit(parent);
    edit->setReadOnly(true);
    edit->setFont(QFontDatabase::systemFont(QFontDatabase::FixedFont));
    edit->setLineWrapMode(QPlainTextEdit::WidgetWidth);
    return edit;
}

// A JSON document or array inside a string (what a model asked for JSON returns) is worth a
// tree too; bounded so that a 10 MB string is not parsed on the GUI thread.
Value structuredValue(const Value& v)
{
    if (v.isList() || v.isDict())
        return v;
    if (!v.isString() || v.asString().size() > 2 * 1024 * 1024)
        return {};
    const std::string& s = v.asString();
    const size_t first = s.find_first_not_of(" \t\r\n");
    if (first == std::string::npos || (s[first] != '{' && s[first] != '['))
        return {};
    auto j = nlohmann::ordered_json::parse(s, nullptr, false);
    if (j.is_discarded() || !j.is_structured())
        return {};
    return Value::fromJson(j);
}

// Indented JSON; a model's invalid UTF-8 is replaced rather than thrown over.
std::string prettyJson(const Value& v)
{
    return v.toOrderedJson().dump(2, ' ', false, nlohmann::ordered_json::error_handler_t::replace);
}

// Text of a value for display, at most `limit` bytes (set `*cut` when shortened).
QString displayText(const Value& v, qsizetype limit, bool* cut)
{
    std::string s;
    if (v.isString())
        s = v.asString().substr(0, size_t(limit) + 1);
    else if (v.isList() || v.isDict())
        s = prettyJson(v);
    else
        s = v.toText();
    *cut = qsizetype(s.size()) > limit;
    if (*cut) {
        s.resize(size_t(limit));
        // Do not leave half a UTF-8 sequence at the cut.
        while (!s.empty() && (static_cast<unsigned char>(s.back()) & 0xC0) == 0x80)
            s.pop_back();
        if (!s.empty() && (static_cast<unsigned char>(s.back()) & 0x80))
            s.pop_back();
    }
    return QString::fromStdString(s);
}

} // namespace

NodeDetailView::NodeDetailView(WorkbenchContext* context, QWidget* parent)
    : SingleNodePane(context, parent), m_title(new QLabel(this)), m_tabs(new QTabWidget(this)),
      m_summary(new ContentBrowser(this)), m_resultModel(new pdl::ValueTreeModel(this))
{
    m_title->setTextFormat(Qt::RichText);
    m_title->setContentsMargins(8, 6, 8, 2);
    m_title->setTextInteractionFlags(Qt::TextSelectableByMouse);

    m_summary->setOpenLinks(false);
    m_summary->setAccessibleName(tr("Block summary"));
    m_summary->setOpenExternalLinks(false);
    connect(m_summary, &QTextBrowser::anchorClicked, this, &NodeDetailView::activateLink);
    m_tabs->addTab(m_summary, tr("Summary"));

    // Result: text or tree, with a bar when the result is too large to show whole.
    auto* resultPage = new QWidget(m_tabs);
    m_elideBar = new QWidget(resultPage);
    m_elideLabel = new QLabel(m_elideBar);
    auto* openFull = new QPushButton(tr("Open in full"), m_elideBar);
    auto* save = new QPushButton(tr("Save…"), m_elideBar);
    auto* elideLayout = new QHBoxLayout(m_elideBar);
    elideLayout->setContentsMargins(6, 2, 6, 2);
    elideLayout->addWidget(m_elideLabel, 1);
    elideLayout->addWidget(openFull);
    elideLayout->addWidget(save);
    m_elideBar->setAutoFillBackground(true);
    m_elideBar->hide();
    connect(openFull, &QPushButton::clicked, this, [this] { openResultInFull(); });
    connect(save, &QPushButton::clicked, this, &NodeDetailView::saveResult);

    m_textMode = new QToolButton(resultPage);
    m_textMode->setText(tr("Text"));
    m_treeMode = new QToolButton(resultPage);
    m_treeMode->setText(tr("Tree"));
    for (QToolButton* b : {m_textMode, m_treeMode}) {
        b->setCheckable(true);
        b->setAutoRaise(true);
    }
    m_textMode->setChecked(true);
    auto* modeRow = new QHBoxLayout;
    modeRow->setContentsMargins(4, 2, 4, 0);
    modeRow->addWidget(m_textMode);
    modeRow->addWidget(m_treeMode);
    modeRow->addStretch(1);

    m_resultStack = new QStackedWidget(resultPage);
    m_resultText = makeTextView(m_resultStack);
    m_resultTree = new QTreeView(m_resultStack);
    m_resultTree->setAccessibleName(tr("Result as a tree"));
    m_resultText->setAccessibleName(tr("Result as text"));
    m_resultTree->setModel(m_resultModel);
    m_resultTree->setUniformRowHeights(true);
    m_resultTree->setAlternatingRowColors(true);
    m_resultTree->header()->resizeSection(pdl::ValueTreeModel::NameColumn, 160);
    m_resultTree->header()->resizeSection(pdl::ValueTreeModel::TypeColumn, 80);
    m_resultStack->addWidget(m_resultText);
    m_resultStack->addWidget(m_resultTree);
    connect(m_textMode, &QToolButton::clicked, this, [this] {
        m_textMode->setChecked(true);
        m_treeMode->setChecked(false);
        m_resultStack->setCurrentWidget(m_resultText);
    });
    connect(m_treeMode, &QToolButton::clicked, this, [this] {
        m_treeMode->setChecked(true);
        m_textMode->setChecked(false);
        m_resultStack->setCurrentWidget(m_resultTree);
    });
    auto* resultLayout = new QVBoxLayout(resultPage);
    resultLayout->setContentsMargins(0, 0, 0, 0);
    resultLayout->setSpacing(0);
    resultLayout->addLayout(modeRow);
    resultLayout->addWidget(m_elideBar);
    resultLayout->addWidget(m_resultStack, 1);
    m_tabs->addTab(resultPage, tr("Result"));

    // Source: program lines at the span, or the block rebuilt from the trace.
    auto* sourcePage = new QWidget(m_tabs);
    m_sourceNote = new QLabel(sourcePage);
    m_sourceNote->setWordWrap(true);
    m_sourceNote->setContentsMargins(6, 4, 6, 2);
    m_rebuild = new QToolButton(sourcePage);
    m_rebuild->setText(tr("Show source rebuilt from the trace"));
    m_rebuild->setCheckable(true);
    m_rebuild->setAutoRaise(true);
    connect(m_rebuild, &QToolButton::toggled, this, [this] { refresh(); });
    if (m_context)
        connect(m_context, &WorkbenchContext::pausedNodeChanged, this, [this] { refresh(); });
    m_sourceText = makeTextView(sourcePage);
    m_sourceText->setAccessibleName(tr("Block source"));
    m_sourceText->setLineWrapMode(QPlainTextEdit::NoWrap);
    auto* sourceTop = new QHBoxLayout;
    sourceTop->setContentsMargins(0, 0, 4, 0);
    sourceTop->addWidget(m_sourceNote, 1);
    sourceTop->addWidget(m_rebuild);
    auto* sourceLayout = new QVBoxLayout(sourcePage);
    sourceLayout->setContentsMargins(0, 0, 0, 0);
    sourceLayout->setSpacing(0);
    sourceLayout->addLayout(sourceTop);
    sourceLayout->addWidget(m_sourceText, 1);
    m_tabs->addTab(sourcePage, tr("Source"));

    m_jsonText = makeTextView(m_tabs);
    m_jsonText->setAccessibleName(tr("Block trace JSON"));
    m_jsonText->setLineWrapMode(QPlainTextEdit::NoWrap);
    m_tabs->addTab(m_jsonText, tr("JSON"));

    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->setSpacing(2);
    layout->addWidget(m_title);
    layout->addWidget(m_tabs, 1);

    // Every origin: the detail follows any selection, its own link clicks included.
    followContext();
}

void NodeDetailView::refresh()
{
    const QColor elideBar =
        ThemeManager::isDark(palette()) ? QColor(80, 70, 30) : QColor(255, 244, 204);
    if (m_elideBar->palette().color(QPalette::Window) != elideBar) {
        QPalette p = m_elideBar->palette();
        p.setColor(QPalette::Window, elideBar);
        m_elideBar->setPalette(p);
    }
    const TraceItem* item = m_model && !m_id.isEmpty() ? m_model->findById(m_id) : nullptr;
    m_defsites.clear();
    if (!item) {
        m_title->setText(m_model && m_model->root()
                             ? tr("<i>Select a block in the trace to see its details.</i>")
                             : tr("<i>No trace. Run a program or open a trace file.</i>"));
        m_summary->clear();
        m_resultText->clear();
        m_resultModel->clear();
        m_sourceText->clear();
        m_sourceNote->clear();
        m_jsonText->clear();
        m_elideBar->hide();
        m_elided = false;
        m_result = Value();
        m_tabs->setEnabled(false);
        return;
    }
    m_tabs->setEnabled(true);
    const pdl::TraceNode& n = item->node;
    QString title =
        QStringLiteral("<span style='background-color:%1;'>&nbsp;%2&nbsp;</span> "
                       "<b>%3</b>")
            .arg(kindColor(n.kind, palette()).name(),
                 QString::fromLatin1(pdl::blockKindName(n.kind)), itemLabel(item).toHtmlEscaped());
    if (item->running && m_context && !m_context->pausedNode().isEmpty() &&
        m_context->pausedNode() == QString::fromStdString(n.id))
        title += tr(" <i>paused</i>");
    else if (item->running)
        title += tr(" <i>running…</i>");
    else if (item->cancelled)
        title += tr(" <i>stopped</i>");
    else if (n.startNanos > 0 && n.endNanos >= n.startNanos)
        title += QStringLiteral(" &nbsp;<span style='color:gray'>%1</span>")
                     .arg(formatDuration(n.endNanos - n.startNanos));
    if (n.replayed)
        title += tr(" &nbsp;<i>replayed from the run it re-runs (nothing was sent)</i>");
    if (n.answeredByHand)
        title += tr(" &nbsp;<i>answered by hand</i>");
    if (item->failed())
        title += tr(" &nbsp;<span style='color:%1'><b>failed</b></span>")
                     .arg(failureColor(ThemeManager::isDark(palette())).name());
    m_title->setText(title);

    const int scroll = m_summary->verticalScrollBar() ? m_summary->verticalScrollBar()->value() : 0;
    m_summary->setHtml(nodeSummaryHtml(*item, m_model, palette(), &m_defsites));
    if (item->running)
        m_summary->verticalScrollBar()->setValue(scroll);
    showResult(*item);
    showSource(*item);
    showJson(*item);
}

void NodeDetailView::showResult(const TraceItem& item)
{
    m_result = item.failed()  ? Value(item.node.error)
               : item.running ? Value(item.streamed())
                              : item.node.result;
    bool cut = false;
    // Images read as placeholders such as [image: PNG 1240×1754, 812 KB] (Save… keeps them).
    const QString text = displayText(pdl::withDataUrlPlaceholders(m_result), kElideBytes, &cut);
    m_elided = cut;
    m_resultText->setPlainText(text);
    if (cut) {
        const qint64 size = m_result.isString() ? qint64(m_result.asString().size()) : -1;
        m_elideLabel->setText(
            size >= 0
                ? tr("Showing the first %1 of %2.").arg(formatBytes(kElideBytes), formatBytes(size))
                : tr("Showing the first %1.").arg(formatBytes(kElideBytes)));
        m_elideBar->show();
    } else {
        m_elideBar->hide();
    }
    const Value structured = item.running ? Value() : structuredValue(m_result);
    const bool tree = structured.isList() || structured.isDict();
    m_treeMode->setEnabled(tree);
    if (tree) {
        m_resultModel->setValue(structured, tr("result"));
        m_resultTree->expandToDepth(0);
    } else {
        m_resultModel->clear();
        if (m_treeMode->isChecked())
            m_textMode->click();
    }
}

void NodeDetailView::showSource(const TraceItem& item)
{
    const pdl::TraceNode& n = item.node;
    m_reconstructed = false;
    QString note;
    if (n.span.isValid() && !m_rebuild->isChecked()) {
        QString fallback;
        if (m_model && (m_model->isLive() || m_model->source().endsWith(QLatin1String(".pdl")) ||
                        m_model->source().endsWith(QLatin1String(".yaml"))))
            fallback = m_model->source();
        else if (m_context)
            fallback = m_context->currentProgram();
        auto snippet = pdl::readSourceSnippet(n.span, fallback);
        if (snippet) {
            const auto& [text, first] = *snippet;
            const QStringList lines = text.split(QLatin1Char('\n'));
            const int width = int(QString::number(first + lines.size()).size());
            QStringList numbered;
            for (qsizetype i = 0; i < lines.size(); ++i)
                numbered.append(QStringLiteral("%1 │ %2").arg(first + int(i), width).arg(lines[i]));
            m_sourceText->setPlainText(numbered.join(QLatin1Char('\n')));
            m_sourceNote->setText(tr("%1, lines %2–%3")
                                      .arg(n.span.file.isEmpty() ? fallback : n.span.file)
                                      .arg(n.span.line)
                                      .arg(qMax(n.span.line, n.span.endLine)));
            return;
        }
        note = snippet.error().message + QStringLiteral(". ");
    } else if (!n.span.isValid()) {
        note = tr("This trace has no source location for the block. ");
    }
    m_reconstructed = true;
    m_sourceText->setPlainText(pdl::reconstructSource(&item));
    m_sourceNote->setText(note + tr("Rebuilt from the trace: expressions appear with the values "
                                    "they had."));
}

void NodeDetailView::showJson(const TraceItem& item)
{
    // The node alone: its children are summarised, and a huge result is left to the Result tab.
    pdl::TraceNode node = item.node;
    // Images (megabytes of base64 each) read as short placeholders.
    node.result = pdl::withDataUrlPlaceholders(node.result);
    node.context = pdl::withDataUrlPlaceholders(node.context);
    node.modelInput = pdl::withDataUrlPlaceholders(node.modelInput);
    for (auto& e : node.exprs)
        e.second = pdl::withDataUrlPlaceholders(e.second);
    if (node.result.isString() && qsizetype(node.result.asString().size()) > kElideBytes) {
        node.result = Value(tr("… %1 of text, see the Result tab")
                                .arg(formatBytes(qint64(node.result.asString().size())))
                                .toStdString());
    }
    nlohmann::ordered_json j;
    try {
        j = pdl::traceToJson(node);
    } catch (const std::exception& e) {
        m_jsonText->setPlainText(
            tr("The node's JSON cannot be shown: %1").arg(QString::fromUtf8(e.what())));
        return;
    }
    for (const auto& [k, v] : node.exprs)
        if (!j.contains(k))
            j[k] = {{"pdl__result", v.toOrderedJson()}};
    std::vector<std::pair<std::string, int>> fields;
    for (const auto& c : item.children) {
        const std::string f = c->field.empty() ? std::string("children") : c->field.str();
        if (fields.empty() || fields.back().first != f)
            fields.emplace_back(f, 0);
        ++fields.back().second;
    }
    for (const auto& [f, count] : fields)
        j[f] = "… " + std::to_string(count) + (count == 1 ? " block" : " blocks") + ", elided";
    std::string text = j.dump(2, ' ', false, nlohmann::ordered_json::error_handler_t::replace);
    if (qsizetype(text.size()) > kElideBytes * 4) {
        text.resize(size_t(kElideBytes) * 4);
        text += "\n… (cut)";
    }
    m_jsonText->setPlainText(QString::fromStdString(text));
}

void NodeDetailView::activateLink(const QUrl& url)
{
    if (!m_context || !m_model)
        return;
    const QString scheme = url.scheme();
    if (scheme == QLatin1String("node")) {
        const QString id = QUrl::fromPercentEncoding(url.path().toUtf8());
        const TraceItem* target = m_model->findById(id);
        if (!target)
            return;
        m_context->setCurrentNode(id, this);
        if (target->node.span.isValid())
            m_context->revealSource(target->node.span, this);
    } else if (scheme == QLatin1String("source")) {
        const TraceItem* item = m_model->findById(m_id);
        if (item && item->node.span.isValid())
            m_context->revealSource(item->node.span, this);
    }
}

QString NodeDetailView::fullResultText() const
{
    if (m_result.isString())
        return QString::fromStdString(m_result.asString());
    if (m_result.isList() || m_result.isDict())
        return QString::fromStdString(prettyJson(m_result));
    return QString::fromStdString(m_result.toText());
}

QWidget* NodeDetailView::openResultInFull()
{
    auto* window = new QWidget(this, Qt::Window);
    window->setAttribute(Qt::WA_DeleteOnClose);
    window->setWindowTitle(tr("Result of %1").arg(m_id));
    auto* view = makeTextView(window);
    view->setLineWrapMode(QPlainTextEdit::NoWrap);
    // One layout line of megabytes would stall the text engine; very long lines are shown
    // broken every 4,000 characters (Save… writes the text exactly).
    // Images read as placeholders here; Save… writes them exactly.
    QString text = pdl::holdsDataUrl(m_result)
                       ? QString::fromStdString(prettyJson(pdl::withDataUrlPlaceholders(m_result)))
                       : fullResultText();
    constexpr qsizetype kMaxLine = 4000;
    QString shown;
    shown.reserve(text.size() + text.size() / kMaxLine + 1);
    qsizetype run = 0;
    bool broke = false;
    for (const QChar c : std::as_const(text)) {
        if (c == QLatin1Char('\n')) {
            run = 0;
        } else if (++run > kMaxLine && !c.isLowSurrogate()) {
            shown += QLatin1Char('\n');
            run = 1;
            broke = true;
        }
        shown += c;
    }
    text.clear();
    view->setPlainText(shown);
    auto* note = new QLabel(window);
    note->setText(
        tr("%1 characters%2")
            .arg(shown.size())
            .arg(broke ? tr("; lines longer than 4,000 characters are shown broken") : QString()));
    note->setContentsMargins(6, 2, 6, 2);
    auto* layout = new QVBoxLayout(window);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(note);
    layout->addWidget(view, 1);
    window->resize(900, 650);
    window->show();
    return window;
}

void NodeDetailView::saveResult()
{
    const QString path =
        QFileDialog::getSaveFileName(this, tr("Save result"), m_id + QStringLiteral(".txt"));
    if (path.isEmpty())
        return;
    QString error;
    if (!writeOutputFile(path, fullResultText().toUtf8(), &error))
        m_elideLabel->setText(tr("Could not save %1: %2").arg(path, error));
}

} // namespace hako
