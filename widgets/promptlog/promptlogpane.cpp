#include "widgets/promptlog/promptlogpane.h"

#include "core/pdl/imagecontent.h"
#include "core/pdl/valuejson.h"
#include "core/promptlog/calltablemodel.h"
#include "core/promptlog/logsnapshot.h"
#include "core/promptlog/promptlog.h"
#include "core/util/whenready.h"
#include "core/workbench/workbenchcontext.h"
#include "widgets/common/accessibleparts.h"
#include "widgets/common/aspectsplitter.h"
#include "widgets/common/contentparts.h"
#include "widgets/common/messagebar.h"
#include "widgets/promptlog/callscores.h"
#include "widgets/promptlog/timechart.h"

#include <QComboBox>
#include <QDateTime>
#include <QGridLayout>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QJsonDocument>
#include <QLabel>
#include <QLineEdit>
#include <QMenu>
#include <QPushButton>
#include <QRegularExpression>
#include <QShortcut>
#include <QSortFilterProxyModel>
#include <QStackedWidget>
#include <QTabWidget>
#include <QTableView>
#include <QTextBrowser>
#include <QTimer>
#include <QToolButton>
#include <QVBoxLayout>
#include <QtConcurrent>

#include <cmath>

namespace hako {

using namespace promptlog;

namespace {

// What a role's messages are drawn on: light tints that keep any text colour readable.
QString roleColor(const QString& role)
{
    if (role == QLatin1String("system"))
        return QStringLiteral("#eef0f3");
    if (role == QLatin1String("user"))
        return QStringLiteral("#e6f0fb");
    if (role == QLatin1String("assistant"))
        return QStringLiteral("#e8f5ea");
    if (role == QLatin1String("tool"))
        return QStringLiteral("#fbf1e2");
    return QStringLiteral("#f4f4f4");
}

// A message's content as text: its text parts, each image as a placeholder such as
// [image: PNG 1240×1754, 812 KB] (never base64).
QString contentText(const QJsonValue& content)
{
    return QString::fromStdString(pdl::contentDisplayText(pdl::fromQJsonValue(content)));
}

// A message's content as HTML: text as written, images as thumbnails.
QString contentHtml(const QJsonValue& content)
{
    const pdl::Value value = pdl::fromQJsonValue(content);
    if (!pdl::contentImageUrls(value).empty())
        return contentparts::contentHtml(value);
    return QStringLiteral("<div style=\"white-space:pre-wrap\">%1</div>")
        .arg(QString::fromStdString(pdl::contentDisplayText(value)).toHtmlEscaped());
}

QString indentedJson(const QJsonObject& o)
{
    return QString::fromUtf8(QJsonDocument(o).toJson(QJsonDocument::Indented)).trimmed();
}

QTableView* makeTable(QWidget* parent, QAbstractItemModel* model, const QString& name)
{
    auto* view = new QTableView(parent);
    view->setModel(model);
    view->setSortingEnabled(true);
    view->setSelectionBehavior(QAbstractItemView::SelectRows);
    view->setSelectionMode(QAbstractItemView::SingleSelection);
    view->setAlternatingRowColors(true);
    view->setWordWrap(false);
    view->verticalHeader()->hide();
    view->horizontalHeader()->setStretchLastSection(true);
    view->horizontalHeader()->setSectionsMovable(true);
    view->setAccessibleName(name);
    return view;
}

} // namespace

PromptLogPane::PromptLogPane(QWidget* parent)
    : QWidget(parent), m_messageBar(new MessageBar(this)), m_search(new QLineEdit(this)),
      m_prompt(new QLineEdit(this)), m_model(new QLineEdit(this)), m_tags(new QLineEdit(this)),
      m_status(new QComboBox(this)), m_origin(new QComboBox(this)), m_range(new QComboBox(this)),
      m_tagsButton(new QToolButton(this)), m_refresh(new QPushButton(tr("&Refresh"), this)),
      m_summary(new QLabel(this)), m_tabs(new QTabWidget(this)), m_calls(new CallTableModel(this)),
      m_stats(new StatsTableModel(this)), m_statsProxy(new QSortFilterProxyModel(this)),
      m_debounce(new QTimer(this))
{
    setObjectName(QStringLiteral("promptLogPane"));
    setAccessibleName(tr("Prompt log"));

    m_search->setPlaceholderText(tr("Search messages and replies…"));
    m_search->setAccessibleName(tr("Search calls"));
    m_search->setToolTip(tr("Every word (or \"quoted phrase\") must occur in the messages or the "
                            "reply; ignores ASCII case. scored, score:✓ and score:✗ find the "
                            "calls with a score, one that passed, one that failed"));
    m_search->setClearButtonEnabled(true);
    m_prompt->setPlaceholderText(tr("Prompt"));
    m_prompt->setAccessibleName(tr("Prompt filter"));
    m_prompt->setToolTip(tr("The prompt's name; * matches any run of characters"));
    m_model->setPlaceholderText(tr("Model"));
    m_model->setAccessibleName(tr("Model filter"));
    m_model->setToolTip(tr("The model's name; * matches any run of characters"));
    m_tags->setPlaceholderText(tr("Tags"));
    m_tags->setAccessibleName(tr("Tag filter"));
    m_tags->setToolTip(tr("Tags a call must all carry, separated by spaces or commas"));
    for (QLineEdit* edit : {m_prompt, m_model, m_tags})
        edit->setClearButtonEnabled(true);
    m_status->setAccessibleName(tr("Status filter"));
    m_status->addItem(tr("Any status"));
    m_status->addItem(tr("OK"), statusName(CallStatus::Ok));
    m_status->addItem(tr("Failed"), statusName(CallStatus::Failed));
    m_status->addItem(tr("Cancelled"), statusName(CallStatus::Cancelled));
    m_origin->setAccessibleName(tr("Origin filter"));
    m_origin->setToolTip(tr("Where the calls come from"));
    m_origin->addItem(tr("Any origin"));
    m_origin->addItem(tr("Programs"), originName(CallOrigin::Program));
    m_origin->addItem(tr("Judges"), originName(CallOrigin::Judge));
    m_origin->addItem(tr("Playground"), originName(CallOrigin::Playground));
    m_origin->addItem(tr("Experiments"), originName(CallOrigin::Experiment));
    m_origin->addItem(tr("Received"), originName(CallOrigin::Received));
    m_range->setAccessibleName(tr("Time range"));
    for (const QString& label : {tr("Any time"), tr("Last hour"), tr("Last 24 hours"),
                                 tr("Last 7 days"), tr("Last 30 days")})
        m_range->addItem(label);
    m_range->setToolTip(tr("Only calls started within this time; the charts and the tokens "
                           "over time cover it (any time: the last 30 days)"));
    m_tagsButton->setText(tr("Tags"));
    m_tagsButton->setAccessibleName(tr("Choose tags"));
    m_tagsButton->setToolTip(tr("Check the tags the calls must carry"));
    m_tagsButton->setPopupMode(QToolButton::InstantPopup);
    m_tagsButton->setMenu(new QMenu(m_tagsButton));
    m_tagsButton->menu()->setAccessibleName(tr("Tags in the log"));
    updateTagMenu({});
    m_refresh->setAccessibleName(tr("Refresh prompt log"));
    m_refresh->setToolTip(tr("List the calls again (Ctrl+R)"));
    m_summary->setAccessibleName(tr("Calls shown"));
    m_summary->setTextInteractionFlags(Qt::TextSelectableByMouse);

    auto* filters = new QHBoxLayout;
    filters->addWidget(m_search, 3);
    filters->addWidget(m_prompt, 1);
    filters->addWidget(m_model, 1);
    filters->addWidget(m_tags, 1);
    filters->addWidget(m_tagsButton);
    filters->addWidget(m_status);
    filters->addWidget(m_origin);
    filters->addWidget(m_range);
    filters->addWidget(m_refresh);

    m_tabs->addTab(buildCallsPage(), tr("Calls"));

    QWidget* statsPage = buildStatsPage();
    m_tabs->addTab(statsPage, m_group->currentText());

    m_tabs->addTab(buildChartsPage(), tr("Over Time"));
    m_tabs->setAccessibleName(tr("Prompt log views"));

    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(4, 4, 4, 4);
    layout->addWidget(m_messageBar);
    layout->addLayout(filters);
    layout->addWidget(m_summary);
    layout->addWidget(m_tabs, 1);
    m_messageBar->hide();

    connectControls();

    updateEmptyState(-1);
    showCall(nullptr);
    // Qt's own parts (clear and corner buttons, combo box text) get names too.
    AccessibleParts::name(this);
}

QWidget* PromptLogPane::buildCallsPage()
{
    // Calls tab: the table (or the empty state) above the selected call's detail.
    m_callsView = makeTable(this, m_calls, tr("Model calls"));
    // Several calls at once go to a dataset (Shift/Ctrl+click); the detail shows the current one.
    m_callsView->setSelectionMode(QAbstractItemView::ExtendedSelection);
    m_callsView->sortByColumn(CallTableModel::Time, Qt::DescendingOrder);
    // The scores next to the prompt, where a narrow pane still shows them.
    m_callsView->horizontalHeader()->moveSection(
        m_callsView->horizontalHeader()->visualIndex(CallTableModel::Score), 2);
    // Rows are one line: the view need not measure each (a million rows scroll at once).
    m_callsView->verticalHeader()->setSectionResizeMode(QHeaderView::Fixed);
    m_callsView->verticalHeader()->setDefaultSectionSize(m_callsView->fontMetrics().height() + 8);
    m_empty = new QLabel(this);
    m_empty->setAlignment(Qt::AlignCenter);
    m_empty->setWordWrap(true);
    m_empty->setAccessibleName(tr("Prompt log status"));
    m_callsStack = new QStackedWidget(this);
    m_callsStack->addWidget(m_callsView);
    m_callsStack->addWidget(m_empty);
    m_detail = new ContentBrowser(this);
    m_detail->setOpenLinks(false);
    m_detail->setAccessibleName(tr("Call detail"));
    m_detail->setPlaceholderText(tr("Select a call to see its messages, reply and usage."));
    m_showTrace = new QPushButton(tr("Show in &Trace"), this);
    m_showTrace->setAccessibleName(tr("Show in Trace"));
    m_showTrace->setToolTip(tr("Open the run's trace at this call"));
    m_showSource = new QPushButton(tr("Show &Source"), this);
    m_showSource->setAccessibleName(tr("Show Source"));
    m_showSource->setToolTip(tr("Open the program at the model block that made this call"));
    m_openPlayground = new QPushButton(tr("Open in &Playground"), this);
    m_openPlayground->setAccessibleName(tr("Open in Playground"));
    m_openPlayground->setToolTip(
        tr("Edit this call's messages and parameters, switch the model and run it again"));
    m_addToDataset = new QPushButton(tr("Add to &Dataset"), this);
    m_addToDataset->setAccessibleName(tr("Add to Dataset"));
    m_addToDataset->setToolTip(
        tr("Add the selected calls as examples of the dataset open in the Datasets pane: their "
           "inputs, and their replies as the references"));
    m_annotate = new QPushButton(tr("A&nnotate…"), this);
    m_annotate->setAccessibleName(tr("Annotate call"));
    m_annotate->setToolTip(tr("Score this call (✓, ✗, a number or a label) and note why; the "
                              "score is kept with the call in the prompt log"));
    auto* links = new QHBoxLayout;
    links->setContentsMargins(0, 0, 0, 0);
    links->addWidget(m_annotate);
    links->addWidget(m_showTrace);
    links->addWidget(m_showSource);
    links->addWidget(m_openPlayground);
    links->addWidget(m_addToDataset);
    links->addStretch(1);
    auto* detailPage = new QWidget(this);
    auto* detailLayout = new QVBoxLayout(detailPage);
    detailLayout->setContentsMargins(0, 0, 0, 0);
    detailLayout->addLayout(links);
    detailLayout->addWidget(m_detail, 1);
    auto* split = new AspectSplitter(this); // beside the table in a short, wide dock
    split->addWidget(m_callsStack);
    split->addWidget(detailPage);
    split->setStretchFactor(0, 3);
    split->setStretchFactor(1, 2);
    split->setChildrenCollapsible(false);
    return split;
}

QWidget* PromptLogPane::buildStatsPage()
{
    // Stats tab: one row per prompt (tag, model, day).
    auto* statsPage = new QWidget(this);
    m_group = new QComboBox(statsPage);
    m_group->setAccessibleName(tr("Group statistics by"));
    m_group->addItem(tr("By prompt"), int(StatsGroup::Prompt));
    m_group->addItem(tr("By tag"), int(StatsGroup::Tag));
    m_group->addItem(tr("By model"), int(StatsGroup::Model));
    m_group->addItem(tr("By day (UTC)"), int(StatsGroup::Day));
    m_group->addItem(tr("By program"), int(StatsGroup::Program));
    m_group->addItem(tr("By version"), int(StatsGroup::Version));
    m_statsProxy->setSourceModel(m_stats);
    m_statsProxy->setSortRole(StatsTableModel::SortRole);
    m_statsView = makeTable(statsPage, m_statsProxy, tr("Call statistics"));
    m_statsView->sortByColumn(StatsTableModel::Calls, Qt::DescendingOrder);
    m_statsView->setItemDelegateForColumn(StatsTableModel::Trend,
                                          new SparklineDelegate(m_statsView));
    auto* groupLabel = new QLabel(tr("&Group:"), statsPage);
    groupLabel->setBuddy(m_group);
    auto* groupRow = new QHBoxLayout;
    groupRow->addWidget(groupLabel);
    groupRow->addWidget(m_group);
    groupRow->addStretch(1);
    auto* statsLayout = new QVBoxLayout(statsPage);
    statsLayout->setContentsMargins(0, 4, 0, 0);
    statsLayout->addLayout(groupRow);
    statsLayout->addWidget(m_statsView);
    return statsPage;
}

QWidget* PromptLogPane::buildChartsPage()
{
    // Over time: the filtered calls' charts.
    auto* chartsPage = new QWidget(this);
    auto* grid = new QGridLayout(chartsPage);
    grid->setContentsMargins(0, 4, 0, 0);
    for (const QString& title :
         {tr("Calls"), tr("Success rate"), tr("Mean latency"), tr("Tokens (in + out)")}) {
        auto* chart = new TimeChart(title, chartsPage);
        grid->addWidget(chart, int(m_charts.size()) / 2, int(m_charts.size()) % 2);
        m_charts.append(chart);
    }
    m_scoreChart = new ScoreChartPanel(chartsPage);
    grid->addWidget(m_scoreChart, 2, 0, 1, 2);
    return chartsPage;
}

void PromptLogPane::connectControls()
{
    // Typing settles for a moment before a query; Enter and the combos query at once.
    m_debounce->setSingleShot(true);
    m_debounce->setInterval(300);
    connect(m_debounce, &QTimer::timeout, this, &PromptLogPane::refresh);
    for (QLineEdit* edit : {m_search, m_prompt, m_model, m_tags}) {
        connect(edit, &QLineEdit::textEdited, m_debounce, qOverload<>(&QTimer::start));
        // The clear button changes the text without an edit.
        connect(edit, &QLineEdit::textChanged, this, [this](const QString& text) {
            if (text.isEmpty())
                m_debounce->start();
        });
        connect(edit, &QLineEdit::returnPressed, this, &PromptLogPane::refresh);
    }
    connect(m_status, &QComboBox::currentIndexChanged, this, &PromptLogPane::refresh);
    connect(m_origin, &QComboBox::currentIndexChanged, this, &PromptLogPane::refresh);
    connect(m_calls, &CallTableModel::sortRequested, this, &PromptLogPane::refresh);
    connect(m_calls, &CallTableModel::pageNeeded, this, &PromptLogPane::loadPage);
    connect(m_range, &QComboBox::currentIndexChanged, this, &PromptLogPane::refresh);
    connect(m_showTrace, &QPushButton::clicked, this, [this] {
        if (m_shownCall)
            Q_EMIT showInTraceRequested(m_shownCall->runId, m_shownCall->traceNodeId,
                                        m_shownCall->programPath);
    });
    connect(m_showSource, &QPushButton::clicked, this, [this] {
        if (m_shownCall)
            Q_EMIT showSourceRequested(m_shownCall->programPath, m_shownCall->span);
    });
    connect(m_openPlayground, &QPushButton::clicked, this, [this] {
        if (m_shownCall)
            Q_EMIT openInPlaygroundRequested(*m_shownCall);
    });
    connect(m_addToDataset, &QPushButton::clicked, this, &PromptLogPane::addSelectedToDataset);
    connect(m_annotate, &QPushButton::clicked, this, [this] { annotateShownCall(); });
    connect(m_group, &QComboBox::currentIndexChanged, this, [this] {
        m_tabs->setTabText(1, m_group->currentText());
        refresh();
    });
    connect(m_refresh, &QPushButton::clicked, this, &PromptLogPane::refresh);
    // F5 runs the program; Ctrl+R refreshes while focus is in the pane.
    auto* shortcut = new QShortcut(QKeySequence(Qt::CTRL | Qt::Key_R), this);
    shortcut->setContext(Qt::WidgetWithChildrenShortcut);
    connect(shortcut, &QShortcut::activated, this, &PromptLogPane::refresh);
    connect(m_callsView->selectionModel(), &QItemSelectionModel::currentRowChanged, this,
            [this](const QModelIndex& current) { showDetailOf(current); });
}

PromptLogPane::~PromptLogPane() = default;

void PromptLogPane::setWorkbenchContext(WorkbenchContext* context)
{
    if (m_context)
        m_context->disconnect(this);
    m_context = context;
    // Calls logged by anything (runs, the playground, experiments, received spans) show.
    if (m_context)
        connect(m_context, &WorkbenchContext::promptLogCommitted, this, &PromptLogPane::refresh);
    m_openWarned = false;
    refresh();
}

std::shared_ptr<PromptLog> PromptLogPane::log()
{
    if (!m_context)
        return {};
    QString error;
    auto log = m_context->promptLog(&error);
    if (!error.isEmpty() && !m_openWarned) {
        m_openWarned = true;
        m_messageBar->showMessage(error, MessageBar::Kind::Warning);
    }
    return log;
}

CallFilter PromptLogPane::currentFilter() const
{
    CallFilter filter;
    filter.text = m_search->text().trimmed();
    filter.scored = takeScoreWords(filter.text);
    filter.prompt = m_prompt->text().trimmed();
    filter.model = m_model->text().trimmed();
    filter.tags =
        m_tags->text().split(QRegularExpression(QStringLiteral("[\\s,]+")), Qt::SkipEmptyParts);
    if (const QString status = m_status->currentData().toString(); !status.isEmpty())
        filter.status = statusFromName(status);
    if (const QString origin = m_origin->currentData().toString(); !origin.isEmpty())
        filter.origin = originFromName(origin);
    if (m_range->currentIndex() > 0)
        filter.since =
            seriesRangeFor(m_range->currentIndex(), QDateTime::currentMSecsSinceEpoch()).fromMs;
    return filter;
}

void PromptLogPane::refresh()
{
    m_debounce->stop();
    m_stale = true;
    if (isVisible())
        startQuery();
}

void PromptLogPane::showEvent(QShowEvent* event)
{
    QWidget::showEvent(event);
    if (m_stale)
        startQuery();
}

void PromptLogPane::startQuery()
{
    auto store = log();
    if (!store)
        return;
    m_stale = false;
    const LatestJob::Ticket ticket = m_latest.start();
    CallFilter filter = currentFilter();
    filter.orderBy = m_calls->order();
    filter.descending = m_calls->descending();
    const auto group = StatsGroup(m_group->currentData().toInt());
    QString bucketLabel;
    const SeriesRange range =
        seriesRangeFor(m_range->currentIndex(), QDateTime::currentMSecsSinceEpoch(), &bucketLabel);
    m_summary->setText(tr("Loading…"));
    whenReady(this, QtConcurrent::run([store, filter, group, range] {
                  return LogSnapshot::read(*store, filter, group, range, CallTableModel::kPageSize);
              }),
              [this, ticket, filter, bucketLabel](LogSnapshot s) {
                  if (!m_latest.isCurrent(ticket))
                      return; // a newer query is on its way
                  showSnapshot(std::move(s), filter, bucketLabel);
                  Q_EMIT refreshed();
              });
}

void PromptLogPane::showSnapshot(LogSnapshot s, const CallFilter& filter,
                                 const QString& bucketLabel)
{
    if (!s.error.isEmpty())
        m_messageBar->showMessage(tr("The prompt log cannot be read: %1").arg(s.error));
    else if (m_messageBar->kind() == MessageBar::Kind::Error)
        m_messageBar->clearMessage();
    const qint64 selected = m_callsView->currentIndex().data(CallTableModel::IdRole).toLongLong();
    m_calls->reset(s.matching, std::move(s.calls));
    m_pageFilter = filter;
    m_stats->setRows(std::move(s.stats), s.group);
    m_stats->setSeries(s.groupSeries, bucketLabel);
    m_calls->setScores(s.scores);
    updateTagMenu(s.tags);
    const OverTimeCharts charts = OverTimeCharts::from(s.overTime, s.range);
    showCharts(charts);
    m_scoreChart->setSeries(s.scoreSeries, charts.labels);
    // Columns fit the first calls shown; later the user's widths stay.
    if (!m_columnsFitted && m_calls->rowCount() > 0) {
        m_columnsFitted = true;
        m_callsView->resizeColumnsToContents();
    }
    if (!m_statsColumnsFitted && m_stats->rowCount() > 0) {
        m_statsColumnsFitted = true;
        m_statsView->resizeColumnsToContents();
    }
    if (const int row = selected ? m_calls->rowOf(selected) : -1; row >= 0) {
        const QModelIndex index = m_calls->index(row, 0);
        m_callsView->selectionModel()->setCurrentIndex(index, QItemSelectionModel::ClearAndSelect |
                                                                  QItemSelectionModel::Rows);
    } else {
        showCall(nullptr);
    }
    if (!s.error.isEmpty())
        m_summary->clear();
    else if (s.matching == s.total)
        m_summary->setText(s.matching == 1 ? tr("1 call")
                                           : tr("%1 calls").arg(formatCount(s.matching)));
    else
        m_summary->setText(
            tr("%1 of %2 calls match").arg(formatCount(s.matching), formatCount(s.total)));
    updateEmptyState(s.error.isEmpty() ? s.total : -1);
}

void PromptLogPane::showCharts(const OverTimeCharts& c)
{
    auto count = [](double v) {
        return formatCount(int64_t(std::llround(v)));
    };
    m_charts[0]->setValues(c.calls, c.labels, count);
    m_charts[1]->setValues(c.successPercent, c.labels, [](double v) {
        return QString(QLocale().toString(v, 'f', 0) + QLatin1Char('%'));
    });
    m_charts[2]->setValues(c.meanLatencyMs, c.labels, [](double v) { return formatLatency(v); });
    m_charts[3]->setValues(c.tokens, c.labels, count);
}

void PromptLogPane::loadPage(int page, LatestJob::Ticket ticket)
{
    auto store = log();
    if (!store)
        return;
    CallFilter filter = m_pageFilter;
    filter.limit = CallTableModel::kPageSize;
    filter.offset = page * CallTableModel::kPageSize;
    using Page = std::pair<Result<QList<CallRecord>>, QHash<QString, QString>>;
    whenReady(this, QtConcurrent::run([store, filter] {
                  Result<QList<CallRecord>> rows = store->list(filter);
                  QHash<QString, QString> scores;
                  if (rows)
                      scores = LogSnapshot::scoreTexts(*store, *rows);
                  return Page(std::move(rows), std::move(scores));
              }),
              [this, page, ticket](Page read) {
                  if (!read.first)
                      return;
                  m_calls->setScores(read.second);
                  m_calls->setPage(page, std::move(read.first).value(), ticket);
              });
}

void PromptLogPane::updateEmptyState(int64_t total)
{
    if (m_calls->rowCount() > 0) {
        m_callsStack->setCurrentWidget(m_callsView);
        return;
    }
    if (total == 0)
        m_empty->setText(tr("No model calls logged yet. Run a program that calls a model; every "
                            "call appears here."));
    else if (total > 0)
        m_empty->setText(tr("No calls match the filters."));
    else
        m_empty->setText(QString());
    m_callsStack->setCurrentWidget(m_empty);
}

void PromptLogPane::addSelectedToDataset()
{
    QList<qint64> ids;
    for (const QModelIndex& row : m_callsView->selectionModel()->selectedRows())
        if (const qint64 id = row.data(CallTableModel::IdRole).toLongLong())
            ids << id;
    if (ids.isEmpty() && m_shownCall)
        ids << m_shownCall->id;
    auto store = log();
    if (ids.isEmpty() || !store)
        return;
    std::sort(ids.begin(), ids.end()); // oldest first: the dataset keeps the log's order
    m_addToDataset->setEnabled(false);
    // The table lists calls without their content: read them in full off the GUI thread.
    whenReady(this, QtConcurrent::run([store, ids] {
                  QList<CallRecord> calls;
                  QStringList unreadable;
                  for (const qint64 id : ids) {
                      Result<CallRecord> call = store->find(QString::number(id));
                      if (call && !call->contentOmitted)
                          calls << *call;
                      else
                          unreadable << QString::number(id);
                  }
                  return std::make_pair(calls, unreadable);
              }),
              [this](std::pair<QList<CallRecord>, QStringList> read) {
                  m_addToDataset->setEnabled(true);
                  if (!read.second.isEmpty())
                      Q_EMIT statusMessage(tr("Left out calls without their text: #%1")
                                               .arg(read.second.join(QStringLiteral(", #"))),
                                           8000);
                  if (!read.first.isEmpty())
                      Q_EMIT addToDatasetRequested(read.first);
              });
}

void PromptLogPane::showDetailOf(const QModelIndex& proxyIndex)
{
    const qint64 id = proxyIndex.data(CallTableModel::IdRole).toLongLong();
    const LatestJob::Ticket ticket = m_latestDetail.start();
    if (!proxyIndex.isValid() || !id) {
        showCall(nullptr);
        return;
    }
    auto store = log();
    if (!store)
        return;
    // The table lists calls without their content: read this one's in full, with its scores.
    using Read = std::pair<Result<CallRecord>, QList<CallScore>>;
    whenReady(this, QtConcurrent::run([store, id] {
                  Result<CallRecord> call = store->find(QString::number(id));
                  QList<CallScore> scores;
                  if (call) {
                      ScoreFilter of;
                      of.callUids = {call->uid};
                      if (auto read = store->scores(of))
                          scores = std::move(read).value();
                  }
                  return Read(std::move(call), std::move(scores));
              }),
              [this, ticket, id](Read read) {
                  if (!m_latestDetail.isCurrent(ticket))
                      return;
                  const Result<CallRecord>& call = read.first;
                  if (call) {
                      showCall(&*call, read.second);
                  } else {
                      showCall(nullptr);
                      m_detail->setPlainText(
                          tr("This call cannot be read: %1").arg(call.error().message));
                  }
                  Q_EMIT detailShown(id);
              });
}

void PromptLogPane::showCall(const CallRecord* call, const QList<CallScore>& scores)
{
    m_shownScores = call ? scores : QList<CallScore>();
    if (call) {
        m_shownCall = std::make_unique<CallRecord>(*call);
        m_detail->setHtml(scoresHtml(scores) + detailHtml(*call));
    } else {
        m_shownCall.reset();
        m_detail->clear();
    }
    m_annotate->setEnabled(call != nullptr);
    m_showTrace->setEnabled(call && !call->runId.isEmpty());
    m_showSource->setEnabled(call && !call->programPath.isEmpty() && call->span.line > 0);
    m_openPlayground->setEnabled(call && !call->contentOmitted);
    m_addToDataset->setEnabled(call && !call->contentOmitted);
}

AnnotationDialog* PromptLogPane::annotateShownCall()
{
    if (!m_shownCall)
        return nullptr;
    const QString uid = m_shownCall->uid;
    return openCallAnnotation(window(), *m_shownCall, m_shownScores,
                              [this, uid](std::optional<CallScore> s) { saveScore(s, uid); });
}

// Keeps (or, with none, removes) a person's score of call `callUid`, off the GUI thread; the
// table and detail show it when it is in.
void PromptLogPane::saveScore(std::optional<CallScore> score, const QString& callUid)
{
    auto store = log();
    if (!store)
        return;
    whenReady(this, QtConcurrent::run([store, score, callUid]() -> QString {
                  Result<bool> done = score ? store->setScore(*score)
                                            : store->removeScore(callUid, QStringLiteral("human"),
                                                                 ScoreSource::Human);
                  return done ? QString() : done.error().message;
              }),
              [this](const QString& error) {
                  if (!error.isEmpty())
                      m_messageBar->showMessage(tr("The score was not kept: %1").arg(error));
                  else
                      Q_EMIT statusMessage(tr("Score kept with the call"), 4000);
                  if (m_shownCall)
                      showDetailOf(m_callsView->currentIndex());
                  refresh();
              });
}

void PromptLogPane::updateTagMenu(const QStringList& tags)
{
    QMenu* menu = m_tagsButton->menu();
    const QStringList chosen =
        m_tags->text().split(QRegularExpression(QStringLiteral("[\\s,]+")), Qt::SkipEmptyParts);
    menu->clear();
    // Checked tags stay listed even when no call carries them any more.
    QStringList all = tags;
    for (const QString& t : chosen)
        if (!all.contains(t))
            all.prepend(t);
    if (all.isEmpty()) {
        menu->addAction(tr("No tags in the log yet"))->setEnabled(false);
        return;
    }
    for (const QString& tag : all) {
        QAction* action = menu->addAction(tag);
        action->setCheckable(true);
        action->setChecked(chosen.contains(tag));
        connect(action, &QAction::toggled, this, [this, tag](bool on) {
            QStringList now = m_tags->text().split(QRegularExpression(QStringLiteral("[\\s,]+")),
                                                   Qt::SkipEmptyParts);
            now.removeAll(tag);
            if (on)
                now.append(tag);
            m_tags->setText(now.join(QLatin1Char(' ')));
            refresh();
        });
    }
}

SeriesRange PromptLogPane::seriesRangeFor(int rangeIndex, int64_t nowMs, QString* bucketLabel)
{
    constexpr int64_t kMinute = 60 * 1000;
    constexpr int64_t kHour = 60 * kMinute;
    constexpr int64_t kDay = 24 * kHour;
    int64_t bucket = kDay;
    int buckets = 30;
    QString label = tr("day");
    switch (rangeIndex) {
    case 1:
        bucket = 5 * kMinute;
        buckets = 12;
        label = tr("5 minutes");
        break;
    case 2:
        bucket = kHour;
        buckets = 24;
        label = tr("hour");
        break;
    case 3:
        bucket = 6 * kHour;
        buckets = 28;
        label = tr("6 hours");
        break;
    default:
        break;
    }
    if (bucketLabel)
        *bucketLabel = label;
    if (rangeIndex < 1 || rangeIndex > 4)
        return SeriesRange::ending(nowMs, bucket, buckets);
    // "The last hour" means exactly that: the buckets end a minute from now (calls that land
    // while the query runs count too) and together span the range.
    SeriesRange range;
    range.bucketMs = bucket;
    range.buckets = buckets;
    range.fromMs = nowMs + kMinute - bucket * buckets;
    return range;
}

QString PromptLogPane::detailHtml(const CallRecord& call)
{
    auto esc = [](const QString& t) {
        return t.toHtmlEscaped();
    };
    auto pre = [&](const QString& t) {
        return QStringLiteral("<div style=\"white-space:pre-wrap\">%1</div>").arg(esc(t));
    };
    QString out;
    auto row = [&](const QString& label, const QString& value) {
        if (!value.isEmpty())
            out += QStringLiteral("<tr><td><b>%1</b></td><td>%2</td></tr>")
                       .arg(esc(label), esc(value));
    };
    auto heading = [&](const QString& title) {
        out += QStringLiteral("<h4 style=\"margin-top:10px;margin-bottom:4px\">%1</h4>")
                   .arg(esc(title));
    };
    out += QStringLiteral("<table cellspacing=\"0\" cellpadding=\"1\">");
    row(tr("Call"), QStringLiteral("#%1").arg(call.id));
    row(tr("Time"), QDateTime::fromMSecsSinceEpoch(call.startedAt)
                        .toLocalTime()
                        .toString(QStringLiteral("yyyy-MM-dd HH:mm:ss.zzz")));
    row(tr("Prompt"), call.programName.isEmpty()
                          ? call.promptName
                          : QStringLiteral("%1 › %2").arg(call.programName, call.promptName));
    row(tr("Model"), call.model);
    row(tr("Answered by"), call.answeredModel() != call.model ? call.answeredModel() : QString());
    row(tr("Endpoint"), call.endpoint);
    row(tr("Tags"), call.tags.join(QStringLiteral(", ")));
    row(tr("Status"), statusName(call.status));
    row(tr("Error"), call.error);
    row(tr("Program"), call.span.line > 0 && !call.programPath.isEmpty()
                           ? QStringLiteral("%1:%2").arg(call.programPath).arg(call.span.line)
                           : call.programPath);
    row(tr("Run"), call.runId);
    row(tr("Origin"), originName(call.origin));
    out += QStringLiteral("</table>");
    if (call.contentOmitted) {
        out +=
            QStringLiteral("<p>%1</p>")
                .arg(esc(tr(
                    "Only this call's metadata was kept (privacy rules): no messages or reply.")));
    } else {
        heading(tr("Messages"));
        for (const QJsonValue& value : call.messages) {
            const QJsonObject message = value.toObject();
            const QString role = message.value(QStringLiteral("role")).toString();
            out += QStringLiteral("<table width=\"100%\" cellpadding=\"6\" "
                                  "style=\"margin-bottom:4px\"><tr><td bgcolor=\"%1\" "
                                  "style=\"color:#1f2328\"><b>[%2]</b>%3</td></tr></table>")
                       .arg(roleColor(role), esc(role),
                            contentHtml(message.value(QStringLiteral("content"))));
        }
        heading(tr("Reply"));
        out += QStringLiteral("<table width=\"100%\" cellpadding=\"6\"><tr><td bgcolor=\"%1\" "
                              "style=\"color:#1f2328\"><b>[assistant]</b>%2</td></tr></table>")
                   .arg(roleColor(QStringLiteral("assistant")), pre(call.reply));
        if (!call.toolCalls.isEmpty()) {
            heading(tr("Tool calls"));
            out += pre(
                QString::fromUtf8(QJsonDocument(call.toolCalls).toJson(QJsonDocument::Indented)));
        }
    }
    if (!call.parameters.isEmpty()) {
        heading(tr("Parameters"));
        out += pre(indentedJson(call.parameters));
    }
    heading(tr("Usage"));
    auto tokens = [](const std::optional<int64_t>& n) {
        return n ? formatCount(*n) : QStringLiteral("–");
    };
    out += QStringLiteral("<table cellspacing=\"0\" cellpadding=\"1\">");
    row(tr("Tokens in"), tokens(call.promptTokens));
    row(tr("Tokens out"), tokens(call.completionTokens));
    if (call.cachedTokens)
        row(tr("Cached tokens"), tokens(call.cachedTokens));
    row(tr("Cost"), call.cost ? formatCost(*call.cost) : QStringLiteral("–"));
    if (call.latencyMs)
        row(tr("Latency"), formatLatency(*call.latencyMs));
    if (call.timeToFirstTokenMs)
        row(tr("First token after"), formatLatency(*call.timeToFirstTokenMs));
    row(tr("Finish reason"), call.finishReason);
    if (call.retries > 0)
        row(tr("Retries"), QString::number(call.retries));
    out += QStringLiteral("</table>");
    return out;
}

QString PromptLogPane::detailText(const CallRecord& call)
{
    QString out;
    auto line = [&out](const QString& label, const QString& value) {
        if (!value.isEmpty())
            out += label + QStringLiteral(": ") + value + QLatin1Char('\n');
    };
    auto heading = [&out](const QString& title) {
        out += QLatin1Char('\n') + title + QLatin1Char('\n') + QString(title.size(), QChar(u'─')) +
               QLatin1Char('\n');
    };
    line(tr("Call"), QStringLiteral("#%1").arg(call.id));
    line(tr("Time"), QDateTime::fromMSecsSinceEpoch(call.startedAt)
                         .toLocalTime()
                         .toString(QStringLiteral("yyyy-MM-dd HH:mm:ss.zzz")));
    line(tr("Prompt"), call.programName.isEmpty()
                           ? call.promptName
                           : QStringLiteral("%1 › %2").arg(call.programName, call.promptName));
    line(tr("Model"), call.model);
    line(tr("Answered by"), call.answeredModel() != call.model ? call.answeredModel() : QString());
    line(tr("Endpoint"), call.endpoint);
    line(tr("Tags"), call.tags.join(QStringLiteral(", ")));
    line(tr("Status"), statusName(call.status));
    line(tr("Error"), call.error);
    line(tr("Program"), call.programPath);
    line(tr("Run"), call.runId);
    line(tr("Origin"), originName(call.origin));

    if (call.contentOmitted) {
        out += QLatin1Char('\n') +
               tr("Only this call's metadata was kept (privacy rules): no messages or reply.") +
               QLatin1Char('\n');
    } else {
        heading(tr("Messages"));
        for (const QJsonValue& value : call.messages) {
            const QJsonObject message = value.toObject();
            out += QStringLiteral("[%1]\n").arg(message.value(QStringLiteral("role")).toString());
            out += contentText(message.value(QStringLiteral("content"))) + QStringLiteral("\n\n");
        }
        heading(tr("Reply"));
        out += call.reply + QLatin1Char('\n');
        if (!call.toolCalls.isEmpty()) {
            heading(tr("Tool calls"));
            out += QString::fromUtf8(QJsonDocument(call.toolCalls).toJson(QJsonDocument::Indented));
        }
    }
    if (!call.parameters.isEmpty()) {
        heading(tr("Parameters"));
        out += indentedJson(call.parameters) + QLatin1Char('\n');
    }
    heading(tr("Usage"));
    auto tokens = [](const std::optional<int64_t>& n) {
        return n ? formatCount(*n) : QStringLiteral("–");
    };
    line(tr("Tokens in"), tokens(call.promptTokens));
    line(tr("Tokens out"), tokens(call.completionTokens));
    if (call.cachedTokens)
        line(tr("Cached tokens"), tokens(call.cachedTokens));
    line(tr("Cost"), call.cost ? formatCost(*call.cost) : QStringLiteral("–"));
    if (call.latencyMs)
        line(tr("Latency"), formatLatency(*call.latencyMs));
    if (call.timeToFirstTokenMs)
        line(tr("First token after"), formatLatency(*call.timeToFirstTokenMs));
    line(tr("Finish reason"), call.finishReason);
    if (call.retries > 0)
        line(tr("Retries"), QString::number(call.retries));
    return out;
}

} // namespace hako
