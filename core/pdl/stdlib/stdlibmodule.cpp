#include "core/pdl/stdlib/stdlibmodule.h"

#include "core/pdl/stdlib/typechatprogram.h"

#include <algorithm>
#include <cmath>
#include <functional>
#include <limits>

namespace hako::models {

using pdl::CallArgs;
using pdl::Dict;
using pdl::EvalError;
using pdl::List;
using pdl::Value;

namespace {

// `v[key]` as Python reads it: a missing key is a KeyError, here an EvalError naming it.
const Value& member(const Value& v, const char* key)
{
    if (v.isDict()) {
        if (const Value* m = v.asDict().find(key))
            return *m;
    }
    throw EvalError(std::string("KeyError: '") + key + "'");
}

const Value& firstChoiceMessage(const Value& response)
{
    const Value& choices = member(response, "choices");
    if (!choices.isList() || choices.asList().empty())
        throw EvalError("IndexError: list index out of range");
    return choices.asList().front();
}

const Value& argument(const CallArgs& args, const char* name, const char* fn)
{
    if (!args.positional.empty())
        return args.positional.front();
    if (const Value* v = args.kw(name))
        return *v;
    throw EvalError(std::string("stdlib.") + fn + "() needs the argument '" + name + "'");
}

double number(const Value& v)
{
    if (v.isInt())
        return double(v.asInt());
    if (v.isFloat())
        return v.asFloat();
    throw EvalError("a log probability must be a number");
}

std::string text(const Value& v)
{
    return v.isString() ? v.asString() : std::string();
}

// The reference's `_get_logprob`: the first top candidate the value starts with, else the
// lowest log probability among them.
double logprobOf(const std::string& value, const List& top)
{
    double lowest = std::numeric_limits<double>::infinity();
    for (const Value& candidate : top) {
        const std::string token = text(member(candidate, "token"));
        const double lp = number(member(candidate, "logprob"));
        if (value.compare(0, token.size(), token) == 0)
            return lp;
        lowest = std::min(lowest, lp);
    }
    return lowest;
}

Value function(const char* name, std::function<Value(const Value&)> body)
{
    return Value(pdl::makeCallable(name, [name, body](const CallArgs& args) {
        return body(argument(
            args, std::string_view(name) == "get_tool_calls" ? "model_response" : "response",
            name));
    }));
}

} // namespace

Value StdlibModule::toolCalls(const Value& response)
{
    return member(member(firstChoiceMessage(response), "message"), "tool_calls");
}

double StdlibModule::judgeScore(const Value& response, bool confidence)
{
    const Value& choice = firstChoiceMessage(response);
    const std::string content = text(member(member(choice, "message"), "content"));
    if (content != "true" && content != "false")
        throw EvalError("ValueError: Wrong value: " + content);
    const Value& tokens = member(member(choice, "logprobs"), "content");
    if (!tokens.isList())
        throw EvalError("the response's logprobs have no content");
    // The last token the content starts with, as the reference's `_find_first_token`.
    const Value* first = nullptr;
    for (auto it = tokens.asList().rbegin(); it != tokens.asList().rend() && !first; ++it) {
        const std::string token = text(member(*it, "token"));
        if (content.compare(0, token.size(), token) == 0)
            first = &*it;
    }
    if (!first)
        throw EvalError("AssertionError: no log probability for the reply's first token");
    const Value& top = member(*first, "top_logprobs");
    const List empty;
    const List& candidates = top.isList() ? top.asList() : empty;
    const double pTrue = std::exp(logprobOf("true", candidates));
    const double pFalse = std::exp(logprobOf("false", candidates));
    const double p = confidence && content == "false" ? pFalse : pTrue;
    if (p == 0.0)
        return -std::numeric_limits<double>::infinity();
    return std::log(p / (pTrue + pFalse));
}

Value StdlibModule::value()
{
    Dict module;
    module.set("get_tool_calls", function("get_tool_calls", toolCalls));
    module.set("bool_confidence", function("bool_confidence", [](const Value& r) {
                   return Value(judgeScore(r, true));
               }));
    module.set("reward",
               function("reward", [](const Value& r) { return Value(judgeScore(r, false)); }));
    module.set("typechat", TypeChatProgram::stdlibModule());
    return Value(std::move(module));
}

} // namespace hako::models
