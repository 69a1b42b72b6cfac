#include "core/pdl/trace/tracereader.h"

#include "core/pdl/interp/interpreter.h"
#include "core/pdl/trace/tracekind_p.h"
#include "core/pdl/trace/traceloader.h"
#include "core/util/stackguard.h"

#include <QFile>

#include <nlohmann/json.hpp>

#include <limits>
#include <unordered_map>

namespace hako::pdl {

using ojson = nlohmann::ordered_json;

BlockKind traceKindFromName(std::string_view name)
{
    static const std::pair<const char*, BlockKind> kinds[] = {
        {"data", BlockKind::Data},
        {"model", BlockKind::Model},
        {"read", BlockKind::Read},
        {"text", BlockKind::Text},
        {"lastOf", BlockKind::LastOf},
        {"array", BlockKind::Array},
        {"object", BlockKind::Object},
        {"sequence", BlockKind::Sequence},
        {"get", BlockKind::Get},
        {"message", BlockKind::Message},
        {"if", BlockKind::If},
        {"match", BlockKind::Match},
        {"repeat", BlockKind::Repeat},
        {"map", BlockKind::Map},
        {"function", BlockKind::Function},
        {"call", BlockKind::Call},
        {"code", BlockKind::Code},
        {"include", BlockKind::Include},
        {"import", BlockKind::Import},
        {"aggregator", BlockKind::Aggregator},
        {"factor", BlockKind::Empty},
        {"empty", BlockKind::Empty},
        {"error", BlockKind::Error},
        {"for", BlockKind::Repeat}, // very old traces
    };
    for (const auto& [n, k] : kinds)
        if (name == n)
            return k;
    return BlockKind::Empty;
}

namespace {

bool isBlock(const ojson& j)
{
    return j.is_object() && j.contains("kind") && j["kind"].is_string();
}

const ojson* field(const ojson& j, const char* modern, const char* old)
{
    auto it = j.find(modern);
    if (it != j.end())
        return &*it;
    it = j.find(old);
    return it != j.end() ? &*it : nullptr;
}

int64_t toInt(const ojson* j)
{
    if (!j || !j->is_number())
        return 0;
    if (j->is_number_float()) {
        // A float outside int64 (a damaged or hostile file) must not be converted (UB).
        const double d = j->get<double>();
        return d > -9.2e18 && d < 9.2e18 ? int64_t(d) : 0;
    }
    return j->get<int64_t>();
}

// A field of an object, or nullptr when absent. Every field is checked for its type before use:
// a trace file is input, and a wrong type (`"msg": 5`) must not throw from deep inside.
const ojson* member(const ojson& j, const char* name)
{
    if (!j.is_object())
        return nullptr;
    auto it = j.find(name);
    return it != j.end() ? &*it : nullptr;
}

std::string stringMember(const ojson& j, const char* name, std::string fallback = {})
{
    const ojson* v = member(j, name);
    return v && v->is_string() ? v->get<std::string>() : std::move(fallback);
}

int intMember(const ojson& j, const char* name)
{
    const int64_t v = toInt(member(j, name));
    return v >= 0 && v <= std::numeric_limits<int>::max() ? int(v) : 0;
}

// A recorded value; one nested deeper than Value converts is left out, and the block says so,
// instead of failing the whole file.
Value recorded(const ojson& j, TraceNode& n)
{
    try {
        return Value::fromJson(j);
    } catch (const EvalError& e) {
        if (n.error.empty())
            n.error = std::string("a recorded value is not shown: ") + e.what();
        return Value();
    }
}

TracePtr build(const ojson& j, int depth)
{
    auto n = std::make_shared<TraceNode>();
    // Nested deeper than that (or than the stack allows: frames are larger under sanitizers),
    // the block is left empty rather than overflowing the stack.
    if (depth > 2000 || stackExhausted())
        return n;
    if (stringMember(j, "kind") == "error") {
        // {kind: error, msg, program: {…}}: the failed block, marked.
        if (auto p = j.find("program"); p != j.end() && isBlock(*p))
            n = build(*p, depth + 1);
        n->error = stringMember(j, "msg", "error");
        if (n->id.empty())
            n->id = stringMember(j, "pdl__id");
        return n;
    }
    n->kind = traceKindFromName(stringMember(j, "kind"));
    if (const ojson* id = field(j, "pdl__id", "id"); id && id->is_string())
        n->id = id->get<std::string>();
    if (const ojson* r = field(j, "pdl__result", "result")) {
        n->result = recorded(*r, *n);
        n->hasResult = true;
    }
    if (const ojson* t = field(j, "pdl__timing", "timing"); t && t->is_object()) {
        n->startNanos = toInt(member(*t, "start_nanos"));
        n->endNanos = toInt(member(*t, "end_nanos"));
    }
    if (auto d = j.find("def"); d != j.end() && d->is_string())
        n->def = d->get<std::string>();
    if (auto d = j.find("description"); d != j.end() && d->is_string())
        n->description = d->get<std::string>();
    if (auto c = j.find("contribute"); c != j.end() && c->is_array()) {
        std::vector<std::string> targets;
        for (const ojson& t : *c) {
            if (t.is_string())
                targets.push_back(t.get<std::string>());
            else if (t.is_object() && !t.empty())
                targets.push_back(t.begin().key());
        }
        n->contribute = std::move(targets);
    }
    if (const ojson* leaf = field(j, "pdl__is_leaf", "is_leaf"); leaf && leaf->is_boolean())
        n->isLeaf = leaf->get<bool>();
    if (auto r = j.find("pdl__replayed"); r != j.end() && r->is_boolean())
        n->replayed = r->get<bool>();
    if (auto h = j.find("pdl__answered_by_hand"); h != j.end() && h->is_boolean())
        n->answeredByHand = h->get<bool>();
    if (auto l = j.find("pdl__location"); l != j.end() && l->is_object()) {
        n->span.file = QString::fromStdString(stringMember(*l, "file"));
        n->span.line = intMember(*l, "line");
        n->span.column = intMember(*l, "column");
        n->span.endLine = intMember(*l, "end_line");
        n->span.endColumn = intMember(*l, "end_column");
    }
    if (n->kind == BlockKind::Model) {
        if (const ojson* c = field(j, "pdl__context", "context"); c && c->is_array())
            n->context = recorded(*c, *n);
        if (auto m = j.find("pdl__model_input"); m != j.end())
            n->modelInput = recorded(*m, *n);
        if (auto u = j.find("pdl__usage"); u != j.end())
            n->usage = recorded(*u, *n);
    }
    // Captured output of code blocks (Hako's traces).
    if (auto o = j.find("pdl__stdout"); o != j.end() && o->is_string())
        n->out = o->get<std::string>();
    if (auto e = j.find("pdl__stderr"); e != j.end() && e->is_string())
        n->err = e->get<std::string>();
    if (auto d = j.find("defs"); d != j.end() && d->is_object()) {
        for (auto it = d->begin(); it != d->end(); ++it)
            if (isBlock(it.value()))
                n->defs.emplace_back(it.key(), build(it.value(), depth + 1));
    }
    // Children grouped by field as TraceNode::addChild does, with the groups indexed: a block
    // may have any number of fields (a damaged or hostile file), and addChild searches them.
    std::unordered_map<std::string, size_t> groups;
    auto addChild = [&](const std::string& field, TracePtr child, bool single) {
        auto [g, added] = groups.try_emplace(field, n->children.size());
        if (added)
            n->children.push_back({field, {}, single});
        n->children[g->second].nodes.push_back(std::move(child));
    };
    for (auto it = j.begin(); it != j.end(); ++it) {
        const std::string& key = it.key();
        if (key == "defs" || key == "pdl__result" || key == "result" || key == "program")
            continue;
        std::string name = key == "trace" ? "pdl__trace" : key;
        const ojson& v = it.value();
        if (isBlock(v)) {
            addChild(name, build(v, depth + 1), true);
        } else if (v.is_array() && !v.empty() && isBlock(v.front())) {
            for (const ojson& x : v)
                if (isBlock(x))
                    addChild(name, build(x, depth + 1), false);
        } else if (v.is_object() && v.contains("pdl__expr") && v.contains("pdl__result")) {
            n->exprs.emplace_back(key, recorded(*member(v, "pdl__result"), *n));
        } else if (n->kind == BlockKind::Model && key == "model" && v.is_string()) {
            // Older reference traces keep the model name as written, not as a record.
            n->exprs.emplace_back(key, Value(v.get<std::string>()));
        } else if (n->kind == BlockKind::Object && key == "object" && v.is_object()) {
            for (auto f = v.begin(); f != v.end(); ++f)
                if (isBlock(f.value()))
                    addChild("object", build(f.value(), depth + 1), false);
        }
    }
    return n;
}

} // namespace

TracePtr traceFromJson(const ojson& json)
{
    if (!isBlock(json))
        return nullptr;
    return build(json, 0);
}

Result<TracePtr> loadTraceFile(const QString& path)
{
    // One reader for every trace file (linear in the file, bounded nesting, typed fields).
    Result<TraceLoadResult> loaded = readTraceFile(path);
    if (!loaded)
        return loaded.error();
    if (loaded->partial) // a whole trace or nothing: replaying half a trace would mislead
        return loaded->problem;
    return std::move(loaded->root);
}

std::shared_ptr<const std::unordered_map<std::string, Value>> loadReplayTable(const QString& path,
                                                                              QString* error)
{
    Result<TracePtr> root = loadTraceFile(path);
    if (!root.ok()) {
        if (error)
            *error = root.error().message;
        return nullptr;
    }
    auto table = std::make_shared<std::unordered_map<std::string, Value>>(replayTable(**root));
    return table;
}

} // namespace hako::pdl
