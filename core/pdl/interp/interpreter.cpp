#include "core/pdl/interp/interpreter.h"
#include "core/pdl/parser/referencelines.h"
#include "core/util/boundedfile.h"

#include "core/pdl/interp/runner_p.h"
#include "core/pdl/model/defaultparameters.h"
#include "core/pdl/parser/yamlvalue.h"
#include "core/pdl/programcheck.h"
#include "core/pdl/stdlib/stdlibmodule.h"

#include <QFile>
#include <QFileInfo>

namespace hako::pdl {

namespace {

// Whether anything in the program can observe the background context.
bool readsContext(const YamlValue& v, int depth = 0)
{
    if (depth > 500)
        return true;
    switch (v.kind()) {
    case YamlValue::Kind::Scalar:
        if (v.isString()) {
            const std::string& s = v.scalar().asString();
            return s.find("pdl_context") != std::string::npos ||
                   s.find("pdl_scope") != std::string::npos;
        }
        return false;
    case YamlValue::Kind::Sequence:
        for (const YamlValue& x : v.items())
            if (readsContext(x, depth + 1))
                return true;
        return false;
    case YamlValue::Kind::Mapping:
        for (const YamlValue::Entry& e : v.entries()) {
            if (e.name == "model" || e.name == "code" || e.name == "include" ||
                e.name == "import" || e.name == "args" || e.name == "lang")
                return true;
            if (e.name == "kind" && e.value.isString()) {
                const std::string& k = e.value.scalar().asString();
                if (k == "model" || k == "code" || k == "include" || k == "import")
                    return true;
            }
            if (readsContext(e.key, depth + 1) || readsContext(e.value, depth + 1))
                return true;
        }
        return false;
    }
    return true;
}

// Finds the innermost node that failed, for the partial trace.
const TraceNode* failedNode(const TraceNode* n)
{
    if (!n)
        return nullptr;
    for (const auto& c : n->children)
        for (const auto& x : c.nodes)
            if (const TraceNode* f = failedNode(x.get()))
                return f;
    for (const auto& d : n->defs)
        if (const TraceNode* f = failedNode(d.second.get()))
            return f;
    return n->error.empty() ? nullptr : n;
}

} // namespace

Interpreter::Interpreter(RunOptions options) : m_options(std::move(options)) {}
Interpreter::~Interpreter() = default;

RunResult Interpreter::run(const std::shared_ptr<const Program>& program)
{
    RunResult out;
    Runner runner(m_options);
    auto info = std::make_unique<ProgramInfo>();
    info->program = program;
    info->dir = QFileInfo(program->file).absolutePath();
    // The text that was parsed (an editor's unsaved text), else the file.
    if (!program->source.isEmpty())
        info->lines = QString::fromUtf8(program->source).split(QLatin1Char('\n'));
    else if (Result<QByteArray> text = readBoundedFile(program->file))
        info->lines = QString::fromUtf8(*text).split(QLatin1Char('\n'));
    const ProgramInfo* raw = info.get();
    runner.programs.emplace(QFileInfo(program->file).absoluteFilePath(), std::move(info));

    runner.keepContext = m_options.keepContext || m_options.streamContext ||
                         (m_options.debugger && m_options.debugger->wantsContext()) ||
                         !program->document || readsContext(*program->document);
    runner.announceProgram(program);
    State st;
    st.program = raw;
    st.streamResult = m_options.streamResult;
    // The built-in variables, in the reference's order (pdl_scope lists them so).
    st.scope.set("pdl_context", Value());
    // The reference's defaults (empty_scope, pdl_interpreter.py): one particle, and the
    // models that judge `expectations`; a program or `-d` rebinds them.
    st.scope.set("pdl_particle_id", Value(0));
    st.scope.set("pdl_llm_as_judge", Value("watsonx/openai/gpt-oss-120b"));
    st.scope.set("pdl_llm_context_transformer", Value("watsonx/openai/gpt-oss-120b"));
    st.scope.set("pdl_model_default_parameters", models::pdlDefaultParameters());
    st.scope.set("stdlib", models::StdlibModule::value());
    st.scope.set("pdl_usage", runner.usageValue());
    for (const auto& [k, v] : m_options.initialScope)
        st.scope.set(k.isString() ? k.asString() : k.str(), v);
    // A starting context given as `pdl_context` (a host's variables, a notebook's earlier
    // cells): the reference's blocks read the background context from that variable.
    if (const Value* given = m_options.initialScope.find("pdl_context"); given && given->isList())
        st.context = contextFromList(given->asList());

    TracePtr root;
    try {
        out.result = runner.exec(program->root, st, "", runner.tracing ? &root : nullptr);
        out.ok = true;
    } catch (const PdlError& e) {
        out.error = makeError(QString::fromStdString(e.what()), e.span);
    } catch (const Cancelled&) {
        out.error = makeError(QStringLiteral("the run was cancelled"));
    } catch (const std::exception& e) {
        out.error =
            makeError(QStringLiteral("internal error: %1").arg(QString::fromUtf8(e.what())));
    }
    // File aggregators write what they collected, after a failed run too (as the reference's
    // files hold what was written before the error).
    try {
        runner.finishAggregators();
    } catch (const PdlError& e) {
        if (out.ok) {
            out.ok = false;
            out.result = Value();
            out.error = makeError(QString::fromStdString(e.what()), e.span);
        }
    }
    if (!out.ok && !out.error.span.isValid()) {
        if (const TraceNode* failed = failedNode(root.get()))
            out.error.span = failed->errorSpan->isValid() ? failed->errorSpan.get() : failed->span;
    }
    if (!out.ok && out.error.span.isValid()) {
        auto it = runner.programs.find(QFileInfo(out.error.span.file).absoluteFilePath());
        if (it != runner.programs.end() && it->second->program)
            out.referenceLine = referenceErrorLine(
                *it->second->program, it->second->lines.join(QLatin1Char('\n')).toUtf8(),
                out.error.span);
    }
    if (m_options.trace)
        out.trace = root;
    out.scope = st.scope.vars();
    out.scope.set("pdl_usage", runner.usageValue());
    out.context = contextToList(st.context);
    out.replayDivergedAt = runner.replayDivergedAt;
    out.replayDivergedSpan = runner.replayDivergedSpan;
    out.scope.set("pdl_context", Value(out.context));
    return out;
}

RunResult Interpreter::runFile(const QString& path)
{
    ParseResult parsed = checkProgram(path);
    if (!parsed.ok() || !parsed.program) {
        RunResult out;
        out.error = parseFailure(parsed);
        return out;
    }
    return run(parsed.program);
}

std::unordered_map<std::string, Value> replayTable(const TraceNode& root)
{
    std::unordered_map<std::string, Value> table;
    std::vector<const TraceNode*> stack{&root};
    while (!stack.empty()) {
        const TraceNode* n = stack.back();
        stack.pop_back();
        if (n->hasResult && n->isLeaf && n->error.empty())
            table.emplace(n->id, n->result);
        for (const auto& c : n->children)
            for (const auto& x : c.nodes)
                if (x)
                    stack.push_back(x.get());
        for (const auto& d : n->defs)
            if (d.second)
                stack.push_back(d.second.get());
    }
    return table;
}

} // namespace hako::pdl
