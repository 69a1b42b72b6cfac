#include "core/workbench/programtarget.h"

#include "core/pdl/check/scopeanalysis.h"
#include "core/pdl/interp/interpreter.h"
#include "core/pdl/model/forwardingprovider.h"
#include "core/pdl/programcheck.h"
#include "core/pdl/trace/tracewriter.h"
#include "core/pdl/valuejson.h"
#include "core/util/outputfile.h"

#include <QCoreApplication>
#include <QDir>
#include <QElapsedTimer>
#include <QFile>
#include <QJsonDocument>
#include <QRegularExpression>
#include <QSet>
#include <QUuid>

#include <nlohmann/json.hpp>

#include <mutex>

namespace hako {

namespace {

// Sums one example's token counts and cost as its model calls come back.
class UsageMeter : public models::ForwardingModelProvider {
public:
    UsageMeter(std::shared_ptr<models::IModelProvider> inner, const promptlog::PriceTable* prices)
        : ForwardingModelProvider(std::move(inner)), m_prices(prices)
    {}
    Result<models::ChatResponse> chat(const models::ChatRequest& request,
                                      const models::DeltaCallback& onDelta,
                                      const CancelToken& cancel) override
    {
        Result<models::ChatResponse> r = inner()->chat(request, onDelta, cancel);
        if (r.ok()) {
            std::lock_guard lock(m_mutex);
            m_prompt += r->usage.promptTokens;
            m_completion += r->usage.completionTokens;
            const std::optional<double> c =
                m_prices->cost(QString::fromStdString(request.model), r->usage.promptTokens,
                               r->usage.completionTokens, std::nullopt);
            if (c)
                m_cost = m_cost.value_or(0) + *c;
            else
                m_unpriced = true;
        }
        return r;
    }
    void fill(eval::TargetOutput& out)
    {
        std::lock_guard lock(m_mutex);
        out.promptTokens = m_prompt;
        out.completionTokens = m_completion;
        // A run with one unpriced call has no known cost.
        out.cost = m_unpriced ? std::nullopt : m_cost;
        if (m_prompt == 0 && m_completion == 0 && !m_unpriced)
            out.cost = 0.0;
    }

private:
    const promptlog::PriceTable* m_prices;
    std::mutex m_mutex;
    int64_t m_prompt = 0, m_completion = 0;
    std::optional<double> m_cost;
    bool m_unpriced = false;
};

} // namespace

std::vector<Diagnostic> overwrittenInputs(const pdl::Program& program, const QByteArray& text,
                                          const QStringList& inputNames, QStringList* names)
{
    std::vector<Diagnostic> out;
    if (inputNames.isEmpty())
        return out;
    const pdl::ScopeAnalysis scopes = pdl::analyzeScopes(program, text);
    QSet<QString> reported;
    for (const pdl::VariableDefinition& d : scopes.definitions) {
        const QString name = QString::fromStdString(d.name);
        if ((d.kind != pdl::VariableKind::Def && d.kind != pdl::VariableKind::Defs) ||
            !inputNames.contains(name) || reported.contains(name))
            continue;
        reported.insert(name);
        Diagnostic error;
        error.severity = Severity::Error;
        error.span = d.span;
        error.message =
            QStringLiteral("`%1` is a column of the dataset, but the program sets `%1` itself "
                           "(%2 at line %3), so every example would run with the program's own "
                           "value instead of the dataset's. Make `%1` an input: remove it from "
                           "the program's %2 (its value can stay as a row of the dataset), or "
                           "rename the column.")
                .arg(name, d.kind == pdl::VariableKind::Defs ? QStringLiteral("defs")
                                                             : QStringLiteral("def"))
                .arg(d.span.line);
        out.push_back(error);
        if (names)
            names->append(name);
    }
    return out;
}

namespace {

int indentOf(const QString& line)
{
    int n = 0;
    while (n < line.size() && line[n] == QLatin1Char(' '))
        ++n;
    return n;
}

bool blank(const QString& line)
{
    const QString t = line.trimmed();
    return t.isEmpty() || t.startsWith(QLatin1Char('#'));
}

} // namespace

std::optional<pdl::QuickFix> makeInputFix(const QString& text, const QString& name, int line)
{
    const QStringList lines = text.split(QLatin1Char('\n'));
    const int at = line - 1;
    if (at < 0 || at >= lines.size())
        return std::nullopt;
    static const QRegularExpression key(QStringLiteral("^\\s*([^\\s:#][^:#]*?)\\s*:(\\s|$)"));
    const QRegularExpressionMatch m = key.match(lines[at]);
    if (!m.hasMatch() || m.captured(1).remove(QLatin1Char('"')).remove(QLatin1Char('\'')) != name)
        return std::nullopt;
    const int indent = indentOf(lines[at]);
    // The mapping the entry belongs to: the nearest line above indented less.
    int parent = at - 1;
    while (parent >= 0 && (blank(lines[parent]) || indentOf(lines[parent]) >= indent))
        --parent;
    static const QRegularExpression defs(QStringLiteral("^\\s*(-\\s+)?defs\\s*:\\s*(#.*)?$"));
    if (parent < 0 || !defs.match(lines[parent]).hasMatch())
        return std::nullopt;
    // The entry: its line and every following line indented deeper.
    int end = at + 1;
    for (int i = at + 1; i < lines.size(); ++i) {
        if (blank(lines[i]))
            continue;
        if (indentOf(lines[i]) <= indent)
            break;
        end = i + 1;
    }
    int from = at;
    // The only entry: `defs:` goes too. (The mapping's entries share one indentation; it ends
    // at the first line indented less.)
    bool others = false;
    for (int i = parent + 1; i < lines.size() && !others; ++i) {
        if ((i >= at && i < end) || blank(lines[i]))
            continue;
        if (indentOf(lines[i]) < indent)
            break;
        others = indentOf(lines[i]) == indent;
    }
    QString replacement;
    if (!others) {
        if (lines[parent].trimmed().startsWith(QLatin1Char('-')))
            return std::nullopt; // `- defs:` opening a list item: removing it would move the item
        from = parent;
    }
    qsizetype offset = 0;
    for (int i = 0; i < from; ++i)
        offset += lines[i].size() + 1;
    qsizetype length = 0;
    for (int i = from; i < end; ++i)
        length += lines[i].size() + (i + 1 < lines.size() ? 1 : 0);
    pdl::QuickFix fix;
    fix.kind = pdl::QuickFix::Kind::DefineInput;
    fix.title = QCoreApplication::translate("hako::ProgramTarget", "Make `%1` an input").arg(name);
    fix.edits << pdl::QuickFixEdit{offset, length, replacement};
    return fix;
}

Result<eval::TargetFunction> ProgramTarget::make() const
{
    pdl::ParseResult parsed = pdl::checkProgram(programPath);
    if (!parsed.ok() || !parsed.program) {
        return pdl::parseFailure(parsed, QStringLiteral("%1: cannot be parsed").arg(programPath));
    }
    if (!inputNames.isEmpty()) {
        QFile file(programPath);
        const QByteArray text = file.open(QIODevice::ReadOnly) ? file.readAll() : QByteArray();
        const std::vector<Diagnostic> overwritten =
            overwrittenInputs(*parsed.program, text, inputNames);
        if (!overwritten.empty()) {
            QStringList lines;
            for (const Diagnostic& d : overwritten)
                lines << d.toString();
            return makeError(lines.join(QLatin1Char('\n')), overwritten.front().span);
        }
    }
    if (!environment.modelProvider)
        return makeError(QStringLiteral("a program target needs a model provider"));
    if (!traceFolder.isEmpty()) {
        // Traces hold the prompts and replies: the folder is private like the store beside it.
        QString error;
        if (!makeOutputFolder(traceFolder, &error))
            return makeError(QStringLiteral("cannot keep traces: %1").arg(error));
    }
    auto copy = std::make_shared<ProgramTarget>(*this);
    // Once for every example: compose() would hash the program's file for each run.
    if (copy->environment.runLog.programPath.isEmpty())
        copy->environment.runLog.programPath = programPath;
    if (copy->environment.runLog.programHash.isEmpty())
        copy->environment.runLog.programHash = programContentHash(programPath);
    std::shared_ptr<const ProgramTarget> self = copy;
    std::shared_ptr<const pdl::Program> program = parsed.program;
    return eval::TargetFunction([self,
                                 program](const QJsonObject& inputs,
                                          const CancelToken& cancel) -> Result<eval::TargetOutput> {
        QElapsedTimer timer;
        timer.start();
        pdl::RunOptions options;
        options.initialScope = pdl::fromQJsonObject(inputs);
        options.cancel = cancel;
        options.trace = !self->traceFolder.isEmpty();
        options.writeStdout = [](std::string_view) {
        };
        options.writeStderr = [](std::string_view) {
        };
        options.readInput = [](const std::string&, bool) {
            return std::optional<std::string>();
        };
        RunEnvironment environment = self->environment;
        auto meter = std::make_shared<UsageMeter>(environment.modelProvider, &self->prices);
        environment.modelProvider = meter;
        environment.runLog.inputs = inputs;
        environment.runLog.runId.clear();
        if (std::optional<Diagnostic> error = environment.compose(options))
            return *error;
        pdl::Interpreter interpreter(options);
        pdl::RunResult result = interpreter.run(program);
        eval::TargetOutput out;
        out.latencyMs = double(timer.nsecsElapsed()) / 1e6;
        meter->fill(out);
        if (result.trace && !self->traceFolder.isEmpty()) {
            const QString path = QDir(self->traceFolder)
                                     .filePath(QUuid::createUuid().toString(QUuid::WithoutBraces) +
                                               QStringLiteral(".json"));
            QString error;
            if (pdl::writeTraceFile(*result.trace, path, &error))
                out.tracePath = path;
        }
        if (!result.ok)
            return result.error;
        if (!self->outputVariable.isEmpty()) {
            const pdl::Value* v = result.scope.find(self->outputVariable.toStdString());
            if (!v)
                return makeError(QStringLiteral("the program defined no variable `%1`")
                                     .arg(self->outputVariable));
            out.output = QString::fromStdString(v->isString() ? v->asString() : v->toText());
        } else {
            out.output = QString::fromStdString(result.result.toText());
        }
        return out;
    });
}

} // namespace hako
