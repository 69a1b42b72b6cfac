#include "core/eval/experiment.h"
#include "core/eval/evalstore.h"

#include <QDateTime>
#include <QJsonArray>
#include <QSet>

#include <atomic>
#include <cmath>
#include <map>
#include <mutex>
#include <system_error>
#include <thread>

namespace hako::eval {

const Score* ExampleResult::score(const QString& evaluator) const
{
    for (const Score& s : scores)
        if (s.evaluator == evaluator)
            return &s;
    return nullptr;
}

QJsonObject ExampleResult::toJson() const
{
    QJsonArray s;
    for (const Score& x : scores)
        s.append(x.toJson());
    QJsonObject o{{QStringLiteral("index"), index},
                  {QStringLiteral("example_id"), exampleId},
                  {QStringLiteral("run"), run.toJson()},
                  {QStringLiteral("scores"), s},
                  {QStringLiteral("finished_at"), double(finishedAt)}};
    if (!error.isEmpty())
        o.insert(QStringLiteral("error"), error);
    return o;
}

ExampleResult ExampleResult::fromJson(const QJsonObject& o)
{
    ExampleResult r;
    r.index = o.value(QStringLiteral("index")).toInt(-1);
    r.exampleId = o.value(QStringLiteral("example_id")).toString();
    r.run = TargetOutput::fromJson(o.value(QStringLiteral("run")).toObject());
    r.error = o.value(QStringLiteral("error")).toString();
    for (const QJsonValue& s : o.value(QStringLiteral("scores")).toArray())
        r.scores.append(Score::fromJson(s.toObject()));
    r.finishedAt = int64_t(o.value(QStringLiteral("finished_at")).toDouble());
    return r;
}

ExperimentRunner::ExperimentRunner(EvalStore* store, QObject* parent)
    : QObject(parent), m_store(store)
{}

Result<int> ExperimentRunner::checkConcurrency(int n)
{
    if (n >= 1 && n <= kMaxConcurrency)
        return n;
    return makeError(
        QStringLiteral("concurrency %1 is out of range: run 1 to %2 examples at a time")
            .arg(n)
            .arg(kMaxConcurrency));
}

ExampleResult ExperimentRunner::runOne(int index, const Example& example,
                                       const CancelToken& cancel) const
{
    ExampleResult r;
    r.index = index;
    // The id the store gives the example (made from its inputs when it has none), so that
    // results match their example across experiments and versions.
    Example identified = example;
    identified.ensureId();
    r.exampleId = identified.id;
    Result<TargetOutput> out = m_target
                                   ? m_target(example.inputs, cancel)
                                   : Result<TargetOutput>(makeError(QStringLiteral("no target")));
    if (out.ok())
        r.run = *out;
    else
        r.error = out.error().message.isEmpty() ? QStringLiteral("the target failed")
                                                : out.error().message;
    EvalCase c;
    c.output = r.run.output;
    c.inputs = example.inputs;
    c.reference = example.reference;
    c.run = r.run;
    const auto other = m_otherOutputs.constFind(example.id);
    if (other != m_otherOutputs.constEnd()) {
        c.otherOutput = *other;
        c.hasOtherOutput = true;
    }
    for (const auto& evaluator : m_evaluators) {
        if (!r.error.isEmpty()) {
            Score s;
            s.evaluator = evaluator->name();
            s.error = true;
            s.label = QStringLiteral("error");
            s.reasoning = QStringLiteral("the target failed: %1").arg(r.error);
            r.scores.append(s);
            continue;
        }
        r.scores.append(evaluator->evaluate(c, cancel));
    }
    r.finishedAt = QDateTime::currentMSecsSinceEpoch();
    return r;
}

Result<QList<ExampleResult>> ExperimentRunner::run(ExperimentInfo& info,
                                                   const QList<Example>& examples,
                                                   const CancelToken& cancel)
{
    m_ran = 0;
    info.total = int(examples.size());
    std::map<int, ExampleResult> done;
    if (m_store) {
        Result<bool> created = m_store->createExperiment(info);
        if (!created.ok())
            return created.error();
        if (!*created) {
            Result<QList<ExampleResult>> previous = m_store->results(info.id);
            if (!previous.ok())
                return previous.error();
            for (const ExampleResult& r : *previous)
                if (r.index >= 0 && r.index < examples.size())
                    done.emplace(r.index, r);
            m_store->setExperimentStatus(info.id, QStringLiteral("running"));
        }
    }
    QList<int> todo;
    for (int i = 0; i < examples.size(); ++i)
        if (!done.count(i))
            todo.append(i);

    std::mutex mutex;
    std::atomic<int> next{0};
    std::atomic<int> finished{int(done.size())};
    std::atomic<int> ran{0};
    std::optional<Diagnostic> storeError;
    const int total = int(examples.size());
    auto worker = [&] {
        for (;;) {
            if (cancel.isCancelled())
                return;
            const int k = next.fetch_add(1);
            if (k >= todo.size())
                return;
            const int index = todo[k];
            ExampleResult r = runOne(index, examples[index], cancel);
            // A result cut short by the cancel is not a result: the resumed run does it again.
            if (cancel.isCancelled())
                return;
            if (m_store) {
                Result<bool> saved = m_store->saveResult(info.id, r);
                if (!saved.ok()) {
                    std::lock_guard lock(mutex);
                    storeError = saved.error();
                    cancel.cancel();
                    return;
                }
            }
            {
                std::lock_guard lock(mutex);
                done.emplace(index, r);
            }
            ++ran;
            Q_EMIT resultReady(r);
            Q_EMIT progress(++finished, total);
        }
    };
    const int threads = std::min<int>(m_concurrency, int(todo.size()));
    std::vector<std::thread> pool;
    try {
        for (int t = 0; t < threads; ++t)
            pool.emplace_back(worker);
    } catch (const std::system_error&) {
        // The system gave fewer threads than asked: the ones made share the work; with none,
        // this thread does it.
    }
    if (pool.empty() && threads > 0)
        worker();
    for (std::thread& t : pool)
        t.join();
    m_ran = ran;
    if (storeError)
        return *storeError;
    const bool complete = int(done.size()) == total;
    info.status = complete ? QStringLiteral("finished") : QStringLiteral("cancelled");
    if (m_store)
        m_store->setExperimentStatus(info.id, info.status);
    QList<ExampleResult> out;
    for (auto& [index, r] : done)
        out.append(std::move(r));
    return out;
}

std::pair<double, double> wilsonInterval(int passed, int n, double z)
{
    if (n <= 0)
        return {0.0, 1.0};
    const double p = double(passed) / n;
    const double z2 = z * z;
    const double centre = (p + z2 / (2.0 * n)) / (1.0 + z2 / n);
    const double half = z * std::sqrt(p * (1 - p) / n + z2 / (4.0 * n * n)) / (1.0 + z2 / n);
    return {std::max(0.0, centre - half), std::min(1.0, centre + half)};
}

QList<EvaluatorAggregate> aggregate(const QList<ExampleResult>& results,
                                    const QStringList& evaluators)
{
    QList<EvaluatorAggregate> out;
    for (const QString& name : evaluators) {
        EvaluatorAggregate a;
        a.evaluator = name;
        double sum = 0, sumSq = 0;
        for (const ExampleResult& r : results) {
            const Score* s = r.score(name);
            if (!s)
                continue;
            ++a.count;
            a.passed += s->pass ? 1 : 0;
            a.errors += s->error ? 1 : 0;
            sum += s->score;
            sumSq += s->score * s->score;
        }
        if (a.count == 0)
            continue;
        a.mean = sum / a.count;
        const double variance =
            a.count > 1 ? std::max(0.0, (sumSq - a.count * a.mean * a.mean) / (a.count - 1)) : 0;
        const double half = 1.96 * std::sqrt(variance / a.count);
        a.meanLow = std::max(0.0, a.mean - half);
        a.meanHigh = std::min(1.0, a.mean + half);
        a.passRate = double(a.passed) / a.count;
        std::tie(a.passLow, a.passHigh) = wilsonInterval(a.passed, a.count);
        out.append(a);
    }
    return out;
}

Comparison compareExperiments(const QList<ExampleResult>& baseline,
                              const QList<ExampleResult>& current)
{
    Comparison c;
    QHash<QString, const ExampleResult*> before;
    for (const ExampleResult& r : baseline)
        before.insert(r.exampleId, &r);
    QHash<QString, std::pair<double, int>> sums;
    for (const ExampleResult& r : current) {
        const ExampleResult* b = before.value(r.exampleId);
        if (!b)
            continue;
        ++c.matched;
        for (const Score& s : r.scores) {
            const Score* old = b->score(s.evaluator);
            if (!old)
                continue;
            ScoreDelta d;
            d.exampleId = r.exampleId;
            d.index = r.index;
            d.evaluator = s.evaluator;
            d.before = old->score;
            d.after = s.score;
            d.passBefore = old->pass;
            d.passAfter = s.pass;
            c.deltas.append(d);
            if (d.isRegression())
                c.regressions.append(d);
            else if (d.isImprovement())
                c.improvements.append(d);
            auto& [sum, n] = sums[s.evaluator];
            sum += d.delta();
            ++n;
        }
    }
    for (auto it = sums.begin(); it != sums.end(); ++it)
        c.meanDelta.insert(it.key(), it->second ? it->first / it->second : 0.0);
    return c;
}

} // namespace hako::eval
