#pragma once

#include "core/pdl/value.h"

namespace hako::models {

/// The `stdlib` variable every PDL program sees, as the reference interpreter binds it from its
/// `pdl_stdlib.pdl`: `get_tool_calls(model_response)` (the tool calls of a raw model response,
/// `choices[0].message.tool_calls`), `reward(response)` and `bool_confidence(response)` (the
/// log-probability scores of a `true`/`false` judge reply, from its `logprobs`), plus Hako's
/// `typechat` module.
///
/// Threading: the functions are stateless and run on the evaluating thread.
class StdlibModule {
public:
    /// The `stdlib` dict.
    static pdl::Value value();

    /// `choices[0].message.tool_calls` of `response`; throws pdl::EvalError naming the missing
    /// key, as the reference's expression fails.
    static pdl::Value toolCalls(const pdl::Value& response);

    /// The reference's `reward`: log(p(true) / (p(true) + p(false))) from the top log
    /// probabilities of the reply's first token (-inf when p(true) is 0). With
    /// `confidence`, the probability of the answer given instead of `true`
    /// (`bool_confidence`). Throws pdl::EvalError when the reply is neither `true` nor `false`.
    static double judgeScore(const pdl::Value& response, bool confidence);
};

} // namespace hako::models
