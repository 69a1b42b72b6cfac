#include "core/pdl/parsers/outputparser.h"

#include "core/pdl/parser/yamlvalue.h"
#include "core/pdl/parsers/csvreader.h"
#include "core/pdl/parsers/pyregex.h"
#include "core/pdl/parsers/tolerantjson.h"

// What the reference does (src/pdl/pdl_interpreter.py, `parse_result`): json via json_repair,
// jsonl line by line with json.loads, yaml with yaml.safe_load, regex with re.search/match/
// fullmatch/split/findall and flags=re.M; a regex that does not match gives None.

namespace hako::pdl {

namespace {

Diagnostic withPrefix(const QString& prefix, const Diagnostic& d, const SourceSpan& span)
{
    return makeError(prefix + d.message, span);
}

} // namespace

namespace parsers {

Result<Value> parseJsonl(std::string_view text)
{
    List items;
    size_t pos = 0;
    int line = 0;
    while (pos <= text.size()) {
        size_t nl = text.find('\n', pos);
        std::string_view row =
            text.substr(pos, nl == std::string_view::npos ? std::string_view::npos : nl - pos);
        ++line;
        pos = nl == std::string_view::npos ? text.size() + 1 : nl + 1;
        if (row.find_first_not_of(" \t\r") == std::string_view::npos)
            continue;
        Result<Value> v = parseStrictJson(row);
        if (!v) {
            return makeError(
                QStringLiteral("line %1: %2").arg(line).arg(v.error().message),
                SourceSpan{{}, line, v.error().span.column, line, v.error().span.column});
        }
        items.push_back(std::move(v).value());
    }
    return Value(std::move(items));
}

Result<Value> parseYaml(std::string_view text)
{
    Result<YamlValue> y = loadYaml(QByteArray(text.data(), qsizetype(text.size())), QString());
    if (!y)
        return y.error();
    return y->toValue();
}

std::vector<std::string> regexSpecGroupNames(const Value& spec)
{
    const Value* fields = &spec;
    // The long form of an object type: {obj: {name: type}}.
    if (spec.isDict() && spec.asDict().size() == 1) {
        const Value* obj = spec.asDict().find("obj");
        if (obj && obj->isDict())
            fields = obj;
    }
    std::vector<std::string> names;
    if (!fields->isDict())
        return names;
    for (const auto& [key, value] : fields->asDict())
        names.push_back(key.isString() ? key.asString() : key.str());
    return names;
}

Result<Value> parseRegexOutput(std::string_view regex, std::string_view mode, const Value& spec,
                               std::string_view text)
{
    auto compiled = PyRegex::compile(regex);
    if (!compiled)
        return compiled.error();
    const PyRegex& rx = **compiled;
    if (mode == "split")
        return rx.split(text);
    if (mode == "findall")
        return rx.findall(text);
    std::optional<PyRegex::Groups> m;
    if (mode == "search")
        m = rx.search(text);
    else if (mode == "match")
        m = rx.match(text);
    else if (mode == "fullmatch" || mode.empty())
        m = rx.fullmatch(text);
    else
        return makeError(QStringLiteral("unknown regex parser mode '%1': use search, match, "
                                        "fullmatch, split or findall")
                             .arg(QString::fromUtf8(mode.data(), qsizetype(mode.size()))));
    if (!m)
        return Value();
    if (spec.isDict())
        return rx.namedGroups(*m, regexSpecGroupNames(spec));
    return PyRegex::groupsList(*m);
}

} // namespace parsers

Result<Value> parseOutput(const ParserSpec& parser, std::string_view text)
{
    using K = ParserSpec::Kind;
    switch (parser.kind) {
    case K::None:
        return Value(text);
    case K::Json: {
        Result<Value> v = parsers::parseTolerantJson(text);
        if (!v)
            return withPrefix(QStringLiteral("Attempted to parse ill-formed JSON: "), v.error(),
                              parser.span);
        return v;
    }
    case K::Jsonl: {
        Result<Value> v = parsers::parseJsonl(text);
        if (!v)
            return withPrefix(QStringLiteral("Attempted to parse ill-formed JSON lines: "),
                              v.error(), parser.span);
        return v;
    }
    case K::Yaml: {
        Result<Value> v = parsers::parseYaml(text);
        if (!v) {
            const SourceSpan& at = v.error().span;
            QString where = at.isValid()
                                ? QStringLiteral("line %1 column %2: ").arg(at.line).arg(at.column)
                                : QString();
            return makeError(QStringLiteral("Attempted to parse ill-formed YAML: ") + where +
                                 v.error().message,
                             parser.span);
        }
        return v;
    }
    case K::Csv: {
        Result<Value> v = parsers::readCsv(text);
        if (!v) {
            const SourceSpan& at = v.error().span;
            return makeError(QStringLiteral("Attempted to parse ill-formed CSV: line %1 column "
                                            "%2: %3")
                                 .arg(at.line)
                                 .arg(at.column)
                                 .arg(v.error().message),
                             parser.span);
        }
        return v;
    }
    case K::Regex: {
        Result<Value> v = parsers::parseRegexOutput(parser.regex, parser.mode, parser.spec, text);
        if (!v)
            return withPrefix(QStringLiteral("Fail to parse with regex %1: ")
                                  .arg(QString::fromStdString(parser.regex)),
                              v.error(), parser.span);
        return v;
    }
    case K::Pdl:
        return makeError(QStringLiteral("a {pdl: …} parser is run by the interpreter"),
                         parser.span);
    }
    return Value(text);
}

} // namespace hako::pdl
