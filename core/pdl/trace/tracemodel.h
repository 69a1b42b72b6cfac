#pragma once

#include "core/pdl/interp/tracenode.h"
#include "core/pdl/trace/itemindex.h"

#include <QAbstractItemModel>
#include <QHash>
#include <QString>

#include <memory>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

namespace hako::pdl {

/// The name of the field of its parent an item is in (`text`, `then`, `pdl__trace`, `defs`…),
/// kept once per distinct name for the whole program: a million items share the few there are.
/// Reads as the std::string it names.
class FieldName {
public:
    FieldName() = default;
    explicit FieldName(const std::string& name);
    FieldName& operator=(const std::string& name) { return *this = FieldName(name); }
    const std::string& str() const { return m_name ? *m_name : none(); }
    operator const std::string&() const { return str(); }
    bool empty() const { return !m_name || m_name->empty(); }
    bool operator==(std::string_view other) const { return str() == other; }
    bool operator==(const FieldName& other) const { return str() == other.str(); }

private:
    static const std::string& none();
    const std::string* m_name = nullptr;
};

/// One node of the trace the workbench shows: a snapshot of an executed (or still running)
/// block. `node` holds the block's own data (kind, id, span, result, timing, expressions, model
/// messages, code output, error); its `children` and `defs` are always empty, the tree is
/// `children` here (defs first, then the children of every field in execution order).
struct TraceItem {
    /// An item with a node of its own (filled in by assignment).
    TraceItem() : TraceItem(std::make_shared<TraceNode>()) {}
    /// An item showing `held` (a node nothing else changes: a snapshot, or a node of a tree
    /// given to TraceModel::takeTrace).
    explicit TraceItem(TracePtr held) : m_held(std::move(held)), node(*m_held) {}
    TraceItem(const TraceItem&) = delete;
    TraceItem& operator=(const TraceItem&) = delete;

private:
    TracePtr m_held;
    std::unique_ptr<std::string> m_streamed;

public:
    /// The block's own data; `children` and `defs` stay empty (the tree is `children` below).
    TraceNode& node;
    /// The parent's field holding this node: `text`, `then`, `pdl__trace`, `defs` … (empty at
    /// the root; during a live run known only once the run ends).
    FieldName field;
    TraceItem* parent = nullptr;
    std::vector<std::unique_ptr<TraceItem>> children;
    int row = 0; ///< index in parent->children
    /// Still executing (live runs): no result yet; streamed() holds model output so far.
    bool running = false;
    /// The run was stopped while this block executed: it will never finish.
    bool cancelled = false;
    /// The model output streamed so far while running (kept apart: most items never stream).
    const std::string& streamed() const;
    void addStreamed(const std::string& delta);
    void clearStreamed() { m_streamed.reset(); }

    /// The `def` name, else the kind (what a box or tree row is labelled with).
    QString label() const;
    bool failed() const { return !node.error.empty(); }
    /// The text shown for the result: the stringified result, the streamed text while running,
    /// or the error message.
    QString resultText() const;
    /// Depth below the root (0 for the root).
    int depth() const;
};

/// The trace of one run as a tree model: filled from a finished trace (a file written by Hako or
/// the reference interpreter, or a run's RunResult::trace) or incrementally while a run executes
/// (TraceFeed delivers the interpreter's events in batches). Every view of a trace — boxes,
/// tree, timeline, detail, variables — reads this one model. GUI thread only.
///
/// Columns: Name (label), Kind, Result (first line), Duration. Items stay valid until the model
/// is cleared or reset (modelAboutToBeReset), so views may keep `const TraceItem*`.
class TraceModel : public QAbstractItemModel {
    Q_OBJECT
public:
    enum Column { NameColumn, KindColumn, ResultColumn, DurationColumn, ColumnCount };
    enum Role {
        ItemRole = Qt::UserRole + 1, ///< const TraceItem* as quintptr
        KindRole,                    ///< kind name (QString)
        IdRole,                      ///< pdl__id (QString)
        DefRole,                     ///< def name (QString, may be empty)
        ResultTextRole,              ///< full result text (QString)
        RunningRole,                 ///< bool
        FailedRole,                  ///< bool
        StartNanosRole,              ///< qint64
        EndNanosRole,                ///< qint64
        SpanLineRole,                ///< int, 0 when the node has no location
    };
    Q_ENUM(Role)

    explicit TraceModel(QObject* parent = nullptr);
    ~TraceModel() override;

    /// Empties the model.
    void clear();
    /// Replaces the content with a finished trace. `source` names where it came from (a trace
    /// file or a program) for display. The tree is copied: the caller may go on using it.
    void setTrace(const TracePtr& root, const QString& source = {});
    /// setTrace for a caller done with the tree (`root` is emptied): nodes that nothing else
    /// holds become the model's items as they are, without a copy of their text and values, and
    /// the tree is gone when this returns (nodes shared with another holder are copied). A
    /// million-span trace then needs no second million nodes, nor the time to fill them.
    void takeTrace(TracePtr&& root, const QString& source = {});
    /// Starts a live run of `programFile`: empties the model and waits for events.
    void beginLiveRun(const QString& programFile);
    /// The run ended: fills in what only the finished tree knows (each node's field) and stops
    /// expecting events. `finalTrace` may be null (tracing off or the run failed early). Blocks
    /// still running (the run was stopped) end as cancelled.
    void endLiveRun(const TracePtr& finalTrace);
    bool isLive() const { return m_live; }
    QString source() const { return m_source; }
    /// Renames where the content comes from (a live view whose title changes) without a reset.
    void setSource(const QString& source) { m_source = source; }

    /// A batch of live events, applied in order: an interpreter's (see TraceFeed) or received
    /// spans' (see otel::OtelLiveFeed). Rows are inserted with one beginInsertRows per parent
    /// and batch. A second Started for a known node is a retry: the failed attempt's children
    /// are removed, as the finished trace drops them.
    ///
    /// Placed (received spans, whose parents may come later and whose order is by start time,
    /// not arrival): item `serial` belongs at `row` under `parent` (0: the top level) — created
    /// there when new, moved there (beginMoveRows) when elsewhere, its data replaced when
    /// `withNode`. A batch's Placed events come in tree order (a parent before its children,
    /// siblings by row), so the rows before `row` are already in place. Removed: item `serial`
    /// goes, with whatever is still under it. Items keep their identity, so views keep their
    /// expansion, selection and persistent indexes.
    struct Event {
        enum class Type { Started, Finished, Delta, Placed, Removed } type = Type::Started;
        TraceNode node;      ///< Started/Finished (and Placed withNode): no children, no defs
        uint64_t serial = 0; ///< Delta: the block receiving text; Placed/Removed: the item
        std::string delta;
        uint64_t parent = 0; ///< Placed: the parent item (0: top level)
        int row = 0;         ///< Placed: the row under the parent
        std::string field;   ///< Placed: the parent's field holding it
        bool withNode = false;
    };
    void applyEvents(std::vector<Event> events);

    const TraceItem* root() const { return m_root; }
    int itemCount() const { return m_count; }
    const TraceItem* itemAt(const QModelIndex& index) const;
    QModelIndex indexOf(const TraceItem* item, int column = 0) const;
    /// The first node with this `pdl__id` (ids are unique in a run), or null.
    const TraceItem* findById(const QString& id) const;
    /// The innermost blocks whose source span contains (line, column) of `file` (empty `file`
    /// matches any): every execution of that block (all iterations of a loop), in tree order.
    std::vector<const TraceItem*> itemsAtSource(const QString& file, int line, int column) const;

    // QAbstractItemModel
    QModelIndex index(int row, int column, const QModelIndex& parent = {}) const override;
    QModelIndex parent(const QModelIndex& child) const override;
    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation,
                        int role = Qt::DisplayRole) const override;
    QHash<int, QByteArray> roleNames() const override;

Q_SIGNALS:
    /// Text arrived for a model block (also reported as dataChanged; the block may have
    /// finished in the same batch).
    void itemStreamed(const hako::pdl::TraceItem* item);
    /// A live run ended (endLiveRun).
    void liveRunEnded();

private:
    void adopt(TraceItem* item);
    void restartItem(TraceItem* item, TraceNode node, std::vector<const TraceItem*>& removed);
    void forget(const TraceItem* item, std::vector<const TraceItem*>& removed);
    void flushPending();
    void startItem(Event& e, std::vector<TraceItem*>& changed, std::vector<TraceItem*>& streamed);
    void placeItem(Event& e, std::vector<TraceItem*>& changed);
    void moveItem(TraceItem* item, TraceItem* parent, int row);
    void removeItem(uint64_t serial, std::vector<const TraceItem*>& removed);
    void flushPlacing();
    void setNode(TraceItem* item, TraceNode&& node, uint64_t serial);
    TraceItem* itemWithId(std::string_view id) const;
    void indexId(TraceItem* item);
    /// Takes `item` out of the ids; with `keepFormer`, its id (if it was the one found) stays
    /// an alias of it, for its node is about to get another id.
    void unindexId(const TraceItem* item, bool keepFormer);
    /// Gives `item` another node, keeping the id it had as an alias when that changes.
    void replaceNode(TraceItem* item, TraceNode&& node);
    QModelIndex parentIndex(const TraceItem* parent) const;
    void resetTo(TracePtr root, bool take, const QString& source);
    bool isShown(const TraceItem* item) const;

    // The model shows the run's root block as its single top-level row; m_top is an invisible
    // holder so that the root has a parent like every other item.
    std::unique_ptr<TraceItem> m_top;
    TraceItem* m_root = nullptr;
    int m_count = 0;
    bool m_live = false;
    QString m_source;
    // Items by their block's id, first come first kept. Keyed by the id's hash, checked against
    // the item's own id, so a million spans do not keep a second copy of every id; an id a
    // block had before it was retried (`….retry1`) still finds it through m_formerIds.
    ItemIndex<TraceItem> m_byId;
    std::unordered_map<std::string, TraceItem*> m_formerIds;
    std::unordered_map<uint64_t, TraceItem*> m_bySerial;
    // Live insertion: children that arrived in the current batch for already visible parents.
    std::vector<std::pair<TraceItem*, std::vector<std::unique_ptr<TraceItem>>>> m_pending;
    // Placed items of the current batch waiting to be inserted together at m_placeAt.
    TraceItem* m_placeParent = nullptr;
    int m_placeAt = 0;
    std::vector<std::unique_ptr<TraceItem>> m_placing;
};

/// Copies the block's own data from `node` (everything but children and defs).
TraceNode traceSnapshot(const TraceNode& node);

} // namespace hako::pdl
