#include "core/pdl/trace/tracediff.h"

#include "core/pdl/trace/tracemodel.h"
#include "core/util/stackguard.h"

#include <QHash>
#include <QJsonArray>

#include <algorithm>
#include <functional>
#include <string_view>
#include <unordered_map>

namespace hako::pdl {

namespace {

// ---- shortest edit scripts -----------------------------------------------------------------

using Match = std::pair<int, int>;

// Matches of a shortest edit script (Myers) between a[0,n) and b[0,m), in order, appended to
// `out` offset by (aOff, bOff). Gives up (returning false, with only the common head and tail
// matched) once the work grows past a budget: two long, mostly different lists would otherwise
// take seconds, and the caller has a cheaper way to pair what is left.
bool shortestEdit(const uint64_t* a, int n, const uint64_t* b, int m, int aOff, int bOff,
                  std::vector<Match>& out)
{
    int head = 0;
    while (head < n && head < m && a[head] == b[head])
        ++head;
    int tail = 0;
    while (tail < n - head && tail < m - head && a[n - 1 - tail] == b[m - 1 - tail])
        ++tail;
    for (int i = 0; i < head; ++i)
        out.emplace_back(aOff + i, bOff + i);
    auto emitTail = [&] {
        for (int i = 0; i < tail; ++i)
            out.emplace_back(aOff + n - tail + i, bOff + m - tail + i);
    };
    const uint64_t* x = a + head;
    const uint64_t* y = b + head;
    const int N = n - head - tail;
    const int M = m - head - tail;
    if (N == 0 || M == 0) {
        emitTail();
        return true;
    }
    // Past this many edits (or this much work) the lists are too different for an exact script
    // to be worth its time and memory (the walk keeps O(edits²) numbers).
    const int maxD = std::min(N + M, 2000);
    const int64_t budget = 50'000'000;
    const int offset = maxD + 1;
    std::vector<int> v(size_t(2 * maxD + 3), 0);
    // history[d] holds v[-d..d] as it was before step d (for the walk back).
    std::vector<std::vector<int>> history;
    int found = -1;
    int64_t work = 0;
    for (int d = 0; d <= maxD && found < 0; ++d) {
        history.emplace_back(v.begin() + (offset - d), v.begin() + (offset + d + 1));
        for (int k = -d; k <= d; k += 2) {
            int px;
            if (k == -d || (k != d && v[size_t(offset + k - 1)] < v[size_t(offset + k + 1)]))
                px = v[size_t(offset + k + 1)];
            else
                px = v[size_t(offset + k - 1)] + 1;
            int py = px - k;
            const int startX = px;
            while (px < N && py < M && x[px] == y[py]) {
                ++px;
                ++py;
            }
            work += 1 + (px - startX);
            v[size_t(offset + k)] = px;
            if (px >= N && py >= M) {
                found = d;
                break;
            }
        }
        if (found < 0 && work > budget)
            break;
    }
    if (found < 0) {
        emitTail();
        return false;
    }
    // Walk back from (N, M), collecting the diagonal runs.
    std::vector<Match> rev;
    int px = N, py = M;
    for (int d = found; d >= 0; --d) {
        const int k = px - py;
        if (d == 0) {
            while (px > 0 && py > 0) {
                --px;
                --py;
                rev.emplace_back(px, py);
            }
            break;
        }
        const std::vector<int>& h = history[size_t(d)];
        auto at = [&](int kk) {
            return h[size_t(kk + d)];
        };
        const bool down = k == -d || (k != d && at(k - 1) < at(k + 1));
        const int prevK = down ? k + 1 : k - 1;
        const int prevX = at(prevK);
        const int prevY = prevX - prevK;
        const int startX = down ? prevX : prevX + 1;
        while (px > startX) {
            --px;
            --py;
            rev.emplace_back(px, py);
        }
        px = prevX;
        py = prevY;
    }
    for (auto it = rev.rbegin(); it != rev.rend(); ++it)
        out.emplace_back(aOff + head + it->first, bOff + head + it->second);
    emitTail();
    return true;
}

// Aligns two sequences with signatures at several levels, strongest first: a shortest edit
// script over the strongest signatures, then the next level inside each gap between two
// matches, and so on. The result is the whole edit script in order: (i, j) pairs, (i, -1)
// deletions and (-1, j) insertions, each gap's deletions before its insertions.
class Aligner {
public:
    std::vector<const std::vector<uint64_t>*> a;
    std::vector<const std::vector<uint64_t>*> b;
    std::vector<Match> script;

    void run(int level, int aLo, int aHi, int bLo, int bHi)
    {
        const int levels = int(a.size());
        if (level == levels || aLo == aHi || bLo == bHi) {
            for (int i = aLo; i < aHi; ++i)
                script.emplace_back(i, -1);
            for (int j = bLo; j < bHi; ++j)
                script.emplace_back(-1, j);
            return;
        }
        std::vector<Match> matches;
        const bool complete =
            shortestEdit(a[size_t(level)]->data() + aLo, aHi - aLo, b[size_t(level)]->data() + bLo,
                         bHi - bLo, aLo, bLo, matches);
        if (!complete && level == levels - 1) {
            // Too different to align exactly: pair in order where the weakest signatures agree.
            std::vector<Match> positional;
            size_t head = 0;
            while (head < matches.size() && matches[head].first == aLo + int(head))
                ++head;
            const int ma = aLo + int(head), mb = bLo + int(head);
            const int tail = int(matches.size() - head);
            const int ea = aHi - tail, eb = bHi - tail;
            for (size_t t = 0; t < head; ++t)
                positional.push_back(matches[t]);
            for (int t = 0; ma + t < ea && mb + t < eb; ++t)
                if ((*a[size_t(level)])[size_t(ma + t)] == (*b[size_t(level)])[size_t(mb + t)])
                    positional.emplace_back(ma + t, mb + t);
            for (size_t t = head; t < matches.size(); ++t)
                positional.push_back(matches[t]);
            matches = std::move(positional);
        }
        int ca = aLo, cb = bLo;
        for (const auto& [i, j] : matches) {
            run(level + 1, ca, i, cb, j);
            script.emplace_back(i, j);
            ca = i + 1;
            cb = j + 1;
        }
        run(level + 1, ca, aHi, cb, bHi);
    }
};

// ---- hashing ---------------------------------------------------------------------------------

inline uint64_t mix(uint64_t h, uint64_t v)
{
    h ^= v + 0x9e3779b97f4a7c15ULL + (h << 6) + (h >> 2);
    return h;
}

uint64_t hashText(std::string_view s)
{
    return std::hash<std::string_view>{}(s);
}

// Values nested deeper than this hash as their first levels only: equal values still hash
// alike, and a value a loop nested 100,000 deep does not overflow the stack.
constexpr int kMaxHashDepth = 200;

uint64_t hashValue(const Value& v, int depth = 0)
{
    if (depth > kMaxHashDepth)
        return 0x88;
    switch (v.type()) {
    case Value::Type::Undefined:
        return 0x11;
    case Value::Type::Null:
        return 0x22;
    case Value::Type::Bool:
    case Value::Type::Int:
    case Value::Type::Float: {
        // 1 == 1.0 == True, as equality has it.
        const double d = v.toDouble();
        return mix(0x33, std::hash<double>{}(d));
    }
    case Value::Type::String:
        return mix(0x44, hashText(v.asString()));
    case Value::Type::List: {
        uint64_t h = 0x55;
        for (const Value& x : v.asList())
            h = mix(h, hashValue(x, depth + 1));
        return h;
    }
    case Value::Type::Dict: {
        // Order-independent, as dict equality is.
        uint64_t h = 0;
        for (const auto& [k, x] : v.asDict())
            h += mix(hashValue(k, depth + 1), hashValue(x, depth + 1));
        return mix(0x66, h);
    }
    case Value::Type::Callable:
        return 0x77;
    }
    return 0;
}

// Callables (a function's closure in a live run's trace) are compared by being callables:
// two runs never share one, and what they compute shows in the calls' results.
bool sameValue(const Value& a, const Value& b)
{
    if (a.isCallable() || b.isCallable())
        return a.isCallable() == b.isCallable();
    return a == b;
}

const Value& promptOf(const TraceNode& n)
{
    return n.modelInput.isNull() ? n.context : n.modelInput;
}

// The trace reader's mark on a block whose recorded value nested too deeply to be kept
// (tracereader.cpp): two such blocks hold nothing that can be compared.
bool lostValue(const TraceNode& n)
{
    return n.error.rfind("a recorded value is not shown", 0) == 0;
}

uint32_t compareOwnValues(const TraceNode& l, const TraceNode& r)
{
    uint32_t c = 0;
    if (l.hasResult != r.hasResult || (l.hasResult && !sameValue(l.result, r.result)))
        c |= TraceDiff::ResultChanged;
    if (l.error != r.error)
        c |= TraceDiff::ErrorChanged;
    if (l.kind == BlockKind::Model || r.kind == BlockKind::Model)
        if (!sameValue(promptOf(l), promptOf(r)))
            c |= TraceDiff::PromptChanged;
    bool exprs = l.exprs.size() != r.exprs.size();
    for (size_t i = 0; !exprs && i < l.exprs.size(); ++i)
        exprs = l.exprs[i].first != r.exprs[i].first ||
                !sameValue(l.exprs[i].second, r.exprs[i].second);
    if (exprs)
        c |= TraceDiff::ExpressionsChanged;
    if (l.out != r.out || l.err != r.err)
        c |= TraceDiff::OutputChanged;
    return c;
}

uint32_t compareOwn(const TraceNode& l, const TraceNode& r)
{
    uint32_t c = 0;
    try {
        c = compareOwnValues(l, r);
    } catch (const EvalError&) {
        // Values nested deeper than the stack allows to walk.
        c = TraceDiff::NotCompared;
    }
    if (lostValue(l) || lostValue(r))
        c |= TraceDiff::NotCompared;
    return c;
}

bool hasChildren(const TraceNode* n)
{
    if (!n)
        return false;
    if (!n->defs.empty())
        return true;
    for (const TraceNode::Children& c : n->children)
        if (!c.nodes.empty())
            return true;
    return false;
}

uint64_t ownHash(const TraceNode& n)
{
    uint64_t h = mix(uint64_t(n.kind) + 1, hashText(n.def));
    if (n.hasResult && !n.result.isCallable())
        h = mix(h, hashValue(n.result));
    h = mix(h, hashText(n.error));
    if (n.kind == BlockKind::Model)
        h = mix(h, hashValue(promptOf(n)));
    for (const auto& [name, value] : n.exprs)
        h = mix(mix(h, hashText(name)), value.isCallable() ? 0 : hashValue(value));
    h = mix(h, hashText(n.out));
    return mix(h, hashText(n.err));
}

// A node's children as the panes show them: defs first (named by their key), then every
// field's nodes in execution order.
struct ChildRef {
    const TraceNode* node;
    std::string_view name; ///< the def name (a defs key, else the node's `def`)
};
struct Group {
    std::string_view field;
    std::vector<ChildRef> nodes;
};

std::vector<Group> groupsOf(const TraceNode* n)
{
    std::vector<Group> groups;
    if (!n)
        return groups;
    if (!n->defs.empty()) {
        Group g{"defs", {}};
        for (const auto& [name, child] : n->defs)
            if (child)
                g.nodes.push_back({child.get(), name});
        groups.push_back(std::move(g));
    }
    for (const TraceNode::Children& c : n->children) {
        Group g{c.field, {}};
        for (const TracePtr& child : c.nodes)
            if (child)
                g.nodes.push_back({child.get(), child->def});
        groups.push_back(std::move(g));
    }
    return groups;
}

TraceMeasures ownMeasures(const TraceNode* n)
{
    TraceMeasures m;
    if (!n)
        return m;
    if (n->startNanos > 0 && n->endNanos >= n->startNanos)
        m.durationNanos = n->endNanos - n->startNanos;
    if (n->usage.isDict()) {
        const Dict& u = n->usage.asDict();
        auto number = [&u](std::initializer_list<const char*> names) -> const Value* {
            for (const char* name : names)
                if (const Value* v = u.find(name); v && v->isNumber())
                    return v;
            return nullptr;
        };
        const Value* in = number({"prompt_tokens", "input_tokens"});
        const Value* out = number({"completion_tokens", "output_tokens"});
        if (in || out) {
            m.hasTokens = true;
            m.promptTokens = in ? int64_t(in->toDouble()) : 0;
            m.completionTokens = out ? int64_t(out->toDouble()) : 0;
        }
        if (const Value* cost = number({"cost", "total_cost"})) {
            m.hasCost = true;
            m.cost = cost->toDouble();
        }
    }
    return m;
}

void addTo(TraceMeasures& total, const TraceMeasures& part)
{
    total.promptTokens += part.promptTokens;
    total.completionTokens += part.completionTokens;
    total.hasTokens = total.hasTokens || part.hasTokens;
    total.cost += part.cost;
    total.hasCost = total.hasCost || part.hasCost;
}

} // namespace

// ---- word diff ---------------------------------------------------------------------------------

namespace {

enum class TokenClass { Word, Space, Katakana, Single };

TokenClass classOf(char32_t c)
{
    if ((c >= 0x30A1 && c <= 0x30FA) || c == 0x30FC || (c >= 0x31F0 && c <= 0x31FF) ||
        (c >= 0xFF66 && c <= 0xFF9F))
        return TokenClass::Katakana;
    if ((c >= 0x3040 && c <= 0x30FF) || (c >= 0x3400 && c <= 0x4DBF) ||
        (c >= 0x4E00 && c <= 0x9FFF) || (c >= 0xAC00 && c <= 0xD7AF) ||
        (c >= 0xF900 && c <= 0xFAFF) || (c >= 0x20000 && c <= 0x3FFFF))
        return TokenClass::Single;
    if (QChar::isSpace(c))
        return TokenClass::Space;
    if (QChar::isLetterOrNumber(c) || QChar::category(c) == QChar::Mark_NonSpacing ||
        QChar::category(c) == QChar::Mark_SpacingCombining || c == U'_')
        return TokenClass::Word;
    return TokenClass::Single;
}

} // namespace

QStringList wordTokens(const QString& text)
{
    QStringList tokens;
    const qsizetype n = text.size();
    qsizetype start = 0;
    bool started = false;
    TokenClass current = TokenClass::Single;
    for (qsizetype i = 0; i < n;) {
        char32_t c = text.at(i).unicode();
        qsizetype len = 1;
        if (QChar::isHighSurrogate(c) && i + 1 < n && text.at(i + 1).isLowSurrogate()) {
            c = QChar::surrogateToUcs4(text.at(i), text.at(i + 1));
            len = 2;
        }
        const TokenClass k = classOf(c);
        if (!started || k != current || k == TokenClass::Single) {
            if (started)
                tokens << text.mid(start, i - start);
            start = i;
            current = k;
            started = true;
        }
        i += len;
    }
    if (started)
        tokens << text.mid(start, n - start);
    return tokens;
}

std::vector<WordChange> diffWords(const QString& a, const QString& b)
{
    std::vector<WordChange> out;
    auto append = [&out](WordChange::Op op, const QString& text) {
        if (text.isEmpty())
            return;
        if (!out.empty() && out.back().op == op) {
            out.back().text += text;
            return;
        }
        // An insertion then a deletion in one change region: the deletion goes first.
        if (op == WordChange::Op::Delete && !out.empty() &&
            out.back().op == WordChange::Op::Insert) {
            if (out.size() >= 2 && out[out.size() - 2].op == WordChange::Op::Delete)
                out[out.size() - 2].text += text;
            else
                out.insert(out.end() - 1, WordChange{op, text});
            return;
        }
        out.push_back(WordChange{op, text});
    };
    if (a == b) {
        append(WordChange::Op::Equal, a);
        return out;
    }
    const QStringList ta = wordTokens(a);
    const QStringList tb = wordTokens(b);
    QHash<QString, uint64_t> ids;
    auto intern = [&ids](const QStringList& tokens) {
        std::vector<uint64_t> v;
        v.reserve(size_t(tokens.size()));
        for (const QString& t : tokens) {
            auto it = ids.constFind(t);
            if (it == ids.constEnd())
                it = ids.insert(t, uint64_t(ids.size()));
            v.push_back(it.value());
        }
        return v;
    };
    const std::vector<uint64_t> ia = intern(ta);
    const std::vector<uint64_t> ib = intern(tb);
    // Without the aligner's positional fallback: words left unaligned stay changes.
    std::vector<Match> matches;
    shortestEdit(ia.data(), int(ia.size()), ib.data(), int(ib.size()), 0, 0, matches);
    int ca = 0, cb = 0;
    auto gap = [&](int ea, int eb) {
        for (; ca < ea; ++ca)
            append(WordChange::Op::Delete, ta.at(ca));
        for (; cb < eb; ++cb)
            append(WordChange::Op::Insert, tb.at(cb));
    };
    for (const auto& [i, j] : matches) {
        gap(i, j);
        append(WordChange::Op::Equal, ta.at(i));
        ca = i + 1;
        cb = j + 1;
    }
    gap(int(ta.size()), int(tb.size()));
    // A lone space between two changed words joins them into one change ("[-one line-]{+two
    // lines+}" rather than "[-one-]{+two+} [-line-]{+lines+}"), which reads as the edit was made.
    if (out.size() >= 3) {
        std::vector<WordChange> segments = std::move(out);
        out.clear();
        for (size_t i = 0; i < segments.size(); ++i) {
            const WordChange& c = segments[i];
            const bool joins = c.op == WordChange::Op::Equal && i > 0 && i + 1 < segments.size() &&
                               segments[i - 1].op != WordChange::Op::Equal &&
                               segments[i + 1].op != WordChange::Op::Equal && c.text.size() <= 3 &&
                               c.text.trimmed().isEmpty() && !c.text.contains(QLatin1Char('\n'));
            if (joins) {
                append(WordChange::Op::Delete, c.text);
                append(WordChange::Op::Insert, c.text);
            } else {
                append(c.op, c.text);
            }
        }
    }
    return out;
}

QString formatWordDiff(const std::vector<WordChange>& changes)
{
    QString s;
    for (const WordChange& c : changes) {
        switch (c.op) {
        case WordChange::Op::Equal:
            s += c.text;
            break;
        case WordChange::Op::Delete:
            s += QLatin1String("[-") + c.text + QLatin1String("-]");
            break;
        case WordChange::Op::Insert:
            s += QLatin1String("{+") + c.text + QLatin1String("+}");
            break;
        }
    }
    return s;
}

// ---- the aligned tree --------------------------------------------------------------------------

class TraceDiffBuilder {
public:
    TraceDiff& diff;
    std::unordered_map<const TraceNode*, uint64_t> subtreeHash;
    std::unordered_map<const TraceNode*, uint64_t> ownHashes;

    // Recursion bounded as add() is: what lies deeper is not compared.
    uint64_t hashTree(const TraceNode* n, int depth = 0)
    {
        uint64_t own = ownHash(*n);
        ownHashes.emplace(n, own);
        uint64_t h = own;
        if (depth >= TraceDiff::kMaxCompareDepth || stackExhausted()) {
            subtreeHash.emplace(n, h);
            return h;
        }
        for (const auto& [name, child] : n->defs)
            if (child)
                h = mix(mix(h, hashText(name)), hashTree(child.get(), depth + 1));
        for (const TraceNode::Children& c : n->children) {
            h = mix(h, hashText(c.field));
            for (const TracePtr& child : c.nodes)
                if (child)
                    h = mix(h, hashTree(child.get(), depth + 1));
        }
        subtreeHash.emplace(n, h);
        return h;
    }

    static uint64_t weakSignature(const ChildRef& c)
    {
        return mix(uint64_t(c.node->kind) + 1, hashText(c.name));
    }
    static uint64_t mediumSignature(const ChildRef& c)
    {
        return mix(mix(weakSignature(c), uint64_t(c.node->span.line)),
                   uint64_t(c.node->span.column));
    }
    uint64_t strongSignature(const ChildRef& c) const
    {
        auto it = subtreeHash.find(c.node);
        return mix(mediumSignature(c), it == subtreeHash.end() ? 0 : it->second);
    }

    // Adds the row for (l, r) and, recursively, its children; returns its index.
    int add(const TraceNode* l, const TraceNode* r, std::string_view field, int parent, int row,
            const QString& path, int depth)
    {
        // Deeper blocks are not walked (the stack would not hold them): a pair with blocks below
        // is then "not compared", never "same".
        const bool tooDeep = depth >= TraceDiff::kMaxCompareDepth || stackExhausted();
        const int index = int(diff.m_nodes.size());
        diff.m_nodes.emplace_back();
        {
            TraceDiff::Node& node = diff.m_nodes.back();
            node.left = l;
            node.right = r;
            node.field = std::string(field);
            node.parent = parent;
            node.row = row;
            node.path = path;
            node.leftOwn = ownMeasures(l);
            node.rightOwn = ownMeasures(r);
            if (l && r) {
                node.changes = compareOwn(*l, *r);
                if (tooDeep && (hasChildren(l) || hasChildren(r)))
                    node.changes |= TraceDiff::NotCompared;
                node.status = node.changes ? TraceDiff::Status::Changed : TraceDiff::Status::Same;
                if (node.changes & TraceDiff::NotCompared) {
                    ++diff.m_counts.notCompared;
                    if (node.changes == TraceDiff::NotCompared)
                        ++diff.m_counts.onlyNotCompared;
                }
            } else {
                node.status = l ? TraceDiff::Status::Deleted : TraceDiff::Status::Inserted;
            }
        }
        switch (diff.m_nodes[size_t(index)].status) {
        case TraceDiff::Status::Same:
            ++diff.m_counts.same;
            break;
        case TraceDiff::Status::Changed:
            ++diff.m_counts.changed;
            break;
        case TraceDiff::Status::Inserted:
            ++diff.m_counts.inserted;
            break;
        case TraceDiff::Status::Deleted:
            ++diff.m_counts.deleted;
            break;
        }

        std::vector<int> children;
        bool descendantsDiffer = false;
        TraceMeasures leftSum, rightSum;
        auto addChild = [&](const ChildRef* lc, const ChildRef* rc, std::string_view f,
                            int position) {
            const TraceNode* cn = rc ? rc->node : lc->node;
            QString childPath;
            if (!cn->id.empty()) {
                childPath = QString::fromStdString(cn->id);
            } else {
                const std::string_view name = rc ? rc->name : lc->name;
                childPath = path + QLatin1Char('.') + QString::fromUtf8(f.data(), f.size()) +
                            QLatin1Char('.') +
                            (f == "defs" ? QString::fromUtf8(name.data(), qsizetype(name.size()))
                                         : QString::number(position));
            }
            const int child = add(lc ? lc->node : nullptr, rc ? rc->node : nullptr, f, index,
                                  int(children.size()), childPath, depth + 1);
            children.push_back(child);
            const TraceDiff::Node& cnode = diff.m_nodes[size_t(child)];
            descendantsDiffer = descendantsDiffer || cnode.differs();
            addTo(leftSum, cnode.leftSubtree);
            addTo(rightSum, cnode.rightSubtree);
        };

        // A replayed node ran nothing: its result (and what its recording was asked) is
        // compared, not the sub-blocks the other side executed to build its prompt.
        const bool replayed = l && r && (l->replayed != r->replayed);
        const bool skip = replayed || tooDeep;
        const std::vector<Group> lg = skip ? std::vector<Group>{} : groupsOf(l);
        const std::vector<Group> rg = skip ? std::vector<Group>{} : groupsOf(r);
        // Fields in the left's order, then those only the right has.
        std::vector<std::pair<const Group*, const Group*>> fields;
        for (const Group& g : lg) {
            const Group* match = nullptr;
            for (const Group& h : rg)
                if (h.field == g.field)
                    match = &h;
            fields.emplace_back(&g, match);
        }
        for (const Group& h : rg) {
            bool seen = false;
            for (const Group& g : lg)
                seen = seen || g.field == h.field;
            if (!seen)
                fields.emplace_back(nullptr, &h);
        }
        for (const auto& [gl, gr] : fields) {
            const std::string_view f = gl ? gl->field : gr->field;
            if (!gl || !gr) {
                const Group* g = gl ? gl : gr;
                for (size_t i = 0; i < g->nodes.size(); ++i)
                    addChild(gl ? &g->nodes[i] : nullptr, gr ? &g->nodes[i] : nullptr, f, int(i));
                continue;
            }
            std::vector<uint64_t> sa[3], sb[3];
            for (const ChildRef& c : gl->nodes) {
                sa[0].push_back(strongSignature(c));
                sa[1].push_back(mediumSignature(c));
                sa[2].push_back(weakSignature(c));
            }
            for (const ChildRef& c : gr->nodes) {
                sb[0].push_back(strongSignature(c));
                sb[1].push_back(mediumSignature(c));
                sb[2].push_back(weakSignature(c));
            }
            Aligner aligner;
            aligner.a = {&sa[0], &sa[1], &sa[2]};
            aligner.b = {&sb[0], &sb[1], &sb[2]};
            aligner.run(0, 0, int(gl->nodes.size()), 0, int(gr->nodes.size()));
            for (const auto& [i, j] : aligner.script)
                addChild(i >= 0 ? &gl->nodes[size_t(i)] : nullptr,
                         j >= 0 ? &gr->nodes[size_t(j)] : nullptr, f, j >= 0 ? j : i);
        }

        TraceDiff::Node& node = diff.m_nodes[size_t(index)];
        node.children = std::move(children);
        node.descendantsDiffer = descendantsDiffer;
        node.leftSubtree = node.leftOwn;
        node.rightSubtree = node.rightOwn;
        addTo(node.leftSubtree, leftSum);
        addTo(node.rightSubtree, rightSum);
        return index;
    }
};

TraceDiff TraceDiff::compare(TracePtr left, TracePtr right)
{
    TraceDiff diff;
    diff.m_left = std::move(left);
    diff.m_right = std::move(right);
    if (!diff.m_left && !diff.m_right)
        return diff;
    TraceDiffBuilder builder{diff, {}, {}};
    const TraceNode* l = diff.m_left.get();
    const TraceNode* r = diff.m_right.get();
    // The roots are matched whatever they are: they are the two runs.
    const TraceNode* any = r ? r : l;
    if (l)
        builder.hashTree(l);
    if (r)
        builder.hashTree(r);
    builder.add(l, r, {}, -1, 0,
                any->id.empty() ? QString::fromLatin1(blockKindName(any->kind))
                                : QString::fromStdString(any->id),
                0);
    return diff;
}

// ---- details -----------------------------------------------------------------------------------

QString traceNodeLabel(const TraceNode& node)
{
    if (!node.def.empty())
        return QString::fromStdString(node.def);
    return QString::fromLatin1(blockKindName(node.kind));
}

QString traceNodeText(const TraceNode& node)
{
    if (!node.error.empty())
        return QString::fromStdString(node.error);
    if (!node.hasResult || node.result.isCallable() ||
        (node.kind == BlockKind::Function && node.result.isNull()))
        return QString();
    return QString::fromStdString(node.result.toText());
}

std::vector<WordChange> TraceDiff::resultDiff(int index) const
{
    const Node& n = node(index);
    const QString a = n.left ? traceNodeText(*n.left) : QString();
    const QString b = n.right ? traceNodeText(*n.right) : QString();
    return diffWords(a, b);
}

namespace {

struct Message {
    QString role;
    QString text;
};

std::vector<Message> messagesOf(const TraceNode* n)
{
    std::vector<Message> out;
    if (!n)
        return out;
    const Value& prompt = promptOf(*n);
    if (prompt.isNull())
        return out;
    if (!prompt.isList()) {
        out.push_back({QString(), QString::fromStdString(prompt.toText())});
        return out;
    }
    for (const Value& m : prompt.asList()) {
        Message msg;
        if (m.isDict()) {
            if (const Value* role = m.asDict().find("role"); role && role->isString())
                msg.role = QString::fromStdString(role->asString());
            if (const Value* content = m.asDict().find("content"))
                msg.text = QString::fromStdString(content->toText());
        } else {
            msg.text = QString::fromStdString(m.toText());
        }
        out.push_back(std::move(msg));
    }
    return out;
}

} // namespace

std::vector<MessageDiff> TraceDiff::promptDiff(int index) const
{
    const Node& n = node(index);
    const bool model = (n.left && n.left->kind == BlockKind::Model) ||
                       (n.right && n.right->kind == BlockKind::Model);
    std::vector<MessageDiff> out;
    if (!model)
        return out;
    const std::vector<Message> la = messagesOf(n.left);
    const std::vector<Message> lb = messagesOf(n.right);
    std::vector<uint64_t> sa[2], sb[2];
    auto sign = [](const Message& m, std::vector<uint64_t>* s) {
        const uint64_t role = qHash(m.role);
        s[0].push_back(mix(role, qHash(m.text)));
        s[1].push_back(role);
    };
    for (const Message& m : la)
        sign(m, sa);
    for (const Message& m : lb)
        sign(m, sb);
    Aligner aligner;
    aligner.a = {&sa[0], &sa[1]};
    aligner.b = {&sb[0], &sb[1]};
    aligner.run(0, 0, int(la.size()), 0, int(lb.size()));
    for (const auto& [i, j] : aligner.script) {
        MessageDiff d;
        d.leftIndex = i;
        d.rightIndex = j;
        if (i >= 0) {
            d.role = la[size_t(i)].role;
            d.leftText = la[size_t(i)].text;
        }
        if (j >= 0) {
            d.role = lb[size_t(j)].role;
            d.rightText = lb[size_t(j)].text;
        }
        if (i >= 0 && j >= 0)
            d.status = d.leftText == d.rightText ? MessageDiff::Status::Same
                                                 : MessageDiff::Status::Changed;
        else
            d.status = i >= 0 ? MessageDiff::Status::Deleted : MessageDiff::Status::Inserted;
        if (d.status != MessageDiff::Status::Same)
            d.words = diffWords(d.leftText, d.rightText);
        out.push_back(std::move(d));
    }
    return out;
}

std::vector<ExpressionDiff> TraceDiff::expressionDiff(int index) const
{
    std::vector<ExpressionDiff> out;
    const Node& n = node(index);
    if (!n.left || !n.right)
        return out;
    auto find = [](const TraceNode& t, const std::string& name) -> const Value* {
        for (const auto& [k, v] : t.exprs)
            if (k == name)
                return &v;
        return nullptr;
    };
    auto text = [](const Value* v) {
        if (!v)
            return QString();
        return v->isCallable() ? QStringLiteral("<function>") : QString::fromStdString(v->json());
    };
    std::vector<std::string> names;
    for (const auto& [k, v] : n.left->exprs)
        if (std::find(names.begin(), names.end(), k) == names.end())
            names.push_back(k);
    for (const auto& [k, v] : n.right->exprs)
        if (std::find(names.begin(), names.end(), k) == names.end())
            names.push_back(k);
    for (const std::string& name : names) {
        const Value* l = find(*n.left, name);
        const Value* r = find(*n.right, name);
        if (l && r && sameValue(*l, *r))
            continue;
        out.push_back({QString::fromStdString(name), text(l), text(r)});
    }
    return out;
}

std::vector<WordChange> TraceDiff::outputDiff(int index) const
{
    const Node& n = node(index);
    auto text = [](const TraceNode* t) {
        if (!t)
            return QString();
        QString s = QString::fromStdString(t->out);
        if (!t->err.empty())
            s += QStringLiteral("\nstderr:\n") + QString::fromStdString(t->err);
        return s;
    };
    return diffWords(text(n.left), text(n.right));
}

int TraceDiff::rowOfLeft(const TraceNode* n) const
{
    for (size_t i = 0; i < m_nodes.size(); ++i)
        if (m_nodes[i].left == n)
            return int(i);
    return -1;
}

int TraceDiff::rowOfRight(const TraceNode* n) const
{
    for (size_t i = 0; i < m_nodes.size(); ++i)
        if (m_nodes[i].right == n)
            return int(i);
    return -1;
}

const char* TraceDiff::statusName(Status status)
{
    switch (status) {
    case Status::Same:
        return "same";
    case Status::Changed:
        return "changed";
    case Status::Inserted:
        return "inserted";
    case Status::Deleted:
        return "deleted";
    }
    return "same";
}

QStringList TraceDiff::changeNames(uint32_t changes)
{
    QStringList names;
    if (changes & ResultChanged)
        names << QStringLiteral("result");
    if (changes & ErrorChanged)
        names << QStringLiteral("error");
    if (changes & PromptChanged)
        names << QStringLiteral("prompt");
    if (changes & ExpressionsChanged)
        names << QStringLiteral("expressions");
    if (changes & OutputChanged)
        names << QStringLiteral("output");
    if (changes & NotCompared)
        names << QStringLiteral("not compared (nested too deeply)");
    return names;
}

QString formatDurationNanos(int64_t nanos, bool sign)
{
    const QString prefix = sign && nanos > 0 ? QStringLiteral("+") : QString();
    const double ms = double(nanos) / 1e6;
    if (std::abs(ms) < 1000)
        return prefix + QString::number(ms, 'f', std::abs(ms) < 10 ? 1 : 0) + QStringLiteral(" ms");
    return prefix + QString::number(ms / 1000, 'f', 2) + QStringLiteral(" s");
}

// ---- from a TraceModel
// ---------------------------------------------------------------------------

namespace {

// A def's name: the model's items keep no defs key, but the block's `def` or its id
// (`text.defs.NAME.data`) holds it.
std::string defName(const TraceNode& n)
{
    if (!n.def.empty())
        return n.def;
    const size_t at = n.id.rfind(".defs.");
    if (at == std::string::npos)
        return {};
    const size_t start = at + 6;
    const size_t end = n.id.find('.', start);
    return n.id.substr(start, end == std::string::npos ? std::string::npos : end - start);
}

TracePtr copyItem(const TraceItem& item)
{
    auto n = std::make_shared<TraceNode>(item.node);
    n->children.clear();
    n->defs.clear();
    if (item.running && !n->hasResult && !item.streamed.empty()) {
        n->result = Value(item.streamed);
        n->hasResult = true;
    }
    for (const std::unique_ptr<TraceItem>& child : item.children) {
        TracePtr c = copyItem(*child);
        if (child->field == "defs")
            n->defs.emplace_back(defName(*c), c);
        else
            n->addChild(child->field.empty() ? std::string("children") : child->field, c);
    }
    return n;
}

} // namespace

TracePtr traceFromItems(const TraceItem* root)
{
    return root ? copyItem(*root) : nullptr;
}

} // namespace hako::pdl
