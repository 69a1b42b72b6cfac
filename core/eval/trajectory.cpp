// Trajectory evaluators: what a run did, read from its trace. Options (any subset; the score is
// the share of the checks that hold, pass when all do):
//   steps: [names]      these steps ran in this order (others may come between; `exact: true`
//                       allows none); a name matches a step's name, its kind, or `kind:name`
//   must_run: [names]   blocks (def, description or pdl__id) that must have run
//   must_not_run: [..]  blocks that must not have run
//   max_steps: N        model, code and call steps at most
//   max_model_calls: N, max_tokens: N
#include "core/eval/trajectory.h"
#include "core/eval/evaluators_p.h"

#include "core/pdl/interp/tracenode.h"
#include "core/pdl/trace/tracereader.h"

#include <QJsonArray>

namespace hako::eval {

namespace {

void walk(const pdl::TraceNode& n, Trajectory& t)
{
    for (const QString& name :
         {QString::fromStdString(n.def), QString::fromStdString(n.description),
          QString::fromStdString(n.id)})
        if (!name.isEmpty() && !t.blocks.contains(name))
            t.blocks << name;
    const bool step = n.kind == pdl::BlockKind::Model || n.kind == pdl::BlockKind::Code ||
                      n.kind == pdl::BlockKind::Call;
    if (step) {
        TrajectoryStep s;
        s.kind = QString::fromLatin1(pdl::blockKindName(n.kind));
        s.id = QString::fromStdString(n.id);
        s.name = !n.def.empty()           ? QString::fromStdString(n.def)
                 : !n.description.empty() ? QString::fromStdString(n.description)
                                          : QString();
        if (n.kind == pdl::BlockKind::Model) {
            ++t.modelCalls;
            if (n.usage.isDict()) {
                if (const pdl::Value* p = n.usage.asDict().find("prompt_tokens");
                    p && p->isNumber())
                    s.promptTokens = int64_t(p->toDouble());
                if (const pdl::Value* c = n.usage.asDict().find("completion_tokens");
                    c && c->isNumber())
                    s.completionTokens = int64_t(c->toDouble());
            }
            t.tokens += s.promptTokens + s.completionTokens;
            if (s.name.isEmpty())
                for (const auto& [field, value] : n.exprs)
                    if (field == "model" && value.isString())
                        s.name = QString::fromStdString(value.asString());
        }
        if (s.name.isEmpty())
            s.name = s.id;
        t.steps.append(s);
    }
    for (const auto& [name, def] : n.defs)
        if (def)
            walk(*def, t);
    for (const auto& group : n.children)
        for (const auto& child : group.nodes)
            if (child)
                walk(*child, t);
}

bool matches(const QString& pattern, const TrajectoryStep& s)
{
    return pattern == s.name || pattern == s.kind ||
           pattern == s.kind + QLatin1Char(':') + s.name || pattern == s.id;
}

QStringList strings(const QJsonValue& v)
{
    QStringList out;
    for (const QJsonValue& x : v.toArray())
        out << x.toString();
    return out;
}

class TrajectoryEvaluator : public Evaluator {
public:
    using Evaluator::Evaluator;

protected:
    Score judge(const EvalCase& c, const CancelToken&) const override
    {
        Score s;
        if (c.run.tracePath.isEmpty()) {
            s.error = true;
            s.label = QStringLiteral("error");
            s.reasoning = QStringLiteral("no trace was kept for this run");
            return s;
        }
        Result<Trajectory> t = Trajectory::load(c.run.tracePath);
        if (!t.ok()) {
            s.error = true;
            s.label = QStringLiteral("error");
            s.reasoning = QStringLiteral("cannot read the trace: %1").arg(t.error().message);
            return s;
        }
        const QJsonObject& o = spec().options;
        int checks = 0, held = 0;
        QStringList notes;
        auto check = [&](bool ok, const QString& note) {
            ++checks;
            held += ok ? 1 : 0;
            notes << (ok ? QStringLiteral("ok: ") : QStringLiteral("FAILED: ")) + note;
        };
        QStringList ran;
        for (const TrajectoryStep& step : t->steps)
            ran << step.kind + QLatin1Char(':') + step.name;
        if (o.contains(QStringLiteral("steps"))) {
            const QStringList expected = strings(o.value(QStringLiteral("steps")));
            const bool exact = o.value(QStringLiteral("exact")).toBool(false);
            bool ok;
            if (exact) {
                ok = expected.size() == t->steps.size();
                for (int i = 0; ok && i < expected.size(); ++i)
                    ok = matches(expected[i], t->steps[i]);
            } else {
                int k = 0;
                for (const TrajectoryStep& step : t->steps)
                    if (k < expected.size() && matches(expected[k], step))
                        ++k;
                ok = k == expected.size();
            }
            check(ok, QStringLiteral("steps %1 %2 (ran: %3)")
                          .arg(expected.join(QStringLiteral(" → ")),
                               exact ? QStringLiteral("exactly") : QStringLiteral("in order"),
                               ran.join(QStringLiteral(" → "))));
        }
        for (const QString& b : strings(o.value(QStringLiteral("must_run"))))
            check(t->blocks.contains(b), QStringLiteral("%1 ran").arg(b));
        for (const QString& b : strings(o.value(QStringLiteral("must_not_run"))))
            check(!t->blocks.contains(b), QStringLiteral("%1 did not run").arg(b));
        if (o.contains(QStringLiteral("max_steps"))) {
            const int max = o.value(QStringLiteral("max_steps")).toInt();
            check(t->steps.size() <= max,
                  QStringLiteral("%1 steps (at most %2)").arg(t->steps.size()).arg(max));
        }
        if (o.contains(QStringLiteral("max_model_calls"))) {
            const int max = o.value(QStringLiteral("max_model_calls")).toInt();
            check(t->modelCalls <= max,
                  QStringLiteral("%1 model calls (at most %2)").arg(t->modelCalls).arg(max));
        }
        if (o.contains(QStringLiteral("max_tokens"))) {
            const double max = o.value(QStringLiteral("max_tokens")).toDouble();
            check(double(t->tokens) <= max,
                  QStringLiteral("%1 tokens (at most %2)").arg(t->tokens).arg(max));
        }
        s.score = checks ? double(held) / checks : 1.0;
        s.reasoning = notes.join(QLatin1Char('\n'));
        return s;
    }
};

} // namespace

Trajectory Trajectory::fromTrace(const pdl::TraceNode& root)
{
    Trajectory t;
    walk(root, t);
    return t;
}

Result<Trajectory> Trajectory::load(const QString& tracePath)
{
    Result<pdl::TracePtr> trace = pdl::loadTraceFile(tracePath);
    if (!trace.ok())
        return trace.error();
    if (!*trace)
        return makeError(QStringLiteral("%1: an empty trace").arg(tracePath));
    return fromTrace(**trace);
}

Result<std::shared_ptr<const Evaluator>> createTrajectoryEvaluator(const EvaluatorSpec& spec)
{
    static const QStringList known{QStringLiteral("steps"),     QStringLiteral("exact"),
                                   QStringLiteral("must_run"),  QStringLiteral("must_not_run"),
                                   QStringLiteral("max_steps"), QStringLiteral("max_model_calls"),
                                   QStringLiteral("max_tokens")};
    bool any = false;
    for (auto it = spec.options.begin(); it != spec.options.end(); ++it) {
        if (!known.contains(it.key()))
            return makeError(QStringLiteral("evaluator %1 (trajectory): unknown option `%2` "
                                            "(known: %3)")
                                 .arg(spec.name, it.key(), known.join(QStringLiteral(", "))));
        any = any || it.key() != QLatin1String("exact");
    }
    if (!any)
        return makeError(QStringLiteral("evaluator %1 (trajectory): needs steps, must_run, "
                                        "must_not_run, max_steps, max_model_calls or max_tokens")
                             .arg(spec.name));
    return std::shared_ptr<const Evaluator>(std::make_shared<TrajectoryEvaluator>(spec));
}

} // namespace hako::eval
