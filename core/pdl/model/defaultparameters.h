#pragma once

#include "core/pdl/value.h"

#include <string>

namespace hako::models {

/// PDL's `pdl_model_default_parameters`: a list of one-entry dicts `{glob: {parameter: value}}`
/// as the reference interpreter defines them (`ollama/*` and `ollama_chat/*`: temperature 0;
/// `*watsonx/*`: temperature 0; `*watsonx_text*`: greedy decoding, max_tokens 1024, …;
/// `*granite-3.0*`/`3.1`/`3.2`: temperature 0). Immutable; thread-safe.
const pdl::Value& pdlDefaultParameters();

/// `parameters` with every default whose glob matches `model` added where the block did not set
/// the key (nested dicts merged key by key); earlier table entries win over later ones, the
/// block's own values over both. `defaults` has the shape of pdlDefaultParameters().
pdl::Dict applyDefaultParameters(const std::string& model, const pdl::Dict& parameters,
                                 const pdl::Value& defaults = pdlDefaultParameters());

} // namespace hako::models
