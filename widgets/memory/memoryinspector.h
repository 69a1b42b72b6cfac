#pragma once

#include "core/memory/memorystore.h"
#include "core/util/latestjob.h"

#include <QPointer>
#include <QWidget>

#include <functional>
#include <memory>

class QComboBox;
class QLabel;
class QLineEdit;
class QSpinBox;
class QTableView;
class QTabWidget;

namespace hako {

namespace models {
class IModelProvider;
}
class MessageBar;
class WorkbenchContext;
class MemoryHistoryView;
class RetrievalView;
class ThreadView;
class MemoryTimelineView;
namespace memory {
class MemoryFilterProxy;
class MemoryTableModel;
} // namespace memory

/// The agent-memory inspector pane: the memory table (sort, filter by kind/state/importance,
/// full-text search, bulk archive/delete with confirmation), the retrievals with their
/// candidates and what-if re-runs, and the selected memory's history and provenance.
/// Store work runs on worker threads; errors show in the message bar. GUI thread only.
class MemoryInspector : public QWidget {
    Q_OBJECT
public:
    using Confirm = std::function<bool(const QString& question)>;

    explicit MemoryInspector(QWidget* parent = nullptr);
    ~MemoryInspector() override;

    /// Opens the store file off the GUI thread; `loaded` is emitted when shown.
    void openStore(const QString& path);
    void setStore(std::shared_ptr<memory::MemoryStore> store);
    /// Connects the pane to the workbench bus (not owned; may be null to disconnect): picking
    /// a retrieval made during a run selects the trace node that made it
    /// (context->setCurrentNode(nodeId, this)), and selecting a trace node elsewhere shows
    /// that node's latest retrieval. The pane publishes its store there (runs get `memory`
    /// over it) and reloads when a run ends.
    void setWorkbenchContext(WorkbenchContext* context);
    WorkbenchContext* workbenchContext() const;
    std::shared_ptr<memory::MemoryStore> store() const { return m_store; }
    /// Replaces the confirmation dialog (tests answer without blocking).
    void setConfirm(Confirm confirm);
    /// Re-reads the memories and retrievals.
    void reload();

    /// The provider that embeds semantic-search queries (default: the built-in hash model).
    void setEmbeddingProvider(std::shared_ptr<models::IModelProvider> provider);
    /// Shows only the `limit` memories most similar to `query` (cosine with the store's
    /// embedding model; a what-if retrieval, so the store is untouched). Empty query clears.
    void semanticSearch(const QString& query, int limit = 50);
    QLineEdit* similarField() const { return m_similar; }

    /// Archives or deletes the memories selected in the table, after confirmation.
    void archiveSelected();
    void deleteSelected();
    /// Selects memory `id` in the table and shows its history.
    void selectMemory(int64_t id);

    QTableView* table() const { return m_table; }
    memory::MemoryTableModel* model() const { return m_model; }
    memory::MemoryFilterProxy* proxy() const { return m_proxy; }
    QLineEdit* searchField() const { return m_search; }
    QTabWidget* tabs() const { return m_tabs; }
    RetrievalView* retrievalView() const { return m_retrievals; }
    MemoryHistoryView* historyView() const { return m_history; }
    MemoryTimelineView* timelineView() const { return m_timeline; }
    ThreadView* threadView() const { return m_thread; }
    /// The reflection threshold the timeline draws (default 150).
    void setReflectionThreshold(int64_t threshold) { m_threshold = threshold; }
    MessageBar* messageBar() const { return m_messages; }

Q_SIGNALS:
    /// The table holds a fresh snapshot.
    void loaded();
    /// A semantic search finished; the table shows its `hits`.
    void semanticSearchDone(int hits);

private:
    /// The filters, the count, and the table, history, retrievals and thread views kept in
    /// step (constructor).
    void connectViews();
    void changeState(memory::State state, const QString& verb);
    std::vector<int64_t> selectedIds() const;
    void showError(const QString& message);

    std::shared_ptr<memory::MemoryStore> m_store;
    QPointer<WorkbenchContext> m_context;
    Confirm m_confirm;
    MessageBar* m_messages;
    QLineEdit* m_search;
    QLineEdit* m_similar;
    std::shared_ptr<models::IModelProvider> m_provider;
    QComboBox* m_kind;
    QComboBox* m_state;
    QSpinBox* m_minImportance;
    QLabel* m_count;
    QTableView* m_table;
    memory::MemoryTableModel* m_model;
    memory::MemoryFilterProxy* m_proxy;
    QTabWidget* m_tabs;
    RetrievalView* m_retrievals;
    MemoryHistoryView* m_history;
    MemoryTimelineView* m_timeline;
    ThreadView* m_thread;
    int64_t m_threshold = 150;
    LatestJob m_latest;       // loads: the latest wins
    LatestJob m_latestSearch; // semantic searches: the latest wins
    int64_t m_pendingSelection = 0;
};

} // namespace hako
