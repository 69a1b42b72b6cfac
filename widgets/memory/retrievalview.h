#pragma once

#include "core/memory/memorystore.h"
#include "core/util/latestjob.h"

#include <QWidget>

#include <memory>

class QComboBox;
class QDoubleSpinBox;
class QLabel;
class QListWidget;
class QSpinBox;
class QTableView;

namespace hako {

class ComponentBarDelegate;
namespace memory {
class CandidateModel;
}

/// The retrievals of a store: pick one to see every candidate with stacked bars of its weighted
/// components, relevance rank beside prompt order, the cut ones with their reason; change the
/// mode, k, decay or weights and re-run it as a what-if (the store is not touched) to see what
/// was added, removed or moved. Store reads run on worker threads; latest request wins.
class RetrievalView : public QWidget {
    Q_OBJECT
public:
    explicit RetrievalView(QWidget* parent = nullptr);
    ~RetrievalView() override;

    void setStore(std::shared_ptr<memory::MemoryStore> store);
    /// Re-reads the list of retrievals.
    void refresh();
    /// Shows journaled retrieval `seq`.
    void showRetrieval(int64_t seq);
    /// Re-runs the shown retrieval with the parameters in the controls.
    void runWhatIf();

    memory::CandidateModel* candidateModel() const { return m_model; }
    QListWidget* retrievalList() const { return m_list; }
    QString diffSummary() const;
    /// Selects (and shows) the newest listed retrieval made by trace node `nodeId`; false when
    /// the list has none. Does not emit retrievalSelected.
    bool selectRetrievalOfNode(const QString& nodeId);

    /// List item data roles: the journal seq, the calling node's pdl__id, the run id.
    enum Roles { SeqRole = Qt::UserRole, NodeIdRole, RunIdRole };

Q_SIGNALS:
    /// A candidate was activated (double-click): show that memory.
    void memoryActivated(qint64 id);
    void errorOccurred(const QString& message);
    /// A retrieval's candidates are shown (after showRetrieval or runWhatIf).
    void resultShown();
    /// The user picked retrieval `seq` in the list; `nodeId` is the `pdl__id` of the block
    /// that made it during run `runId` (both empty for retrievals made outside a run).
    void retrievalSelected(qint64 seq, const QString& nodeId, const QString& runId);

private:
    void setControls(const memory::RetrievalParams& p);
    memory::RetrievalParams controls() const;
    void display(memory::RetrievalResult result, QHash<int64_t, QString> texts, bool whatIf);

    std::shared_ptr<memory::MemoryStore> m_store;
    QListWidget* m_list;
    QTableView* m_table;
    memory::CandidateModel* m_model;
    ComponentBarDelegate* m_bars;
    QComboBox* m_mode;
    QSpinBox* m_k;
    QDoubleSpinBox* m_decay;
    QDoubleSpinBox* m_weights[3];
    QLabel* m_summary;
    int64_t m_seq = 0;
    std::optional<memory::RetrievalResult> m_original;
    LatestJob m_latest;
    bool m_selectingQuietly = false;
};

} // namespace hako
