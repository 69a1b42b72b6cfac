#include "core/otel/traceassembler.h"

#include "core/otel/spanmapper.h"

#include <algorithm>
#include <climits>

namespace hako::otel {

namespace {

constexpr char kHexKey = '\x01', kTextKey = '\x00';

/// The value of a lower-case hex digit, or -1.
int hexDigit(char c)
{
    if (c >= '0' && c <= '9')
        return c - '0';
    return c >= 'a' && c <= 'f' ? c - 'a' + 10 : -1;
}

bool isLowerHex16(std::string_view id)
{
    return id.size() == 16 &&
           std::all_of(id.begin(), id.end(), [](char c) { return hexDigit(c) >= 0; });
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
            key[i + 1] = char(hexDigit(id[2 * i]) << 4 | hexDigit(id[2 * i + 1]));
        return key;
    }
    id.insert(id.begin(), kTextKey);
    return std::move(id);
}

/// The span id a key stands for.
std::string idOf(std::string_view key)
{
    if (key.size() == 9 && key[0] == kHexKey) {
        static constexpr char digits[] = "0123456789abcdef";
        std::string id(16, '0');
        for (size_t i = 0; i < 8; ++i) {
            const auto byte = static_cast<unsigned char>(key[i + 1]);
            id[2 * i] = digits[byte >> 4];
            id[2 * i + 1] = digits[byte & 15];
        }
        return id;
    }
    return std::string(key.empty() ? key : key.substr(1));
}

} // namespace

TraceAssembler::PreparedSpan TraceAssembler::mapped(const Span& span)
{
    const SpanView view = interpretSpan(span);
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
    PreparedSpan p = mapped(span);
    p.traceId = span.traceId;
    p.spanId = keyOf(std::string(span.spanId));
    p.name = span.name;
    p.entry.parent = keyOf(std::string(span.parentSpanId));
    return p;
}

TraceAssembler::PreparedSpan TraceAssembler::prepare(Span&& span)
{
    PreparedSpan p = mapped(span);
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
    if (!m_last.second || m_last.first != traceId)
        m_last = {traceId, &m_traces[traceId]};
    return *m_last.second;
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

pdl::TracePtr TraceAssembler::assemble(Trace& trace, bool copy, NodeKeys* keys) const
{
    struct Item {
        const Entry* entry;
        pdl::TracePtr node;
    };
    // Keyed by views of the span ids the trace holds (and the placeholders' parent ids): a
    // million-span trace is assembled without a million more strings.
    std::unordered_map<std::string_view, Item> items;
    items.reserve(trace.spans.size());
    for (auto& [id, e] : trace.spans) {
        pdl::TracePtr node = copy ? std::make_shared<pdl::TraceNode>(*e.node) : e.node;
        node->children.clear();
        node->defs.clear();
        if (keys)
            keys->emplace(node.get(), NodeKey{idOf(id), true});
        items.emplace(id, Item{&e, std::move(node)});
    }
    // Placeholders for parents that have not arrived (yet).
    std::vector<Entry> placeholders;
    placeholders.reserve(8);
    for (auto& [id, e] : trace.spans) {
        if (e.parent.empty() || items.count(e.parent))
            continue;
        Entry p;
        p.node = std::make_shared<pdl::TraceNode>();
        p.node->kind = pdl::BlockKind::Sequence;
        p.node->id = idOf(e.parent);
        p.node->def = (m_live ? "waiting for span " : "missing span ") + p.node->id;
        p.node->description = m_live ? "placeholder: the parent span has not arrived yet (it is "
                                       "sent when it ends) and replaces this when it does"
                                     : "placeholder: the parent span has not arrived";
        p.node->startNanos = LLONG_MAX;
        p.seq = 0;
        if (keys)
            keys->emplace(p.node.get(), NodeKey{p.node->id, false});
        placeholders.push_back(std::move(p));
        items.emplace(e.parent, Item{nullptr, placeholders.back().node});
    }
    std::unordered_map<std::string_view, std::vector<const Item*>> children;
    std::vector<const Item*> roots;
    for (auto& [id, item] : items) {
        const Entry* e = item.entry;
        if (e && !e->parent.empty())
            children[e->parent].push_back(&item);
        else
            roots.push_back(&item);
    }
    auto before = [](const Item* a, const Item* b) {
        const Entry* ea = a->entry;
        const Entry* eb = b->entry;
        if (ea && eb && ea->place->hasOrder && eb->place->hasOrder &&
            ea->place->order != eb->place->order)
            return ea->place->order < eb->place->order;
        if (a->node->startNanos != b->node->startNanos)
            return a->node->startNanos < b->node->startNanos;
        const uint64_t sa = ea ? ea->seq : 0, sb = eb ? eb->seq : 0;
        if (sa != sb)
            return sa < sb;
        return a->node->id < b->node->id;
    };
    for (auto& [parentId, list] : children) {
        std::sort(list.begin(), list.end(), before);
        Item& parent = items.at(parentId);
        pdl::TraceNode& p = *parent.node;
        int64_t first = LLONG_MAX, last = 0;
        for (const Item* c : list) {
            const Entry* e = c->entry;
            first = std::min(first, c->node->startNanos);
            last = std::max(last, c->node->endNanos);
            const Placement& place = e->place;
            if (!place.defsName.empty())
                p.defs.emplace_back(place.defsName, c->node);
            else
                p.addChild(place.field.empty() ? std::string("spans") : place.field, c->node,
                           place.single);
        }
        p.isLeaf = false;
        if (!parent.entry) { // a placeholder spans its children
            p.startNanos = first;
            p.endNanos = last;
        }
    }
    std::sort(roots.begin(), roots.end(), before);
    if (roots.size() == 1)
        return roots.front()->node;
    auto top = std::make_shared<pdl::TraceNode>();
    top->kind = pdl::BlockKind::Sequence;
    top->id = "trace:" + trace.summary.traceId;
    top->def = trace.summary.rootName.empty() ? "trace " + trace.summary.traceId.substr(0, 8)
                                              : trace.summary.rootName;
    top->startNanos = trace.summary.startNanos;
    top->endNanos = trace.summary.endNanos;
    top->isLeaf = roots.empty();
    if (keys)
        keys->emplace(top.get(), NodeKey{top->id, false});
    for (const Item* r : roots)
        top->addChild("spans", r->node);
    return top;
}

} // namespace hako::otel
