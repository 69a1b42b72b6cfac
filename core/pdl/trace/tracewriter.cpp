#include "core/pdl/trace/tracewriter.h"

#include "core/pdl/interp/functionvalue.h"
#include "core/pdl/parser/yamlvalue.h"
#include "core/util/outputfile.h"

#include <nlohmann/json.hpp>

#include <unordered_map>

namespace hako::pdl {

namespace {

const TraceNode::Children* findChildren(const TraceNode& n, std::string_view field)
{
    for (const auto& c : n.children)
        if (c.field == field)
            return &c;
    return nullptr;
}

const Value* findExpr(const TraceNode& n, std::string_view field)
{
    for (const auto& [name, v] : n.exprs)
        if (name == field)
            return &v;
    return nullptr;
}

/// A model block's `parameters` as written in the program, with a literal `api_key` replaced:
/// a trace is shared more widely than the program, and the key is never recorded.
std::string withoutApiKey(const TraceNode& n, std::string_view field, std::string source)
{
    if (n.kind != BlockKind::Model || field != "parameters" ||
        source.find("\"api_key\"") == std::string::npos)
        return source;
    nlohmann::ordered_json j = nlohmann::ordered_json::parse(source, nullptr, false);
    if (!j.is_object() || !j.contains("api_key"))
        return source;
    j["api_key"] = "[redacted]";
    return j.dump();
}

// Serialises straight into one string: a loop of 100,000 iterations writes 100,000 nodes, and
// building a JSON DOM first costs several times more.
class Writer {
public:
    std::string out;

    void node(const TraceNode& n)
    {
        if (!n.error.empty()) {
            out += "{\"kind\": \"error\", \"pdl__id\": ";
            out += jsonQuote(n.id);
            out += ", \"msg\": ";
            out += jsonQuote(n.error);
            if (n.errorSpan->isValid()) {
                out += ", \"pdl__location\": ";
                location(n.errorSpan.get());
            }
            out += ", \"program\": ";
            body(n);
            out += '}';
            return;
        }
        body(n);
    }

private:
    std::unordered_map<const YamlValue*, std::string> m_yamlJson;
    bool m_first = true;

    void key(const char* k)
    {
        if (!m_first)
            out += ", ";
        m_first = false;
        out += '"';
        out += k;
        out += "\": ";
    }
    void key(const std::string& k)
    {
        if (!m_first)
            out += ", ";
        m_first = false;
        out += jsonQuote(k);
        out += ": ";
    }

    const std::string& yamlJson(const YamlValue& v)
    {
        auto it = m_yamlJson.find(&v);
        if (it == m_yamlJson.end())
            it = m_yamlJson.emplace(&v, v.toValue().json()).first;
        return it->second;
    }

    void value(const Value& v)
    {
        // PDL closures are written as null; other callables (Python objects) as their repr,
        // as the reference does.
        if (v.isCallable() && !pdlFunctionBlock(*v.asCallable()))
            out += jsonQuote(v.asCallable()->repr());
        else if (v.isCallable() || v.isUndefined())
            out += "null";
        else
            out += v.json();
    }

    void location(const SourceSpan& s)
    {
        out += "{\"file\": ";
        out += jsonQuote(s.file.toStdString());
        out += ", \"line\": " + std::to_string(s.line);
        out += ", \"column\": " + std::to_string(s.column);
        out += ", \"end_line\": " + std::to_string(s.endLine);
        out += ", \"end_column\": " + std::to_string(s.endColumn);
        out += '}';
    }

    void exprRecord(const std::string& source, const Value& result)
    {
        out += "{\"pdl__expr\": ";
        out += source;
        out += ", \"pdl__result\": ";
        value(result);
        out += '}';
    }

    void child(const TracePtr& c)
    {
        if (c)
            node(*c);
        else
            out += "null";
    }

    void children(const TraceNode& n, const TraceNode::Children& c)
    {
        if (c.single) {
            child(c.nodes.empty() ? TracePtr() : c.nodes.front());
            return;
        }
        // The mapping form of an object block keeps its field names.
        if (n.kind == BlockKind::Object && c.field == "object" && n.block) {
            const auto* ob = n.block->as<ObjectBlock>();
            if (ob && !ob->listForm) {
                out += '{';
                for (size_t i = 0; i < c.nodes.size() && i < ob->fields.size(); ++i) {
                    if (i)
                        out += ", ";
                    out += jsonQuote(ob->fields[i].first);
                    out += ": ";
                    child(c.nodes[i]);
                }
                out += '}';
                return;
            }
        }
        out += '[';
        for (size_t i = 0; i < c.nodes.size(); ++i) {
            if (i)
                out += ", ";
            child(c.nodes[i]);
        }
        out += ']';
    }

    void body(const TraceNode& n)
    {
        const bool savedFirst = m_first;
        m_first = true;
        out += '{';
        key("kind");
        out += '"';
        // A factor is an empty block with a weight; the reference names its kind.
        out += n.score ? "factor" : blockKindName(n.kind);
        out += '"';
        key("pdl__id");
        out += jsonQuote(n.id);
        const Block* b = n.block.get();
        if (b && b->description) {
            key("description");
            out += jsonQuote(*b->description);
        }
        key("defs");
        out += '{';
        for (size_t i = 0; i < n.defs.size(); ++i) {
            if (i)
                out += ", ";
            out += jsonQuote(n.defs[i].first);
            out += ": ";
            child(n.defs[i].second);
        }
        out += '}';
        if (b && b->def) {
            key("def");
            out += jsonQuote(*b->def);
        }
        std::vector<const TraceNode::Children*> written;
        const YamlValue* yaml = b && b->node ? b->node.get() : nullptr;
        if (yaml && yaml->isMapping()) {
            for (const YamlValue::Entry& e : yaml->entries()) {
                const std::string& f = e.name;
                if (f == "kind" || f == "description" || f == "def" || f == "defs" ||
                    f.rfind("pdl__", 0) == 0)
                    continue;
                key(f);
                if (const auto* c = findChildren(n, f)) {
                    children(n, *c);
                    written.push_back(c);
                } else if (const Value* v = findExpr(n, f)) {
                    exprRecord(withoutApiKey(n, f, yamlJson(e.value)), *v);
                } else {
                    out += withoutApiKey(n, f, yamlJson(e.value));
                }
            }
        } else if (const Value* v = findExpr(n, "data")) {
            // A bare scalar block: `data` with its source.
            const auto* db = b ? b->as<DataBlock>() : nullptr;
            key("data");
            exprRecord(yaml ? yamlJson(*yaml)
                       : db ? db->data.value.json()
                            : std::string("null"),
                       *v);
        }
        for (const auto& c : n.children) {
            if (std::find(written.begin(), written.end(), &c) != written.end())
                continue;
            key(c.field);
            children(n, c);
        }
        if (n.kind == BlockKind::Model) {
            if (!n.context.isNull()) {
                key("pdl__context");
                value(n.context);
            }
            if (!n.modelInput.isNull()) {
                key("pdl__model_input");
                value(n.modelInput);
            }
            if (!n.usage.isNull()) {
                key("pdl__usage");
                value(n.usage);
            }
        }
        if (n.score) {
            key("pdl__score");
            value(Value(*n.score));
        }
        if (!n.out.empty()) {
            key("pdl__stdout");
            out += jsonQuote(n.out);
        }
        if (!n.err.empty()) {
            key("pdl__stderr");
            out += jsonQuote(n.err);
        }
        if (n.hasResult) {
            key("pdl__result");
            value(n.result);
        }
        // Re-run from here: blocks answered from the original run; the debugger: a model call
        // answered by hand.
        if (n.replayed) {
            key("pdl__replayed");
            out += "true";
        }
        if (n.answeredByHand) {
            key("pdl__answered_by_hand");
            out += "true";
        }
        key("pdl__timing");
        out += "{\"start_nanos\": " + std::to_string(n.startNanos) +
               ", \"end_nanos\": " + std::to_string(n.endNanos) + ", \"timezone\": \"UTC\"}";
        key("pdl__is_leaf");
        out += n.isLeaf ? "true" : "false";
        if (n.span.isValid()) {
            key("pdl__location");
            location(n.span);
        }
        out += '}';
        m_first = savedFirst;
    }
};

} // namespace

std::string traceToString(const TraceNode& node)
{
    Writer w;
    w.node(node);
    return std::move(w.out);
}

nlohmann::ordered_json traceToJson(const TraceNode& node)
{
    return nlohmann::ordered_json::parse(traceToString(node));
}

bool writeTraceFile(const TraceNode& root, const QString& path, QString* error)
{
    QString why;
    if (!writeOutputFile(path, QByteArray::fromStdString(traceToString(root)), &why)) {
        if (error)
            *error = why;
        return false;
    }
    return true;
}

} // namespace hako::pdl
