#include "core/pdl/stdlib/typechatprogram.h"

#include "core/pdl/ast/block.h"
#include "core/pdl/interp/functionvalue.h"
#include "core/pdl/parsers/tolerantjson.h"
#include "core/pdl/types/jsonschema.h"
#include "core/pdl/types/pdltype.h"

#include <map>

namespace hako::models {

using pdl::Callable;
using pdl::CallArgs;
using pdl::Dict;
using pdl::EvalError;
using pdl::List;
using pdl::Value;

namespace {

struct ApiFunction {
    std::shared_ptr<const Callable> fn;
    /// Parameters (name, PDL type) when the function is a PDL function; empty `known` otherwise.
    std::vector<std::pair<std::string, Value>> params;
    bool known = false;
};

using Api = std::map<std::string, ApiFunction>;

ApiFunction describe(const std::shared_ptr<const Callable>& fn)
{
    ApiFunction f;
    f.fn = fn;
    if (const pdl::FunctionBlock* block = pdl::pdlFunctionBlock(*fn)) {
        f.params = block->params;
        f.known = true;
    }
    return f;
}

Api readApi(const Value& api)
{
    Api out;
    if (api.isDict()) {
        for (const auto& [k, v] : api.asDict()) {
            if (!v.isCallable())
                throw EvalError("the API entry '" + k.str() + "' is not a function (got " +
                                v.typeName() + ")");
            out[k.str()] = describe(v.asCallable());
        }
    } else if (api.isList()) {
        for (const Value& v : api.asList()) {
            if (!v.isCallable())
                throw EvalError(std::string("the API list must hold functions, got ") +
                                v.typeName());
            const std::string name = v.asCallable()->name();
            // Functions under `defs:` carry no name of their own (the interpreter calls them
            // "function"); only a dict can name them.
            if (name.empty() || name == "function")
                throw EvalError("a function in the API list has no name (define it with `def:`), "
                                "or give the API as a dict: {\"name\": function, …}");
            out[name] = describe(v.asCallable());
        }
    } else {
        throw EvalError(std::string("the API must be a dict of functions or a list of "
                                    "functions, got ") +
                        api.typeName());
    }
    if (out.empty())
        throw EvalError("the API has no functions");
    return out;
}

Value readProgram(const Value& program)
{
    if (program.isString()) {
        Result<Value> parsed = pdl::parsers::parseStrictJson(program.asString());
        if (!parsed)
            throw EvalError("the program is not valid JSON: " +
                            parsed.error().message.toStdString());
        return *parsed;
    }
    return program;
}

bool isRef(const Dict& d)
{
    return d.size() == 1 && d.find("@ref");
}

bool isCall(const Dict& d)
{
    return d.find("@func") != nullptr;
}

std::string stepName(size_t index, const std::string& func)
{
    return "step " + std::to_string(index) + (func.empty() ? "" : " ('" + func + "')");
}

class Checker {
public:
    Checker(const Api& api, std::vector<std::string>& problems) : m_api(api), m_problems(problems)
    {}

    // `where` names the step and the place inside it; `step` is the current step's index.
    void checkCall(const Dict& call, size_t step, const std::string& where)
    {
        const Value* func = call.find("@func");
        if (!func || !func->isString()) {
            problem(where, "\"@func\" must be a function name");
            return;
        }
        for (const auto& [k, v] : call) {
            if (k.str() != "@func" && k.str() != "@args")
                problem(where, "unexpected key '" + k.str() +
                                   "' (a call has \"@func\" and "
                                   "\"@args\")");
        }
        const std::string name = func->asString();
        auto it = m_api.find(name);
        if (it == m_api.end()) {
            std::string known;
            for (const auto& [n, f] : m_api)
                known += (known.empty() ? "" : ", ") + n;
            problem(where, "'" + name + "' is not a function of the API (" + known + ")");
            return;
        }
        const Value* args = call.find("@args");
        List empty;
        if (args && !args->isList()) {
            problem(where, "\"@args\" must be an array");
            return;
        }
        const List& list = args ? args->asList() : empty;
        const ApiFunction& f = it->second;
        if (f.known) {
            size_t required = 0;
            for (const auto& [pname, type] : f.params)
                required += type.isDict() && type.asDict().find("optional") ? 0 : 1;
            if (list.size() > f.params.size() || list.size() < required)
                problem(where, "'" + name + "' takes " + std::to_string(f.params.size()) +
                                   " argument" + (f.params.size() == 1 ? "" : "s") + ", got " +
                                   std::to_string(list.size()));
        }
        for (size_t i = 0; i < list.size(); ++i) {
            const std::string at = where + " @args[" + std::to_string(i) + "]";
            checkExpr(list[i], step, at);
            // A literal argument can be checked against the declared type now; refs and nested
            // calls are checked by the call itself when the program runs.
            if (f.known && i < f.params.size() && isLiteral(list[i]) &&
                !f.params[i].second.isNull())
                checkType(list[i], f.params[i], at);
        }
    }

    void checkExpr(const Value& v, size_t step, const std::string& where)
    {
        if (v.isList()) {
            for (size_t i = 0; i < v.asList().size(); ++i)
                checkExpr(v.asList()[i], step, where + "[" + std::to_string(i) + "]");
        } else if (v.isDict()) {
            const Dict& d = v.asDict();
            if (isRef(d)) {
                const Value& ref = *d.find("@ref");
                if (!ref.isInt())
                    problem(where, "\"@ref\" must be a step number");
                else if (ref.asInt() < 0 || size_t(ref.asInt()) >= step)
                    problem(where, "{\"@ref\": " + ref.str() +
                                       "} must refer to an earlier step (0" +
                                       (step > 1 ? "…" + std::to_string(step - 1) : "") +
                                       (step == 0 ? ", and step 0 has none" : "") + ")");
            } else if (isCall(d)) {
                checkCall(d, step, where);
            } else {
                for (const auto& [k, item] : d)
                    checkExpr(item, step, where + "." + k.str());
            }
        }
    }

private:
    static bool isLiteral(const Value& v)
    {
        if (v.isList()) {
            for (const Value& item : v.asList())
                if (!isLiteral(item))
                    return false;
            return true;
        }
        if (v.isDict()) {
            if (isRef(v.asDict()) || isCall(v.asDict()))
                return false;
            for (const auto& [k, item] : v.asDict())
                if (!isLiteral(item))
                    return false;
        }
        return true;
    }

    void checkType(const Value& v, const std::pair<std::string, Value>& param,
                   const std::string& where)
    {
        Result<pdl::JsonSchema> schema = pdl::compilePdlType(param.second);
        if (!schema)
            return;
        for (const auto& e : schema->validate(v))
            problem(where, "parameter '" + param.first + "': " + e.toString());
    }

    void problem(const std::string& where, const std::string& what)
    {
        m_problems.push_back(where + ": " + what);
    }

    const Api& m_api;
    std::vector<std::string>& m_problems;
};

std::vector<std::string> validateParsed(const Value& program, const Api& api)
{
    std::vector<std::string> problems;
    if (!program.isDict()) {
        problems.push_back(std::string("a program must be an object with \"@steps\", got ") +
                           program.typeName());
        return problems;
    }
    const Value* steps = program.asDict().find("@steps");
    if (!steps || !steps->isList()) {
        problems.push_back("a program must have \"@steps\": an array of calls");
        return problems;
    }
    if (steps->asList().empty())
        problems.push_back("the program has no steps");
    Checker checker(api, problems);
    const List& list = steps->asList();
    for (size_t i = 0; i < list.size(); ++i) {
        const Value& step = list[i];
        const Value* func =
            step.isDict() && step.asDict().find("@func") ? step.asDict().find("@func") : nullptr;
        const std::string where =
            stepName(i, func && func->isString() ? func->asString() : std::string());
        if (!step.isDict() || !func) {
            problems.push_back(where + ": a step must be a call {\"@func\": …, \"@args\": […]}");
            continue;
        }
        checker.checkCall(step.asDict(), i, where);
    }
    return problems;
}

class Evaluator {
public:
    explicit Evaluator(const Api& api) : m_api(api) {}

    Value run(const List& steps)
    {
        Value last;
        for (size_t i = 0; i < steps.size(); ++i) {
            const Dict& call = steps[i].asDict();
            m_step = stepName(i, call.find("@func")->asString());
            last = evalCall(call);
            m_results.push_back(last);
        }
        return last;
    }

private:
    Value evalCall(const Dict& call)
    {
        const std::string name = call.find("@func")->asString();
        CallArgs args;
        if (const Value* list = call.find("@args")) {
            for (const Value& a : list->asList())
                args.positional.push_back(eval(a));
        }
        try {
            return m_api.at(name).fn->call(args);
        } catch (const EvalError& e) {
            throw EvalError(m_step + " failed: " + e.what());
        }
    }

    Value eval(const Value& v)
    {
        if (v.isList()) {
            List out;
            for (const Value& item : v.asList())
                out.push_back(eval(item));
            return Value(std::move(out));
        }
        if (!v.isDict())
            return v;
        const Dict& d = v.asDict();
        if (isRef(d))
            return m_results.at(size_t(d.find("@ref")->asInt()));
        if (isCall(d))
            return evalCall(d);
        Dict out;
        for (const auto& [k, item] : d)
            out.set(k, eval(item));
        return Value(std::move(out));
    }

    const Api& m_api;
    std::vector<Value> m_results;
    std::string m_step;
};

std::string typeText(const Value& type)
{
    if (type.isNull())
        return "any";
    if (type.isString()) {
        const std::string& t = type.asString();
        if (t == "str" || t == "string")
            return "string";
        if (t == "int" || t == "integer" || t == "float" || t == "number")
            return "number";
        if (t == "bool" || t == "boolean")
            return "boolean";
        if (t == "list" || t == "array")
            return "unknown[]";
        if (t == "obj" || t == "object")
            return "object";
        return t;
    }
    return type.json();
}

const Value& argument(const CallArgs& args, size_t index, const char* name, const char* fn)
{
    if (index < args.positional.size())
        return args.positional[index];
    if (const Value* v = args.kw(name))
        return *v;
    throw EvalError(std::string("stdlib.typechat.") + fn + "() needs the argument '" + name + "'");
}

} // namespace

std::vector<std::string> TypeChatProgram::validate(const Value& program, const Value& api)
{
    return validateParsed(readProgram(program), readApi(api));
}

Value TypeChatProgram::run(const Value& program, const Value& api)
{
    const Api table = readApi(api);
    const Value parsed = readProgram(program);
    const std::vector<std::string> problems = validateParsed(parsed, table);
    if (!problems.empty()) {
        // One line: error messages are shown as `file:line:col - message`.
        std::string msg = "invalid TypeChat program: ";
        for (size_t i = 0; i < problems.size(); ++i)
            msg += (i ? "; " : "") + problems[i];
        throw EvalError(msg);
    }
    return Evaluator(table).run(parsed.asDict().find("@steps")->asList());
}

std::string TypeChatProgram::describeApi(const Value& api)
{
    const Api table = readApi(api);
    std::string out =
        "// A program is a JSON object {\"@steps\": [CALL, …]} where CALL is\n"
        "// {\"@func\": NAME, \"@args\": [EXPR, …]} and EXPR is a JSON value, a nested CALL, or\n"
        "// {\"@ref\": N}: the result of step N (counted from 0). The result of the program is\n"
        "// the result of its last step.\n"
        "interface API {\n";
    for (const auto& [name, f] : table) {
        out += "  " + name + "(";
        if (f.known) {
            for (size_t i = 0; i < f.params.size(); ++i)
                out += (i ? ", " : "") + f.params[i].first + ": " + typeText(f.params[i].second);
        } else {
            out += "...args: unknown[]";
        }
        out += "): unknown;\n";
    }
    out += "}\n";
    return out;
}

Value TypeChatProgram::stdlibModule()
{
    Dict module;
    module.set("validate_program",
               Value(pdl::makeCallable("validate_program", [](const CallArgs& args) {
                   List out;
                   for (std::string& p : validate(argument(args, 0, "program", "validate_program"),
                                                  argument(args, 1, "api", "validate_program")))
                       out.push_back(Value(std::move(p)));
                   return Value(std::move(out));
               })));
    module.set("run_program", Value(pdl::makeCallable("run_program", [](const CallArgs& args) {
                   return run(argument(args, 0, "program", "run_program"),
                              argument(args, 1, "api", "run_program"));
               })));
    module.set("describe_api", Value(pdl::makeCallable("describe_api", [](const CallArgs& args) {
                   return Value(describeApi(argument(args, 0, "api", "describe_api")));
               })));
    return Value(std::move(module));
}

} // namespace hako::models
