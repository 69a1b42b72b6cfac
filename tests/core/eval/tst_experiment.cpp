// Experiments: results written as they complete; an experiment cut short (its target cancels
// mid-way, as a killed process would stop) resumes from a reopened store (a SQLite file and a
// PostgreSQL server alike), runs only what is missing and ends with exactly one result per
// example; aggregates and comparisons.

#include "storeengines.h"

#include "core/eval/evalstore.h"
#include "core/eval/experiment.h"

#include <QSet>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <mutex>
#include <thread>

using namespace hako;
using namespace hako::eval;

namespace {

QList<Example> numbers(int n)
{
    QList<Example> out;
    for (int i = 0; i < n; ++i) {
        Example e;
        e.inputs = {{QStringLiteral("n"), i}};
        e.reference = QString::number(i * 2);
        e.ensureId();
        out.append(e);
    }
    return out;
}

std::vector<std::shared_ptr<const Evaluator>> exactMatch()
{
    EvaluatorSpec spec;
    spec.type = QStringLiteral("exact_match");
    return {*createEvaluator(spec)};
}

} // namespace

class TestExperiment : public QObject {
    Q_OBJECT

    StoreEngines m_engines;

private Q_SLOTS:
    void initTestCase() { QVERIFY2(m_engines.start(), qPrintable(m_engines.why())); }

    void killedExperimentResumesWithOneResultPerExample_data() { StoreEngines::addEngines(); }
    void killedExperimentResumesWithOneResultPerExample()
    {
        STORE_SPEC(m_engines, path);
        const QList<Example> examples = numbers(40);
        std::mutex mutex;
        QList<int> calls; // the n of every target call, both runs
        ExperimentInfo info;
        info.name = QStringLiteral("double");
        info.dataset = QStringLiteral("numbers");
        info.datasetVersion = 1;
        {
            auto store = EvalStore::open(path);
            QVERIFY(store.ok());
            ExperimentRunner runner(store->get());
            runner.setConcurrency(4);
            runner.setEvaluators(exactMatch());
            CancelToken cancel;
            std::atomic<int> started{0};
            runner.setTarget(
                [&](const QJsonObject& inputs, const CancelToken& token) -> Result<TargetOutput> {
                    const int n = inputs.value(QStringLiteral("n")).toInt();
                    {
                        std::lock_guard lock(mutex);
                        calls.append(n);
                    }
                    // The 15th call pulls the plug: it and every call in flight are cut short.
                    if (++started == 15) {
                        cancel.cancel();
                        return makeError(QStringLiteral("cancelled"));
                    }
                    if (token.isCancelled())
                        return makeError(QStringLiteral("cancelled"));
                    TargetOutput out;
                    out.output = QString::number(n * 2);
                    return out;
                });
            Result<QList<ExampleResult>> first = runner.run(info, examples, cancel);
            QVERIFY(first.ok());
            QVERIFY(first->size() < examples.size());
            QVERIFY(first->size() >= 10);
            QCOMPARE(info.status, QStringLiteral("cancelled"));
        }
        const QString id = info.id;
        QVERIFY(!id.isEmpty());
        int firstRunCompleted = 0;
        {
            auto store = EvalStore::open(path);
            QVERIFY(store.ok());
            Result<QList<ExampleResult>> saved = (*store)->results(id);
            QVERIFY(saved.ok());
            firstRunCompleted = int(saved->size());
            Result<ExperimentInfo> stored = (*store)->experiment(id);
            QVERIFY(stored.ok());
            QCOMPARE(stored->status, QStringLiteral("cancelled"));
            QCOMPARE(stored->total, 40);

            // Resume: a new runner over the reopened store, the same experiment id.
            QList<int> resumedCalls;
            ExperimentRunner runner(store->get());
            runner.setConcurrency(3);
            runner.setEvaluators(exactMatch());
            runner.setTarget(
                [&](const QJsonObject& inputs, const CancelToken&) -> Result<TargetOutput> {
                    const int n = inputs.value(QStringLiteral("n")).toInt();
                    {
                        std::lock_guard lock(mutex);
                        resumedCalls.append(n);
                    }
                    TargetOutput out;
                    out.output = QString::number(n * 2);
                    return out;
                });
            QSignalSpy progress(&runner, &ExperimentRunner::progress);
            ExperimentInfo again;
            again.id = id;
            Result<QList<ExampleResult>> second = runner.run(again, examples, CancelToken());
            QVERIFY(second.ok());
            QCOMPARE(again.status, QStringLiteral("finished"));
            QCOMPARE(second->size(), 40);
            QCOMPARE(runner.ranLastTime(), 40 - firstRunCompleted);
            QCOMPARE(resumedCalls.size(), 40 - firstRunCompleted);
            QCOMPARE(progress.size(), 40 - firstRunCompleted);
            QCOMPARE(progress.last().at(0).toInt(), 40);
            // Only the missing ones ran again.
            QSet<int> savedIndexes;
            for (const ExampleResult& r : *saved)
                savedIndexes.insert(r.index);
            for (int n : resumedCalls)
                QVERIFY(!savedIndexes.contains(n));
            for (int i = 0; i < 40; ++i) {
                QCOMPARE(second->at(i).index, i);
                QCOMPARE(second->at(i).exampleId, examples[i].id);
                QVERIFY2(second->at(i).scores.at(0).pass,
                         qPrintable(second->at(i).scores.at(0).reasoning));
            }
        }
        auto store = EvalStore::open(path);
        Result<QList<ExampleResult>> all = (*store)->results(id);
        QVERIFY(all.ok());
        QCOMPARE(all->size(), 40);
        QSet<int> indexes;
        for (const ExampleResult& r : *all)
            indexes.insert(r.index);
        QCOMPARE(indexes.size(), 40);
        QCOMPARE((*store)->experiment(id)->status, QStringLiteral("finished"));
    }

    // `--concurrency 600` aborted the process making threads: the runner takes at most
    // kMaxConcurrency examples at a time.
    void concurrencyIsCapped()
    {
        ExperimentRunner runner(nullptr);
        runner.setConcurrency(600);
        QCOMPARE(runner.concurrency(), ExperimentRunner::kMaxConcurrency);
        runner.setConcurrency(-5);
        QCOMPARE(runner.concurrency(), 1);
        QVERIFY(!ExperimentRunner::checkConcurrency(600).ok());
        QVERIFY2(ExperimentRunner::checkConcurrency(0).error().message.contains(
                     QLatin1String("1 to 64")),
                 qPrintable(ExperimentRunner::checkConcurrency(0).error().message));
        QCOMPARE(*ExperimentRunner::checkConcurrency(64), 64);

        runner.setConcurrency(600);
        runner.setEvaluators(exactMatch());
        std::mutex mutex;
        std::condition_variable crowded;
        int inFlight = 0;
        int most = 0;
        runner.setTarget(
            [&](const QJsonObject& inputs, const CancelToken&) -> Result<TargetOutput> {
                std::unique_lock lock(mutex);
                most = std::max(most, ++inFlight);
                // Each call waits (briefly) for more calls than the cap to be in flight at once.
                crowded.notify_all();
                crowded.wait_for(lock, std::chrono::milliseconds(30),
                                 [&] { return inFlight > ExperimentRunner::kMaxConcurrency; });
                --inFlight;
                TargetOutput out;
                out.output = QString::number(inputs.value(QStringLiteral("n")).toInt() * 2);
                return out;
            });
        ExperimentInfo info;
        Result<QList<ExampleResult>> r = runner.run(info, numbers(200), CancelToken());
        QVERIFY(r.ok());
        QCOMPARE(r->size(), 200);
        QVERIFY2(most <= ExperimentRunner::kMaxConcurrency, qPrintable(QString::number(most)));
        QVERIFY(most > 1);
    }

    void failedTargetFailsEveryEvaluator()
    {
        ExperimentRunner runner(nullptr);
        runner.setEvaluators(exactMatch());
        runner.setTarget([](const QJsonObject&, const CancelToken&) -> Result<TargetOutput> {
            return makeError(QStringLiteral("program failed: boom"));
        });
        ExperimentInfo info;
        Result<QList<ExampleResult>> r = runner.run(info, numbers(3), CancelToken());
        QVERIFY(r.ok());
        QCOMPARE(r->size(), 3);
        for (const ExampleResult& x : *r) {
            QCOMPARE(x.error, QStringLiteral("program failed: boom"));
            QVERIFY(x.scores.at(0).error);
            QVERIFY(!x.scores.at(0).pass);
        }
    }

    void aggregates()
    {
        QList<ExampleResult> results;
        for (int i = 0; i < 10; ++i) {
            ExampleResult r;
            r.index = i;
            r.exampleId = QString::number(i);
            Score s;
            s.evaluator = QStringLiteral("e");
            s.score = i < 8 ? 1 : 0;
            s.pass = i < 8;
            r.scores.append(s);
            results.append(r);
        }
        const QList<EvaluatorAggregate> a = aggregate(results, {QStringLiteral("e")});
        QCOMPARE(a.size(), 1);
        QCOMPARE(a[0].count, 10);
        QCOMPARE(a[0].passed, 8);
        QCOMPARE(a[0].passRate, 0.8);
        // Wilson 95% for 8/10: [0.4902, 0.9433].
        QVERIFY(qAbs(a[0].passLow - 0.4902) < 1e-3);
        QVERIFY(qAbs(a[0].passHigh - 0.9433) < 1e-3);
        QVERIFY(a[0].meanLow < 0.8 && a[0].meanHigh > 0.8);
        const auto [low, high] = wilsonInterval(0, 0);
        QCOMPARE(low, 0.0);
        QCOMPARE(high, 1.0);
    }

    void comparison()
    {
        auto result = [](const QString& id, double score) {
            ExampleResult r;
            r.exampleId = id;
            Score s;
            s.evaluator = QStringLiteral("e");
            s.score = score;
            s.pass = score >= 0.5;
            r.scores.append(s);
            return r;
        };
        const QList<ExampleResult> before{result("a", 1), result("b", 0), result("c", 0.7),
                                          result("gone", 1)};
        const QList<ExampleResult> after{result("a", 0), result("b", 1), result("c", 0.7),
                                         result("new", 1)};
        const Comparison c = compareExperiments(before, after);
        QCOMPARE(c.matched, 3);
        QCOMPARE(c.deltas.size(), 3);
        QCOMPARE(c.regressions.size(), 1);
        QCOMPARE(c.regressions[0].exampleId, QStringLiteral("a"));
        QCOMPARE(c.improvements.size(), 1);
        QCOMPARE(c.improvements[0].exampleId, QStringLiteral("b"));
        QCOMPARE(c.meanDelta.value(QStringLiteral("e")), 0.0);
    }
};

QTEST_GUILESS_MAIN(TestExperiment)
#include "tst_experiment.moc"
