#pragma once

#include "core/otel/span.h"
#include "core/pdl/interp/tracenode.h"

#include <cstdint>
#include <string>
#include <unordered_map>
#include <vector>

namespace hako::otel {

struct SpanView;

/// One trace of a file or a receiver: what a picker lists.
struct TraceSummary {
    std::string traceId;
    std::string rootName; ///< the root span's name (empty while the root has not arrived)
    int64_t startNanos = 0;
    int64_t endNanos = 0;
    int spans = 0;
    int errors = 0; ///< spans with an error status
};

/// Collects spans of any number of traces, in any order, and builds each trace as a Hako trace
/// tree (the same TraceNode tree a PDL run leaves, so every trace pane shows it). Each span is
/// mapped (spanmapper.h) as it is added and its attributes dropped, so memory is the trees'.
///
/// Tree rules: a span whose parent has not arrived hangs under a placeholder node (kind
/// sequence, labelled `missing span <id>`, or `waiting for span <id>` when live: setLive) that
/// the parent replaces when it arrives; children
/// are ordered by start time (PDL spans by their `pdl.order`), never by arrival; a trace with
/// several roots gets a synthetic root. A span id added again replaces the earlier span.
///
/// Not thread-safe: use from one thread at a time.
class TraceAssembler {
    struct Entry;

public:
    /// A span mapped and ready to add: what prepare() makes on any thread (pure), so that
    /// decoding and mapping can run in parallel while adding stays in order.
    struct PreparedSpan;
    static PreparedSpan prepare(const Span& span);
    /// The same, taking the span's strings instead of copying them.
    static PreparedSpan prepare(Span&& span);
    void add(PreparedSpan&& span);

    void add(const Span& span);
    void add(const std::vector<Span>& spans);

    /// Every trace, by start time.
    std::vector<TraceSummary> traces() const;
    bool contains(const std::string& traceId) const { return m_traces.count(traceId) != 0; }
    size_t spanCount() const { return m_spanCount; }
    /// What a node of a built tree stands for: the span id it shows (a placeholder: the id of
    /// the span it waits for, which replaces it; the synthetic root of a trace with several
    /// roots: `trace:<trace id>`), and whether it is a received span (not a placeholder or the
    /// synthetic root). Stable across builds, so a live view can match nodes batch to batch.
    struct NodeKey {
        std::string key;
        bool span = false;
    };
    using NodeKeys = std::unordered_map<const pdl::TraceNode*, NodeKey>;

    /// A fresh tree of the trace (the assembler keeps its spans: call again as more arrive),
    /// or null for an unknown trace. With `keys`, also says what each node stands for.
    pdl::TracePtr build(const std::string& traceId, NodeKeys* keys = nullptr) const;
    /// Builds the tree from the assembler's own nodes and forgets the trace (no copies: what
    /// a file load uses).
    pdl::TracePtr take(const std::string& traceId);
    void clear();
    /// Live assembly (a receiver's traces, still arriving): a span's parent that has not
    /// arrived is one still running (OpenTelemetry exports a span when it ends), so its
    /// placeholder is labelled `waiting for span <id>` rather than `missing span <id>`.
    void setLive(bool live) { m_live = live; }
    bool isLive() const { return m_live; }
    /// Forgets one trace and its spans (what a bounded live view drops); false when unknown.
    bool remove(const std::string& traceId);
    /// How many spans the trace has here (0 when unknown).
    size_t spanCount(const std::string& traceId) const;

private:
    /// Where a PDL span goes in its parent's node (its `pdl.*` attributes); other spans go under
    /// `spans` by start time.
    struct Placement {
        std::string field;
        std::string defsName;
        double order = 0;
        bool hasOrder = false;
        bool single = false;
    };
    /// One span (64 bytes: a million-span file holds a million until its tree is built).
    struct Entry {
        pdl::TracePtr node;
        std::string parent;              ///< the parent's id as a key (see keyOf())
        pdl::RareField<Placement> place; ///< set on PDL spans only
        uint64_t seq = 0;
    };
    struct Trace {
        std::unordered_map<std::string, Entry> spans;
        TraceSummary summary;
    };

public:
    struct PreparedSpan {
        std::string traceId, spanId, name; ///< spanId as a key (see keyOf())
        int64_t startNanos = 0, endNanos = 0;
        Entry entry;
    };

private:
    /// The node and its place from the span and its view, no ids.
    static PreparedSpan mapped(const Span& span, const SpanView& view);
    struct Linker;
    pdl::TracePtr assemble(Trace& trace, bool copy, NodeKeys* keys = nullptr) const;
    Trace& traceFor(const std::string& traceId);

    std::unordered_map<std::string, Trace> m_traces;
    /// The trace the last span went to (the spans of a request are mostly of one trace); empty
    /// again in a copy or after a move, so that it never points into another assembler.
    struct LastTrace {
        std::string id;
        Trace* trace = nullptr;
        LastTrace() = default;
        LastTrace(const LastTrace&) {}
        LastTrace& operator=(const LastTrace&)
        {
            id.clear();
            trace = nullptr;
            return *this;
        }
    };
    LastTrace m_last;
    size_t m_spanCount = 0;
    uint64_t m_seq = 0;
    bool m_live = false;
};

} // namespace hako::otel
