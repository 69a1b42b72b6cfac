#include "widgets/memory/memoryinspector.h"

#include "core/workbench/workbenchcontext.h"

#include "core/memory/hashembedding.h"
#include "core/memory/memorytablemodel.h"
#include "core/util/whenready.h"
#include "widgets/common/accessibleparts.h"
#include "widgets/common/messagebar.h"
#include "widgets/memory/memoryhistoryview.h"
#include "widgets/memory/memorytimelineview.h"
#include "widgets/memory/retrievalview.h"
#include "widgets/memory/threadview.h"

#include <QComboBox>
#include <QFileDialog>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QItemSelectionModel>
#include <QLabel>
#include <QLineEdit>
#include <QMessageBox>
#include <QPushButton>
#include <QSpinBox>
#include <QSplitter>
#include <QTabWidget>
#include <QTableView>
#include <QVBoxLayout>
#include <QtConcurrent/QtConcurrentRun>

namespace hako {

using namespace memory;

MemoryInspector::MemoryInspector(QWidget* parent) : QWidget(parent)
{
    m_confirm = [this](const QString& question) {
        return QMessageBox::question(this, tr("Memory"), question) == QMessageBox::Yes;
    };
    m_messages = new MessageBar(this);
    auto* open = new QPushButton(tr("Open store…"), this);
    m_search = new QLineEdit(this);
    m_search->setPlaceholderText(tr("Search text…"));
    m_search->setAccessibleName(tr("Search memories"));
    m_search->setClearButtonEnabled(true);
    m_similar = new QLineEdit(this);
    m_similar->setPlaceholderText(tr("Similar to… (Enter)"));
    m_similar->setAccessibleName(tr("Memories similar to"));
    m_similar->setClearButtonEnabled(true);
    m_provider = std::make_shared<HashEmbeddingProvider>();
    m_kind = new QComboBox(this);
    m_kind->setAccessibleName(tr("Memory kind"));
    m_kind->addItem(tr("All kinds"));
    for (Kind k : {Kind::Observation, Kind::Insight, Kind::Reflection, Kind::Chat, Kind::Summary})
        m_kind->addItem(kindName(k), int(k));
    m_state = new QComboBox(this);
    m_state->setAccessibleName(tr("Memory state"));
    m_state->addItem(tr("All states"));
    for (State s : {State::Active, State::Archived, State::Deleted})
        m_state->addItem(stateName(s), int(s));
    m_minImportance = new QSpinBox(this);
    m_minImportance->setAccessibleName(tr("Minimum importance"));
    m_minImportance->setRange(1, 10);
    m_minImportance->setPrefix(tr("importance ≥ "));
    auto* archive = new QPushButton(tr("Archive"), this);
    auto* remove = new QPushButton(tr("Delete"), this);
    m_count = new QLabel(this);
    auto* bar = new QHBoxLayout;
    bar->addWidget(open);
    bar->addWidget(m_search, 1);
    bar->addWidget(m_similar, 1);
    bar->addWidget(m_kind);
    bar->addWidget(m_state);
    bar->addWidget(m_minImportance);
    bar->addWidget(archive);
    bar->addWidget(remove);
    bar->addWidget(m_count);

    m_model = new MemoryTableModel(this);
    m_proxy = new MemoryFilterProxy(this);
    m_proxy->setSourceModel(m_model);
    m_table = new QTableView(this);
    m_table->setAccessibleName(tr("Memories"));
    m_table->setModel(m_proxy);
    m_table->setSortingEnabled(true);
    m_table->sortByColumn(MemoryTableModel::Id, Qt::AscendingOrder);
    m_table->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_table->setSelectionMode(QAbstractItemView::ExtendedSelection);
    m_table->verticalHeader()->hide();
    // Uniform rows keep scrolling through 100,000 memories cheap.
    m_table->verticalHeader()->setSectionResizeMode(QHeaderView::Fixed);
    // The text is what a reader came for: right after the id and taking the spare width; the
    // narrow columns keep compact widths so that it is readable when the pane opens.
    QHeaderView* header = m_table->horizontalHeader();
    header->setStretchLastSection(false);
    header->moveSection(MemoryTableModel::Text, 1);
    header->setSectionResizeMode(MemoryTableModel::Text, QHeaderView::Stretch);
    header->setMinimumSectionSize(36);
    for (auto [column, width] : {std::pair{MemoryTableModel::Id, 48},
                                 {MemoryTableModel::Kind, 80},
                                 {MemoryTableModel::State, 70},
                                 {MemoryTableModel::Importance, 44},
                                 {MemoryTableModel::Created, 130},
                                 {MemoryTableModel::LastAccessed, 130},
                                 {MemoryTableModel::AccessCount, 44},
                                 {MemoryTableModel::Agent, 80}})
        header->resizeSection(column, width);
    m_table->setWordWrap(false);

    m_retrievals = new RetrievalView(this);
    m_history = new MemoryHistoryView(this);
    m_tabs = new QTabWidget(this);
    m_tabs->addTab(m_retrievals, tr("Retrievals"));
    m_tabs->addTab(m_history, tr("History && provenance"));
    m_timeline = new MemoryTimelineView(this);
    m_tabs->addTab(m_timeline, tr("Timeline"));
    m_thread = new ThreadView(this);
    m_tabs->addTab(m_thread, tr("Thread"));

    auto* split = new QSplitter(Qt::Horizontal, this);
    split->addWidget(m_table);
    split->addWidget(m_tabs);
    split->setStretchFactor(0, 2);
    split->setStretchFactor(1, 3);
    split->setSizes({560, 740});
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(2, 2, 2, 2);
    layout->addWidget(m_messages);
    layout->addLayout(bar);
    layout->addWidget(split, 1);

    connect(open, &QPushButton::clicked, this, [this] {
        const QString path = QFileDialog::getOpenFileName(
            this, tr("Open memory store"), QString(),
            tr("Memory stores (*.hakomem *.sqlite *.db);;All files (*)"));
        if (!path.isEmpty())
            openStore(path);
    });
    connect(archive, &QPushButton::clicked, this, &MemoryInspector::archiveSelected);
    connect(remove, &QPushButton::clicked, this, &MemoryInspector::deleteSelected);
    connectViews();
    m_history->setConfirm(m_confirm);
    // Qt's own parts (clear and corner buttons, combo box text) get names too.
    AccessibleParts::name(this);
}

void MemoryInspector::connectViews()
{
    connect(m_search, &QLineEdit::textChanged, m_proxy, &MemoryFilterProxy::setSearchText);
    connect(m_similar, &QLineEdit::returnPressed, this,
            [this] { semanticSearch(m_similar->text()); });
    connect(m_similar, &QLineEdit::textChanged, this, [this](const QString& t) {
        if (t.isEmpty())
            semanticSearch({});
    });
    connect(m_kind, &QComboBox::currentIndexChanged, this, [this](int i) {
        m_proxy->setKind(i > 0 ? std::optional<Kind>(Kind(m_kind->itemData(i).toInt()))
                               : std::nullopt);
    });
    connect(m_state, &QComboBox::currentIndexChanged, this, [this](int i) {
        m_proxy->setState(i > 0 ? std::optional<State>(State(m_state->itemData(i).toInt()))
                                : std::nullopt);
    });
    connect(m_minImportance, &QSpinBox::valueChanged, m_proxy,
            &MemoryFilterProxy::setMinImportance);
    // "12 of 40": the memories shown of those in the store.
    auto count = [this] {
        m_count->setText(tr("%1 of %2").arg(m_proxy->rowCount()).arg(m_model->rowCount()));
    };
    connect(m_proxy, &QAbstractItemModel::rowsInserted, this, count);
    connect(m_proxy, &QAbstractItemModel::modelReset, this, count);
    connect(m_proxy, &QAbstractItemModel::rowsRemoved, this, count);
    connect(m_table->selectionModel(), &QItemSelectionModel::currentRowChanged, this,
            [this](const QModelIndex& current) {
                if (current.isValid())
                    m_history->showMemory(current.data(MemoryTableModel::IdRole).toLongLong());
            });
    connect(m_retrievals, &RetrievalView::memoryActivated, this, [this](qint64 id) {
        selectMemory(id);
        m_tabs->setCurrentWidget(m_history);
    });
    connect(m_history, &MemoryHistoryView::memoryActivated, this,
            [this](qint64 id) { selectMemory(id); });
    connect(m_history, &MemoryHistoryView::memoryChanged, this, [this] { reload(); });
    connect(m_retrievals, &RetrievalView::errorOccurred, this, &MemoryInspector::showError);
    connect(m_retrievals, &RetrievalView::retrievalSelected, this,
            [this](qint64, const QString& nodeId, const QString&) {
                if (m_context && !nodeId.isEmpty())
                    m_context->setCurrentNode(nodeId, this);
            });
    connect(m_history, &MemoryHistoryView::errorOccurred, this, &MemoryInspector::showError);
    connect(m_thread, &ThreadView::errorOccurred, this, &MemoryInspector::showError);
}

MemoryInspector::~MemoryInspector() = default;

void MemoryInspector::setWorkbenchContext(WorkbenchContext* context)
{
    if (m_context)
        disconnect(m_context, nullptr, this, nullptr);
    m_context = context;
    if (!context)
        return;
    connect(context, &WorkbenchContext::currentNodeChanged, this,
            [this](const QString& id, QObject* origin) {
                if (origin != this)
                    m_retrievals->selectRetrievalOfNode(id);
            });
    // A run just ended: show what it changed in the store.
    connect(context, &WorkbenchContext::runningChanged, this, [this](bool running) {
        if (!running && m_store)
            reload();
    });
    context->setMemoryStore(m_store, this);
}

WorkbenchContext* MemoryInspector::workbenchContext() const
{
    return m_context;
}

void MemoryInspector::setConfirm(Confirm confirm)
{
    m_confirm = std::move(confirm);
    m_history->setConfirm(m_confirm);
}

void MemoryInspector::setEmbeddingProvider(std::shared_ptr<models::IModelProvider> provider)
{
    m_provider = std::move(provider);
}

void MemoryInspector::semanticSearch(const QString& query, int limit)
{
    if (query.trimmed().isEmpty() || !m_store) {
        m_latestSearch.invalidate();
        m_proxy->setIdFilter(std::nullopt);
        return;
    }
    auto store = m_store;
    auto provider = m_provider;
    const LatestJob::Ticket ticket = m_latestSearch.start();
    whenReady(this, QtConcurrent::run([store, provider, query, limit]() -> Result<RetrievalRecord> {
                  const QString model = store->embeddingModel();
                  if (model.isEmpty())
                      return makeError(tr("This store has no embeddings to search."));
                  if (!provider)
                      return makeError(tr("No model provider for '%1'.").arg(model));
                  auto v = embedOne(*provider, model, query);
                  if (!v)
                      return v.error();
                  RetrievalParams p;
                  p.k = limit;
                  p.whatIf = true;
                  return store->retrieve(query, *v, model, p, {});
              }),
              [this, ticket](Result<RetrievalRecord> r) {
                  if (!m_latestSearch.isCurrent(ticket))
                      return;
                  if (!r) {
                      showError(r.error().message);
                      return;
                  }
                  QSet<int64_t> ids;
                  for (const Candidate& c : r->result.candidates) {
                      if (c.selected())
                          ids.insert(c.input.id);
                  }
                  m_proxy->setIdFilter(ids);
                  Q_EMIT semanticSearchDone(int(ids.size()));
              });
}

void MemoryInspector::showError(const QString& message)
{
    m_messages->showMessage(message, MessageBar::Kind::Error);
}

void MemoryInspector::openStore(const QString& path)
{
    const LatestJob::Ticket ticket = m_latest.start();
    whenReady(
        this, QtConcurrent::run([path] {
            Result<std::shared_ptr<MemoryStore>> store = MemoryStore::open(path);
            // A damaged store is still worth reading: open it read-only and say so.
            if (!store && store.error().message.contains(QLatin1String("quick check"))) {
                StoreOptions readOnly;
                readOnly.readOnly = true;
                if (auto r = MemoryStore::open(path, readOnly))
                    return r;
            }
            return store;
        }),
        [this, ticket](Result<std::shared_ptr<MemoryStore>> store) {
            if (!m_latest.isCurrent(ticket))
                return;
            if (!store) {
                showError(store.error().message);
                return;
            }
            setStore(*store);
            if (!m_store->integrityProblem().isEmpty())
                m_messages->showMessage(
                    tr("This memory store is damaged (SQLite's quick check: %1). It is open "
                       "read-only: browse it and export what can be read, then import the export "
                       "into a new store.")
                        .arg(m_store->integrityProblem()),
                    MessageBar::Kind::Warning);
            else if (m_store->isReadOnly())
                m_messages->showMessage(tr("You may only read this memory store: it is open "
                                           "read-only."),
                                        MessageBar::Kind::Information);
        });
}

void MemoryInspector::setStore(std::shared_ptr<MemoryStore> store)
{
    m_store = std::move(store);
    if (m_context)
        m_context->setMemoryStore(m_store, this);
    m_messages->clearMessage();
    m_retrievals->setStore(m_store);
    m_history->setStore(m_store);
    reload();
}

void MemoryInspector::reload()
{
    if (!m_store) {
        m_model->setSnapshot({});
        return;
    }
    const LatestJob::Ticket ticket = m_latest.start();
    auto store = m_store;
    struct Snapshot {
        Result<std::vector<MemoryRecord>> records = std::vector<MemoryRecord>();
        std::vector<TimelineEvent> timeline;
    };
    whenReady(this, QtConcurrent::run([store]() {
                  Snapshot snap;
                  std::vector<MemoryRecord> all;
                  MemoryFilter f;
                  for (State s : {State::Active, State::Archived, State::Deleted}) {
                      f.state = s;
                      auto part = store->list(f);
                      if (!part) {
                          snap.records = part.error();
                          return snap;
                      }
                      all.insert(all.end(), part->begin(), part->end());
                  }
                  std::sort(
                      all.begin(), all.end(),
                      [](const MemoryRecord& a, const MemoryRecord& b) { return a.id < b.id; });
                  auto accesses = store->journal(0, -1, QStringLiteral("access"));
                  if (accesses)
                      snap.timeline = buildTimeline(all, *accesses);
                  snap.records = std::move(all);
                  return snap;
              }),
              [this, ticket](Snapshot snap) {
                  if (!m_latest.isCurrent(ticket))
                      return;
                  if (!snap.records) {
                      showError(snap.records.error().message);
                      return;
                  }
                  m_model->setSnapshot(std::move(*snap.records));
                  m_timeline->setEvents(std::move(snap.timeline), m_threshold);
                  // The header samples at most 1,000 rows (resizeContentsPrecision), so this stays
                  // cheap at 100,000 memories; the text column keeps the remaining width.
                  for (int c = 0; c < MemoryTableModel::Text; ++c)
                      m_table->resizeColumnToContents(c);
                  m_retrievals->refresh();
                  if (m_pendingSelection) {
                      selectMemory(m_pendingSelection);
                      m_pendingSelection = 0;
                  }
                  Q_EMIT loaded();
              });
}

std::vector<int64_t> MemoryInspector::selectedIds() const
{
    std::vector<int64_t> ids;
    for (const QModelIndex& i : m_table->selectionModel()->selectedRows())
        ids.push_back(i.data(MemoryTableModel::IdRole).toLongLong());
    std::sort(ids.begin(), ids.end());
    return ids;
}

void MemoryInspector::archiveSelected()
{
    changeState(State::Archived, tr("Archive"));
}

void MemoryInspector::deleteSelected()
{
    changeState(State::Deleted, tr("Delete"));
}

void MemoryInspector::changeState(State state, const QString& verb)
{
    const std::vector<int64_t> ids = selectedIds();
    if (!m_store || ids.empty())
        return;
    if (m_confirm &&
        !m_confirm(tr("%1 %n memories? The journal keeps their history.", nullptr, int(ids.size()))
                       .arg(verb)))
        return;
    auto store = m_store;
    whenReady(this, QtConcurrent::run([store, ids, state] {
                  return store->setState(
                      ids, state,
                      {Actor::User, QStringLiteral("changed in the inspector"), {}, {}});
              }),
              [this](Result<int> changed) {
                  if (!changed)
                      showError(changed.error().message);
                  reload();
              });
}

void MemoryInspector::selectMemory(int64_t id)
{
    const int row = m_model->rowOf(id);
    if (row < 0) {
        m_pendingSelection = id;
        return;
    }
    const QModelIndex index = m_proxy->mapFromSource(m_model->index(row, 0));
    if (!index.isValid()) {
        showError(tr("Memory %1 is hidden by the current filter.").arg(id));
        m_history->showMemory(id);
        return;
    }
    m_table->selectionModel()->setCurrentIndex(index, QItemSelectionModel::ClearAndSelect |
                                                          QItemSelectionModel::Rows);
    m_table->scrollTo(index);
}

} // namespace hako
