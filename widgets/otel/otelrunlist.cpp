#include "widgets/otel/otelrunlist.h"

#include "widgets/trace/tracepanestyle.h"

#include <QCheckBox>
#include <QDateTime>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QScrollBar>
#include <QSet>
#include <QSplitter>
#include <QTextBrowser>
#include <QTreeWidget>
#include <QVBoxLayout>

namespace hako {

namespace {

constexpr int IdRole = Qt::UserRole;          // a run's id (empty on a session)
constexpr int SessionRole = Qt::UserRole + 1; // a session row's session
constexpr int SortRole = Qt::UserRole + 2;    // what a column sorts by

QString startText(int64_t nanos)
{
    if (nanos <= 0)
        return {};
    return QDateTime::fromMSecsSinceEpoch(nanos / 1000000)
        .toLocalTime()
        .toString(QStringLiteral("yyyy-MM-dd HH:mm:ss"));
}

QString costText(const std::optional<double>& cost)
{
    return cost ? QString::number(*cost, 'f', *cost != 0 && *cost < 0.01 ? 6 : 4) : QString();
}

QString statusText(otel::RunStatus status)
{
    switch (status) {
    case otel::RunStatus::Ok:
        return OtelRunList::tr("ok");
    case otel::RunStatus::Error:
        return OtelRunList::tr("error");
    case otel::RunStatus::Running:
        return OtelRunList::tr("running");
    }
    return {};
}

// Sorts by SortRole: numbers as numbers, text by the locale.
class RunItem : public QTreeWidgetItem {
public:
    using QTreeWidgetItem::QTreeWidgetItem;
    bool operator<(const QTreeWidgetItem& other) const override
    {
        const int column = treeWidget() ? treeWidget()->sortColumn() : 0;
        const QVariant a = data(column, SortRole), b = other.data(column, SortRole);
        if (a.typeId() == QMetaType::QString || b.typeId() == QMetaType::QString)
            return QString::localeAwareCompare(a.toString(), b.toString()) < 0;
        return a.toDouble() < b.toDouble();
    }
};

void setCell(QTreeWidgetItem* item, int column, const QString& text, const QVariant& sortKey)
{
    item->setText(column, text);
    item->setData(column, SortRole, sortKey);
}

} // namespace

OtelRunList::OtelRunList(QWidget* parent)
    : QWidget(parent), m_heading(new QLabel(this)), m_filter(new QLineEdit(this)),
      m_group(new QCheckBox(tr("Group by session"), this)),
      m_compare(new QPushButton(tr("Compare"), this)),
      m_promptLog(new QPushButton(tr("Prompt log"), this)), m_empty(new QLabel(this)),
      m_list(new QTreeWidget(this)), m_thread(new QTextBrowser(this))
{
    m_heading->setWordWrap(true);
    m_heading->setContentsMargins(6, 4, 6, 2);
    m_heading->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_heading->setAccessibleName(tr("Where the runs come from"));
    m_filter->setPlaceholderText(tr("Filter runs: words, status:error, session:…, user:…"));
    m_filter->setAccessibleName(tr("Filter runs"));
    m_filter->setToolTip(tr("Keeps the runs whose name, session or user hold every word; "
                            "status:ok, status:error, status:running, session:X and user:X "
                            "narrow further"));
    m_filter->setClearButtonEnabled(true);
    m_group->setAccessibleName(tr("Group by session"));
    m_group->setToolTip(tr("Show the runs of one session (session.id) under it, with the "
                           "session's totals; pick a session to read its thread"));
    m_compare->setAccessibleName(tr("Compare runs"));
    m_compare->setToolTip(tr("Compare the two selected runs (select two with Ctrl+click)"));
    m_compare->setEnabled(false);
    m_promptLog->setAccessibleName(tr("Runs of the prompt log"));
    m_promptLog->setToolTip(tr("List the runs the prompt log holds: one row per run with its "
                               "calls' tokens, cost and errors; pick one to read its calls"));
    m_empty->setWordWrap(true);
    m_empty->setContentsMargins(6, 2, 6, 2);
    m_empty->setAccessibleName(tr("Runs list message"));
    m_list->setAccessibleName(tr("Runs"));
    m_list->setUniformRowHeights(true);
    m_list->setAlternatingRowColors(true);
    m_list->setSelectionMode(QAbstractItemView::ExtendedSelection);
    m_list->setHeaderLabels({tr("Run"), tr("Status"), tr("Start"), tr("Duration"), tr("Spans"),
                             tr("Tokens"), tr("Cost"), tr("Errors"), tr("Session"), tr("User")});
    m_list->header()->setSectionResizeMode(NameColumn, QHeaderView::Stretch);
    m_list->header()->setStretchLastSection(false);
    m_list->header()->setSortIndicatorShown(true);
    m_list->header()->resizeSection(
        StartColumn,
        m_list->fontMetrics().horizontalAdvance(QStringLiteral("0000-00-00 00:00:00")) + 16);
    m_list->setSortingEnabled(true);
    m_list->sortByColumn(StartColumn, Qt::AscendingOrder);
    m_thread->setAccessibleName(tr("Session thread"));
    m_thread->setOpenLinks(false);
    m_thread->hide();

    // The filter has a line of its own: the dock may be narrow.
    auto* bar = new QHBoxLayout;
    bar->setContentsMargins(4, 0, 4, 0);
    bar->addWidget(m_group);
    bar->addStretch(1);
    bar->addWidget(m_promptLog);
    bar->addWidget(m_compare);
    m_filter->setMinimumWidth(160);
    auto* split = m_split = new QSplitter(Qt::Vertical, this);
    split->addWidget(m_list);
    split->addWidget(m_thread);
    split->setStretchFactor(0, 3);
    split->setStretchFactor(1, 2);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->setSpacing(2);
    layout->addWidget(m_heading);
    layout->addWidget(m_filter);
    layout->addLayout(bar);
    layout->addWidget(m_empty);
    layout->addWidget(split, 1);

    auto request = [this](QTreeWidgetItem* item) {
        if (m_filling || !item || m_list->selectedItems().size() > 1)
            return;
        const QString id = item->data(NameColumn, IdRole).toString();
        if (!id.isEmpty())
            Q_EMIT runRequested(id);
    };
    connect(m_list, &QTreeWidget::itemActivated, this, request);
    connect(m_list, &QTreeWidget::itemClicked, this, request);
    connect(m_list, &QTreeWidget::itemSelectionChanged, this, &OtelRunList::selectionChanged);
    connect(m_list, &QTreeWidget::itemCollapsed, this, [this](QTreeWidgetItem* item) {
        if (!m_filling)
            m_collapsed.insert(item->data(NameColumn, SessionRole).toString());
    });
    connect(m_list, &QTreeWidget::itemExpanded, this, [this](QTreeWidgetItem* item) {
        if (!m_filling)
            m_collapsed.remove(item->data(NameColumn, SessionRole).toString());
    });
    connect(m_filter, &QLineEdit::textChanged, this, &OtelRunList::rebuild);
    connect(m_group, &QCheckBox::toggled, this, &OtelRunList::rebuild);
    connect(m_compare, &QPushButton::clicked, this, [this] {
        const QStringList ids = selectedRunIds();
        if (ids.size() == 2)
            Q_EMIT compareRequested(ids[0], ids[1]);
    });
    connect(m_promptLog, &QPushButton::clicked, this, &OtelRunList::promptLogRequested);
    rebuild();
}

void OtelRunList::setRuns(const QString& heading, const std::vector<otel::RunRow>& runs,
                          const std::string& shown)
{
    m_heading->setText(heading);
    m_runs = runs;
    m_shown = shown;
    update();
}

void OtelRunList::setRuns(const QString& heading, const std::vector<otel::TraceSummary>& runs,
                          const std::string& shown)
{
    std::vector<otel::RunRow> rows;
    rows.reserve(runs.size());
    for (const otel::TraceSummary& s : runs) {
        otel::RunRow r;
        r.id = s.traceId;
        r.name = s.rootName;
        r.startNanos = s.startNanos;
        r.endNanos = s.endNanos;
        r.spans = s.spans;
        r.errors = s.errors;
        r.status = s.errors > 0         ? otel::RunStatus::Error
                   : s.rootName.empty() ? otel::RunStatus::Running
                                        : otel::RunStatus::Ok;
        rows.push_back(std::move(r));
    }
    setRuns(heading, rows, shown);
}

void OtelRunList::clear()
{
    m_runs.clear();
    m_shown.clear();
    m_heading->clear();
    rebuild();
}

const otel::RunRow* OtelRunList::runById(const QString& id) const
{
    const std::string key = id.toStdString();
    for (const otel::RunRow& r : m_runs)
        if (r.id == key)
            return &r;
    return nullptr;
}

void OtelRunList::fillRun(QTreeWidgetItem* item, const otel::RunRow& r)
{
    const QString id = QString::fromStdString(r.id);
    const QString name = r.name.empty() ? tr("(root not received yet) %1").arg(id.left(8))
                                        : QString::fromStdString(r.name);
    setCell(item, NameColumn, name, name);
    item->setData(NameColumn, IdRole, id);
    item->setToolTip(NameColumn, tr("Trace %1").arg(id));
    setCell(item, StatusColumn, statusText(r.status), int(r.status));
    setCell(item, StartColumn, startText(r.startNanos), qlonglong(r.startNanos));
    setCell(item, DurationColumn,
            r.durationNanos() > 0 ? formatDuration(r.durationNanos()) : QString(),
            qlonglong(r.durationNanos()));
    setCell(item, SpansColumn, QString::number(r.spans), r.spans);
    setCell(item, TokensColumn, r.tokens() > 0 ? QString::number(r.tokens()) : QString(),
            qlonglong(r.tokens()));
    item->setToolTip(TokensColumn,
                     tr("%1 prompt + %2 completion").arg(r.promptTokens).arg(r.completionTokens));
    setCell(item, CostColumn, costText(r.cost), r.cost ? *r.cost : -1.0);
    setCell(item, ErrorsColumn, r.errors > 0 ? QString::number(r.errors) : QString(), r.errors);
    setCell(item, SessionColumn, QString::fromStdString(r.session),
            QString::fromStdString(r.session));
    setCell(item, UserColumn, QString::fromStdString(r.user), QString::fromStdString(r.user));
    for (int c : {DurationColumn, SpansColumn, TokensColumn, CostColumn, ErrorsColumn})
        item->setTextAlignment(c, Qt::AlignRight | Qt::AlignVCenter);
    item->setForeground(StatusColumn, r.status == otel::RunStatus::Error
                                          ? QBrush(QColor(0xc0, 0x30, 0x30))
                                          : QBrush());
}

void OtelRunList::fillSession(QTreeWidgetItem* item, const otel::RunSession& s)
{
    const QString session = QString::fromStdString(s.session);
    const QString name = tr("Session %1 — %n run(s)", nullptr, int(s.runs.size())).arg(session);
    setCell(item, NameColumn, name, session);
    item->setData(NameColumn, SessionRole, session);
    item->setToolTip(NameColumn, tr("Pick the session to read its thread"));
    const bool failed = s.errors > 0;
    setCell(item, StatusColumn, failed ? tr("error") : tr("ok"), failed ? 1 : 0);
    setCell(item, StartColumn, startText(s.startNanos), qlonglong(s.startNanos));
    const int64_t duration = s.endNanos > s.startNanos ? s.endNanos - s.startNanos : 0;
    setCell(item, DurationColumn, duration > 0 ? formatDuration(duration) : QString(),
            qlonglong(duration));
    setCell(item, SpansColumn, QString::number(s.spans), s.spans);
    setCell(item, TokensColumn, s.tokens() > 0 ? QString::number(s.tokens()) : QString(),
            qlonglong(s.tokens()));
    setCell(item, CostColumn, costText(s.cost), s.cost ? *s.cost : -1.0);
    setCell(item, ErrorsColumn, s.errors > 0 ? QString::number(s.errors) : QString(), s.errors);
    setCell(item, SessionColumn, session, session);
    QStringList users;
    for (const std::string& u : s.users)
        users << QString::fromStdString(u);
    setCell(item, UserColumn, users.join(QStringLiteral(", ")), users.join(QStringLiteral(", ")));
    for (int c : {DurationColumn, SpansColumn, TokensColumn, CostColumn, ErrorsColumn})
        item->setTextAlignment(c, Qt::AlignRight | Qt::AlignVCenter);
    QFont bold = item->font(NameColumn);
    bold.setBold(true);
    item->setFont(NameColumn, bold);
}

void OtelRunList::rebuild()
{
    // What to keep across a rebuild: the selection, the expanded sessions, the scroll position.
    QSet<QString> selected;
    for (QTreeWidgetItem* item : m_list->selectedItems())
        selected.insert(item->data(NameColumn, IdRole).toString() + QLatin1Char('\n') +
                        item->data(NameColumn, SessionRole).toString());
    const int scroll = m_list->verticalScrollBar() ? m_list->verticalScrollBar()->value() : 0;
    m_filling = true;
    m_list->setUpdatesEnabled(false);
    m_list->setSortingEnabled(false);
    m_list->clear();
    const otel::RunFilter filter = otel::RunFilter::parse(m_filter->text().toStdString());
    const std::vector<otel::RunRow> rows = otel::filterRuns(m_runs, filter);
    QList<QTreeWidgetItem*> items;
    QTreeWidgetItem* shown = nullptr;
    auto addRun = [&](QTreeWidgetItem* item, const otel::RunRow& r) {
        fillRun(item, r);
        if (r.id == m_shown)
            shown = item;
    };
    if (m_group->isChecked()) {
        for (const otel::RunSession& s : otel::groupBySession(rows)) {
            if (s.session.empty()) {
                for (const otel::RunRow& r : s.runs) {
                    auto* item = new RunItem;
                    addRun(item, r);
                    items.append(item);
                }
                continue;
            }
            auto* group = new RunItem;
            fillSession(group, s);
            for (const otel::RunRow& r : s.runs)
                addRun(new RunItem(group), r);
            items.append(group);
        }
    } else {
        for (const otel::RunRow& r : rows) {
            auto* item = new RunItem;
            addRun(item, r);
            items.append(item);
        }
    }
    m_list->addTopLevelItems(items);
    for (QTreeWidgetItem* item : items)
        if (item->childCount() > 0 &&
            !m_collapsed.contains(item->data(NameColumn, SessionRole).toString()))
            item->setExpanded(true);
    m_list->setSortingEnabled(true);
    for (QTreeWidgetItemIterator it(m_list); *it; ++it)
        if (selected.contains((*it)->data(NameColumn, IdRole).toString() + QLatin1Char('\n') +
                              (*it)->data(NameColumn, SessionRole).toString()))
            (*it)->setSelected(true);
    if (shown && selected.isEmpty())
        m_list->setCurrentItem(shown);
    if (m_list->verticalScrollBar())
        m_list->verticalScrollBar()->setValue(scroll);
    m_list->setUpdatesEnabled(true);
    m_filling = false;
    finishFill(int(rows.size()));
}

// New runs, or runs that grew: rows are changed, added and removed in place (no clear), so
// that the list does not flicker and selection, expansion and scroll stay as they are.
void OtelRunList::update()
{
    m_filling = true;
    m_list->setSortingEnabled(false);
    QHash<QString, QTreeWidgetItem*> runs, sessions;
    for (QTreeWidgetItemIterator it(m_list); *it; ++it) {
        const QString id = (*it)->data(NameColumn, IdRole).toString();
        if (!id.isEmpty())
            runs.insert(id, *it);
        else
            sessions.insert((*it)->data(NameColumn, SessionRole).toString(), *it);
    }
    const otel::RunFilter filter = otel::RunFilter::parse(m_filter->text().toStdString());
    const std::vector<otel::RunRow> rows = otel::filterRuns(m_runs, filter);
    QTreeWidgetItem* shown = nullptr;
    if (m_group->isChecked()) {
        for (const otel::RunSession& s : otel::groupBySession(rows)) {
            QTreeWidgetItem* group = nullptr;
            if (!s.session.empty()) {
                const QString key = QString::fromStdString(s.session);
                group = sessions.take(key);
                if (!group) {
                    group = new RunItem;
                    m_list->addTopLevelItem(group);
                }
                fillSession(group, s);
            }
            for (const otel::RunRow& r : s.runs)
                placeRun(r, group, runs, shown);
            if (group && !m_collapsed.contains(group->data(NameColumn, SessionRole).toString()))
                group->setExpanded(true);
        }
    } else {
        for (const otel::RunRow& r : rows)
            placeRun(r, nullptr, runs, shown);
    }
    qDeleteAll(runs); // gone runs first: they may sit under a session going too
    qDeleteAll(sessions);
    m_list->setSortingEnabled(true);
    if (shown && m_list->selectedItems().isEmpty())
        m_list->setCurrentItem(shown);
    m_filling = false;
    finishFill(int(rows.size()));
}

void OtelRunList::placeRun(const otel::RunRow& run, QTreeWidgetItem* parent,
                           QHash<QString, QTreeWidgetItem*>& existing, QTreeWidgetItem*& shown)
{
    QTreeWidgetItem* item = existing.take(QString::fromStdString(run.id));
    if (item && item->parent() != parent) { // its session came with a later span
        if (QTreeWidgetItem* from = item->parent())
            from->takeChild(from->indexOfChild(item));
        else
            m_list->takeTopLevelItem(m_list->indexOfTopLevelItem(item));
        parent ? parent->addChild(item) : m_list->addTopLevelItem(item);
    } else if (!item) {
        item = new RunItem;
        parent ? parent->addChild(item) : m_list->addTopLevelItem(item);
    }
    fillRun(item, run);
    if (run.id == m_shown)
        shown = item;
}

void OtelRunList::finishFill(int shownRows)
{
    m_list->setRootIsDecorated(m_group->isChecked());
    const bool none = shownRows == 0;
    if (m_runs.empty())
        m_empty->setText(tr("No runs to list yet. Open an OTLP or trace file (File › Open "
                            "Trace…), turn on Traces › Receive OpenTelemetry and run an agent, "
                            "or press Prompt log to list the runs it holds."));
    else if (none)
        m_empty->setText(tr("No run matches the filter. Clear it to see all %n run(s).", nullptr,
                            int(m_runs.size())));
    m_empty->setVisible(none);
    selectionChanged();
}

QString OtelRunList::traceIdAt(int row) const
{
    const QTreeWidgetItem* item = m_list->topLevelItem(row);
    return item ? item->data(NameColumn, IdRole).toString() : QString();
}

QStringList OtelRunList::selectedRunIds() const
{
    QStringList ids;
    for (QTreeWidgetItemIterator it(m_list, QTreeWidgetItemIterator::Selected); *it; ++it)
        if (const QString id = (*it)->data(NameColumn, IdRole).toString(); !id.isEmpty())
            ids << id;
    return ids;
}

void OtelRunList::selectionChanged()
{
    m_compare->setEnabled(selectedRunIds().size() == 2);
    const QList<QTreeWidgetItem*> picked = m_list->selectedItems();
    const QString session =
        picked.size() == 1 ? picked.first()->data(NameColumn, SessionRole).toString() : QString();
    if (!session.isEmpty())
        showThread(session);
    else if (picked.size() == 1 || m_runs.empty())
        m_thread->hide();
}

void OtelRunList::showThread(const QString& session)
{
    const std::string key = session.toStdString();
    for (const otel::RunSession& s : otel::groupBySession(m_runs)) {
        if (s.session == key) {
            m_thread->setHtml(sessionThreadHtml(s));
            if (m_thread->isHidden()) { // the thread gets the larger part: it is read
                m_thread->show();
                const int h = m_split->height();
                m_split->setSizes({h * 2 / 5, h - h * 2 / 5});
            }
            return;
        }
    }
    m_thread->hide();
}

} // namespace hako
