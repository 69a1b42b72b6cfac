// `pdl` evaluators: a PDL program is the judge, so that a judge prompt is a program a prompt
// author edits and runs like any other. The program sees `output`, `inputs`, `reference` and
// `trace` (the trace file's path, "" when none) and gives, as its result, one of:
//   {score: 0..1 or true/false, reason: "…", label: "…"}   (also as JSON text)
//   a number in 0..1, a boolean, or text whose last line is Y or N.
#include "core/eval/evaluators_p.h"
#include "core/eval/judge.h"
#include "core/pdl/valuejson.h"

#include "core/pdl/interp/interpreter.h"
#include "core/pdl/programcheck.h"

#include <QJsonDocument>

#include <algorithm>

namespace hako::eval {

namespace {

class PdlEvaluator : public Evaluator {
public:
    PdlEvaluator(EvaluatorSpec spec, std::shared_ptr<const pdl::Program> program,
                 std::shared_ptr<models::IModelProvider> models, bool sandbox)
        : Evaluator(std::move(spec)), m_program(std::move(program)), m_models(std::move(models)),
          m_sandbox(sandbox)
    {}

protected:
    Score judge(const EvalCase& c, const CancelToken& cancel) const override
    {
        pdl::RunOptions options;
        options.models = m_models;
        options.cancel = cancel;
        options.sandbox = m_sandbox;
        options.writeStdout = [](std::string_view) {
        };
        options.writeStderr = [](std::string_view) {
        };
        options.readInput = [](const std::string&, bool) {
            return std::optional<std::string>();
        };
        options.initialScope.set("output", pdl::Value(c.output.toStdString()));
        options.initialScope.set("inputs", pdl::fromQJsonValue(c.inputs));
        options.initialScope.set("reference", pdl::fromQJsonValue(c.reference));
        options.initialScope.set("trace", pdl::Value(c.run.tracePath.toStdString()));
        pdl::Interpreter interpreter(options);
        const pdl::RunResult r = interpreter.run(m_program);
        if (!r.ok)
            return fail(QStringLiteral("the judge program failed: %1").arg(r.error.message));
        return read(r.result);
    }

private:
    static Score fail(const QString& why)
    {
        Score s;
        s.error = true;
        s.label = QStringLiteral("error");
        s.reasoning = why;
        return s;
    }

    static Score read(const pdl::Value& v)
    {
        Score s;
        if (v.isBool()) {
            s.score = v.asBool() ? 1 : 0;
            s.reasoning =
                QStringLiteral("the judge program gave %1").arg(v.asBool() ? "true" : "false");
            return s;
        }
        if (v.isNumber()) {
            // Out of 0–1 (or NaN) it is an error, never clamped into a pass (checkedScore()).
            s.score = v.toDouble();
            s.reasoning = QStringLiteral("the judge program gave %1").arg(v.toDouble());
            return s;
        }
        if (v.isDict()) {
            const pdl::Value* score = v.asDict().find("score");
            if (!score || !(score->isNumber() || score->isBool()))
                return fail(QStringLiteral("the judge program's result has no numeric `score`: %1")
                                .arg(QString::fromStdString(v.json())));
            s.score = score->isBool() ? (score->asBool() ? 1 : 0) : score->toDouble();
            for (const char* key : {"reason", "reasoning"})
                if (const pdl::Value* reason = v.asDict().find(key))
                    s.reasoning = QString::fromStdString(reason->toText());
            if (const pdl::Value* label = v.asDict().find("label"))
                s.label = QString::fromStdString(label->toText());
            return s;
        }
        const QString text = QString::fromStdString(v.toText()).trimmed();
        QJsonParseError error;
        const QJsonDocument doc = QJsonDocument::fromJson(text.toUtf8(), &error);
        if (error.error == QJsonParseError::NoError && doc.isObject())
            return read(pdl::fromQJsonValue(doc.object()));
        bool isNumber = false;
        const double d = text.toDouble(&isNumber);
        if (isNumber)
            return read(pdl::Value(d));
        if (const std::optional<bool> yes = judge::parseYesNo(text)) {
            s.score = *yes ? 1 : 0;
            s.label = *yes ? QStringLiteral("Y") : QStringLiteral("N");
            s.reasoning = text;
            return s;
        }
        return fail(QStringLiteral("the judge program gave no score (a number, a boolean, "
                                   "{score, reason} or Y/N on the last line); it gave:\n%1")
                        .arg(text));
    }

    std::shared_ptr<const pdl::Program> m_program;
    std::shared_ptr<models::IModelProvider> m_models;
    bool m_sandbox = false;
};

} // namespace

Result<std::shared_ptr<const Evaluator>> createPdlEvaluator(const EvaluatorSpec& spec,
                                                            const EvaluatorContext& context)
{
    const QString path = spec.options.value(QStringLiteral("program")).toString();
    if (path.isEmpty())
        return makeError(
            QStringLiteral("evaluator %1 (pdl): needs `program:` (a PDL file)").arg(spec.name));
    pdl::ParseResult parsed = pdl::checkProgram(path);
    if (!parsed.ok() || !parsed.program) {
        QStringList errors;
        for (const Diagnostic& d : parsed.diagnostics)
            if (d.severity == Severity::Error)
                errors << d.toString();
        return makeError(QStringLiteral("evaluator %1 (pdl): %2")
                             .arg(spec.name, errors.isEmpty()
                                                 ? path + QStringLiteral(": cannot be read")
                                                 : errors.join(QLatin1Char('\n'))));
    }
    return std::shared_ptr<const Evaluator>(
        std::make_shared<PdlEvaluator>(spec, parsed.program, context.models, context.sandbox));
}

} // namespace hako::eval
