// Online evaluation: the file's own keys and their errors with a place, the filter, the sample
// that a call's id decides (the same calls every time, a predictable share), the verdicts kept
// as the calls' scores, and a queue that skips and counts rather than grows or blocks while a
// judge is slow.
#include "core/eval/onlineeval.h"
#include "core/pdl/model/modelprovider.h"
#include "core/promptlog/promptlog.h"

#include <QSemaphore>
#include <QTemporaryDir>
#include <QTest>

using namespace hako;
using namespace hako::eval;

namespace {

// A judge that answers Y only when the test lets it (each release() lets one call through).
class GatedJudge : public models::IModelProvider {
public:
    QSemaphore gate;
    std::atomic<int> asked{0};
    QString id() const override { return QStringLiteral("gated"); }
    Result<models::ChatResponse> chat(const models::ChatRequest&, const models::DeltaCallback&,
                                      const CancelToken& cancel) override
    {
        ++asked;
        while (!gate.tryAcquire(1, 20))
            if (cancel.isCancelled())
                return makeError(QStringLiteral("cancelled"));
        models::ChatResponse r;
        r.content = "The answer is short.\nY";
        return r;
    }
    Result<std::vector<std::vector<float>>>
    embed(const std::string&, const std::vector<std::string>&, const CancelToken&) override
    {
        return makeError(QStringLiteral("no embeddings"));
    }
    Result<QStringList> listModels(const CancelToken&) override { return QStringList(); }
};

promptlog::CallRecord call(const QString& uid, const QString& model, const QString& reply)
{
    promptlog::CallRecord c;
    c.uid = uid;
    c.model = model;
    c.promptName = QStringLiteral("answer");
    c.reply = reply;
    c.startedAt = 1700000000000;
    c.tags = {QStringLiteral("env:prod")};
    c.messages = QJsonArray{QJsonObject{{QStringLiteral("role"), QStringLiteral("user")},
                                        {QStringLiteral("content"), QStringLiteral("Hi?")}}};
    return c;
}

} // namespace

class TestOnlineEval : public QObject {
    Q_OBJECT

    QTemporaryDir m_dir;

    std::unique_ptr<promptlog::PromptLog> log(const QString& name)
    {
        QString error;
        auto l = promptlog::PromptLog::open(m_dir.filePath(name), &error);
        return error.isEmpty() ? std::move(l) : nullptr;
    }

private Q_SLOTS:
    void configReadsItsOwnKeys()
    {
        const auto c = OnlineEvalConfig::parse("sample: 0.25\n"
                                               "filter: {model: 'gpt-4o*', tag: env:prod}\n"
                                               "queue: 10\n"
                                               "evaluators:\n"
                                               "  - {name: short, type: length_chars, max: 5}\n",
                                               QStringLiteral("online.yaml"));
        QVERIFY2(c, c ? "" : qPrintable(c.error().message));
        QCOMPARE(c->sample, 0.25);
        QCOMPARE(c->model, QStringLiteral("gpt-4o*"));
        QCOMPARE(c->tag, QStringLiteral("env:prod"));
        QCOMPARE(c->queueLimit, 10);
        QCOMPARE(c->evaluators.size(), 1);
        QCOMPARE(c->evaluators[0].name, QStringLiteral("short"));
    }

    void configErrorsSayWhere_data()
    {
        QTest::addColumn<QByteArray>("yaml");
        QTest::addColumn<int>("line");
        QTest::addColumn<QString>("words");
        QTest::newRow("sample") << QByteArray("evaluators: [contains]\nsample: 2\n") << 2
                                << QStringLiteral("from 0 to 1");
        QTest::newRow("filter") << QByteArray("evaluators: [is_json]\nfilter: {colour: red}\n") << 2
                                << QStringLiteral("unknown filter `colour`");
        QTest::newRow("no evaluators")
            << QByteArray("sample: 0.5\n") << 1 << QStringLiteral("at least one evaluator");
        QTest::newRow("unknown key") << QByteArray("evaluators: [is_json]\nsampel: 1\n") << 2
                                     << QStringLiteral("unknown key `sampel`");
    }
    void configErrorsSayWhere()
    {
        QFETCH(QByteArray, yaml);
        QFETCH(int, line);
        QFETCH(QString, words);
        const auto c = OnlineEvalConfig::parse(yaml, QStringLiteral("online.yaml"));
        QVERIFY(!c);
        QVERIFY2(c.error().message.contains(words), qPrintable(c.error().message));
        QCOMPARE(c.error().span.file, QStringLiteral("online.yaml"));
        QCOMPARE(c.error().span.line, line);
    }

    void sampleIsDecidedByTheCallId()
    {
        // FNV-1a of "a" is 0xaf63dc4c8601ec8c, finalised 0x82a2a958a9bece5b: its top 53 bits
        // over 2^53.
        QCOMPARE(samplePoint(QStringLiteral("a")),
                 double(0x82a2a958a9bece5bull >> 11) / double(uint64_t(1) << 53));
        OnlineEvalConfig c;
        c.sample = 0.3;
        int in = 0;
        for (int i = 0; i < 2000; ++i) {
            const auto x = call(QStringLiteral("call-%1").arg(i), QStringLiteral("m"), {});
            const bool selected = c.selects(x);
            QCOMPARE(selected, samplePoint(x.uid) < 0.3);
            QCOMPARE(c.selects(x), selected); // the same call, the same answer
            in += selected;
        }
        QVERIFY2(in > 500 && in < 700, qPrintable(QString::number(in)));
        c.sample = 0;
        QVERIFY(!c.selects(call(QStringLiteral("a"), QStringLiteral("m"), {})));
        c.sample = 1;
        c.model = QStringLiteral("gpt-4o*");
        QVERIFY(c.selects(call(QStringLiteral("a"), QStringLiteral("gpt-4o-mini"), {})));
        QVERIFY(!c.selects(call(QStringLiteral("a"), QStringLiteral("granite"), {})));
        c.tag = QStringLiteral("env:dev");
        QVERIFY(!c.selects(call(QStringLiteral("a"), QStringLiteral("gpt-4o"), {})));
    }

    void verdictsBecomeTheCallsScores()
    {
        auto store = log(QStringLiteral("verdicts.sqlite"));
        QVERIFY(store);
        auto c =
            OnlineEvalConfig::parse("filter: {model: m}\nevaluators:\n"
                                    "  - {name: short, type: length_chars, max: 5}\n"
                                    "  - {name: polite, type: contains_any, values: [please]}\n");
        QVERIFY(c);
        auto online = OnlineEvaluator::create(*c, store.get());
        QVERIFY2(online, online ? "" : qPrintable(online.error().message));
        (*online)->offer(
            {call(QStringLiteral("c1"), QStringLiteral("m"), QStringLiteral("ok")),
             call(QStringLiteral("c2"), QStringLiteral("m"),
                  QStringLiteral("a long answer, please")),
             call(QStringLiteral("c3"), QStringLiteral("other"), QStringLiteral("x"))});
        QVERIFY((*online)->waitIdle(30000));
        QCOMPARE((*online)->counters().selected.load(), int64_t(2));
        QCOMPARE((*online)->counters().scores.load(), int64_t(4));
        promptlog::ScoreFilter of;
        of.callUids = {QStringLiteral("c1")};
        of.name = QStringLiteral("short");
        auto s = store->scores(of);
        QVERIFY(s);
        QCOMPARE(s->size(), 1);
        QCOMPARE(s->at(0).source, promptlog::ScoreSource::Online);
        QCOMPARE(s->at(0).passed, std::optional<bool>(true));
        of.callUids = {QStringLiteral("c2")};
        QCOMPARE(store->scores(of)->at(0).passed, std::optional<bool>(false));
        of.callUids = {QStringLiteral("c3")};
        of.name.clear();
        QCOMPARE(store->scores(of)->size(), 0);
    }

    void fullQueueSkipsAndCounts()
    {
        auto store = log(QStringLiteral("queue.sqlite"));
        QVERIFY(store);
        auto c = OnlineEvalConfig::parse("queue: 2\nevaluators:\n"
                                         "  - {type: criteria, criteria: conciseness}\n");
        QVERIFY2(c, c ? "" : qPrintable(c.error().message));
        auto judge = std::make_shared<GatedJudge>();
        EvaluatorContext context;
        context.models = judge;
        context.judgeModel = QStringLiteral("judge");
        auto online = OnlineEvaluator::create(*c, store.get(), context);
        QVERIFY2(online, online ? "" : qPrintable(online.error().message));
        OnlineEvaluator& e = **online;
        // The first call holds the worker at the judge; two more wait; the rest are skipped.
        e.offer({call(QStringLiteral("q0"), QStringLiteral("m"), QStringLiteral("r"))});
        QTRY_COMPARE(judge->asked.load(), 1);
        std::vector<promptlog::CallRecord> burst;
        for (int i = 1; i <= 10; ++i)
            burst.push_back(call(QStringLiteral("q%1").arg(i), QStringLiteral("m"), {}));
        e.offer(burst); // returns with the judge still held
        QCOMPARE(e.counters().skipped.load(), int64_t(8));
        judge->gate.release(3);
        QVERIFY(e.waitIdle(30000));
        QCOMPARE(e.counters().evaluated.load(), int64_t(3));
        QCOMPARE(store->scores()->size(), 3);
        QCOMPARE(store->scores()->at(0).passed, std::optional<bool>(true));
    }
};

QTEST_GUILESS_MAIN(TestOnlineEval)
#include "tst_onlineeval.moc"
