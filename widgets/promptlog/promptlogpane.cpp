#include "widgets/promptlog/promptlogpane.h"

#include "core/promptlog/calltablemodel.h"
#include "core/promptlog/promptlog.h"
#include "core/workbench/workbenchcontext.h"
#include "widgets/common/messagebar.h"

#include <QComboBox>
#include <QDateTime>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QJsonDocument>
#include <QLabel>
#include <QLineEdit>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QRegularExpression>
#include <QShortcut>
#include <QSortFilterProxyModel>
#include <QSplitter>
#include <QStackedWidget>
#include <QTabWidget>
#include <QTableView>
#include <QTimer>
#include <QVBoxLayout>
#include <QtConcurrent>

namespace hako {

using namespace promptlog;

namespace {

// What one refresh brings back from the worker thread.
struct Snapshot {
    QString error;
    QList<CallRecord> calls;
    int64_t matching = 0;
    int64_t total = 0;
    QList<StatsRow> stats;
    StatsGroup group = StatsGroup::Prompt;
};

QString contentText(const QJsonValue& content)
{
    if (content.isString())
        return content.toString();
    // Multi-part content ([{type: text, text: …}, …]): the text parts, then the rest as JSON.
    if (content.isArray()) {
        QStringList parts;
        for (const QJsonValue& part : content.toArray()) {
            const QJsonObject o = part.toObject();
            if (o.value(QStringLiteral("type")).toString() == QLatin1String("text"))
                parts << o.value(QStringLiteral("text")).toString();
            else
                parts << QString::fromUtf8(QJsonDocument(o).toJson(QJsonDocument::Compact));
        }
        return parts.join(QLatin1Char('\n'));
    }
    if (content.isNull() || content.isUndefined())
        return {};
    return content.toVariant().toString();
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
      m_status(new QComboBox(this)), m_refresh(new QPushButton(tr("&Refresh"), this)),
      m_summary(new QLabel(this)), m_tabs(new QTabWidget(this)), m_calls(new CallTableModel(this)),
      m_stats(new StatsTableModel(this)), m_callsProxy(new QSortFilterProxyModel(this)),
      m_statsProxy(new QSortFilterProxyModel(this)), m_debounce(new QTimer(this))
{
    setObjectName(QStringLiteral("promptLogPane"));
    setAccessibleName(tr("Prompt log"));

    m_search->setPlaceholderText(tr("Search messages and replies…"));
    m_search->setAccessibleName(tr("Search calls"));
    m_search->setToolTip(tr("Every word (or \"quoted phrase\") must occur in the messages or the "
                            "reply; ignores ASCII case"));
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
    m_refresh->setAccessibleName(tr("Refresh prompt log"));
    m_refresh->setToolTip(tr("List the calls again (Ctrl+R)"));
    m_summary->setAccessibleName(tr("Calls shown"));
    m_summary->setTextInteractionFlags(Qt::TextSelectableByMouse);

    auto* filters = new QHBoxLayout;
    filters->addWidget(m_search, 3);
    filters->addWidget(m_prompt, 1);
    filters->addWidget(m_model, 1);
    filters->addWidget(m_tags, 1);
    filters->addWidget(m_status);
    filters->addWidget(m_refresh);

    // Calls tab: the table (or the empty state) above the selected call's detail.
    m_callsProxy->setSourceModel(m_calls);
    m_callsProxy->setSortRole(CallTableModel::SortRole);
    m_callsView = makeTable(this, m_callsProxy, tr("Model calls"));
    m_callsView->sortByColumn(CallTableModel::Time, Qt::DescendingOrder);
    m_empty = new QLabel(this);
    m_empty->setAlignment(Qt::AlignCenter);
    m_empty->setWordWrap(true);
    m_empty->setAccessibleName(tr("Prompt log status"));
    m_callsStack = new QStackedWidget(this);
    m_callsStack->addWidget(m_callsView);
    m_callsStack->addWidget(m_empty);
    m_detail = new QPlainTextEdit(this);
    m_detail->setReadOnly(true);
    m_detail->setAccessibleName(tr("Call detail"));
    m_detail->setPlaceholderText(tr("Select a call to see its messages, reply and usage."));
    auto* split = new QSplitter(Qt::Vertical, this);
    split->addWidget(m_callsStack);
    split->addWidget(m_detail);
    split->setStretchFactor(0, 3);
    split->setStretchFactor(1, 2);
    split->setChildrenCollapsible(false);
    m_tabs->addTab(split, tr("Calls"));

    // Stats tab: one row per prompt (tag, model, day).
    auto* statsPage = new QWidget(this);
    m_group = new QComboBox(statsPage);
    m_group->setAccessibleName(tr("Group statistics by"));
    m_group->addItem(tr("By prompt"), int(StatsGroup::Prompt));
    m_group->addItem(tr("By tag"), int(StatsGroup::Tag));
    m_group->addItem(tr("By model"), int(StatsGroup::Model));
    m_group->addItem(tr("By day (UTC)"), int(StatsGroup::Day));
    m_statsProxy->setSourceModel(m_stats);
    m_statsProxy->setSortRole(StatsTableModel::SortRole);
    m_statsView = makeTable(statsPage, m_statsProxy, tr("Call statistics"));
    m_statsView->sortByColumn(StatsTableModel::Calls, Qt::DescendingOrder);
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
    m_tabs->addTab(statsPage, m_group->currentText());
    m_tabs->setAccessibleName(tr("Prompt log views"));

    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(4, 4, 4, 4);
    layout->addWidget(m_messageBar);
    layout->addLayout(filters);
    layout->addWidget(m_summary);
    layout->addWidget(m_tabs, 1);
    m_messageBar->hide();

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

    updateEmptyState(-1);
}

PromptLogPane::~PromptLogPane() = default;

void PromptLogPane::setWorkbenchContext(WorkbenchContext* context)
{
    m_context = context;
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
    filter.prompt = m_prompt->text().trimmed();
    filter.model = m_model->text().trimmed();
    filter.tags =
        m_tags->text().split(QRegularExpression(QStringLiteral("[\\s,]+")), Qt::SkipEmptyParts);
    if (const QString status = m_status->currentData().toString(); !status.isEmpty())
        filter.status = statusFromName(status);
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
    const quint64 generation = ++m_generation;
    const CallFilter filter = currentFilter();
    const auto group = StatsGroup(m_group->currentData().toInt());
    m_summary->setText(tr("Loading…"));
    (void)QtConcurrent::run([store, filter, group] {
        Snapshot s;
        s.group = group;
        // A run's last calls may still wait in the writer's queue: let them land first.
        store->flush(2000);
        CallFilter page = filter;
        page.limit = kPageLimit;
        auto calls = store->list(page);
        if (!calls) {
            s.error = calls.error().message;
            return s;
        }
        s.calls = std::move(calls).value();
        if (s.calls.size() < kPageLimit) {
            s.matching = s.calls.size();
        } else if (auto n = store->count(filter)) {
            s.matching = *n;
        } else {
            s.error = n.error().message;
            return s;
        }
        if (auto n = store->count(CallFilter{}))
            s.total = *n;
        if (auto stats = store->stats(group, filter))
            s.stats = std::move(stats).value();
        else
            s.error = stats.error().message;
        return s;
    }).then(this, [this, generation](Snapshot s) {
        if (generation != m_generation)
            return; // a newer query is on its way
        if (!s.error.isEmpty())
            m_messageBar->showMessage(tr("The prompt log cannot be read: %1").arg(s.error));
        else if (m_messageBar->kind() == MessageBar::Kind::Error)
            m_messageBar->clearMessage();
        const qint64 selected =
            m_callsView->currentIndex().data(CallTableModel::IdRole).toLongLong();
        m_calls->setCalls(std::move(s.calls));
        m_stats->setRows(std::move(s.stats), s.group);
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
            const QModelIndex index = m_callsProxy->mapFromSource(m_calls->index(row, 0));
            m_callsView->selectionModel()->setCurrentIndex(
                index, QItemSelectionModel::ClearAndSelect | QItemSelectionModel::Rows);
        } else {
            m_detail->clear();
        }
        const int shown = m_calls->rowCount();
        if (!s.error.isEmpty())
            m_summary->clear();
        else if (s.matching > shown)
            m_summary->setText(tr("Showing newest %1 of %2 calls")
                                   .arg(formatCount(shown), formatCount(s.matching)));
        else if (s.matching == s.total)
            m_summary->setText(s.matching == 1 ? tr("1 call")
                                               : tr("%1 calls").arg(formatCount(s.matching)));
        else
            m_summary->setText(
                tr("%1 of %2 calls match").arg(formatCount(s.matching), formatCount(s.total)));
        updateEmptyState(s.error.isEmpty() ? s.total : -1);
        Q_EMIT refreshed();
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

void PromptLogPane::showDetailOf(const QModelIndex& proxyIndex)
{
    const qint64 id = proxyIndex.data(CallTableModel::IdRole).toLongLong();
    const quint64 generation = ++m_detailGeneration;
    if (!proxyIndex.isValid() || !id) {
        m_detail->clear();
        return;
    }
    auto store = log();
    if (!store)
        return;
    // The table lists calls without their content: read this one's in full.
    (void)QtConcurrent::run([store, id] {
        return store->find(QString::number(id));
    }).then(this, [this, generation, id](Result<CallRecord> call) {
        if (generation != m_detailGeneration)
            return;
        m_detail->setPlainText(call ? detailText(*call)
                                    : tr("This call cannot be read: %1").arg(call.error().message));
        Q_EMIT detailShown(id);
    });
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
    line(tr("Prompt"), call.promptName);
    line(tr("Model"), call.model);
    line(tr("Endpoint"), call.endpoint);
    line(tr("Tags"), call.tags.join(QStringLiteral(", ")));
    line(tr("Status"), statusName(call.status));
    line(tr("Error"), call.error);
    line(tr("Program"), call.programPath);
    line(tr("Run"), call.runId);

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
