#include "widgets/trace/tracediffview.h"

#include "core/pdl/trace/tracediff.h"
#include "core/pdl/trace/tracediffmodel.h"
#include "widgets/common/messagebar.h"

#include <algorithm>

#include <QColor>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QIdentityProxyModel>
#include <QItemSelectionModel>
#include <QKeySequence>
#include <QLabel>
#include <QPushButton>
#include <QScrollBar>
#include <QSplitter>
#include <QStackedWidget>
#include <QTextBrowser>
#include <QToolButton>
#include <QTreeView>
#include <QVBoxLayout>

namespace hako {

using pdl::TraceDiff;
using pdl::TraceDiffModel;

/// Tints rows by their status; the model itself stays free of QtGui.
class TraceDiffTint : public QIdentityProxyModel {
public:
    using QIdentityProxyModel::QIdentityProxyModel;

    QVariant data(const QModelIndex& index, int role) const override
    {
        if (role != Qt::BackgroundRole)
            return QIdentityProxyModel::data(index, role);
        // Translucent, so that the tint reads on light and dark palettes alike.
        switch (TraceDiff::Status(index.data(TraceDiffModel::StatusRole).toInt())) {
        case TraceDiff::Status::Changed:
            return QColor(240, 200, 40, 70);
        case TraceDiff::Status::Inserted:
            return QColor(60, 180, 75, 70);
        case TraceDiff::Status::Deleted:
            return QColor(220, 60, 60, 70);
        case TraceDiff::Status::Same:
            break;
        }
        return {};
    }
};

namespace {

QString escaped(const QString& text)
{
    QString s = text.toHtmlEscaped();
    s.replace(QLatin1Char('\n'), QLatin1String("<br>"));
    return s;
}

QString wordsHtml(const std::vector<pdl::WordChange>& words)
{
    QString html;
    for (const pdl::WordChange& w : words) {
        switch (w.op) {
        case pdl::WordChange::Op::Equal:
            html += escaped(w.text);
            break;
        case pdl::WordChange::Op::Delete:
            html +=
                QStringLiteral("<span style=\"background:#f4b6b6;text-decoration:line-through\">"
                               "%1</span>")
                    .arg(escaped(w.text));
            break;
        case pdl::WordChange::Op::Insert:
            html +=
                QStringLiteral("<span style=\"background:#b8e6bf\">%1</span>").arg(escaped(w.text));
            break;
        }
    }
    return html;
}

QString tokensText(const pdl::TraceMeasures& m)
{
    return m.hasTokens ? QString::number(m.tokens()) : QStringLiteral("–");
}

QString durationText(const pdl::TraceMeasures& m)
{
    return m.durationNanos >= 0 ? pdl::formatDurationNanos(m.durationNanos) : QStringLiteral("–");
}

} // namespace

TraceDiffView::TraceDiffView(QWidget* parent)
    : QWidget(parent), m_model(new TraceDiffModel(this)), m_tint(new TraceDiffTint(this))
{
    setAccessibleName(tr("Trace comparison"));
    m_tint->setSourceModel(m_model);
    m_selection = new QItemSelectionModel(m_tint, this);

    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    m_message = new MessageBar(this);
    m_message->setAccessibleName(tr("Comparison message"));
    layout->addWidget(m_message);
    m_stack = new QStackedWidget(this);
    layout->addWidget(m_stack, 1);

    m_stack->addWidget(buildEmptyPage());
    m_stack->addWidget(buildComparisonPage());
    m_stack->setCurrentIndex(0);
}

// The empty state: what to do.
QWidget* TraceDiffView::buildEmptyPage()
{
    auto* empty = new QWidget(m_stack);
    auto* emptyLayout = new QVBoxLayout(empty);
    emptyLayout->addStretch();
    m_empty = new QLabel(tr("Choose two traces to compare"), empty);
    m_empty->setAlignment(Qt::AlignCenter);
    m_empty->setWordWrap(true);
    m_empty->setAccessibleName(m_empty->text());
    emptyLayout->addWidget(m_empty);
    m_compare = new QPushButton(tr("Compare Traces…"), empty);
    m_compare->setAccessibleName(tr("Compare Traces"));
    m_compare->setAccessibleDescription(tr("Choose two trace files to compare"));
    connect(m_compare, &QPushButton::clicked, this, &TraceDiffView::compareRequested);
    auto* buttonRow = new QHBoxLayout;
    buttonRow->addStretch();
    buttonRow->addWidget(m_compare);
    buttonRow->addStretch();
    emptyLayout->addLayout(buttonRow);
    emptyLayout->addStretch();
    return empty;
}

// The comparison: a summary with previous/next difference above two trees that move together,
// the selected block's differences below.
QWidget* TraceDiffView::buildComparisonPage()
{
    auto* content = new QWidget(m_stack);
    auto* contentLayout = new QVBoxLayout(content);
    contentLayout->setContentsMargins(0, 0, 0, 0);
    contentLayout->addLayout(buildNavigationBar(content));

    auto* vertical = new QSplitter(Qt::Vertical, content);
    auto* horizontal = new QSplitter(Qt::Horizontal, vertical);
    auto makeTree = [&](const QString& name, std::initializer_list<int> shown) {
        auto* tree = new QTreeView(horizontal);
        tree->setAccessibleName(name);
        tree->setModel(m_tint);
        tree->setSelectionModel(m_selection);
        tree->setUniformRowHeights(true); // rows of both trees must line up
        tree->setAlternatingRowColors(false);
        tree->setSelectionBehavior(QAbstractItemView::SelectRows);
        tree->setAllColumnsShowFocus(true);
        for (int c = 0; c < TraceDiffModel::ColumnCount; ++c)
            tree->setColumnHidden(c, std::find(shown.begin(), shown.end(), c) == shown.end());
        tree->header()->setStretchLastSection(false);
        return tree;
    };
    m_left = makeTree(tr("Left trace"),
                      {TraceDiffModel::LeftNameColumn, TraceDiffModel::LeftResultColumn,
                       TraceDiffModel::LeftDurationColumn, TraceDiffModel::StatusColumn});
    m_right = makeTree(tr("Right trace"),
                       {TraceDiffModel::RightNameColumn, TraceDiffModel::RightResultColumn,
                        TraceDiffModel::RightDurationColumn, TraceDiffModel::TokensDeltaColumn,
                        TraceDiffModel::DurationDeltaColumn});
    // The right tree's branches are drawn in its first shown column (the left tree's is 0).
    m_right->setTreePosition(TraceDiffModel::RightNameColumn);
    m_left->header()->setSectionResizeMode(TraceDiffModel::LeftResultColumn, QHeaderView::Stretch);
    m_right->header()->setSectionResizeMode(TraceDiffModel::RightResultColumn,
                                            QHeaderView::Stretch);
    // Expanding, collapsing and scrolling one tree does the same to the other.
    auto mirror = [this](QTreeView* from, QTreeView* to) {
        connect(from, &QTreeView::expanded, to, [this, to](const QModelIndex& index) {
            if (!m_syncing) {
                m_syncing = true;
                to->expand(index);
                m_syncing = false;
            }
        });
        connect(from, &QTreeView::collapsed, to, [this, to](const QModelIndex& index) {
            if (!m_syncing) {
                m_syncing = true;
                to->collapse(index);
                m_syncing = false;
            }
        });
        connect(from->verticalScrollBar(), &QScrollBar::valueChanged, to->verticalScrollBar(),
                &QScrollBar::setValue);
    };
    mirror(m_left, m_right);
    mirror(m_right, m_left);
    connect(m_selection, &QItemSelectionModel::currentChanged, this,
            [this](const QModelIndex& current) { onCurrentChanged(current); });

    m_detail = new QTextBrowser(vertical);
    m_detail->setAccessibleName(tr("Differences of the selected block"));
    m_detail->setOpenLinks(false);
    vertical->setStretchFactor(0, 3);
    vertical->setStretchFactor(1, 2);
    contentLayout->addWidget(vertical, 1);
    return content;
}

QLayout* TraceDiffView::buildNavigationBar(QWidget* content)
{
    auto* bar = new QHBoxLayout;
    m_summary = new QLabel(content);
    // The summary wraps (a long one must not widen the window past the screen); screen readers
    // read its text as its name, its role as the description.
    m_summary->setAccessibleDescription(tr("Comparison summary"));
    m_summary->setWordWrap(true);
    m_summary->setMinimumWidth(1);
    m_summary->setTextInteractionFlags(Qt::TextSelectableByMouse);
    bar->addWidget(m_summary, 1);
    m_previous = new QToolButton(content);
    m_previous->setText(tr("Previous Difference"));
    m_previous->setAccessibleName(tr("Previous difference"));
    m_previous->setShortcut(QKeySequence(Qt::SHIFT | Qt::Key_F7));
    connect(m_previous, &QToolButton::clicked, this, &TraceDiffView::previousDifference);
    bar->addWidget(m_previous);
    m_next = new QToolButton(content);
    m_next->setText(tr("Next Difference"));
    m_next->setAccessibleName(tr("Next difference"));
    m_next->setShortcut(QKeySequence(Qt::Key_F7));
    connect(m_next, &QToolButton::clicked, this, &TraceDiffView::nextDifference);
    bar->addWidget(m_next);
    return bar;
}

TraceDiffView::~TraceDiffView() = default;

void TraceDiffView::setDiff(std::shared_ptr<const TraceDiff> diff, const QString& leftName,
                            const QString& rightName)
{
    m_message->clearMessage();
    m_model->setDiff(std::move(diff), leftName, rightName);
    if (!m_model->diff()) {
        m_stack->setCurrentIndex(0);
        m_detail->clear();
        return;
    }
    m_stack->setCurrentIndex(1);
    updateSummary();
    m_left->expand(m_tint->index(0, 0));
    m_right->expand(m_tint->index(0, 0));
    int first = -1;
    const auto& nodes = m_model->diff()->nodes();
    for (size_t i = 0; i < nodes.size() && first < 0; ++i)
        if (nodes[i].status != TraceDiff::Status::Same)
            first = int(i);
    selectDiffRow(first >= 0 ? first : 0);
    for (QTreeView* tree : {m_left, m_right})
        tree->resizeColumnToContents(0);
}

void TraceDiffView::clear()
{
    setDiff(nullptr, {}, {});
}

void TraceDiffView::showError(const QString& message)
{
    m_message->showMessage(message, MessageBar::Kind::Error);
}

void TraceDiffView::showBusy(const QString& message)
{
    m_message->showMessage(message, MessageBar::Kind::Information);
}

bool TraceDiffView::isEmptyStateShown() const
{
    return m_stack->currentIndex() == 0;
}

QString TraceDiffView::emptyStateText() const
{
    return m_empty->text();
}

void TraceDiffView::selectDiffRow(int diffRow)
{
    const QModelIndex source = m_model->indexOfDiffRow(diffRow);
    if (!source.isValid())
        return;
    const QModelIndex index = m_tint->mapFromSource(source);
    for (QModelIndex p = index.parent(); p.isValid(); p = p.parent()) {
        m_left->expand(p); // mirrored to the right
        m_right->expand(p);
    }
    m_selection->setCurrentIndex(index,
                                 QItemSelectionModel::ClearAndSelect | QItemSelectionModel::Rows);
    m_left->scrollTo(index);
}

int TraceDiffView::currentDiffRow() const
{
    return m_model->diffRow(m_tint->mapToSource(m_selection->currentIndex()));
}

void TraceDiffView::nextDifference()
{
    stepDifference(1);
}

void TraceDiffView::previousDifference()
{
    stepDifference(-1);
}

void TraceDiffView::stepDifference(int direction)
{
    const auto& diff = m_model->diff();
    if (!diff)
        return;
    const int n = diff->size();
    int row = currentDiffRow();
    for (int step = 0; step < n; ++step) {
        row = row < 0 ? (direction > 0 ? 0 : n - 1) : (row + direction + n) % n;
        if (diff->node(row).status != TraceDiff::Status::Same) {
            selectDiffRow(row);
            return;
        }
    }
}

void TraceDiffView::onCurrentChanged(const QModelIndex& current)
{
    // The right tree follows the shared selection; keep the row in view there too.
    if (current.isValid())
        m_right->scrollTo(current);
    updateDetail(m_model->diffRow(m_tint->mapToSource(current)));
}

void TraceDiffView::updateSummary()
{
    const auto& diff = m_model->diff();
    if (!diff)
        return;
    const TraceDiff::Counts& c = diff->counts();
    QString text = diff->isSame() ? tr("The runs are the same (timings aside).")
                                  : tr("%1 changed, %2 inserted, %3 deleted, %4 same.")
                                        .arg(c.changed)
                                        .arg(c.inserted)
                                        .arg(c.deleted)
                                        .arg(c.same);
    const TraceDiff::Node& root = diff->node(0);
    if (root.leftSubtree.durationNanos >= 0 && root.rightSubtree.durationNanos >= 0)
        text += QLatin1Char(' ') +
                tr("Duration %1 → %2.")
                    .arg(durationText(root.leftSubtree), durationText(root.rightSubtree));
    if (root.leftSubtree.hasTokens || root.rightSubtree.hasTokens)
        text +=
            QLatin1Char(' ') +
            tr("Tokens %1 → %2.").arg(tokensText(root.leftSubtree), tokensText(root.rightSubtree));
    m_summary->setText(text);
    m_summary->setAccessibleName(text);
    m_next->setEnabled(!diff->isSame());
    m_previous->setEnabled(!diff->isSame());
}

void TraceDiffView::updateDetail(int diffRow)
{
    const auto& diff = m_model->diff();
    if (!diff || diffRow < 0 || diffRow >= diff->size()) {
        m_detail->clear();
        return;
    }
    const TraceDiff::Node& n = diff->node(diffRow);
    const pdl::TraceNode& shown = n.right ? *n.right : *n.left;
    QString html;
    QString status;
    switch (n.status) {
    case TraceDiff::Status::Same:
        status = n.descendantsDiffer ? tr("same (blocks below differ)") : tr("same");
        break;
    case TraceDiff::Status::Changed:
        status = tr("changed: %1").arg(TraceDiff::changeNames(n.changes).join(QLatin1String(", ")));
        break;
    case TraceDiff::Status::Inserted:
        status = tr("only in the right trace");
        break;
    case TraceDiff::Status::Deleted:
        status = tr("only in the left trace");
        break;
    }
    html += QStringLiteral("<h3>%1 <small>(%2)</small></h3><p>%3</p>")
                .arg(escaped(pdl::traceNodeLabel(shown)), escaped(n.path), escaped(status));

    html += QStringLiteral("<h4>%1</h4><p style=\"white-space:pre-wrap\">%2</p>")
                .arg(tr("Result"), wordsHtml(diff->resultDiff(diffRow)));

    const std::vector<pdl::MessageDiff> messages = diff->promptDiff(diffRow);
    if (!messages.empty()) {
        html += QStringLiteral("<h4>%1</h4>").arg(tr("Prompt, message by message"));
        for (const pdl::MessageDiff& m : messages) {
            QString state;
            QString body;
            switch (m.status) {
            case pdl::MessageDiff::Status::Same:
                state = tr("same");
                body = escaped(m.rightText);
                break;
            case pdl::MessageDiff::Status::Changed:
                state = tr("changed");
                body = wordsHtml(m.words);
                break;
            case pdl::MessageDiff::Status::Inserted:
                state = tr("only in the right trace");
                body = wordsHtml(m.words);
                break;
            case pdl::MessageDiff::Status::Deleted:
                state = tr("only in the left trace");
                body = wordsHtml(m.words);
                break;
            }
            html += QStringLiteral("<p><b>%1</b> <i>%2</i><br>%3</p>")
                        .arg(escaped(m.role.isEmpty() ? tr("message") : m.role), state, body);
        }
    }

    if (n.changes & TraceDiff::ExpressionsChanged) {
        html += QStringLiteral("<h4>%1</h4><table cellspacing=\"4\"><tr><th></th><th>%2</th>"
                               "<th>%3</th></tr>")
                    .arg(tr("Evaluated fields that differ"), tr("Left"), tr("Right"));
        for (const pdl::ExpressionDiff& e : diff->expressionDiff(diffRow))
            html +=
                QStringLiteral("<tr><td>%1</td><td>%2</td><td>%3</td></tr>")
                    .arg(escaped(e.name), escaped(e.left.left(500)), escaped(e.right.left(500)));
        html += QStringLiteral("</table>");
    }
    if (n.changes & TraceDiff::OutputChanged)
        html += QStringLiteral("<h4>%1</h4><p style=\"white-space:pre-wrap\">%2</p>")
                    .arg(tr("Output"), wordsHtml(diff->outputDiff(diffRow)));

    auto row = [](const QString& what, const QString& left, const QString& right,
                  const QString& delta) {
        return QStringLiteral("<tr><td>%1</td><td align=\"right\">%2</td><td align=\"right\">%3"
                              "</td><td align=\"right\">%4</td></tr>")
            .arg(what, left, right, delta);
    };
    auto tokenDelta = [](const pdl::TraceMeasures& l, const pdl::TraceMeasures& r) {
        if (!l.hasTokens && !r.hasTokens)
            return QString();
        const qint64 d = r.tokens() - l.tokens();
        return d > 0 ? QStringLiteral("+%1").arg(d) : QString::number(d);
    };
    QString table = QStringLiteral("<table cellspacing=\"4\"><tr><th></th><th>%1</th><th>%2</th>"
                                   "<th>%3</th></tr>")
                        .arg(tr("Left"), tr("Right"), tr("Change"));
    const QString durationDelta =
        n.leftOwn.durationNanos >= 0 && n.rightOwn.durationNanos >= 0
            ? pdl::formatDurationNanos(n.rightOwn.durationNanos - n.leftOwn.durationNanos, true)
            : QString();
    table += row(tr("Duration"), n.left ? durationText(n.leftOwn) : QString(),
                 n.right ? durationText(n.rightOwn) : QString(), durationDelta);
    if (n.leftOwn.hasTokens || n.rightOwn.hasTokens)
        table += row(tr("Tokens (block)"), tokensText(n.leftOwn), tokensText(n.rightOwn),
                     tokenDelta(n.leftOwn, n.rightOwn));
    if (n.leftSubtree.hasTokens || n.rightSubtree.hasTokens)
        table += row(tr("Tokens (with blocks below)"), tokensText(n.leftSubtree),
                     tokensText(n.rightSubtree), tokenDelta(n.leftSubtree, n.rightSubtree));
    if (n.leftSubtree.hasCost || n.rightSubtree.hasCost)
        table += row(tr("Cost (with blocks below)"), QString::number(n.leftSubtree.cost, 'f', 4),
                     QString::number(n.rightSubtree.cost, 'f', 4),
                     QString::number(n.rightSubtree.cost - n.leftSubtree.cost, 'f', 4));
    table += QStringLiteral("</table>");
    html += QStringLiteral("<h4>%1</h4>%2").arg(tr("Measures"), table);
    m_detail->setHtml(html);
}

} // namespace hako
