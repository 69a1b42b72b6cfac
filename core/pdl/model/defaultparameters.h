#pragma once

#include "core/pdl/value.h"

#include <string>

namespace hako::models {

/// PDL's `pdl_model_default_parameters`: a list of one-entry dicts `{glob: {parameter: value}}`
/// exactly as the reference interpreter defines them (`ollama/*` and `ollama_chat/*`:
/// temperature 0 and seed 0; `*watsonx/*`: temperature 0; `*watsonx_text*`: greedy decoding,
/// max_tokens 1024, …; `*granite-3.0*`/`3.1`/`3.2`: temperature 0 and LiteLLM's chat-template
/// `roles`/`final_prompt_value`). Immutable; thread-safe.
const pdl::Value& pdlDefaultParameters();

/// The defaults the reference adds when a block asks for `decoding_method: sample`
/// (temperature 0.7, top_k 50, top_p 0.85). Immutable; thread-safe.
const pdl::Value& pdlSamplingDefaults();

/// `parameters` with the defaults of every entry whose glob matches `model`, as the reference
/// applies them: a later entry overrides an earlier one, a default fills a top-level key the
/// block left out or set to null (objects are not merged), `decoding_method: sample` adds
/// pdlSamplingDefaults(), and `granite-20b-code-instruct-r1.1` gets none. `defaults` has the
/// shape of pdlDefaultParameters(). Pure; thread-safe.
pdl::Dict applyDefaultParameters(const std::string& model, const pdl::Dict& parameters,
                                 const pdl::Value& defaults = pdlDefaultParameters());

} // namespace hako::models
