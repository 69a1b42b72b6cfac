#include "widgets/editor/outlineview.h"

#include "core/pdl/analysis/outline.h"
#include "core/pdl/analysis/outlinemodel.h"
#include "core/pdl/programcheck.h"
#include "widgets/editor/editoranalysis.h"
#include "widgets/editor/pdleditor.h"

#include <QHeaderView>
#include <QLabel>
#include <QStackedWidget>
#include <QTreeView>
#include <QVBoxLayout>

namespace hako {

namespace {

bool spanHolds(const SourceSpan& s, int line, int column)
{
    if (!s.isValid())
        return false;
    const int endLine = s.endLine > 0 ? s.endLine : s.line;
    const int endColumn = s.endColumn > 0 ? s.endColumn : s.column;
    const auto before = [](int l1, int c1, int l2, int c2) {
        return l1 < l2 || (l1 == l2 && c1 < c2);
    };
    return !before(line, column, s.line, s.column) && !before(endLine, endColumn + 1, line, column);
}

} // namespace

OutlineView::OutlineView(PdlEditor* editor, QWidget* parent)
    : QWidget(parent), m_editor(editor), m_model(new pdl::OutlineModel(this)),
      m_tree(new QTreeView(this)), m_empty(new QLabel(this)), m_stack(new QStackedWidget(this))
{
    setAccessibleName(tr("Outline"));
    m_tree->setAccessibleName(tr("Program outline"));
    m_tree->setAccessibleDescription(
        tr("The blocks of the program; Enter or a click selects the block in the editor"));
    m_tree->setModel(m_model);
    m_tree->setHeaderHidden(true);
    m_tree->setUniformRowHeights(true);
    m_tree->setSelectionMode(QAbstractItemView::SingleSelection);
    m_tree->setEditTriggers(QAbstractItemView::NoEditTriggers);
    m_tree->setExpandsOnDoubleClick(false);
    m_empty->setAccessibleName(tr("Outline status"));
    m_empty->setWordWrap(true);
    m_empty->setAlignment(Qt::AlignTop | Qt::AlignLeft);
    m_empty->setMargin(8);
    m_empty->setTextFormat(Qt::PlainText);
    m_stack->addWidget(m_tree);
    m_stack->addWidget(m_empty);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(m_stack);

    connect(m_tree, &QTreeView::clicked, this, &OutlineView::reveal);
    connect(m_tree, &QTreeView::activated, this, &OutlineView::reveal);
    connect(m_tree, &QTreeView::collapsed, this, [this](const QModelIndex& index) {
        if (!m_rebuilding)
            m_collapsed.insert(pathKey(index));
    });
    connect(m_tree, &QTreeView::expanded, this, [this](const QModelIndex& index) {
        if (!m_rebuilding)
            m_collapsed.remove(pathKey(index));
    });
    if (m_editor)
        connect(m_editor, &PdlEditor::cursorLineColumnChanged, this, &OutlineView::followCursor);
    showEmpty(tr("No program yet."));
}

OutlineView::~OutlineView() = default;

void OutlineView::setAnalysis(EditorAnalysis* analysis)
{
    if (m_analysis)
        disconnect(m_analysis, nullptr, this, nullptr);
    m_analysis = analysis;
    if (!m_analysis)
        return;
    connect(m_analysis, &EditorAnalysis::reportReady, this, &OutlineView::setReport);
    connect(m_analysis, &QObject::destroyed, this, [this] { m_analysis = nullptr; });
    if (m_analysis->report())
        setReport(m_analysis->report());
}

void OutlineView::setReport(std::shared_ptr<const pdl::ProgramReport> report)
{
    if (!report || !report->parse.program || !report->parse.program->root) {
        m_model->clear();
        QString text = tr("No outline: the program cannot be read.");
        if (report) {
            for (const Diagnostic& d : report->diagnostics) {
                if (d.severity != Severity::Error)
                    continue;
                text += QLatin1Char('\n') +
                        (d.span.line > 0 ? tr("Line %1: %2")
                                               .arg(d.span.line)
                                               .arg(d.message.section(QLatin1Char('\n'), 0, 0))
                                         : d.message.section(QLatin1Char('\n'), 0, 0));
                break;
            }
        } else {
            text = tr("No program yet.");
        }
        showEmpty(text);
        return;
    }
    std::vector<pdl::OutlineItem> items = pdl::buildOutline(*report->parse.program);
    if (items.empty()) {
        m_model->clear();
        showEmpty(tr("The program is empty."));
        return;
    }
    m_rebuilding = true;
    m_model->setOutline(std::move(items));
    m_tree->expandAll();
    restoreExpansion({});
    m_rebuilding = false;
    m_stack->setCurrentWidget(m_tree);
    if (m_editor) {
        const auto [line, column] = m_editor->cursorLineColumn();
        m_revealed = {};
        followCursor(line, column);
    }
}

bool OutlineView::isShowingEmptyState() const
{
    return m_stack->currentWidget() == m_empty;
}

QString OutlineView::emptyStateText() const
{
    return m_empty->text();
}

void OutlineView::showEmpty(const QString& text)
{
    m_empty->setText(text);
    m_empty->setAccessibleDescription(text);
    m_stack->setCurrentWidget(m_empty);
}

void OutlineView::reveal(const QModelIndex& index)
{
    const pdl::OutlineItem* item = m_model->item(index);
    if (!item || !m_editor)
        return;
    m_revealed = item->span;
    m_editor->selectSpan(item->span);
    Q_EMIT blockActivated(item->span);
}

void OutlineView::followCursor(int line, int column)
{
    if (m_revealed.isValid() && spanHolds(m_revealed, line, column))
        return; // the cursor moved because of a click here: keep the clicked item
    m_revealed = {};
    const QModelIndex index = m_model->indexAt(line, column);
    if (!index.isValid()) {
        m_tree->selectionModel()->clearSelection();
        return;
    }
    if (m_tree->currentIndex() == index)
        return;
    // Changes the current item without focusing the tree: the user keeps typing.
    m_tree->selectionModel()->setCurrentIndex(index, QItemSelectionModel::ClearAndSelect);
    m_tree->scrollTo(index);
}

QString OutlineView::pathKey(const QModelIndex& index) const
{
    QStringList parts;
    for (QModelIndex i = index; i.isValid(); i = i.parent())
        parts.prepend(QStringLiteral("%1:%2").arg(i.row()).arg(i.data().toString()));
    return parts.join(QLatin1Char('/'));
}

void OutlineView::restoreExpansion(const QModelIndex& parent)
{
    if (m_collapsed.isEmpty())
        return;
    for (int row = 0; row < m_model->rowCount(parent); ++row) {
        const QModelIndex child = m_model->index(row, 0, parent);
        if (m_collapsed.contains(pathKey(child)))
            m_tree->collapse(child);
        restoreExpansion(child);
    }
}

} // namespace hako
