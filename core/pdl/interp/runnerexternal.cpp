// Code blocks, commands, output parsers and model calls: where a run reaches other programs.
#include "core/models/modelprovider.h"
#include "core/pdl/interp/runner.h"

#include <QProcess>
#include <QRegularExpression>

#include <nlohmann/json.hpp>

namespace hako::pdl {

Value Runner::runCode(const CodeBlock& b, const std::string& source, State& st, TraceNode* node)
{
    switch (b.lang) {
    case CodeBlock::Lang::Command:
        return runCommand({"/bin/sh", "-c", source}, b.span, node);
    default:
        throw PdlError("this code block language is not available yet", b.span);
    }
}

Value Runner::runCommand(const std::vector<std::string>& argv, const SourceSpan& span,
                         TraceNode* node)
{
    if (argv.empty())
        throw PdlError("empty command", span);
    QProcess p;
    QStringList args;
    for (size_t i = 1; i < argv.size(); ++i)
        args << QString::fromStdString(argv[i]);
    p.start(QString::fromStdString(argv[0]), args);
    if (!p.waitForStarted())
        throw PdlError("cannot run " + argv[0] + ": " + p.errorString().toStdString(), span);
    p.closeWriteChannel();
    while (!p.waitForFinished(50)) {
        if (options.cancel.isCancelled()) {
            p.kill();
            p.waitForFinished();
            throw Cancelled{};
        }
    }
    std::string out = p.readAllStandardOutput().toStdString();
    std::string err = p.readAllStandardError().toStdString();
    if (node) {
        node->out = out;
        node->err = err;
    }
    if (p.exitStatus() != QProcess::NormalExit || p.exitCode() != 0)
        throw PdlError(argv[0] + " exited with code " + std::to_string(p.exitCode()) +
                           (err.empty() ? std::string() : ": " + err),
                       span);
    return Value(std::move(out));
}

Value Runner::parseResult(const ParserSpec& parser, const Value& result, const SourceSpan& span)
{
    const std::string text = result.toText();
    try {
        switch (parser.kind) {
        case ParserSpec::Kind::Json:
            return Value::fromJson(nlohmann::ordered_json::parse(text));
        case ParserSpec::Kind::Jsonl: {
            List out;
            size_t start = 0;
            while (start <= text.size()) {
                size_t nl = text.find('\n', start);
                std::string line = text.substr(start, nl == std::string::npos ? nl : nl - start);
                if (line.find_first_not_of(" \t\r") != std::string::npos)
                    out.push_back(Value::fromJson(nlohmann::ordered_json::parse(line)));
                if (nl == std::string::npos)
                    break;
                start = nl + 1;
            }
            return Value(std::move(out));
        }
        default:
            throw PdlError("this parser is not available yet", span);
        }
    } catch (const nlohmann::json::exception& e) {
        throw PdlError(std::string("the result is not valid JSON: ") + e.what(), span);
    }
}

Value Runner::execModel(const ModelBlock& b, State& st, const std::string& id, TraceNode* node)
{
    Value model = eval(b.model, st, node, "model");
    if (!model.isString())
        throw PdlError("the model name must be a string, got " + std::string(model.typeName()),
                       b.model.span);
    List messages;
    if (b.input) {
        State is = st;
        TracePtr in;
        Value input = exec(b.input, is, id + ".input.", node ? &in : nullptr);
        if (node)
            node->addChild("input", in, true);
        if (input.isList()) {
            messages = input.asList();
        } else {
            Dict m;
            m.set("role", Value(st.role));
            m.set("content", Value(input.toText()));
            messages.push_back(Value(std::move(m)));
        }
    } else {
        messages = contextToList(st.context);
    }
    Dict parameters;
    if (const Value* defaults = st.scope.find("pdl_model_default_parameters");
        defaults && defaults->isList()) {
        // [{glob: {param: value}}]: later entries override earlier ones.
        for (const Value& entry : defaults->asList()) {
            if (!entry.isDict())
                continue;
            for (const auto& [glob, params] : entry.asDict()) {
                QRegularExpression re(QRegularExpression::wildcardToRegularExpression(
                    QString::fromStdString(glob.str()),
                    QRegularExpression::UnanchoredWildcardConversion));
                if (params.isDict() &&
                    re.match(QString::fromStdString(model.asString())).hasMatch())
                    for (const auto& [k, v] : params.asDict())
                        parameters.set(k, v);
            }
        }
    }
    if (b.parameters) {
        Value p = eval(b.parameters, st, node, "parameters");
        if (!p.isDict() && !p.isNull())
            throw PdlError("parameters must be an object", b.parameters.span);
        if (p.isDict())
            for (const auto& [k, v] : p.asDict())
                parameters.set(k, v);
    }
    if (node) {
        node->context = Value(contextToList(st.context));
        node->modelInput = Value(messages);
    }
    std::string reply;
    Value raw;
    models::Usage usage;
    if (const Value* mock = parameters.find("mock_response")) {
        reply = mock->toText();
        usage.estimated = true;
        usage.completionTokens = int64_t(reply.size() / 4 + 1);
        if (options.streamModelOutput)
            write(reply);
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
        request.parameters = parameters;
        request.stream = options.streamModelOutput || options.observer;
        auto onDelta = [&](std::string_view delta) {
            if (options.streamModelOutput)
                write(delta);
            if (options.observer) {
                std::lock_guard lock(observerMutex);
                options.observer->modelDelta(id, delta);
            }
        };
        Result<models::ChatResponse> r = options.models->chat(request, onDelta, options.cancel);
        checkCancelled();
        if (!r.ok())
            throw PdlError(r.error().message.toStdString(), b.model.span);
        reply = r->content;
        raw = r->raw;
        usage = r->usage;
    } else {
        throw PdlError("no model provider is configured to run '" + model.asString() +
                           "': set OLLAMA_API_BASE (Ollama) or OPENAI_BASE_URL and "
                           "OPENAI_API_KEY, or give the block `parameters: {mock_response: …}`",
                       b.model.span);
    }
    {
        std::lock_guard lock(observerMutex);
        ++modelCalls;
        promptTokens += usage.promptTokens;
        completionTokens += usage.completionTokens;
    }
    if (node) {
        Dict u;
        u.set("prompt_tokens", Value(usage.promptTokens));
        u.set("completion_tokens", Value(usage.completionTokens));
        if (usage.estimated)
            u.set("estimated", Value(true));
        node->usage = Value(std::move(u));
    }
    if (b.modelResponse)
        st.scope.set(*b.modelResponse, raw.isNull() ? Value(reply) : raw);
    st.context =
        contextAppend(st.context, b.role ? *b.role : std::string("assistant"), Value(reply), id);
    return Value(std::move(reply));
}

} // namespace hako::pdl
