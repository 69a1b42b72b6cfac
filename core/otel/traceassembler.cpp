#include "core/otel/traceassembler.h"

#include "core/otel/spanmapper.h"
#include "core/util/chars.h"

#include <algorithm>
#include <climits>
#include <unordered_set>

namespace hako::otel {

namespace {

constexpr char kHexKey = '\x01', kTextKey = '\x00';

/// 16 hex digits in lower case, as OTLP/JSON writes a span id (upper case is kept as text, so
/// that the id shown is the id sent).
bool isLowerHex16(std::string_view id)
{
    return id.size() == 16 && std::all_of(id.begin(), id.end(), [](char c) {
               return hexDigitValue(c) >= 0 && !(c >= 'A' && c <= 'F');
           });
}

/// A span id as the assembler keys it: 16 hex digits (every conforming id) as their 8 bytes
/// behind a marker, 9 characters that need no allocation of their own; any other id as its
/// text behind another marker. Empty stays empty (no parent).
std::string keyOf(std::string&& id)
{
    if (id.empty())
        return std::move(id);
    if (isLowerHex16(id)) {
        std::string key(9, kHexKey);
        for (size_t i = 0; i < 8; ++i)
            key[i + 1] = char(hexDigitValue(id[2 * i]) << 4 | hexDigitValue(id[2 * i + 1]));
        return key;
    }
    id.insert(id.begin(), kTextKey);
    return std::move(id);
}

/// The span id a key stands for.
std::string idOf(std::string_view key)
{
    if (key.size() == 9 && key[0] == kHexKey)
        return toHex(key.substr(1));
    return std::string(key.empty() ? key : key.substr(1));
}

} // namespace

TraceAssembler::PreparedSpan TraceAssembler::mapped(const Span& span, const SpanView& view)
{
    PreparedSpan p;
    Entry& e = p.entry;
    e.node = toTraceNode(span, view);
    if (view.convention == "pdl") {
        Placement place;
        place.field = attrString(view.pdl, "field");
        place.defsName = attrString(view.pdl, "defs_name");
        place.single = view.pdl.value("single", false);
        if (auto o = view.pdl.find("order"); o != view.pdl.end() && o->is_number()) {
            place.order = o->get<double>();
            place.hasOrder = true;
        }
        e.place = std::move(place);
    }
    p.startNanos = span.startNanos;
    p.endNanos = span.endNanos;
    return p;
}

TraceAssembler::PreparedSpan TraceAssembler::prepare(const Span& span)
{
    PreparedSpan p = mapped(span, interpretSpan(span));
    p.traceId = span.traceId;
    p.spanId = keyOf(std::string(span.spanId));
    p.name = span.name;
    p.entry.parent = keyOf(std::string(span.parentSpanId));
    return p;
}

TraceAssembler::PreparedSpan TraceAssembler::prepare(Span&& span)
{
    PreparedSpan p = mapped(span, interpretSpanTaking(span));
    p.traceId = std::move(span.traceId);
    p.spanId = keyOf(std::move(span.spanId));
    p.name = std::move(span.name);
    p.entry.parent = keyOf(std::move(span.parentSpanId));
    return p;
}

void TraceAssembler::add(const Span& span)
{
    add(prepare(span));
}

void TraceAssembler::add(PreparedSpan&& p)
{
    Entry& e = p.entry;
    e.seq = ++m_seq;
    Trace& t = traceFor(p.traceId);
    TraceSummary& s = t.summary;
    if (s.traceId.empty()) {
        s.traceId = p.traceId;
        s.startNanos = p.startNanos;
        s.endNanos = p.endNanos;
    }
    auto [it, inserted] = t.spans.try_emplace(p.spanId);
    if (!inserted) {
        if (!it->second.node->error.empty())
            --s.errors;
    } else {
        ++s.spans;
        ++m_spanCount;
    }
    if (!e.node->error.empty())
        ++s.errors;
    if (e.parent.empty())
        s.rootName = p.name;
    s.startNanos = std::min(s.startNanos, p.startNanos);
    s.endNanos = std::max(s.endNanos, p.endNanos);
    it->second = std::move(e);
}

TraceAssembler::Trace& TraceAssembler::traceFor(const std::string& traceId)
{
    if (!m_last.trace || m_last.id != traceId) {
        m_last.id = traceId;
        m_last.trace = &m_traces[traceId];
    }
    return *m_last.trace;
}

void TraceAssembler::add(const std::vector<Span>& spans)
{
    for (const Span& s : spans)
        add(s);
}

std::vector<TraceSummary> TraceAssembler::traces() const
{
    std::vector<TraceSummary> out;
    out.reserve(m_traces.size());
    for (const auto& [id, t] : m_traces)
        out.push_back(t.summary);
    std::sort(out.begin(), out.end(), [](const TraceSummary& a, const TraceSummary& b) {
        return a.startNanos != b.startNanos ? a.startNanos < b.startNanos : a.traceId < b.traceId;
    });
    return out;
}

pdl::TracePtr TraceAssembler::build(const std::string& traceId, NodeKeys* keys) const
{
    auto it = m_traces.find(traceId);
    if (it == m_traces.end())
        return nullptr;
    return assemble(const_cast<Trace&>(it->second), true, keys);
}

pdl::TracePtr TraceAssembler::take(const std::string& traceId)
{
    auto it = m_traces.find(traceId);
    if (it == m_traces.end())
        return nullptr;
    pdl::TracePtr root = assemble(it->second, false);
    m_spanCount -= it->second.spans.size();
    m_traces.erase(it);
    m_last = {};
    return root;
}

void TraceAssembler::clear()
{
    m_last = {};
    m_traces.clear();
    m_spanCount = 0;
}

bool TraceAssembler::remove(const std::string& traceId)
{
    auto it = m_traces.find(traceId);
    if (it == m_traces.end())
        return false;
    m_spanCount -= it->second.spans.size();
    m_traces.erase(it);
    m_last = {};
    return true;
}

size_t TraceAssembler::spanCount(const std::string& traceId) const
{
    auto it = m_traces.find(traceId);
    return it == m_traces.end() ? 0 : it->second.spans.size();
}

/// Builds a trace's tree: each span under its parent, siblings in order, placeholders for
/// parents that never arrived, and spans caught in a loop of parents (a malformed sender's) cut
/// loose as roots, so that every span is shown once and the tree stays a tree.
struct TraceAssembler::Linker {
    /// A span's place among its siblings, read once: sorting a million spans compares these,
    /// not the nodes and placements they point to.
    struct Sibling {
        const Entry* parent = nullptr; ///< a span's or a placeholder's entry; null for a root
        const Entry* entry = nullptr;
        double order = 0;
        int64_t start = 0;
        uint64_t seq = 0;
        const std::string* id = nullptr;
        bool hasOrder = false;
    };

    Linker(Trace& t, bool copyNodes, bool isLive, NodeKeys* nodeKeys)
        : trace(t), copy(copyNodes), live(isLive), keys(nodeKeys)
    {}

    Trace& trace;
    bool copy = false;
    bool live = false;
    NodeKeys* keys = nullptr;
    std::unordered_map<const Entry*, pdl::TracePtr> copies; ///< when the assembler keeps its nodes
    std::unordered_map<std::string_view, Entry> missing;    ///< placeholders by the id awaited
    std::vector<Sibling> links, roots;

    static bool before(const Sibling& a, const Sibling& b)
    {
        if (a.hasOrder && b.hasOrder && a.order != b.order)
            return a.order < b.order;
        if (a.start != b.start)
            return a.start < b.start;
        if (a.seq != b.seq)
            return a.seq < b.seq;
        return *a.id < *b.id;
    }

    const pdl::TracePtr& nodeOf(const Entry* e) const
    {
        if (copy)
            if (auto it = copies.find(e); it != copies.end())
                return it->second;
        return e->node;
    }

    Sibling siblingOf(const Entry* e, const Entry* parent) const
    {
        const Placement& place = e->place;
        const pdl::TraceNode& n = *nodeOf(e);
        return {parent, e, place.order, n.startNanos, e->seq, &n.id, place.hasOrder};
    }

    const Entry* placeholder(const std::string& awaited)
    {
        auto [it, added] = missing.try_emplace(awaited);
        if (!added)
            return &it->second;
        Entry& p = it->second;
        p.node = std::make_shared<pdl::TraceNode>();
        p.node->kind = pdl::BlockKind::Sequence;
        p.node->id = idOf(awaited);
        p.node->def = (live ? "waiting for span " : "missing span ") + p.node->id;
        p.node->description = live ? "placeholder: the parent span has not arrived yet (it is "
                                     "sent when it ends) and replaces this when it does"
                                   : "placeholder: the parent span has not arrived";
        p.node->startNanos = LLONG_MAX;
        if (keys)
            keys->emplace(p.node.get(), NodeKey{p.node->id, false});
        return &p;
    }

    /// Each span's node made ready, and its link to its parent.
    void collect()
    {
        links.reserve(trace.spans.size());
        if (copy)
            copies.reserve(trace.spans.size());
        for (auto& [id, e] : trace.spans) {
            const pdl::TracePtr& node =
                copy ? copies.emplace(&e, std::make_shared<pdl::TraceNode>(*e.node)).first->second
                     : e.node;
            node->children.clear();
            node->defs.clear();
            if (keys)
                keys->emplace(node.get(), NodeKey{idOf(id), true});
            if (e.parent.empty()) {
                roots.push_back(siblingOf(&e, nullptr));
                continue;
            }
            auto parent = trace.spans.find(e.parent);
            links.push_back(siblingOf(&e, parent != trace.spans.end() ? &parent->second
                                                                      : placeholder(e.parent)));
        }
    }

    /// Each parent's children in order (one sort of all links: by parent, then as siblings).
    void attach()
    {
        std::sort(links.begin(), links.end(), [](const Sibling& a, const Sibling& b) {
            return a.parent != b.parent ? std::less<const Entry*>()(a.parent, b.parent)
                                        : before(a, b);
        });
        for (size_t i = 0; i < links.size();) {
            const Entry* parentEntry = links[i].parent;
            pdl::TraceNode& p = *nodeOf(parentEntry);
            int64_t first = LLONG_MAX, last = 0;
            for (; i < links.size() && links[i].parent == parentEntry; ++i) {
                const pdl::TracePtr& c = nodeOf(links[i].entry);
                first = std::min(first, c->startNanos);
                last = std::max(last, c->endNanos);
                const Placement& place = links[i].entry->place;
                if (!place.defsName.empty())
                    p.defs.emplace_back(place.defsName, c);
                else
                    p.addChild(place.field.empty() ? std::string("spans") : place.field, c,
                               place.single);
            }
            p.isLeaf = false;
            if (parentEntry->seq == 0) { // a placeholder spans its children
                p.startNanos = first;
                p.endNanos = last;
            }
        }
        for (const auto& [awaited, p] : missing)
            roots.push_back(siblingOf(&p, nullptr));
    }

    /// How many nodes the roots reach (each once: no root reaches into a loop of parents).
    static size_t reached(const std::vector<Sibling>& from, const Linker& l,
                          std::unordered_set<const pdl::TraceNode*>* seen)
    {
        std::vector<const pdl::TraceNode*> stack;
        for (const Sibling& r : from)
            stack.push_back(l.nodeOf(r.entry).get());
        size_t count = 0;
        while (!stack.empty()) {
            const pdl::TraceNode* n = stack.back();
            stack.pop_back();
            ++count;
            if (seen)
                seen->insert(n);
            for (const auto& [name, d] : n->defs)
                stack.push_back(d.get());
            for (const auto& g : n->children)
                for (const auto& c : g.nodes)
                    stack.push_back(c.get());
        }
        return count;
    }

    /// Spans no root reaches sit in a loop of parents (A's parent B, B's parent A): each loop is
    /// cut at one of its spans, which becomes a root and says why.
    void cutLoops()
    {
        const size_t total = trace.spans.size() + missing.size();
        std::unordered_set<const pdl::TraceNode*> seen;
        if (reached(roots, *this, nullptr) == total)
            return;
        reached(roots, *this, &seen);
        std::vector<Sibling> stray;
        for (const Sibling& l : links)
            if (!seen.count(nodeOf(l.entry).get()))
                stray.push_back(l);
        std::sort(stray.begin(), stray.end(), before);
        for (const Sibling& s : stray) {
            if (seen.count(nodeOf(s.entry).get()))
                continue;
            // Up the parents until one repeats: that one is in the loop.
            std::unordered_set<const Entry*> path;
            const Entry* e = s.entry;
            while (path.insert(e).second)
                e = &trace.spans.find(e->parent)->second;
            const Entry* parent = &trace.spans.find(e->parent)->second;
            pdl::TraceNode& p = *nodeOf(parent);
            const pdl::TracePtr& cut = nodeOf(e);
            for (auto& g : p.children)
                std::erase(g.nodes, cut);
            std::erase_if(p.children, [](const auto& g) { return g.nodes.empty(); });
            std::erase_if(p.defs, [&cut](const auto& d) { return d.second == cut; });
            p.isLeaf = p.children.empty() && p.defs.empty();
            cut->description =
                parent == e ? std::string("it names itself as its parent span: shown as a root")
                            : "its parent span " + idOf(e->parent) +
                                  " is among its own descendants (a loop of parents): shown as a "
                                  "root";
            roots.push_back(siblingOf(e, nullptr));
            reached({roots.back()}, *this, &seen);
        }
    }
};

pdl::TracePtr TraceAssembler::assemble(Trace& trace, bool copy, NodeKeys* keys) const
{
    Linker l{trace, copy, m_live, keys};
    l.collect();
    l.attach();
    l.cutLoops();
    std::sort(l.roots.begin(), l.roots.end(), Linker::before);
    if (l.roots.size() == 1)
        return l.nodeOf(l.roots.front().entry);
    auto top = std::make_shared<pdl::TraceNode>();
    top->kind = pdl::BlockKind::Sequence;
    top->id = "trace:" + trace.summary.traceId;
    top->def = trace.summary.rootName.empty() ? "trace " + trace.summary.traceId.substr(0, 8)
                                              : trace.summary.rootName;
    top->startNanos = trace.summary.startNanos;
    top->endNanos = trace.summary.endNanos;
    top->isLeaf = l.roots.empty();
    if (keys)
        keys->emplace(top.get(), NodeKey{top->id, false});
    for (const Linker::Sibling& r : l.roots)
        top->addChild("spans", l.nodeOf(r.entry));
    return top;
}

} // namespace hako::otel
