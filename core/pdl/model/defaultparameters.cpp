#include "core/pdl/model/defaultparameters.h"

#include "core/util/globmatch.h"

#include <nlohmann/json.hpp>

namespace hako::models {

namespace {

void mergeMissing(pdl::Dict& into, const pdl::Dict& defaults)
{
    for (const auto& [key, value] : defaults) {
        const pdl::Value* existing = into.find(key);
        if (!existing) {
            into.set(key, value);
        } else if (existing->isDict() && value.isDict()) {
            pdl::Value merged = *existing;
            mergeMissing(merged.mutableDict(), value.asDict());
            into.set(key, merged);
        }
    }
}

} // namespace

const pdl::Value& pdlDefaultParameters()
{
    // The reference interpreter's table (pdl_llms.py / pdl_utils.py); granite's chat-template
    // `roles` entries only matter to LiteLLM's prompt formatting and are left out.
    static const pdl::Value table = pdl::Value::fromJson(nlohmann::ordered_json::parse(R"([
        {"*watsonx/*": {"temperature": 0}},
        {"*watsonx_text*": {"decoding_method": "greedy", "max_tokens": 1024,
                            "min_new_tokens": 1, "repetition_penalty": 1.05}},
        {"*granite-3.0*": {"temperature": 0}},
        {"*granite-3.1*": {"temperature": 0}},
        {"*granite-3.2*": {"temperature": 0}},
        {"ollama/*": {"temperature": 0}},
        {"ollama_chat/*": {"temperature": 0}}
    ])"));
    return table;
}

pdl::Dict applyDefaultParameters(const std::string& model, const pdl::Dict& parameters,
                                 const pdl::Value& defaults)
{
    pdl::Dict out = parameters;
    if (!defaults.isList())
        return out;
    for (const pdl::Value& entry : defaults.asList()) {
        if (!entry.isDict())
            continue;
        for (const auto& [glob, values] : entry.asDict()) {
            if (glob.isString() && values.isDict() && globMatch(glob.asString(), model))
                mergeMissing(out, values.asDict());
        }
    }
    return out;
}

} // namespace hako::models
