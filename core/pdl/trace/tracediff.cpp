#include "core/pdl/trace/tracediff.h"

#include "core/pdl/imagecontent.h"
#include "core/pdl/trace/tracemodel.h"
#include "core/util/shortestedit.h"
#include "core/util/stackguard.h"
#include "core/util/worddiff.h"

#include <QHash>
#include <QJsonArray>

#include <algorithm>
#include <functional>
#include <string_view>
#include <unordered_map>

namespace hako::pdl {

namespace {

using Match = EditMatch;

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

// The fields of two nodes side by side: the left's in its order, then those only the right has.
std::vector<std::pair<const Group*, const Group*>> pairFields(const std::vector<Group>& lg,
                                                              const std::vector<Group>& rg)
{
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
    return fields;
}

} // namespace

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

namespace {

void addTo(TraceMeasures& total, const TraceMeasures& part)
{
    total.promptTokens += part.promptTokens;
    total.completionTokens += part.completionTokens;
    total.hasTokens = total.hasTokens || part.hasTokens;
    total.cost += part.cost;
    total.hasCost = total.hasCost || part.hasCost;
}

} // namespace

TraceMeasures nodeMeasures(const TraceNode& node)
{
    return ownMeasures(&node);
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

    void count(TraceDiff::Status status)
    {
        switch (status) {
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
        count(diff.m_nodes[size_t(index)].status);

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
        for (const auto& [gl, gr] : pairFields(lg, rg)) {
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
    // Images compare by their placeholders ([image: PNG 1240×1754, 812 KB]), not base64 text.
    return QString::fromStdString(withDataUrlPlaceholders(node.result).toText());
}

std::vector<WordChange> TraceDiff::resultDiff(int index) const
{
    const Node& n = node(index);
    const QString a = n.left ? traceNodeText(*n.left) : QString();
    const QString b = n.right ? traceNodeText(*n.right) : QString();
    return joinChangesAcrossSpaces(wordDiff(a, b));
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
        out.push_back({QString(), QString::fromStdString(contentDisplayText(prompt))});
        return out;
    }
    for (const Value& m : prompt.asList()) {
        Message msg;
        if (m.isDict()) {
            if (const Value* role = m.asDict().find("role"); role && role->isString())
                msg.role = QString::fromStdString(role->asString());
            if (const Value* content = m.asDict().find("content"))
                msg.text = QString::fromStdString(contentDisplayText(*content));
        } else {
            msg.text = QString::fromStdString(contentDisplayText(m));
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
            d.words = joinChangesAcrossSpaces(wordDiff(d.leftText, d.rightText));
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
    return joinChangesAcrossSpaces(wordDiff(text(n.left), text(n.right)));
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
    if (item.running && !n->hasResult && !item.streamed().empty()) {
        n->result = Value(item.streamed());
        n->hasResult = true;
    }
    for (const std::unique_ptr<TraceItem>& child : item.children) {
        TracePtr c = copyItem(*child);
        if (child->field == "defs")
            n->defs.emplace_back(defName(*c), c);
        else
            n->addChild(child->field.empty() ? std::string("children") : child->field.str(), c);
    }
    return n;
}

} // namespace

TracePtr traceFromItems(const TraceItem* root)
{
    return root ? copyItem(*root) : nullptr;
}

} // namespace hako::pdl
