#include "core/pdl/lang/languagedocs.h"

#include <QHash>

namespace hako::pdl {

namespace {

// Written for Hako from the PDL language's documented behaviour (see
// ../shared/docs/pdl-semantics.md); one short paragraph each.
const QHash<QString, QString>& kindTexts()
{
    static const QHash<QString, QString> t = {
        {QStringLiteral("text"),
         QStringLiteral("text block: runs its children (a block or a list of blocks) in order "
                        "and concatenates their results as text; non-string values are written "
                        "as JSON. Definitions made by a child stay visible to later children.")},
        {QStringLiteral("lastOf"),
         QStringLiteral("lastOf block: runs a list of blocks in order; the result is the last "
                        "child's value. Every child still contributes to the context.")},
        {QStringLiteral("array"),
         QStringLiteral("array block: runs a list of blocks; the result is the list of their "
                        "values.")},
        {QStringLiteral("object"),
         QStringLiteral("object block: a mapping from field names to blocks (each run as "
                        "lastOf), or a list of blocks producing objects that are merged; the "
                        "result is a dict.")},
        {QStringLiteral("sequence"),
         QStringLiteral("sequence block: runs a list of blocks and combines their results as "
                        "`join` says (text by default).")},
        {QStringLiteral("if"),
         QStringLiteral("if block: evaluates the condition (a boolean or a `${ }` expression); "
                        "runs `then` when it is true, otherwise `else`. Without a taken branch "
                        "the result is \"\".")},
        {QStringLiteral("match"),
         QStringLiteral("match block: evaluates `match` and runs the `then` of the first case in "
                        "`with` whose pattern (literal, {any}, {array}, {object}, {anyOf}) "
                        "matches and whose `if` guard holds. Patterns can bind parts with "
                        "`def`.")},
        {QStringLiteral("repeat"),
         QStringLiteral("repeat block: runs its body repeatedly: once per element of the `for` "
                        "lists, while `while` holds, until `until` holds, or up to "
                        "`maxIterations`. Scope and context accumulate across iterations; the "
                        "results are joined as `join` says (text by default).")},
        {QStringLiteral("map"),
         QStringLiteral("map block: like repeat over `for` (or `maxIterations`), but iterations "
                        "are independent, may run in parallel (`maxWorkers`) and contribute no "
                        "context. The results are joined (text by default).")},
        {QStringLiteral("include"),
         QStringLiteral("include block: runs another program file inline, in the current scope "
                        "and context; its definitions become visible afterwards. The path is "
                        "relative to this program's folder.")},
        {QStringLiteral("import"),
         QStringLiteral("import block: runs a program file in a fresh scope and returns its "
                        "final scope, so `def: lib` then `${ lib.f }` uses its functions. "
                        "`.pdl` is appended when missing; each file is imported once per run.")},
        {QStringLiteral("function"),
         QStringLiteral("function block: defines a function with the given parameters "
                        "(name: type) and `return` body. With `def` it binds a closure over the "
                        "scope where it is defined; call it with a call block or as "
                        "`${ f(x=1) }`.")},
        {QStringLiteral("call"),
         QStringLiteral("call block: calls the function `call` evaluates to, with `args` (type "
                        "checked against its parameters). The caller's context is passed as "
                        "`pdl_context`; `args: {pdl_context: []}` resets it.")},
        {QStringLiteral("model"),
         QStringLiteral("model block: sends messages to a language model and results in the "
                        "reply text, which is added to the context as an assistant message. The "
                        "input is the context so far unless `input` is given.")},
        {QStringLiteral("code"),
         QStringLiteral("code block: runs code in `lang`: python (the variable `result` is the "
                        "result; PDL variables are globals), ipython (what the cell prints is "
                        "the result), jinja, pdl or command (argv split like a shell, no shell; "
                        "stdout is the result). `scope` replaces the variables the code sees.")},
        {QStringLiteral("args"),
         QStringLiteral("code block, argv form: runs the command given as a list of arguments "
                        "without a shell; stdout is the result, a non-zero exit an error.")},
        {QStringLiteral("get"),
         QStringLiteral("get block (deprecated): the value of the named variable. Prefer "
                        "`${ name }`.")},
        {QStringLiteral("data"),
         QStringLiteral("data block: any YAML value, with every string (keys too) evaluated as "
                        "a template unless `raw: true`.")},
        {QStringLiteral("content"),
         QStringLiteral("message block: one message with `content` and `role` (plus `name`, "
                        "`tool_call_id`, `tool_calls`); the result is a one-message context.")},
        {QStringLiteral("read"),
         QStringLiteral("read block: reads a file (path relative to the program's folder) or, "
                        "with `read: null`, a line from standard input (all lines with "
                        "`multiline`), showing `message` first.")},
        {QStringLiteral("factor"),
         QStringLiteral("factor block: adds a weight (a number or an expression) to the run's "
                        "score, recorded as the block's pdl__score in the trace; the result is "
                        "\"\" and nothing enters the context. Hako has no inference modes, so "
                        "the score steers nothing.")},
        {QStringLiteral("aggregator"),
         QStringLiteral("aggregator block: `context`, or a file sink `{file, mode, encoding, "
                        "prefix, suffix, flush}`; bind it with `def` and name it in "
                        "`contribute`.")},
    };
    return t;
}

const QHash<QString, QString>& commonTexts()
{
    static const QHash<QString, QString> t = {
        {QStringLiteral("description"),
         QStringLiteral("description: a comment about the block; it has no effect on the "
                        "run.")},
        {QStringLiteral("def"),
         QStringLiteral("def: binds the block's result to this variable name. The variable "
                        "stays visible to the blocks after this one, not only inside it.")},
        {QStringLiteral("defs"),
         QStringLiteral("defs: variables defined (name: block) in order before the block runs, "
                        "each seeing the previous ones; they produce no output and no "
                        "context.")},
        {QStringLiteral("contribute"),
         QStringLiteral("contribute: where the result goes: default [result, context]; [] "
                        "contributes nothing, [context] makes the result \"\". Also stdout, "
                        "stderr or an aggregator variable; a target may take a replacement "
                        "{value: …}.")},
        {QStringLiteral("role"),
         QStringLiteral("role: the role of the messages this block and its descendants add to "
                        "the context (the top level is `user`; model replies are "
                        "`assistant`).")},
        {QStringLiteral("spec"),
         QStringLiteral("spec: the type the result must have, checked at run time (a type "
                        "name, {list: …}, an object of field types, or JSON Schema). On a model "
                        "block it also asks for structured output.")},
        {QStringLiteral("parser"),
         QStringLiteral("parser: parses the text result: json (tolerant of LLM-style slips), "
                        "jsonl, yaml, csv, or {regex: R, mode: fullmatch|search|match|split|"
                        "findall, spec}.")},
        {QStringLiteral("fallback"),
         QStringLiteral("fallback: a block run instead when this block fails or its spec check "
                        "fails.")},
        {QStringLiteral("retry"),
         QStringLiteral("retry: extra tries on failure: an integer, or {tries, exceptions, "
                        "delay, backoff, max_delay, jitter}.")},
        {QStringLiteral("trace_error_on_retry"),
         QStringLiteral("trace_error_on_retry: when true, the error is added to the context as "
                        "an assistant message before retrying.")},
        {QStringLiteral("expectations"),
         QStringLiteral("expectations: statements the result should satisfy, each {expect, "
                        "feedback}. After each try a judge (`feedback`, or the model named by "
                        "pdl_llm_as_judge) scores the result; an unmet one adds an instruction "
                        "to the context and, with `retry`, the block runs again.")},
        {QStringLiteral("context"),
         QStringLiteral("context: dependent (default: each child sees what earlier children "
                        "added) or independent (every child sees the initial context).")},
        {QStringLiteral("kind"),
         QStringLiteral("kind: names the block kind explicitly instead of detecting it from the "
                        "first kind keyword.")},
    };
    return t;
}

// Fields that are not kind keywords, by kind ("kind/field"), or by field when one text fits
// every kind that has it.
const QHash<QString, QString>& fieldTexts()
{
    static const QHash<QString, QString> t = {
        {QStringLiteral("raw"),
         QStringLiteral("raw: when true, the data is taken literally: strings are not "
                        "evaluated as templates.")},
        {QStringLiteral("input"),
         QStringLiteral("input: the block whose value is sent to the model instead of the "
                        "context (default `${ pdl_context }`).")},
        {QStringLiteral("model/parameters"),
         QStringLiteral("parameters: model parameters (temperature, max_tokens, stop, seed, …; "
                        "any LiteLLM-style key such as `mock_response`), a mapping or an "
                        "expression.")},
        {QStringLiteral("code/parameters"),
         QStringLiteral("parameters: values passed to a jinja code template.")},
        {QStringLiteral("platform"),
         QStringLiteral("platform: where the model is served (litellm by default).")},
        {QStringLiteral("modelResponse"),
         QStringLiteral("modelResponse: a variable that receives the model's raw response.")},
        {QStringLiteral("backend"), QStringLiteral("backend: the serving backend of the model.")},
        {QStringLiteral("processor"),
         QStringLiteral("processor: the input processor of the model.")},
        {QStringLiteral("structuredDecoding"),
         QStringLiteral("structuredDecoding: whether `spec` is enforced by structured "
                        "decoding.")},
        {QStringLiteral("message"),
         QStringLiteral("message: the prompt shown before reading from standard input.")},
        {QStringLiteral("multiline"),
         QStringLiteral("multiline: read every line until the end of input, not just one.")},
        {QStringLiteral("join"),
         QStringLiteral("join: how results are combined: {as: text, with: SEPARATOR} (default, "
                        "with \"\"), {as: array}, {as: object}, {as: lastOf}, or {as: reduce, "
                        "reduce: FUNCTION}.")},
        {QStringLiteral("name"), QStringLiteral("name: the name attached to the message.")},
        {QStringLiteral("tool_call_id"),
         QStringLiteral("tool_call_id: the id of the tool call this message answers.")},
        {QStringLiteral("tool_calls"),
         QStringLiteral("tool_calls: the tool calls carried by the message.")},
        {QStringLiteral("then"),
         QStringLiteral("then: the block run when the condition holds (or the case matches).")},
        {QStringLiteral("else"),
         QStringLiteral("else: the block run when the condition is false.")},
        {QStringLiteral("with"),
         QStringLiteral("with: the list of cases {case: PATTERN, if: GUARD, then: BLOCK}; the "
                        "first that matches runs. A case without `case` matches anything.")},
        {QStringLiteral("for"),
         QStringLiteral("for: loop variables, each bound to a list (or an expression giving "
                        "one); the lists are zipped and must have equal lengths.")},
        {QStringLiteral("index"),
         QStringLiteral("index: a variable holding the iteration number, from 0.")},
        {QStringLiteral("while"),
         QStringLiteral("while: a condition checked before each iteration; the loop stops when "
                        "it is false.")},
        {QStringLiteral("until"),
         QStringLiteral("until: a condition checked after each iteration; the loop stops when "
                        "it is true. It sees what the body defined.")},
        {QStringLiteral("maxIterations"),
         QStringLiteral("maxIterations: the most iterations the loop runs (an integer or an "
                        "expression).")},
        {QStringLiteral("maxWorkers"),
         QStringLiteral("maxWorkers: how many map iterations may run at the same time.")},
        {QStringLiteral("return"),
         QStringLiteral("return: the function's body, run with the parameters bound; its "
                        "value is the call's result.")},
        {QStringLiteral("call/args"),
         QStringLiteral("args: the arguments of the call, parameter: value (or an expression "
                        "giving a mapping); `pdl_context` sets the callee's context.")},
        {QStringLiteral("lang"),
         QStringLiteral("lang: the language of the code: python (default), ipython, command, "
                        "jinja or pdl.")},
        {QStringLiteral("code/scope"),
         QStringLiteral("scope: the variables the code sees (name: value, or an expression "
                        "giving a mapping) instead of the program's; they do not outlive the "
                        "block.")},
        {QStringLiteral("resample"),
         QStringLiteral("resample: whether an inference mode may resample at this factor "
                        "(accepted; Hako has no inference modes).")},
        {QStringLiteral("msg"), QStringLiteral("msg: the error message (traces).")},
        {QStringLiteral("program"), QStringLiteral("program: the block that failed (traces).")},
    };
    return t;
}

const QHash<QString, QString>& subTexts()
{
    static const QHash<QString, QString> t = {
        {QStringLiteral("join/as"),
         QStringLiteral("as: text (default), array, object, lastOf or reduce.")},
        {QStringLiteral("join/with"),
         QStringLiteral("with: the separator between results joined as text.")},
        {QStringLiteral("join/reduce"),
         QStringLiteral("reduce: a function of (acc, elem) folding the results.")},
        {QStringLiteral("retry/tries"),
         QStringLiteral("tries: how many extra tries (-1, the default of the mapping form: "
                        "no limit).")},
        {QStringLiteral("expectations/expect"),
         QStringLiteral("expect: the statement, in plain words, that the result should "
                        "satisfy.")},
        {QStringLiteral("expectations/feedback"),
         QStringLiteral("feedback: a function of (expectation, response) giving a score, an "
                        "instruction, or [score, instruction]; the standard LLM judge when "
                        "absent.")},
        {QStringLiteral("retry/exceptions"),
         QStringLiteral("exceptions: retry only on these error kinds (all when absent).")},
        {QStringLiteral("retry/delay"),
         QStringLiteral("delay: seconds to wait before the first retry.")},
        {QStringLiteral("retry/backoff"),
         QStringLiteral("backoff: factor multiplying the delay after each try.")},
        {QStringLiteral("retry/max_delay"), QStringLiteral("max_delay: the longest delay.")},
        {QStringLiteral("retry/jitter"),
         QStringLiteral("jitter: extra delay in seconds: a number, or [low, high] for a random "
                        "one.")},
        {QStringLiteral("parser/regex"),
         QStringLiteral("regex: the regular expression applied to the result.")},
        {QStringLiteral("parser/mode"),
         QStringLiteral("mode: fullmatch (default), search, match, split or findall.")},
        {QStringLiteral("parser/spec"),
         QStringLiteral("spec: the type of the parsed value (named groups become fields).")},
        {QStringLiteral("with/case"),
         QStringLiteral("case: the pattern: a literal, {any: null}, {array: [...]} (exact "
                        "length), {object: {k: pattern}} or {anyOf: [...]}, optionally with "
                        "`def` to bind the matched value.")},
        {QStringLiteral("with/if"),
         QStringLiteral("if: a guard checked after the pattern matches; it sees the pattern's "
                        "bindings.")},
        {QStringLiteral("with/then"), QStringLiteral("then: the block run for this case.")},
    };
    return t;
}

} // namespace

QString LanguageDocs::blockKind(const QString& keyword)
{
    return kindTexts().value(keyword);
}

QString LanguageDocs::field(std::optional<BlockKind> kind, const QString& field)
{
    if (kind) {
        const QString kindName = QString::fromLatin1(blockKindName(*kind));
        const QString specific = fieldTexts().value(kindName + QLatin1Char('/') + field);
        if (!specific.isEmpty())
            return specific;
        // The kind's own keyword (`args` of the argv form is its keyword too).
        if (field == kindName || (*kind == BlockKind::Message && field == QLatin1String("content")))
            return blockKind(field);
        if (*kind == BlockKind::Args && field == QLatin1String("args"))
            return blockKind(field);
    }
    QString text = fieldTexts().value(field);
    if (text.isEmpty())
        text = commonTexts().value(field);
    if (text.isEmpty())
        text = blockKind(field);
    return text;
}

QString LanguageDocs::subField(const QString& parent, const QString& field)
{
    return subTexts().value(parent + QLatin1Char('/') + field);
}

} // namespace hako::pdl
