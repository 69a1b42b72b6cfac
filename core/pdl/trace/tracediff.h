#pragma once

#include "core/pdl/interp/tracenode.h"
#include "core/util/worddiff.h"

#include <QJsonObject>
#include <QString>
#include <QStringList>

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace hako::pdl {

struct TraceItem;

/// One run of a trace's word diffs (the one engine's segments, core/util/worddiff.h).
using WordChange = WordDiffSegment;

/// Durations, tokens and cost of one side of a node (own, or summed over its subtree).
struct TraceMeasures {
    /// End minus start in nanoseconds; -1 when the trace has no timing for the node.
    int64_t durationNanos = -1;
    int64_t promptTokens = 0;
    int64_t completionTokens = 0;
    bool hasTokens = false; ///< some `pdl__usage` was recorded
    double cost = 0;
    bool hasCost = false; ///< some usage carried a `cost`
    int64_t tokens() const { return promptTokens + completionTokens; }
};

/// The node's own duration, tokens and cost (from its `pdl__usage`).
TraceMeasures ownMeasures(const TraceNode* n);

/// One message of a model block's prompt diff (`pdl__model_input`, message by message).
struct MessageDiff {
    enum class Status { Same, Changed, Inserted, Deleted };
    Status status = Status::Same;
    int leftIndex = -1; ///< index in the left input (-1 when inserted)
    int rightIndex = -1;
    QString role;
    QString leftText;
    QString rightText;
    std::vector<WordChange> words; ///< Changed: the content's word diff
};

/// One evaluated field of a block (`model`, `parameters`, `args`…) whose value differs.
struct ExpressionDiff {
    QString name;
    QString left; ///< the value as JSON (empty when the left block has no such field)
    QString right;
};

/// Compares two traces (two runs of a program, a fork and its original, two OpenTelemetry
/// traces). The trees are aligned: under each pair of matched nodes, the children of each field
/// (defs first, then `text`, `then`, …) are aligned with a shortest edit script over node
/// signatures — first the exact subtree (kind, def, source position, content), then kind, def
/// and source position in what is left, then kind and def — so an inserted or deleted block
/// shows as such and its siblings stay matched. A matched pair is Changed when its own outcome
/// differs (result, error, prompt sent, evaluated expressions, code output); timings, token
/// counts, cost and source locations never count as a difference, they are reported as deltas.
///
/// Immutable once built; keeps both trees alive. Build on any thread (the traces must not be
/// modified meanwhile), then read from any thread. A 100,000-node pair diffs in well under 2 s.
class TraceDiff {
public:
    enum class Status : uint8_t { Same, Changed, Inserted, Deleted };
    /// What differs on a Changed pair (a bit set).
    enum Change : uint32_t {
        ResultChanged = 1,
        ErrorChanged = 2,
        PromptChanged = 4,      ///< the messages sent to the model
        ExpressionsChanged = 8, ///< evaluated fields (model name, parameters, arguments…)
        OutputChanged = 16,     ///< a code block's stdout/stderr
        /// Not compared in full: the blocks below nest deeper than kMaxCompareDepth (or than
        /// the stack allows), or a value of the pair was too deeply nested for the trace to
        /// hold. Never taken as "same".
        NotCompared = 32,
    };
    /// How many levels of blocks are compared (the trace reader keeps 2,000 levels).
    static constexpr int kMaxCompareDepth = 2000;

    /// One aligned row: a node of the left trace, of the right one, or both.
    struct Node {
        const TraceNode* left = nullptr;
        const TraceNode* right = nullptr;
        std::string field; ///< the parent's field holding the node (`defs`, `text`, …)
        QString path;      ///< the node's `pdl__id` (right's, else left's) or a made-up path
        Status status = Status::Same;
        uint32_t changes = 0;
        bool descendantsDiffer = false; ///< some node below is not Same
        int parent = -1;                ///< index of the parent row (-1 at the root)
        int row = 0;                    ///< index among the parent's children
        std::vector<int> children;
        TraceMeasures leftOwn, rightOwn;         ///< this node alone
        TraceMeasures leftSubtree, rightSubtree; ///< tokens and cost summed over the subtree
        /// Whether this row or anything below it differs.
        bool differs() const { return status != Status::Same || descendantsDiffer; }
    };

    struct Counts {
        int same = 0;
        int changed = 0; ///< NotCompared rows included
        int inserted = 0;
        int deleted = 0;
        int notCompared = 0;     ///< rows with NotCompared
        int onlyNotCompared = 0; ///< rows whose one change is NotCompared
    };

    TraceDiff() = default;
    /// Aligns `left` and `right` (either may be null: everything inserted or deleted). A node
    /// replayed on one side only (a re-run's prefix) is compared by its own data; the blocks
    /// the other side ran to build its prompt are not rows.
    static TraceDiff compare(TracePtr left, TracePtr right);

    bool isEmpty() const { return m_nodes.empty(); }
    /// True when the runs are the same apart from timings (and token counts and cost): false
    /// when some part could not be compared.
    bool isSame() const { return m_counts.changed + m_counts.inserted + m_counts.deleted == 0; }
    /// True when nothing was found to differ but some part could not be compared (NotCompared):
    /// whether the runs are the same is not known.
    bool isUndetermined() const
    {
        return m_counts.notCompared > 0 && m_counts.onlyNotCompared == m_counts.changed &&
               m_counts.inserted + m_counts.deleted == 0;
    }
    const Counts& counts() const { return m_counts; }
    /// Rows in tree order (pre-order); row 0 is the root pair.
    const std::vector<Node>& nodes() const { return m_nodes; }
    const Node& node(int index) const { return m_nodes[size_t(index)]; }
    int size() const { return int(m_nodes.size()); }
    const TracePtr& leftRoot() const { return m_left; }
    const TracePtr& rightRoot() const { return m_right; }

    /// Word diff of the pair's result text (the error message for a failed block); empty
    /// segments for an unmatched row show the one side as a whole deletion or insertion.
    std::vector<WordChange> resultDiff(int index) const;
    /// The prompt of a model pair, message by message (empty for other blocks).
    std::vector<MessageDiff> promptDiff(int index) const;
    /// The evaluated fields of a pair that differ, by name (empty unless ExpressionsChanged).
    std::vector<ExpressionDiff> expressionDiff(int index) const;
    /// Word diff of a code pair's captured output (stdout, then stderr after a line `stderr:`).
    std::vector<WordChange> outputDiff(int index) const;
    /// The row whose left (right) node is `node`, or -1.
    int rowOfLeft(const TraceNode* node) const;
    int rowOfRight(const TraceNode* node) const;

    /// The human report `hako diff` prints: one line per changed, inserted or deleted node
    /// (status mark, path, label, source line) with the word diff of changed output inline
    /// as [-old-]{+new+} and the prompt messages that differ, then a summary with the token,
    /// duration and cost deltas. `leftName`/`rightName` label the two traces.
    QString report(const QString& leftName, const QString& rightName) const;
    /// The same as a JSON document (`hako diff --json`): `same`, `summary`, `differences`.
    QJsonObject toJson(const QString& leftName, const QString& rightName) const;

    static const char* statusName(Status status);
    /// The names of the bits in `changes` (`result`, `error`, `prompt`, `expressions`, `output`).
    static QStringList changeNames(uint32_t changes);

private:
    friend class TraceDiffBuilder;
    TracePtr m_left;
    TracePtr m_right;
    std::vector<Node> m_nodes;
    Counts m_counts;
};

/// The node's label: its `def` name, else its kind.
QString traceNodeLabel(const TraceNode& node);
/// The text compared and shown for a node's result (the error message for a failed block).
QString traceNodeText(const TraceNode& node);
/// A duration as people read it ("350 ms", "1.25 s", "+0.30 s" with `sign`).
QString formatDurationNanos(int64_t nanos, bool sign = false);
/// A node's own duration, tokens (`pdl__usage`) and cost, as the comparison counts them.
TraceMeasures nodeMeasures(const TraceNode& node);

/// Rebuilds a trace tree from a TraceModel's items (a live run's trace, or a file shown in the
/// trace panes) so that it can be compared: a deep copy, safe to hand to another thread. Null
/// for a null item. GUI thread (where the model lives).
TracePtr traceFromItems(const TraceItem* root);

} // namespace hako::pdl
