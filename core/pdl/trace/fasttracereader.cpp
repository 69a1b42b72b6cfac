#include "core/pdl/trace/fasttracereader.h"

#include "core/pdl/trace/jsonstring_p.h"
#include "core/pdl/trace/tracekind_p.h"
#include "core/util/stackguard.h"

#include <simdjson.h>

#include <QString>

#include <cstdint>
#include <limits>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>

namespace hako::pdl {

namespace od = simdjson::ondemand;

namespace {

// Thrown to hand the input to the tolerant reader, or to stop on cancel.
struct Unsupported {};
struct Stopped {};

// The tolerant reader's limits: it leaves blocks nested deeper than 2,000 empty and values
// nested deeper than Value::fromJson takes (1,000) unshown, and refuses JSON nested deeper
// than 10,000 levels. Such input goes to it; the JSON limit here is lower, so that every
// document this reader takes, the tolerant one takes too.
constexpr int kMaxBlockDepth = 2000;
constexpr int kMaxValueDepth = 1000;
constexpr size_t kMaxJsonDepth = 9000;
constexpr qint64 kProgressStep = qint64(1) << 20;

template <typename T> T take(simdjson::simdjson_result<T>&& r)
{
    T v;
    if (std::move(r).get(v) != simdjson::SUCCESS)
        throw Unsupported{};
    return v;
}

// Whatever nlohmann refuses in a string (control characters, unknown escapes, lone
// surrogates) is left to the tolerant reader, which says where it is.
std::string unescape(std::string_view raw)
{
    std::string out;
    if (!unescapeJsonString(raw, out))
        throw Unsupported{};
    return out;
}

// A string token's content: simdjson's raw token starts at the opening quote and may run on
// over the whitespace after the closing one.
std::string_view stringContent(od::value& v)
{
    std::string_view token = v.raw_json_token();
    while (!token.empty() && (token.back() == ' ' || token.back() == '\n' || token.back() == '\r' ||
                              token.back() == '\t'))
        token.remove_suffix(1);
    if (token.size() < 2 || token.front() != '"' || token.back() != '"')
        throw Unsupported{};
    // Consumed (without simdjson's unescaping), so that the parser moves past it: the root's
    // check (Builder::fieldDone) relies on where the parser is after each field.
    (void)take(v.get_raw_json_string());
    return token.substr(1, token.size() - 2);
}

// get_number() only looks at the number: read it as its type, so that the parser moves past
// it (the root's check relies on that; see Builder::fieldDone).
void consumeNumber(od::value& v, const od::number& num)
{
    switch (num.get_number_type()) {
    case od::number_type::signed_integer:
        (void)take(v.get_int64());
        return;
    case od::number_type::unsigned_integer:
        (void)take(v.get_uint64());
        return;
    default:
        (void)take(v.get_double());
        return;
    }
}

// A key's content, escapes as written (stage 1 guarantees the closing quote).
std::string_view rawKey(od::field& f)
{
    const char* start = f.key().raw();
    const char* p = start;
    while (*p != '"')
        p += *p == '\\' ? 2 : 1;
    return {start, size_t(p - start)};
}

// What a block's fields give, where the tolerant reader takes the first of a repeated field
// or the modern name before the old one (`pdl__result` before `result`).
struct Pending {
    template <typename T> struct Pair {
        std::optional<T> modern, old;
        const std::optional<T>& chosen(bool modernSeen) const { return modernSeen ? modern : old; }
    };
    bool seenId[2] = {}, seenResult[2] = {}, seenTiming[2] = {}, seenLeaf[2] = {},
         seenContext[2] = {};
    Pair<std::string> id;
    Pair<Value> result;
    Pair<std::pair<int64_t, int64_t>> timing;
    Pair<bool> leaf;
    Pair<Value> context;
    bool seenDef = false, seenDescription = false, seenContribute = false, seenReplayed = false,
         seenByHand = false, seenLocation = false, seenInput = false, seenUsage = false,
         seenOut = false, seenErr = false, seenDefs = false;
    std::unordered_map<std::string, size_t> groups; ///< child groups by field, once many
};

class Builder {
public:
    Builder(const char* begin, size_t size, const std::function<void(qint64, qint64)>& progress,
            const CancelToken& cancel, od::document& doc)
        : m_begin(begin), m_size(size), m_progress(progress), m_cancel(cancel), m_doc(doc)
    {}

    // Whether `obj` is a block (its first `kind` is a string), with that kind; rewinds it.
    bool blockKind(od::object& obj, std::string* kind)
    {
        bool block = false;
        for (auto r : obj) {
            od::field f = take(std::move(r));
            std::string_view k = rawKey(f);
            if (k != "kind" && (!jsonStringNeedsUnescape(k) || unescape(k) != "kind"))
                continue;
            od::value v = f.value();
            if (take(v.type()) == od::json_type::string) {
                block = true;
                *kind = unescape(stringContent(v));
            }
            break;
        }
        take(obj.reset());
        return block;
    }

    TracePtr block(od::object& obj, const std::string& kind, int depth);

private:
    void tick();
    void fieldDone(int depth);
    void rootDone(int depth);
    std::string key(od::field& f) { return unescape(rawKey(f)); }
    Value string(std::string_view raw);
    QString fileName(std::string_view raw);
    Value value(od::value v, int depth);
    Value dict(od::object& o, int depth);
    const char* position(); ///< where the parser is (the end of the data once there)
    Value number(od::value& v);
    int64_t toInt(od::value& v);
    void skip(od::value v, int depth);
    void skipObject(od::object& o, int depth);
    TracePtr errorBlock(od::object& obj, int depth);
    void field(TraceNode& n, Pending& p, const std::string& k, od::value& v, int depth);
    bool specialField(TraceNode& n, Pending& p, const std::string& k, od::value& v,
                      od::json_type type, int depth);
    void generic(TraceNode& n, Pending& p, const std::string& k, od::value& v, int depth);
    void exprOrObjectFields(TraceNode& n, Pending& p, const std::string& k, od::object& o,
                            int depth);
    void timing(od::value& v, std::optional<std::pair<int64_t, int64_t>>& out);
    void location(TraceNode& n, od::value& v);
    void contribute(TraceNode& n, od::value& v);
    Value recorded(od::value& v);
    void addChild(TraceNode& n, Pending& p, const std::string& field, TracePtr child, bool single);

    const char* m_begin;
    size_t m_size;
    const std::function<void(qint64, qint64)>& m_progress;
    const CancelToken& m_cancel;
    od::document& m_doc;
    qint64 m_nextTick = kProgressStep;
    const char* m_afterRootField = nullptr; ///< the token after the root's last field read
    // Strings by their JSON text (which stays in the input while the tree is built): a trace
    // repeats its contexts and messages in every model block, and a Value shares its text.
    std::unordered_map<std::string_view, Value> m_strings;
    std::unordered_map<std::string_view, Value> m_objects; ///< messages, by their JSON text
    std::unordered_map<std::string_view, QString> m_files; ///< every block names one or two
};

// On Demand ends a loop silently on a syntax error (it jumps to the end of the document):
// after each of the root's fields (every value read is consumed) the parser must still be
// inside the document, and after the root's last one at the root's closing brace, the last
// character of the data.
void Builder::fieldDone(int depth)
{
    if (depth != 0)
        return;
    const char* at = nullptr;
    if (m_doc.current_location().get(at) != simdjson::SUCCESS)
        throw Unsupported{};
    m_afterRootField = at;
}

void Builder::rootDone(int depth)
{
    if (depth != 0)
        return;
    const char* last = m_begin + m_size;
    while (last > m_begin &&
           (last[-1] == ' ' || last[-1] == '\n' || last[-1] == '\r' || last[-1] == '\t'))
        --last;
    if (last == m_begin || m_afterRootField != last - 1 || *m_afterRootField != '}')
        throw Unsupported{};
}

void Builder::tick()
{
    const qint64 done = position() - m_begin;
    if (done < m_nextTick)
        return;
    m_nextTick = (done / kProgressStep + 1) * kProgressStep;
    if (m_cancel.isCancelled())
        throw Stopped{};
    if (m_progress)
        m_progress(done, qint64(m_size));
}

Value Builder::string(std::string_view raw)
{
    auto it = m_strings.find(raw);
    if (it != m_strings.end())
        return it->second;
    Value v(unescape(raw));
    m_strings.emplace(raw, v);
    return v;
}

QString Builder::fileName(std::string_view raw)
{
    auto it = m_files.find(raw);
    if (it == m_files.end())
        it = m_files.emplace(raw, QString::fromStdString(unescape(raw))).first;
    return it->second;
}

Value Builder::number(od::value& v)
{
    const std::string_view token = v.raw_json_token();
    od::number num = take(v.get_number());
    consumeNumber(v, num);
    switch (num.get_number_type()) {
    case od::number_type::signed_integer:
        return Value(int64_t(num.get_int64()));
    case od::number_type::unsigned_integer: {
        const uint64_t u = num.get_uint64();
        if (u > uint64_t(std::numeric_limits<int64_t>::max()))
            return Value(double(u));
        return Value(int64_t(u));
    }
    case od::number_type::floating_point_number:
        break;
    default:
        throw Unsupported{};
    }
    // nlohmann reads a number without fraction or exponent as an integer ("-0" is 0).
    if (token.find_first_of(".eE") == std::string_view::npos) {
        if (token.substr(0, 2) == "-0" && token.find_first_of("123456789") == token.npos)
            return Value(int64_t(0));
        throw Unsupported{};
    }
    return Value(num.get_double());
}

// As the tolerant reader's toInt: a float converts only within int64; an unsigned integer
// beyond int64 wraps, as nlohmann's get<int64_t>() does.
int64_t Builder::toInt(od::value& v)
{
    if (take(v.type()) != od::json_type::number) {
        skip(v, 0);
        return 0;
    }
    const std::string_view token = v.raw_json_token();
    od::number num = take(v.get_number());
    consumeNumber(v, num);
    if (num.get_number_type() == od::number_type::unsigned_integer)
        return static_cast<int64_t>(num.get_uint64());
    if (num.get_number_type() == od::number_type::signed_integer)
        return num.get_int64();
    if (token.find_first_of(".eE") == std::string_view::npos) {
        if (token.substr(0, 2) == "-0" && token.find_first_of("123456789") == token.npos)
            return 0;
        throw Unsupported{};
    }
    const double d = num.get_double();
    return d > -9.2e18 && d < 9.2e18 ? int64_t(d) : 0;
}

const char* Builder::position()
{
    const char* at = nullptr;
    if (m_doc.current_location().get(at) != simdjson::SUCCESS)
        return m_begin + m_size;
    return at;
}

Value Builder::dict(od::object& o, int depth)
{
    Dict d;
    for (auto r : o) {
        od::field f = take(std::move(r));
        Value k = string(rawKey(f));
        d.set(std::move(k), value(f.value(), depth + 1));
    }
    return Value(std::move(d));
}

Value Builder::value(od::value v, int depth)
{
    if (depth > kMaxValueDepth || stackExhausted())
        throw Unsupported{};
    switch (take(v.type())) {
    case od::json_type::array: {
        List items;
        od::array a = take(v.get_array());
        for (auto r : a)
            items.push_back(value(take(std::move(r)), depth + 1));
        return Value(std::move(items));
    }
    case od::json_type::object: {
        const char* start = v.raw_json_token().data();
        od::object o = take(v.get_object());
        if (depth < 1 || depth > 2)
            return dict(o, depth);
        // Messages: a reference trace records the whole context in every model block, so
        // the same message object recurs in many blocks. Checked (walked) first, looked up by
        // its text, and built only the first time.
        skipObject(o, depth);
        const std::string_view text(start, size_t(position() - start));
        if (auto it = m_objects.find(text); it != m_objects.end())
            return it->second;
        take(o.reset());
        Value built = dict(o, depth);
        m_objects.emplace(text, built);
        return built;
    }
    case od::json_type::string:
        return string(stringContent(v));
    case od::json_type::number:
        return number(v);
    case od::json_type::boolean:
        return Value(take(v.get_bool()));
    case od::json_type::null:
        if (!take(v.is_null()))
            throw Unsupported{};
        return Value();
    }
    throw Unsupported{};
}

// Walks a value this reader does not use, so that the whole document is checked as the
// tolerant reader checks it (On Demand alone would skip over a damaged part).
void Builder::skip(od::value v, int depth)
{
    if (depth > kMaxValueDepth || stackExhausted())
        throw Unsupported{};
    switch (take(v.type())) {
    case od::json_type::array: {
        od::array a = take(v.get_array());
        for (auto r : a)
            skip(take(std::move(r)), depth + 1);
        return;
    }
    case od::json_type::object: {
        od::object o = take(v.get_object());
        skipObject(o, depth);
        return;
    }
    case od::json_type::string:
        (void)unescape(stringContent(v));
        return;
    case od::json_type::number:
        (void)number(v);
        return;
    case od::json_type::boolean:
        (void)take(v.get_bool());
        return;
    case od::json_type::null:
        if (!take(v.is_null()))
            throw Unsupported{};
        return;
    }
    throw Unsupported{};
}

void Builder::skipObject(od::object& o, int depth)
{
    for (auto r : o) {
        od::field f = take(std::move(r));
        (void)unescape(rawKey(f));
        skip(f.value(), depth + 1);
    }
}

// A recorded value as the tolerant reader records it; a value that would also count as a
// block, block list or evaluated expression there is left to it.
Value Builder::recorded(od::value& v)
{
    Value out = value(v, 0);
    auto looksSpecial = [](const Value& x) {
        if (!x.isDict())
            return false;
        const Value* kind = x.asDict().find("kind");
        return (kind && kind->isString()) ||
               (x.asDict().find("pdl__expr") && x.asDict().find("pdl__result"));
    };
    if (looksSpecial(out) ||
        (out.isList() && !out.asList().empty() && looksSpecial(out.asList().front())))
        throw Unsupported{};
    return out;
}

void Builder::addChild(TraceNode& n, Pending& p, const std::string& field, TracePtr child,
                       bool single)
{
    // A block may have any number of fields (a damaged or hostile file): past a few groups,
    // they are found through an index.
    size_t g = n.children.size();
    if (n.children.size() <= 8) {
        for (size_t i = 0; i < n.children.size(); ++i)
            if (n.children[i].field == field)
                g = i;
    } else {
        if (p.groups.empty())
            for (size_t i = 0; i < n.children.size(); ++i)
                p.groups.emplace(n.children[i].field, i);
        auto [it, added] = p.groups.try_emplace(field, n.children.size());
        g = it->second;
    }
    if (g == n.children.size()) {
        n.children.push_back({field, {}, single});
        if (!p.groups.empty())
            p.groups.try_emplace(field, g);
    }
    n.children[g].nodes.push_back(std::move(child));
}

TracePtr Builder::block(od::object& obj, const std::string& kind, int depth)
{
    // Deep nesting goes to the tolerant reader, by count or by what is left of the stack (frames
    // are larger under sanitizers and on other compilers).
    if (depth > kMaxBlockDepth || stackExhausted())
        throw Unsupported{};
    tick();
    if (kind == "error")
        return errorBlock(obj, depth);
    auto n = std::make_shared<TraceNode>();
    n->kind = traceKindFromName(kind);
    Pending p;
    for (auto r : obj) {
        od::field f = take(std::move(r));
        const std::string k = key(f);
        field(*n, p, k, f.value(), depth);
        fieldDone(depth);
    }
    rootDone(depth);
    if (const auto& id = p.id.chosen(p.seenId[0]))
        n->id = *id;
    if (const auto& result = p.result.chosen(p.seenResult[0])) {
        n->result = *result;
        n->hasResult = true;
    }
    if (const auto& t = p.timing.chosen(p.seenTiming[0])) {
        n->startNanos = t->first;
        n->endNanos = t->second;
    }
    if (const auto& leaf = p.leaf.chosen(p.seenLeaf[0]))
        n->isLeaf = *leaf;
    if (const auto& context = p.context.chosen(p.seenContext[0]); context && context->isList())
        n->context = *context;
    return n;
}

// {kind: error, msg, program: {…}}: the failed block, marked.
TracePtr Builder::errorBlock(od::object& obj, int depth)
{
    TracePtr n;
    std::optional<std::string> msg, id;
    bool seenProgram = false, seenMsg = false, seenId = false;
    for (auto r : obj) {
        od::field f = take(std::move(r));
        const std::string k = key(f);
        od::value& v = f.value();
        const od::json_type type = take(v.type());
        if (k == "program" && !seenProgram) {
            seenProgram = true;
            if (type == od::json_type::object) {
                od::object o = take(v.get_object());
                std::string kind;
                if (blockKind(o, &kind))
                    n = block(o, kind, depth + 1);
                else
                    skipObject(o, 0);
            } else {
                skip(v, 0);
            }
        } else if (((k == "msg" && !seenMsg) || (k == "pdl__id" && !seenId)) &&
                   type == od::json_type::string) {
            (k == "msg" ? seenMsg : seenId) = true;
            (k == "msg" ? msg : id) = unescape(stringContent(v));
        } else {
            seenMsg = seenMsg || k == "msg";
            seenId = seenId || k == "pdl__id";
            skip(v, 0);
        }
        fieldDone(depth);
    }
    rootDone(depth);
    if (!n)
        n = std::make_shared<TraceNode>();
    n->error = msg ? *msg : std::string("error");
    if (n->id.empty() && id)
        n->id = *id;
    return n;
}

void Builder::field(TraceNode& n, Pending& p, const std::string& k, od::value& v, int depth)
{
    const od::json_type type = take(v.type());
    if (k == "defs" || k == "program" || k == "pdl__result" || k == "result") {
        // Never children (the tolerant reader skips these names in its field loop).
        const bool modern = k == "pdl__result";
        if ((modern || k == "result") && !p.seenResult[modern ? 0 : 1]) {
            p.seenResult[modern ? 0 : 1] = true;
            (modern ? p.result.modern : p.result.old) = value(v, 0);
        } else if (k == "defs" && !std::exchange(p.seenDefs, true) &&
                   type == od::json_type::object) {
            od::object defs = take(v.get_object());
            for (auto r : defs) {
                od::field f = take(std::move(r));
                std::string name = key(f);
                od::value& d = f.value();
                if (take(d.type()) != od::json_type::object) {
                    skip(d, 0);
                    continue;
                }
                od::object o = take(d.get_object());
                std::string kind;
                if (blockKind(o, &kind))
                    n.defs.emplace_back(std::move(name), block(o, kind, depth + 1));
                else
                    skipObject(o, 0);
            }
        } else {
            skip(v, 0);
        }
        return;
    }
    if (!specialField(n, p, k, v, type, depth))
        generic(n, p, k, v, depth);
}

// The fields the tolerant reader reads by name (the first of each); true when `v` was used.
// A field of another type than expected is also a child or expression candidate there.
bool Builder::specialField(TraceNode& n, Pending& p, const std::string& k, od::value& v,
                           od::json_type type, int depth)
{
    const bool isString = type == od::json_type::string;
    const bool isBool = type == od::json_type::boolean;
    auto first = [](bool& seen) {
        return !std::exchange(seen, true);
    };
    if (k == "pdl__id" || k == "id") {
        const int i = k == "id";
        if (!first(p.seenId[i]) || !isString)
            return false;
        (i ? p.id.old : p.id.modern) = unescape(stringContent(v));
        return true;
    }
    if (k == "pdl__timing" || k == "timing") {
        const int i = k == "timing";
        if (!first(p.seenTiming[i]) || type != od::json_type::object)
            return false;
        timing(v, i ? p.timing.old : p.timing.modern);
        return true;
    }
    if (k == "pdl__is_leaf" || k == "is_leaf") {
        const int i = k == "is_leaf";
        if (!first(p.seenLeaf[i]) || !isBool)
            return false;
        (i ? p.leaf.old : p.leaf.modern) = take(v.get_bool());
        return true;
    }
    if ((k == "def" && first(p.seenDef) && isString) ||
        (k == "description" && first(p.seenDescription) && isString)) {
        (k == "def" ? n.def : n.description) = unescape(stringContent(v));
        return true;
    }
    if ((k == "pdl__stdout" && first(p.seenOut) && isString) ||
        (k == "pdl__stderr" && first(p.seenErr) && isString)) {
        (k == "pdl__stdout" ? n.out : n.err) = unescape(stringContent(v));
        return true;
    }
    if ((k == "pdl__replayed" && first(p.seenReplayed) && isBool) ||
        (k == "pdl__answered_by_hand" && first(p.seenByHand) && isBool)) {
        (k == "pdl__replayed" ? n.replayed : n.answeredByHand) = take(v.get_bool());
        return true;
    }
    if (k == "pdl__location" && first(p.seenLocation) && type == od::json_type::object) {
        location(n, v);
        return true;
    }
    if (k == "contribute" && first(p.seenContribute) && type == od::json_type::array) {
        contribute(n, v);
        return true;
    }
    if (n.kind != BlockKind::Model)
        return false;
    if (k == "pdl__context" || k == "context") {
        const int i = k == "context";
        if (!first(p.seenContext[i]))
            return false;
        (i ? p.context.old : p.context.modern) = recorded(v);
        return true;
    }
    if ((k == "pdl__model_input" && first(p.seenInput)) ||
        (k == "pdl__usage" && first(p.seenUsage))) {
        (k == "pdl__usage" ? n.usage : n.modelInput) = recorded(v);
        return true;
    }
    (void)depth;
    return false;
}

// Any other field: a block (a child), a list whose first item is a block (children), an
// evaluated expression `{pdl__expr, pdl__result}`, a model name, or an object block's fields.
void Builder::generic(TraceNode& n, Pending& p, const std::string& k, od::value& v, int depth)
{
    const std::string& name = k == "trace" ? std::string("pdl__trace") : k;
    switch (take(v.type())) {
    case od::json_type::object: {
        od::object o = take(v.get_object());
        std::string kind;
        if (blockKind(o, &kind))
            addChild(n, p, name, block(o, kind, depth + 1), true);
        else
            exprOrObjectFields(n, p, k, o, depth);
        return;
    }
    case od::json_type::array: {
        od::array a = take(v.get_array());
        bool first = true;
        bool children = false;
        for (auto r : a) {
            od::value e = take(std::move(r));
            bool isBlock = false;
            if ((first || children) && take(e.type()) == od::json_type::object) {
                od::object o = take(e.get_object());
                std::string kind;
                if (blockKind(o, &kind)) {
                    addChild(n, p, name, block(o, kind, depth + 1), false);
                    isBlock = true;
                } else {
                    skipObject(o, 0);
                }
            } else {
                skip(e, 0);
            }
            if (first)
                children = isBlock;
            first = false;
        }
        return;
    }
    case od::json_type::string:
        if (n.kind == BlockKind::Model && k == "model") {
            n.exprs.emplace_back(k, string(stringContent(v)));
            return;
        }
        break;
    default:
        break;
    }
    skip(v, 0);
}

void Builder::exprOrObjectFields(TraceNode& n, Pending& p, const std::string& k, od::object& o,
                                 int depth)
{
    const bool objectFields = n.kind == BlockKind::Object && k == "object";
    bool sawExpr = false;
    std::optional<Value> result;
    std::vector<TracePtr> blocks;
    for (auto r : o) {
        od::field f = take(std::move(r));
        const std::string fk = key(f);
        od::value& v = f.value();
        if ((fk == "pdl__expr" || fk == "pdl__result") && objectFields)
            throw Unsupported{}; // both readings apply there: the tolerant reader decides
        if (fk == "pdl__expr") {
            sawExpr = true;
            skip(v, 0);
        } else if (fk == "pdl__result" && !result) {
            result = value(v, 0);
        } else if (objectFields && take(v.type()) == od::json_type::object) {
            od::object b = take(v.get_object());
            std::string kind;
            if (blockKind(b, &kind))
                blocks.push_back(block(b, kind, depth + 1));
            else
                skipObject(b, 0);
        } else {
            skip(v, 0);
        }
    }
    if (sawExpr && result)
        n.exprs.emplace_back(k, std::move(*result));
    for (TracePtr& b : blocks)
        addChild(n, p, "object", std::move(b), false);
}

void Builder::timing(od::value& v, std::optional<std::pair<int64_t, int64_t>>& out)
{
    std::pair<int64_t, int64_t> t{0, 0};
    bool seen[2] = {};
    od::object o = take(v.get_object());
    for (auto r : o) {
        od::field f = take(std::move(r));
        const std::string k = key(f);
        if (k == "kind" || k == "pdl__expr")
            throw Unsupported{}; // a timing that is also a block or expression: hostile
        const int i = k == "start_nanos" ? 0 : k == "end_nanos" ? 1 : -1;
        if (i >= 0 && !std::exchange(seen[i], true))
            (i ? t.second : t.first) = toInt(f.value());
        else
            skip(f.value(), 0);
    }
    out = t;
}

void Builder::location(TraceNode& n, od::value& v)
{
    static const char* const names[] = {"file", "line", "column", "end_line", "end_column"};
    bool seen[5] = {};
    n.span.file = QString::fromStdString(std::string()); // as the tolerant reader sets it
    od::object o = take(v.get_object());
    for (auto r : o) {
        od::field f = take(std::move(r));
        const std::string k = key(f);
        od::value& x = f.value();
        if (k == "kind" || k == "pdl__expr")
            throw Unsupported{};
        int i = 0;
        while (i < 5 && k != names[i])
            ++i;
        if (i == 5 || std::exchange(seen[i], true)) {
            skip(x, 0);
        } else if (i == 0) {
            if (take(x.type()) == od::json_type::string)
                n.span.file = fileName(stringContent(x));
            else
                skip(x, 0);
        } else {
            const int64_t value = toInt(x);
            const int clamped =
                value >= 0 && value <= std::numeric_limits<int>::max() ? int(value) : 0;
            (i == 1   ? n.span.line
             : i == 2 ? n.span.column
             : i == 3 ? n.span.endLine
                      : n.span.endColumn) = clamped;
        }
    }
}

void Builder::contribute(TraceNode& n, od::value& v)
{
    std::vector<std::string> targets;
    od::array a = take(v.get_array());
    for (auto r : a) {
        od::value t = take(std::move(r));
        const od::json_type type = take(t.type());
        if (type == od::json_type::string) {
            targets.push_back(unescape(stringContent(t)));
        } else if (type == od::json_type::object) {
            od::object o = take(t.get_object());
            bool firstKey = true;
            for (auto fr : o) {
                od::field f = take(std::move(fr));
                const std::string k = key(f);
                if (k == "kind")
                    throw Unsupported{}; // could be a block list there
                if (std::exchange(firstKey, false))
                    targets.push_back(k);
                skip(f.value(), 0);
            }
        } else {
            skip(t, 0);
        }
    }
    n.contribute = std::move(targets);
}

} // namespace

std::size_t fastTraceReaderPadding()
{
    return simdjson::SIMDJSON_PADDING;
}

FastTraceRead fastTraceFromJson(const char* data, std::size_t size, std::size_t capacity,
                                const std::function<void(qint64, qint64)>& progress,
                                const CancelToken& cancel)
{
    FastTraceRead out;
    if (capacity < size + simdjson::SIMDJSON_PADDING)
        return out;
    try {
        od::parser parser;
        if (parser.allocate(size, kMaxJsonDepth) != simdjson::SUCCESS)
            return out;
        od::document doc;
        if (parser.iterate(simdjson::padded_string_view(data, size, capacity)).get(doc) !=
            simdjson::SUCCESS)
            return out;
        Builder builder(data, size, progress, cancel, doc);
        od::object root;
        if (doc.get_object().get(root) != simdjson::SUCCESS)
            return out;
        std::string kind;
        if (!builder.blockKind(root, &kind))
            return out;
        TracePtr trace = builder.block(root, kind, 0);
        const char* trailing = nullptr;
        if (doc.current_location().get(trailing) == simdjson::SUCCESS)
            return out; // something after the trace: the tolerant reader says what

        out.root = std::move(trace);
        out.status = FastTraceRead::Status::Done;
    } catch (const Unsupported&) {
    } catch (const Stopped&) {
        out.status = FastTraceRead::Status::Cancelled;
    } catch (const simdjson::simdjson_error&) {
    }
    return out;
}

} // namespace hako::pdl
