#include "core/pdl/model/defaultparameters.h"

#include "core/util/globmatch.h"

#include <nlohmann/json.hpp>

namespace hako::models {

namespace {

// The union of every entry whose glob matches `model`; a later entry overrides an earlier one
// key by key (the reference's `apply_raw_defaults`, pdl_utils.py).
pdl::Dict matchingDefaults(const std::string& model, const pdl::Value& table)
{
    pdl::Dict merged;
    if (!table.isList())
        return merged;
    for (const pdl::Value& entry : table.asList()) {
        if (!entry.isDict())
            continue;
        for (const auto& [glob, values] : entry.asDict()) {
            if (!glob.isString() || !values.isDict() || !globMatch(glob.asString(), model))
                continue;
            for (const auto& [key, value] : values.asDict())
                merged.set(key, value);
        }
    }
    return merged;
}

// A default fills a key the block left out or set to null; nested objects are not merged.
void fillMissing(pdl::Dict& into, const pdl::Dict& defaults)
{
    for (const auto& [key, value] : defaults) {
        const pdl::Value* existing = into.find(key);
        if (!existing || existing->isNull())
            into.set(key, value);
    }
}

} // namespace

const pdl::Value& pdlDefaultParameters()
{
    // The reference's `get_default_model_parameters` (pdl_ast.py), entry for entry, so that a
    // program printing `pdl_model_default_parameters` sees the same table. The granite
    // chat-template entries (`roles`, `final_prompt_value`) are LiteLLM's own arguments: they
    // never reach the wire (openai::isClientOnlyParameter).
    static const pdl::Value table = [] {
        const auto roles = [](std::initializer_list<const char*> names) {
            nlohmann::ordered_json r = nlohmann::ordered_json::object();
            for (const char* name : names)
                r[name] = {
                    {"pre_message", std::string("<|start_of_role|>") + name + "<|end_of_role|>"},
                    {"post_message", "<|end_of_text|>"}};
            return r;
        };
        const auto granite = [](nlohmann::ordered_json roleTable) {
            return nlohmann::ordered_json{
                {"temperature", 0},
                {"roles", std::move(roleTable)},
                {"final_prompt_value", "<|start_of_role|>assistant<|end_of_role|>"}};
        };
        const auto later =
            roles({"system", "user", "assistant", "tools", "tool_response", "documents"});
        nlohmann::ordered_json t = nlohmann::ordered_json::array();
        t.push_back({{"*watsonx/*", {{"temperature", 0}}}});
        t.push_back({{"*watsonx_text*",
                      {{"decoding_method", "greedy"},
                       {"max_tokens", 1024},
                       {"min_new_tokens", 1},
                       {"repetition_penalty", 1.05}}}});
        t.push_back({{"*granite-3.0*", granite(roles({"system", "user", "assistant",
                                                      "available_tools", "tool_response"}))}});
        t.push_back({{"*granite-3.1*", granite(later)}});
        t.push_back({{"*granite-3.2*", granite(later)}});
        t.push_back({{"ollama/*", {{"temperature", 0}, {"seed", 0}}}});
        t.push_back({{"ollama_chat/*", {{"temperature", 0}, {"seed", 0}}}});
        return pdl::Value::fromJson(t);
    }();
    return table;
}

const pdl::Value& pdlSamplingDefaults()
{
    // The reference's `get_sampling_defaults` (pdl_ast.py).
    static const pdl::Value table = pdl::Value::fromJson(nlohmann::ordered_json::parse(
        R"([{"*": {"temperature": 0.7, "top_k": 50, "top_p": 0.85}}])"));
    return table;
}

pdl::Dict applyDefaultParameters(const std::string& model, const pdl::Dict& parameters,
                                 const pdl::Value& defaults)
{
    // The reference never applies defaults to this one model (`apply_defaults`, pdl_utils.py).
    if (model.find("granite-20b-code-instruct-r1.1") != std::string::npos)
        return parameters;
    pdl::Dict out = parameters;
    fillMissing(out, matchingDefaults(model, defaults));
    const pdl::Value* decoding = out.find("decoding_method");
    if (decoding && decoding->isString() && decoding->asString() == "sample")
        fillMissing(out, matchingDefaults(model, pdlSamplingDefaults()));
    return out;
}

} // namespace hako::models
