#pragma once

#include "core/pdl/ast/block.h"
#include "core/pdl/interp/env.h"
#include "core/pdl/value.h"
#include "core/util/diagnostic.h"

#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace hako::pdl {

struct TraceNode;
using TracePtr = std::shared_ptr<TraceNode>;

/// A field few nodes set, kept out of the node (8 bytes instead of its size) and copied with
/// it; reads as a default T when unset.
template <typename T> class RareField {
public:
    RareField() = default;
    RareField(const RareField& o) : m_p(o.m_p ? std::make_unique<T>(*o.m_p) : nullptr) {}
    RareField(RareField&&) noexcept = default;
    RareField& operator=(const RareField& o)
    {
        m_p = o.m_p ? std::make_unique<T>(*o.m_p) : nullptr;
        return *this;
    }
    RareField& operator=(RareField&&) noexcept = default;
    RareField& operator=(T value)
    {
        m_p = std::make_unique<T>(std::move(value));
        return *this;
    }
    const T& get() const
    {
        static const T unset{};
        return m_p ? *m_p : unset;
    }
    operator const T&() const { return get(); }
    const T* operator->() const { return &get(); }

private:
    std::unique_ptr<T> m_p;
};

/// What one executed block left behind: the reference's trace node (`kind`, `pdl__id`,
/// `pdl__result`, `pdl__timing`, evaluated expressions, children) plus Hako's source span.
/// Built by the interpreter on its worker thread; hand a finished tree to other threads only
/// after the run (or copy what a live view needs from the run's events).
struct TraceNode {
    BlockPtr block; ///< the source block (null for synthetic nodes)
    BlockKind kind = BlockKind::Empty;
    // The flags sit together, one bit each, in the padding after `kind`: a million-node trace
    // holds a million of these nodes, so their size is the trace's memory (bench_traceload,
    // bench_otel). A node is 496 bytes (16-byte Values, the error's location out of line), so
    // with its shared_ptr's count the allocator serves it from the 512-byte size class, not the
    // 640-byte one (tracenode.cpp checks it).
    bool hasScope : 1 = false;  ///< `scope` was captured
    bool hasResult : 1 = false; ///< `result` is set
    bool isLeaf : 1 = true;
    /// The result was taken from a recorded trace (RunOptions::replay) instead of being computed
    /// (written as `pdl__replayed: true`).
    bool replayed : 1 = false;
    /// A model block whose reply a person typed in the debugger instead of calling the model
    /// (written as `pdl__answered_by_hand: true`).
    bool answeredByHand : 1 = false;
    std::string id; ///< `pdl__id`, the reference's dotted path (`text.1.model`)
    SourceSpan span;
    /// Numbers unique within one run (from 1), and the enclosing node's (0 at the root): how a
    /// live view places a node whose parent has not finished yet.
    uint64_t serial = 0;
    uint64_t parentSerial = 0;
    std::string def;         ///< the block's `def` variable, if any
    std::string description; ///< the block's `description`, if any
    /// The block's `contribute` targets by name; nullopt means the default (result, context).
    std::optional<std::vector<std::string>> contribute;
    /// The variables visible when the block finished; set only when RunOptions::captureScope.
    Env scope;

    Value result;
    int64_t startNanos = 0;
    int64_t endNanos = 0;

    /// Evaluated expression fields in evaluation order: field → value (`{pdl__expr, pdl__result}`).
    std::vector<std::pair<std::string, Value>> exprs;
    /// Traced `defs`, in order.
    std::vector<std::pair<std::string, TracePtr>> defs;
    /// Child nodes by field (`text`, `then`, `pdl__trace`, `return`, …), in execution order. A
    /// field holding a single block (then, else, input, pdl__trace of a call) has one node and
    /// `single` set.
    struct Children {
        std::string field;
        std::vector<TracePtr> nodes;
        bool single = false;
    };
    std::vector<Children> children;

    // Model and code blocks.
    Value context;               ///< `pdl__context`: the context the model saw
    Value modelInput;            ///< `pdl__model_input`: the messages sent
    Value usage;                 ///< `pdl__usage`
    std::optional<double> score; ///< `pdl__score` of a factor block
    std::string out;             ///< captured stdout of a code block
    std::string err;             ///< captured stderr of a code block

    /// Set on a failed block: the message; the node is written as `kind: error`.
    std::string error;
    RareField<SourceSpan> errorSpan;

    /// True when the block contributes nothing to its parent's result (`contribute` without
    /// `result`): what a viewer dims.
    bool contributesNothing() const;

    /// Adds a child under `field` (creating the group on first use) and returns it.
    TracePtr& addChild(const std::string& field, TracePtr child, bool single = false);
};

} // namespace hako::pdl
