#include "core/pdl/model/structuredoutput.h"

#include "core/pdl/types/jsonschema.h"

#include <nlohmann/json.hpp>

namespace hako::models {

using json = nlohmann::ordered_json;

namespace {

Result<pdl::Value> toValue(const json& j)
{
    try {
        return pdl::Value::fromJson(j);
    } catch (const pdl::EvalError& e) { // nested deeper than Value::kMaxJsonDepth
        return makeError(QStringLiteral("the reply's JSON: %1").arg(QString::fromUtf8(e.what())));
    }
}

} // namespace

Result<pdl::Value> extractJson(const std::string& reply)
{
    const json whole = json::parse(reply, nullptr, false);
    if (!whole.is_discarded())
        return toValue(whole);
    for (const auto& [open, close] : {std::pair{'{', '}'}, std::pair{'[', ']'}}) {
        const size_t start = reply.find(open);
        const size_t end = reply.rfind(close);
        if (start == std::string::npos || end == std::string::npos || end < start)
            continue;
        const json cut = json::parse(reply.substr(start, end - start + 1), nullptr, false);
        if (!cut.is_discarded())
            return toValue(cut);
        return makeError(QStringLiteral("the reply's JSON does not parse"));
    }
    return makeError(QStringLiteral("the reply contains no JSON object"));
}

std::string repairPrompt(const std::string& error)
{
    return "The JSON object is invalid for the following reason:\n\"\"\"\n" + error +
           "\n\"\"\"\nThe following is a revised JSON object:\n";
}

StructuredResult chatStructured(IModelProvider& provider, ChatRequest request,
                                const pdl::Value& jsonSchema, const StructuredOptions& options,
                                const DeltaCallback& onDelta, const CancelToken& cancel)
{
    StructuredResult result;
    Result<pdl::JsonSchema> schema = pdl::JsonSchema::compile(jsonSchema);
    if (!schema) {
        result.error = schema.error();
        return result;
    }
    if (options.sendSchema && !request.parameters.find("response_format")) {
        request.parameters.set(
            "response_format",
            pdl::Value(pdl::Dict{
                {"type", "json_schema"},
                {"json_schema", pdl::Value(pdl::Dict{{"name", pdl::Value(options.schemaName)},
                                                     {"schema", jsonSchema},
                                                     {"strict", true}})}}));
    }
    for (int attempt = 0; attempt <= std::max(0, options.maxRepairs); ++attempt) {
        StructuredAttempt record;
        record.request = request;
        Result<ChatResponse> reply = provider.chat(request, onDelta, cancel);
        if (!reply) {
            result.error = reply.error();
            result.attempts.push_back(std::move(record));
            return result;
        }
        record.response = *reply;
        std::string problem;
        Result<pdl::Value> value = extractJson(reply->content);
        if (!value) {
            problem = value.error().message.toStdString();
        } else {
            const std::vector<pdl::ValidationError> errors = schema->validate(*value);
            for (const pdl::ValidationError& e : errors)
                problem += (problem.empty() ? "" : "\n") + e.toString();
        }
        if (problem.empty()) {
            result.value = *value;
            result.error.reset();
            result.attempts.push_back(std::move(record));
            return result;
        }
        record.validationError = problem;
        result.attempts.push_back(std::move(record));
        result.error = makeError(QStringLiteral("model '%1' gave no valid JSON after %2 "
                                                "attempt(s): %3")
                                     .arg(QString::fromStdString(request.model))
                                     .arg(attempt + 1)
                                     .arg(QString::fromStdString(problem)));
        request.messages.push_back(
            pdl::Value(pdl::Dict{{"role", "assistant"}, {"content", pdl::Value(reply->content)}}));
        request.messages.push_back(pdl::Value(
            pdl::Dict{{"role", "user"}, {"content", pdl::Value(repairPrompt(problem))}}));
    }
    return result;
}

} // namespace hako::models
