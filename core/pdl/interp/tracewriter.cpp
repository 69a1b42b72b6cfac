#include "core/pdl/interp/tracewriter.h"

#include "core/pdl/parser/yamlvalue.h"

#include <QSaveFile>

#include <nlohmann/json.hpp>

namespace hako::pdl {

using ojson = nlohmann::ordered_json;

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

ojson childrenJson(const TraceNode& n, const TraceNode::Children& c)
{
    if (c.single)
        return c.nodes.empty() || !c.nodes.front() ? ojson() : traceToJson(*c.nodes.front());
    // The mapping form of an object block keeps its field names.
    if (n.kind == BlockKind::Object && c.field == "object" && n.block) {
        const auto* ob = n.block->as<ObjectBlock>();
        if (ob && !ob->listForm) {
            ojson m = ojson::object();
            for (size_t i = 0; i < c.nodes.size() && i < ob->fields.size(); ++i)
                m[ob->fields[i].first] = c.nodes[i] ? traceToJson(*c.nodes[i]) : ojson();
            return m;
        }
    }
    ojson list = ojson::array();
    for (const TracePtr& x : c.nodes)
        list.push_back(x ? traceToJson(*x) : ojson());
    return list;
}

ojson exprRecord(const ojson& source, const Value& result)
{
    ojson r = ojson::object();
    r["pdl__expr"] = source;
    r["pdl__result"] = result.toOrderedJson();
    return r;
}

ojson location(const SourceSpan& s)
{
    ojson l = ojson::object();
    l["file"] = s.file.toStdString();
    l["line"] = s.line;
    l["column"] = s.column;
    l["end_line"] = s.endLine;
    l["end_column"] = s.endColumn;
    return l;
}

} // namespace

ojson traceToJson(const TraceNode& n)
{
    ojson j = ojson::object();
    j["kind"] = blockKindName(n.kind);
    j["pdl__id"] = n.id;
    const Block* b = n.block.get();
    if (b && b->description)
        j["description"] = *b->description;
    ojson defs = ojson::object();
    for (const auto& [name, d] : n.defs)
        defs[name] = d ? traceToJson(*d) : ojson();
    j["defs"] = std::move(defs);
    if (b && b->def)
        j["def"] = *b->def;

    std::vector<std::string> written;
    const YamlValue* yaml = b && b->node ? b->node.get() : nullptr;
    if (yaml && yaml->isMapping()) {
        for (const YamlValue::Entry& e : yaml->entries()) {
            const std::string& f = e.name;
            if (f == "kind" || f == "description" || f == "def" || f == "defs" ||
                f.rfind("pdl__", 0) == 0)
                continue;
            if (const auto* c = findChildren(n, f)) {
                j[f] = childrenJson(n, *c);
                written.push_back(f);
            } else if (const Value* v = findExpr(n, f)) {
                j[f] = exprRecord(e.value.toValue().toOrderedJson(), *v);
            } else {
                j[f] = e.value.toValue().toOrderedJson();
            }
        }
    } else if (yaml) {
        // A bare scalar block: `data`.
        if (const Value* v = findExpr(n, "data"))
            j["data"] = exprRecord(yaml->toValue().toOrderedJson(), *v);
    }
    for (const auto& c : n.children) {
        if (std::find(written.begin(), written.end(), c.field) == written.end() &&
            !j.contains(c.field))
            j[c.field] = childrenJson(n, c);
    }
    if (n.kind == BlockKind::Model) {
        if (!n.context.isNull())
            j["pdl__context"] = n.context.toOrderedJson();
        if (!n.modelInput.isNull())
            j["pdl__model_input"] = n.modelInput.toOrderedJson();
        if (!n.usage.isNull())
            j["pdl__usage"] = n.usage.toOrderedJson();
    }
    if (!n.out.empty())
        j["pdl__stdout"] = n.out;
    if (!n.err.empty())
        j["pdl__stderr"] = n.err;
    if (n.hasResult)
        j["pdl__result"] = n.result.isCallable() ? ojson() : n.result.toOrderedJson();
    ojson timing = ojson::object();
    timing["start_nanos"] = n.startNanos;
    timing["end_nanos"] = n.endNanos;
    timing["timezone"] = "UTC";
    j["pdl__timing"] = std::move(timing);
    j["pdl__is_leaf"] = n.isLeaf;
    if (n.span.isValid())
        j["pdl__location"] = location(n.span);
    if (!n.error.empty()) {
        ojson e = ojson::object();
        e["kind"] = "error";
        e["pdl__id"] = n.id;
        e["msg"] = n.error;
        e["program"] = std::move(j);
        if (n.errorSpan.isValid())
            e["pdl__location"] = location(n.errorSpan);
        return e;
    }
    return j;
}

bool writeTraceFile(const TraceNode& root, const QString& path, QString* error)
{
    QSaveFile f(path);
    if (!f.open(QIODevice::WriteOnly)) {
        if (error)
            *error = f.errorString();
        return false;
    }
    std::string text =
        traceToJson(root).dump(-1, ' ', false, nlohmann::ordered_json::error_handler_t::replace);
    f.write(text.data(), qint64(text.size()));
    if (!f.commit()) {
        if (error)
            *error = f.errorString();
        return false;
    }
    return true;
}

} // namespace hako::pdl
