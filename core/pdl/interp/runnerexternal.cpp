// Code blocks, commands, output parsers and model calls: where a run reaches other programs.
#include "core/pdl/code/commandrunner.h"
#include "core/pdl/code/pythonsession.h"
#include "core/pdl/code/sandbox.h"
#include "core/pdl/expr/jinjatemplate.h"
#include "core/pdl/interp/pdlfunction_p.h"
#include "core/pdl/interp/runner_p.h"
#include "core/pdl/model/defaultparameters.h"
#include "core/pdl/model/modelprovider.h"
#include "core/pdl/model/structuredoutput.h"
#include "core/pdl/parsers/outputparser.h"
#include "core/pdl/types/pdltype.h"

#include <QFileInfo>

#include <cstdlib>

namespace hako::pdl {

namespace {

// Python sees the program's variables; pdl_context as the list of messages so far.
Dict pythonGlobals(const State& st)
{
    Dict globals = st.scope.vars();
    if (globals.find("pdl_context"))
        globals.set("pdl_context", Value(contextToList(st.context)));
    return globals;
}

// The reference's `ensure_context` (pdl_context.py): a message object is one message, a list
// holds messages or lists of them (flattened in order); anything else is not a context.
void appendInputMessages(List& out, const Value& v, const SourceSpan& span)
{
    if (v.isDict()) {
        out.push_back(v);
        return;
    }
    if (v.isList()) {
        for (const Value& item : v.asList())
            appendInputMessages(out, item, span);
        return;
    }
    throw PdlError("a model's input must be a string, a message or a list of messages, not '" +
                       std::string(v.typeName()) + "'",
                   span);
}

// A model's input as the reference's `process_call_model` (pdl_interpreter.py) turns it into
// messages: a string is one message in the block's role; a message object or a list of
// messages is sent as those messages (never as their JSON text).
List inputMessages(const Value& input, const std::string& role, const SourceSpan& span)
{
    List messages;
    if (input.isString()) {
        Dict m;
        m.set("role", Value(role));
        m.set("content", input);
        messages.push_back(Value(std::move(m)));
    } else {
        appendInputMessages(messages, input, span);
    }
    return messages;
}

// The role of the reply's message (the reference records the message the server returned,
// `assistant` when it gives none), not the block's `role`.
std::string replyRole(const Value& message)
{
    if (message.isDict()) {
        const Value* role = message.asDict().find("role");
        if (role && role->isString() && !role->asString().empty())
            return role->asString();
    }
    return "assistant";
}

} // namespace

std::shared_ptr<const code::Sandbox> Runner::codeSandbox(const SourceSpan& span)
{
    if (!options.sandbox)
        return nullptr;
    std::lock_guard lock(codeMutex);
    if (!m_sandbox) {
        Result<std::shared_ptr<const code::Sandbox>> s = code::Sandbox::create();
        if (!s.ok())
            throw PdlError("cannot run code in the sandbox: " + s.error().message.toStdString(),
                           span);
        m_sandbox = *s;
    }
    return m_sandbox;
}

namespace {

// The reference's `lang: ipython` runs the code as an IPython cell in a child process and
// results in what the cell printed (its traceback when it fails), or a fixed notice when it
// printed nothing, cut at 2000 characters. Hako runs it in its Python session with the same
// capture, so the cell sees the program's variables as `lang: python` code does.
std::string ipythonCell(const std::string& source)
{
    return "import contextlib as _hako_cl, io as _hako_io, traceback as _hako_tb\n"
           "_hako_out = _hako_io.StringIO()\n"
           "with _hako_cl.redirect_stdout(_hako_out):\n"
           "    try:\n"
           "        exec(compile(" +
           jsonQuote(source) +
           ", '<cell>', 'exec'), globals())\n"
           "    except Exception:\n"
           "        _hako_tb.print_exc(file=_hako_out)\n"
           "result = _hako_out.getvalue() or '[Executed Successfully with No Output]'\n"
           "if len(result) > 2000:\n"
           "    result = result[:2000] + '...\\n[Output Truncated]'\n";
}

} // namespace

Value Runner::runCode(const CodeBlock& b, const std::string& source, State& st, TraceNode* node)
{
    switch (b.lang) {
    case CodeBlock::Lang::IPython:
        return runPython(b, ipythonCell(source), st, node);
    case CodeBlock::Lang::Command: {
        Result<std::vector<std::string>> argv = code::splitCommandLine(source);
        if (!argv.ok())
            throw PdlError(argv.error().message.toStdString(), b.span);
        return runCommand(*argv, b.span, node);
    }
    case CodeBlock::Lang::Jinja: {
        Value params = b.parameters ? eval(b.parameters, st, node, "parameters") : Value();
        Result<JinjaOptions> opts = JinjaOptions::fromParameters(params);
        if (!opts.ok())
            throw PdlError(opts.error().message.toStdString(), b.parameters.span);
        EvalScope scope(st.scope, st.context);
        Result<std::string> r = renderJinja(source, scope, *opts);
        if (!r.ok())
            throw PdlError(r.error().message.toStdString(), b.span);
        return Value(*r);
    }
    case CodeBlock::Lang::Python:
        return runPython(b, source, st, node);
    default:
        throw PdlError("unknown code language", b.span);
    }
}

Value Runner::runPython(const CodeBlock& b, const std::string& source, State& st, TraceNode* node)
{
    {
        code::PythonSession* session = nullptr;
        {
            // codeSandbox() takes codeMutex itself: ask before locking it here.
            std::shared_ptr<const code::Sandbox> sandbox = codeSandbox(b.span);
            std::lock_guard lock(codeMutex);
            if (!m_python) {
                code::PythonSessionOptions po;
                if (st.program)
                    po.workingDirectory = st.program->dir.toStdString();
                po.runCancel = options.cancel;
                po.sandbox = std::move(sandbox);
                m_python = std::make_unique<code::PythonSession>(std::move(po));
            }
            session = m_python.get();
        }
        code::CodeOutcome outcome;
        {
            // PDL functions the code calls run as if called from this block's expressions.
            ActiveEvaluationScope active(this, &st);
            outcome = session->exec(source, pythonGlobals(st), options.cancel);
        }
        if (node) {
            node->out = outcome.out;
            node->err = outcome.err;
        }
        if (!outcome.out.empty())
            write(outcome.out);
        if (!outcome.err.empty())
            write(outcome.err, true);
        if (outcome.status == code::CodeOutcome::Status::Cancelled)
            throw Cancelled{};
        if (!outcome.ok()) {
            SourceSpan at = b.fieldSpan("code").isValid() ? b.fieldSpan("code") : b.span;
            // Python's line maps to the program's only when the source is one string; code
            // assembled by blocks (`code: {text: [...]}`) fails at the code block, as in the
            // reference.
            if (b.code && b.code->kind != BlockKind::Data)
                at = b.span;
            else if (outcome.errorLine > 0 && at.isValid() && b.code && b.code->span.isValid()) {
                // A block scalar's first code line is the line after `code: |`.
                at.line =
                    b.code->span.line + outcome.errorLine - (b.code->span.line == at.line ? 0 : 1);
                at.column = 1;
            }
            std::string msg = outcome.describe();
            if (!outcome.traceback.empty())
                msg += "\n" + outcome.traceback;
            throw PdlError(msg, at, outcome.errorTypes);
        }
        return outcome.result;
    }
}

Value Runner::runCommand(const std::vector<std::string>& argv, const SourceSpan& span,
                         TraceNode* node)
{
    if (argv.empty())
        throw PdlError("empty command", span);
    code::CommandOptions co;
    co.sandbox = codeSandbox(span);
    code::CommandOutcome r =
        code::runCommand(argv, std::nullopt, options.cancel, std::chrono::milliseconds(0), co);
    if (node) {
        node->out = r.out;
        node->err = r.err;
    }
    if (r.status == code::CommandOutcome::Status::Cancelled)
        throw Cancelled{};
    if (!r.ok())
        throw PdlError(r.errorMessage, span);
    return Value(std::move(r.out));
}

Value Runner::parseResult(const ParserSpec& parser, const Value& result, const SourceSpan& span)
{
    const std::string text = result.toText();
    Result<Value> r = parseOutput(parser, text);
    // The reference parses JSON with json_repair, which skips what precedes a JSON object or
    // array and gives an empty string when the text holds neither: no error, no fallback.
    if (!r.ok() && parser.kind == ParserSpec::Kind::Json &&
        text.find_first_of("{[") == std::string::npos)
        return Value(std::string());
    if (!r.ok())
        throw PdlError(r.error().message.toStdString(), span);
    Value v = std::move(r).value();
    // A regex that does not match gives None before the reference looks at the parser's spec
    // (pdl_interpreter.py parse_result): no type error, no fallback.
    if (parser.kind == ParserSpec::Kind::Regex && !parser.spec.isNull() && !v.isNull() &&
        !(parser.mode == "findall" || parser.mode == "split"))
        checkSpec(parser.spec, v, span);
    return v;
}

void Runner::checkFallbackSpec(const Block& b, const Value& result)
{
    // The block's spec holds for what its fallback gives too: the reference checks it at the
    // `fallback` field (process_advance_block_retry).
    if (!b.spec || b.kind == BlockKind::Function)
        return;
    const SourceSpan at = b.fieldSpan("fallback");
    checkSpec(*b.spec, result, at.isValid() ? at : b.span);
}

const ProgramIdentity* Runner::identityOf(const SourceSpan& span, const ProgramInfo* current)
{
    const ProgramInfo* info = nullptr;
    if (current && current->program && current->program->file == span.file) {
        info = current;
    } else {
        std::lock_guard lock(programsMutex);
        auto it = programs.find(QFileInfo(span.file).absoluteFilePath());
        info = it == programs.end() ? nullptr : it->second.get();
    }
    if (!info || !info->program)
        return nullptr;
    std::call_once(info->identityOnce, [info] {
        info->identity = std::make_shared<const ProgramIdentity>(readProgramIdentity(
            info->lines, *info->program, QFileInfo(info->program->file).absoluteFilePath()));
    });
    return info->identity.get();
}

models::CallSite Runner::callSite(const ModelBlock& b, const State& st, const std::string& id)
{
    models::CallSite site;
    // The prompt's identity and names (core/pdl/promptidentity.h).
    if (const ProgramIdentity* identity = identityOf(b.span, st.program)) {
        site.programId = identity->id.toStdString();
        site.programName = identity->name.toStdString();
        if (const PromptIdentity* prompt = identity->find(b.span)) {
            site.promptId = prompt->id.toStdString();
            site.promptName = prompt->name.toStdString();
        }
    }
    if (site.promptName.empty())
        site.promptName = b.def           ? *b.def
                          : b.description ? *b.description
                                          : QStringLiteral("%1:%2")
                                                .arg(QFileInfo(b.span.file).fileName())
                                                .arg(b.span.line)
                                                .toStdString();
    site.span = b.span;
    site.nodeId = id;
    if (const size_t r = id.rfind(".retry"); r != std::string::npos)
        site.attempt = std::atoi(id.c_str() + r + 6);
    return site;
}

void Runner::addSchemaParameters(const ModelBlock& b, State& st, TraceNode* node,
                                 const Value& schema, Dict& parameters)
{
    // The reference's `set_structured_decoding_parameters` (pdl_llms.py, LiteLLM blocks) sends
    // the schema both as vLLM's `guided_json` and as `response_format`; its OpenAI platform
    // (`OpenaiModel._prepare_parameters`, pdl_openai.py) only as `response_format`. Neither
    // sends it when `structuredDecoding` is false.
    if (b.structuredDecoding &&
        !eval(b.structuredDecoding, st, node, "structuredDecoding").truthy())
        return;
    bool openaiPlatform = false;
    if (b.platform) {
        const Value platform = eval(b.platform, st, node, "platform");
        openaiPlatform = platform.isString() && platform.asString() == "openai";
    }
    if (!openaiPlatform)
        parameters.set("guided_json", schema);
    parameters.set(
        "response_format",
        Value(Dict{{"type", "json_schema"},
                   {"json_schema",
                    Value(Dict{{"name", "schema"}, {"schema", schema}, {"strict", true}})}}));
}

List Runner::modelMessages(const ModelBlock& b, State& st, const std::string& id, TraceNode* node)
{
    if (!b.input)
        return contextToList(st.context);
    // The input is not part of the result.
    const Value input = execPart(b.input, st, id + ".input.", "input", node);
    return inputMessages(input, st.role, b.input->span);
}

Dict Runner::modelParameters(const ModelBlock& b, State& st, TraceNode* node,
                             const std::string& model)
{
    Dict parameters;
    if (b.parameters) {
        Value p = eval(b.parameters, st, node, "parameters");
        if (!p.isDict() && !p.isNull())
            throw PdlError("parameters must be an object", b.parameters.span);
        if (p.isDict())
            parameters = p.asDict();
        // The key is sent, never recorded: the trace (and the live trace panes) keep the rest.
        if (node && p.isDict() && p.asDict().find("api_key") && !node->exprs.empty() &&
            node->exprs.back().first == "parameters") {
            Dict shown = p.asDict();
            shown.set("api_key", Value("[redacted]"));
            node->exprs.back().second = Value(std::move(shown));
        }
    }
    // The program's pdl_model_default_parameters (PDL's table unless it rebinds it) fill in
    // what the block leaves unset.
    if (const Value* defaults = st.scope.find("pdl_model_default_parameters");
        defaults && defaults->isList())
        parameters = models::applyDefaultParameters(model, parameters, *defaults);
    return parameters;
}

void Runner::callStructured(const ModelBlock& b, State& st, TraceNode* node,
                            models::ChatRequest& request,
                            const std::function<void(std::string_view)>& onDelta, ModelReply& out)
{
    // Structured output: ask for JSON of the spec's schema, repair once as TypeChat.
    Result<Value> schema = pdlTypeToJsonSchema(*b.spec, true);
    if (!schema.ok())
        throw PdlError("invalid spec: " + schema.error().message.toStdString(), b.specSpan);
    addSchemaParameters(b, st, node, *schema, request.parameters);
    // One repair per attempt; `retry` re-runs the whole block (execWithRetry), so tying the
    // repair count to it too would multiply the requests.
    models::StructuredOptions so;
    so.sendSchema = false; // addSchemaParameters() did, as the reference does
    models::StructuredResult sr =
        models::chatStructured(*options.models, request, *schema, so, onDelta, options.cancel);
    checkCancelled();
    for (const auto& attempt : sr.attempts) {
        if (!attempt.response)
            continue;
        out.usage.promptTokens += attempt.response->usage.promptTokens;
        out.usage.completionTokens += attempt.response->usage.completionTokens;
        out.usage.estimated = out.usage.estimated || attempt.response->usage.estimated;
        out.text = attempt.response->content;
        out.raw = attempt.response->raw;
        out.resolvedModel = attempt.response->resolvedModel;
        out.servedModel = attempt.response->servedModel();
        out.role = replyRole(attempt.response->message);
    }
    if (!sr.ok())
        throw PdlError(sr.error->message.toStdString(),
                       b.specSpan.isValid() ? b.specSpan : b.model.span);
    if (b.parser.kind == ParserSpec::Kind::None)
        out.structured = sr.value;
}

void Runner::addOpenAiClientFields(models::ChatRequest& request)
{
    // `platform: openai` calls the OpenAI client's create() with `stream=False` spelt out
    // (pdl_openai.py), which the client sends; an `organization` becomes the client's
    // OpenAI-Organization header. extra_body and extra_headers carry them to the wire.
    Dict& p = request.parameters;
    if (!request.stream) {
        Dict body = p.find("extra_body") && p.find("extra_body")->isDict()
                        ? p.find("extra_body")->asDict()
                        : Dict();
        body.set("stream", Value(false));
        p.set("extra_body", Value(std::move(body)));
    }
    if (const Value* org = p.find("organization"); org && org->isString()) {
        Dict headers = p.find("extra_headers") && p.find("extra_headers")->isDict()
                           ? p.find("extra_headers")->asDict()
                           : Dict();
        headers.set("OpenAI-Organization", *org);
        p.set("extra_headers", Value(std::move(headers)));
    }
}

Runner::ModelReply Runner::callProvider(const ModelBlock& b, State& st, const std::string& id,
                                        TraceNode* node, models::ChatRequest request)
{
    ModelReply out;
    request.site = callSite(b, st, id);
    const bool streamReply = st.streamResult && !st.quiet;
    // The reference asks for a stream in every call of a streaming run (`batch` 0 for
    // `--stream result` and `context`, pdl.py main), printed or not (a parsed reply).
    request.stream = streamReply || options.observer ||
                     (!st.batchCalls && (options.streamResult || options.streamContext));
    if (b.platform) {
        const Value platform = eval(b.platform, st, nullptr, "platform");
        if (platform.isString() && platform.asString() == "openai")
            addOpenAiClientFields(request);
    }
    bool streamed = false;
    auto onDelta = [&](std::string_view delta) {
        streamed = streamed || !delta.empty();
        if (streamReply)
            write(delta);
        if (options.observer && node) {
            std::lock_guard lock(observerMutex);
            options.observer->modelDelta(*node, delta);
        }
    };
    const Value* ownFormat = request.parameters.find("response_format");
    if (b.spec && !(ownFormat && !ownFormat->isNull())) {
        callStructured(b, st, node, request, onDelta, out);
    } else {
        Result<models::ChatResponse> r = options.models->chat(request, onDelta, options.cancel);
        checkCancelled();
        if (!r.ok())
            throw PdlError(r.error().message.toStdString(), b.model.span);
        out.text = r->content;
        out.raw = r->raw;
        out.usage = r->usage;
        out.resolvedModel = r->resolvedModel;
        out.servedModel = r->servedModel();
        out.role = replyRole(r->message);
    }
    // A provider that answered in one piece streamed nothing: the reply is the output.
    if (!streamed)
        streamValue(st, Value(out.text));
    return out;
}

void Runner::recordUsage(State& st, TraceNode* node, const ModelReply& reply)
{
    const models::Usage& usage = reply.usage;
    {
        std::lock_guard lock(observerMutex);
        ++modelCalls;
        promptTokens += usage.promptTokens;
        completionTokens += usage.completionTokens;
        st.scope.set("pdl_usage", usageValue());
    }
    if (node) {
        Dict u;
        u.set("prompt_tokens", Value(usage.promptTokens));
        u.set("completion_tokens", Value(usage.completionTokens));
        if (usage.estimated)
            u.set("estimated", Value(true));
        // Which model answered, beside the alias the block names (`model:`): what the endpoint
        // was asked for and what the server reported (trace keys `resolved_model`,
        // `response_model`, as OpenTelemetry's gen_ai.request/response.model).
        if (!reply.resolvedModel.empty())
            u.set("resolved_model", Value(reply.resolvedModel));
        if (!reply.servedModel.empty())
            u.set("response_model", Value(reply.servedModel));
        node->usage = Value(std::move(u));
    }
}

Value Runner::execModel(const ModelBlock& b, State& st, const std::string& id, TraceNode* node)
{
    Value model = eval(b.model, st, node, "model");
    if (!model.isString())
        throw PdlError("the model name must be a string, got " + std::string(model.typeName()),
                       b.model.span);
    List messages = modelMessages(b, st, id, node);
    Dict parameters = modelParameters(b, st, node, model.asString());
    if (node) {
        node->context = Value(contextToList(st.context));
        node->modelInput = Value(messages);
    }
    ModelReply reply;
    if (st.handAnswer && st.handAnswerBlock == &b) {
        // Answered by hand in the debugger: nothing is sent.
        reply.text = std::move(*st.handAnswer);
        st.handAnswer.reset();
        st.handAnswerBlock = nullptr;
        reply.usage.estimated = true;
        reply.usage.completionTokens = int64_t(reply.text.size() / 4 + 1);
        if (node)
            node->answeredByHand = true;
        streamValue(st, Value(reply.text));
    } else if (const Value* mock = parameters.find("mock_response")) {
        reply.text = mock->toText();
        reply.usage.estimated = true;
        reply.usage.completionTokens = int64_t(reply.text.size() / 4 + 1);
        streamValue(st, Value(reply.text));
    } else if (options.models) {
        models::ChatRequest request;
        request.model = model.asString();
        for (const Value& m : messages) {
            if (!m.isDict()) {
                request.messages.push_back(m);
                continue;
            }
            Dict clean = m.asDict();
            clean.remove(Value("pdl__defsite"));
            request.messages.push_back(Value(std::move(clean)));
        }
        request.parameters = std::move(parameters);
        reply = callProvider(b, st, id, node, std::move(request));
    } else {
        throw PdlError("no model provider is configured to run '" + model.asString() +
                           "': set OLLAMA_API_BASE (Ollama) or OPENAI_BASE_URL and "
                           "OPENAI_API_KEY, or give the block `parameters: {mock_response: …}`",
                       b.model.span);
    }
    recordUsage(st, node, reply);
    if (b.modelResponse)
        st.scope.set(*b.modelResponse, reply.raw.isNull() ? Value(reply.text) : reply.raw);
    st.context = contextAppend(st.context, reply.role, Value(reply.text), id);
    if (!reply.structured.isNull())
        return reply.structured;
    return Value(std::move(reply.text));
}

} // namespace hako::pdl
