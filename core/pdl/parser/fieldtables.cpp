#include "core/pdl/parser/fieldtables.h"

#include "core/pdl/parser/yamlvalue.h"

#include <algorithm>
#include <map>

namespace hako::pdl {

namespace {

struct KindKeyword {
    const char* keyword;
    BlockKind kind;
};

// The documented detection order.
// A factor is an empty block with a weight (EmptyBlock::isFactor).
// clang-format off
const KindKeyword kDetection[] = {
    {"text", BlockKind::Text},
    {"lastOf", BlockKind::LastOf},
    {"array", BlockKind::Array},
    {"object", BlockKind::Object},
    {"sequence", BlockKind::Sequence},
    {"if", BlockKind::If},
    {"match", BlockKind::Match},
    {"repeat", BlockKind::Repeat},
    {"map", BlockKind::Map},
    {"include", BlockKind::Include},
    {"import", BlockKind::Import},
    {"function", BlockKind::Function},
    {"call", BlockKind::Call},
    {"model", BlockKind::Model},
    {"code", BlockKind::Code},
    {"args", BlockKind::Args},
    {"get", BlockKind::Get},
    {"data", BlockKind::Data},
    {"content", BlockKind::Message},
    {"read", BlockKind::Read},
    {"factor", BlockKind::Empty},
    {"aggregator", BlockKind::Aggregator},
};
// clang-format on

const std::map<BlockKind, std::vector<std::string_view>>& fieldTable()
{
    static const std::map<BlockKind, std::vector<std::string_view>> table = {
        {BlockKind::Data, {"data", "raw"}},
        {BlockKind::Model,
         {"model", "input", "parameters", "platform", "modelResponse", "backend", "processor",
          "structuredDecoding"}},
        {BlockKind::Read, {"read", "message", "multiline"}},
        {BlockKind::Text, {"text"}},
        {BlockKind::LastOf, {"lastOf"}},
        {BlockKind::Array, {"array"}},
        {BlockKind::Object, {"object"}},
        {BlockKind::Sequence, {"sequence", "join"}},
        {BlockKind::Get, {"get"}},
        {BlockKind::Message, {"content", "name", "tool_call_id", "tool_calls"}},
        {BlockKind::If, {"if", "then", "else"}},
        {BlockKind::Match, {"match", "with"}},
        {BlockKind::Repeat, {"repeat", "for", "index", "while", "until", "maxIterations", "join"}},
        {BlockKind::Map, {"map", "for", "index", "maxIterations", "maxWorkers", "join"}},
        {BlockKind::Function, {"function", "return"}},
        {BlockKind::Call, {"call", "args"}},
        {BlockKind::Code, {"code", "lang", "parameters", "scope"}},
        {BlockKind::Args, {"args", "lang"}},
        {BlockKind::Include, {"include"}},
        {BlockKind::Import, {"import"}},
        {BlockKind::Aggregator, {"aggregator"}},
        {BlockKind::Empty, {"factor", "resample"}},
        {BlockKind::Error, {"msg", "program"}},
    };
    return table;
}

} // namespace

std::optional<BlockKind> kindFromName(std::string_view name, const YamlValue& node)
{
    if (name == "code" && !node.find("code") && node.find("args"))
        return BlockKind::Args;
    if (name == "empty")
        return BlockKind::Empty;
    if (name == "error")
        return BlockKind::Error;
    if (name == "message")
        return BlockKind::Message;
    for (const KindKeyword& k : kDetection) {
        if (name == k.keyword && k.kind != BlockKind::Message && k.kind != BlockKind::Args)
            return k.kind;
    }
    return std::nullopt;
}

BlockKind detectKind(const YamlValue& node)
{
    for (const KindKeyword& k : kDetection) {
        if (node.find(k.keyword))
            return k.kind;
    }
    return BlockKind::Empty;
}

std::optional<BlockKind> guessKind(const YamlValue& node)
{
    std::optional<BlockKind> best;
    int bestScore = 0;
    for (const KindKeyword& k : kDetection) {
        int score = 0;
        for (std::string_view f : fieldTable().at(k.kind)) {
            if (f != k.keyword && node.find(f))
                ++score;
        }
        if (score > bestScore) {
            bestScore = score;
            best = k.kind;
        }
    }
    return best;
}

const std::vector<const char*>& requiredFields(BlockKind kind)
{
    static const std::vector<const char*> none;
    static const std::map<BlockKind, std::vector<const char*>> table = {
        {BlockKind::Data, {"data"}},
        {BlockKind::Model, {"model"}},
        {BlockKind::Read, {"read"}},
        {BlockKind::Text, {"text"}},
        {BlockKind::LastOf, {"lastOf"}},
        {BlockKind::Array, {"array"}},
        {BlockKind::Object, {"object"}},
        {BlockKind::Sequence, {"sequence"}},
        {BlockKind::Get, {"get"}},
        {BlockKind::Message, {"content"}},
        {BlockKind::If, {"if", "then"}},
        {BlockKind::Match, {"match", "with"}},
        {BlockKind::Repeat, {"repeat"}},
        {BlockKind::Map, {"map"}},
        {BlockKind::Function, {"function", "return"}},
        {BlockKind::Call, {"call"}},
        {BlockKind::Code, {"code"}},
        {BlockKind::Args, {"args"}},
        {BlockKind::Include, {"include"}},
        {BlockKind::Import, {"import"}},
        {BlockKind::Aggregator, {"aggregator"}},
    };
    auto it = table.find(kind);
    return it == table.end() ? none : it->second;
}

const std::vector<std::string_view>& kindFields(BlockKind kind)
{
    return fieldTable().at(kind);
}

bool isKindField(BlockKind kind, std::string_view name)
{
    const auto& fields = kindFields(kind);
    return std::find(fields.begin(), fields.end(), name) != fields.end();
}

const std::vector<std::string_view>& commonFieldNames()
{
    static const std::vector<std::string_view> names = {
        "description", "def",      "defs",  "contribute",           "role",    "spec",
        "parser",      "fallback", "retry", "trace_error_on_retry", "context", "expectations",
    };
    return names;
}

bool isCommonField(std::string_view name)
{
    const auto& names = commonFieldNames();
    return std::find(names.begin(), names.end(), name) != names.end();
}

bool isIgnoredField(std::string_view name)
{
    if (name.substr(0, 5) == "pdl__")
        return true;
    // `kind` is read separately; the rest are trace fields, some under their pre-0.6 names.
    static const std::string_view names[] = {"kind",         "result",    "trace", "location",
                                             "requirements", "if_result", "scope"};
    return std::find(std::begin(names), std::end(names), name) != std::end(names);
}

const std::vector<std::string_view>& kindKeywords()
{
    static const std::vector<std::string_view> names = [] {
        std::vector<std::string_view> v;
        for (const KindKeyword& k : kDetection)
            v.push_back(k.keyword);
        return v;
    }();
    return names;
}

} // namespace hako::pdl
