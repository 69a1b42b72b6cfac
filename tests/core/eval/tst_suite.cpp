// Suite files: every key read, evaluator options and requirements, paths resolved against the
// suite's folder, errors with their line and column; model overrides.

#include "core/eval/modeloverrides.h"
#include "core/eval/suite.h"

#include <QDir>
#include <QFile>
#include <QJsonArray>
#include <QTemporaryDir>
#include <QTest>

using namespace hako;
using namespace hako::eval;

namespace {

// Records the model each chat call asked for.
class Recorder : public models::IModelProvider {
public:
    QString id() const override { return QStringLiteral("recorder"); }
    Result<models::ChatResponse> chat(const models::ChatRequest& request,
                                      const models::DeltaCallback&, const CancelToken&) override
    {
        asked << QString::fromStdString(request.model);
        models::ChatResponse r;
        r.content = "ok";
        return r;
    }
    Result<std::vector<std::vector<float>>>
    embed(const std::string&, const std::vector<std::string>&, const CancelToken&) override
    {
        return std::vector<std::vector<float>>{};
    }
    Result<QStringList> listModels(const CancelToken&) override { return QStringList(); }
    QStringList asked;
};

} // namespace

class TestSuite : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void everyKey()
    {
        const QByteArray yaml = "name: 要約\n"
                                "description: summaries in Japanese\n"
                                "dataset: data/cases.jsonl\n"
                                "target: ../programs/summary.pdl\n"
                                "output: summary\n"
                                "concurrency: 8\n"
                                "judge_model: openai/gpt-4o-mini\n"
                                "embedding_model: openai/text-embedding-3-small\n"
                                "language: ja\n"
                                "models: {openai/gpt-4o: ollama/granite3.2:8b}\n"
                                "fail_under: 0.75\n"
                                "max_drop: 0.05\n"
                                "evaluators:\n"
                                "  - exact_match\n"
                                "  - name: length\n"
                                "    type: length_chars\n"
                                "    min: 50\n"
                                "    max: 200\n"
                                "    threshold: 1\n"
                                "    min_pass_rate: 0.9\n"
                                "  - {type: criteria, criteria: conciseness, min_score: 0.8}\n"
                                "  - {type: pdl, program: judges/tone.pdl}\n";
        QTemporaryDir dir;
        QVERIFY(QDir(dir.path()).mkpath(QStringLiteral("suites/judges")));
        {
            QFile judge(dir.filePath(QStringLiteral("suites/judges/tone.pdl")));
            QVERIFY(judge.open(QIODevice::WriteOnly));
            judge.write("text: Y\n");
        }
        const QDir root(dir.path());
        const QString path = root.filePath(QStringLiteral("suites/summary.yaml"));
        Result<Suite> s = Suite::parse(yaml, path);
        QVERIFY2(s.ok(), s.ok() ? "" : qPrintable(s.error().toString()));
        QCOMPARE(s->name, QStringLiteral("要約"));
        QCOMPARE(s->concurrency, 8);
        QCOMPARE(s->language, QStringLiteral("ja"));
        QCOMPARE(s->outputVariable, QStringLiteral("summary"));
        QCOMPARE(s->failUnder, std::optional<double>(0.75));
        QCOMPARE(s->maxDrop, 0.05);
        QCOMPARE(s->modelOverrides.value(QStringLiteral("openai/gpt-4o")),
                 QStringLiteral("ollama/granite3.2:8b"));
        QCOMPARE(s->evaluators.size(), 4);
        QCOMPARE(s->evaluators[0].name, QStringLiteral("exact_match"));
        QCOMPARE(s->evaluators[1].name, QStringLiteral("length"));
        QCOMPARE(s->evaluators[1].options.value(QStringLiteral("max")).toInt(), 200);
        QCOMPARE(s->evaluators[1].minPassRate, std::optional<double>(0.9));
        QCOMPARE(s->evaluators[2].minScore, std::optional<double>(0.8));
        QCOMPARE(s->evaluators[3].options.value(QStringLiteral("program")).toString(),
                 root.filePath(QStringLiteral("suites/judges/tone.pdl")));
        QCOMPARE(s->resolve(s->dataset), root.filePath(QStringLiteral("suites/data/cases.jsonl")));
        QCOMPARE(QDir::cleanPath(s->resolve(s->target)),
                 root.filePath(QStringLiteral("programs/summary.pdl")));
        QCOMPARE(s->toJson().value(QStringLiteral("evaluators")).toArray().size(), 4);
    }

    void errorsCarryTheirLine_data()
    {
        QTest::addColumn<QByteArray>("yaml");
        QTest::addColumn<int>("line");
        QTest::addColumn<QString>("message");
        QTest::newRow("unknown key")
            << QByteArray("dataset: d\ntargte: p.pdl\nevaluators: [regex]\n") << 2
            << "unknown key `targte`";
        QTest::newRow("no evaluators")
            << QByteArray("dataset: d\nevaluators: []\n") << 2 << "at least one";
        QTest::newRow("evaluator option") << QByteArray("dataset: d\nevaluators:\n"
                                                        "  - exact_match\n"
                                                        "  - {type: regex, pattern: '[a-'}\n")
                                          << 4 << "bad pattern";
        QTest::newRow("twice the same name")
            << QByteArray("dataset: d\nevaluators:\n  - exact_match\n  - exact_match\n") << 4
            << "two evaluators are named";
        QTest::newRow("threshold not a number")
            << QByteArray("dataset: d\nevaluators:\n  - {type: levenshtein, threshold: high}\n")
            << 3 << "`threshold` must be a number";
        QTest::newRow("concurrency")
            << QByteArray("concurrency: 0\nevaluators: [is_json]\n") << 1 << "concurrency";
        // 600 threads aborted the process; the range is said.
        QTest::newRow("concurrency 600")
            << QByteArray("dataset: d\nconcurrency: 600\nevaluators: [is_json]\n") << 2
            << "`concurrency` must be a whole number from 1 to 64 (it is 600)";
        QTest::newRow("concurrency 2.5")
            << QByteArray("dataset: d\nconcurrency: 2.5\nevaluators: [is_json]\n") << 2
            << "from 1 to 64";
        QTest::newRow("fail_under 3")
            << QByteArray("dataset: d\nfail_under: 3\nevaluators: [is_json]\n") << 2
            << "`fail_under` must be a number from 0 to 1 (it is 3)";
        QTest::newRow("max_drop -1")
            << QByteArray("dataset: d\nmax_drop: -1\nevaluators: [is_json]\n") << 2
            << "`max_drop` must be a number from 0 to 1";
        QTest::newRow("threshold -3")
            << QByteArray("dataset: d\nevaluators:\n  - is_json\n"
                          "  - {name: short, type: length_chars, max: 10, threshold: -3}\n")
            << 4 << "evaluator short (length_chars): `threshold` must be a number from 0 to 1";
        QTest::newRow("max -3")
            << QByteArray("dataset: d\nevaluators:\n  - {type: length_chars, max: -3}\n") << 3
            << "`max` must be a whole number of 0 or more (it is -3)";
        QTest::newRow("threshold nan")
            << QByteArray("dataset: d\nevaluators:\n  - {type: levenshtein, threshold: .nan}\n")
            << 3 << "threshold";
        QTest::newRow("yaml") << QByteArray("dataset: d\nevaluators: [a\n") << 3 << "";
    }
    void errorsCarryTheirLine()
    {
        QFETCH(QByteArray, yaml);
        QFETCH(int, line);
        QFETCH(QString, message);
        Result<Suite> s = Suite::parse(yaml, QStringLiteral("suite.yaml"));
        QVERIFY(!s.ok());
        QCOMPARE(s.error().span.line, line);
        QVERIFY2(s.error().message.contains(message), qPrintable(s.error().message));
        QVERIFY(s.error().toString().startsWith(QStringLiteral("suite.yaml:%1:").arg(line)));
    }

    void modelOverrides()
    {
        auto recorder = std::make_shared<Recorder>();
        ModelOverrideProvider p(recorder,
                                {{QStringLiteral("openai/gpt-4o"), QStringLiteral("local/a")},
                                 {QStringLiteral("*"), QStringLiteral("local/b")}});
        models::ChatRequest r;
        r.model = "openai/gpt-4o";
        QVERIFY(p.chat(r, {}, {}).ok());
        r.model = "watsonx/other";
        QVERIFY(p.chat(r, {}, {}).ok());
        QCOMPARE(recorder->asked,
                 (QStringList{QStringLiteral("local/a"), QStringLiteral("local/b")}));
        ModelOverrideProvider none(recorder, {});
        QCOMPARE(none.mapped("x"), std::string("x"));
    }
};

QTEST_GUILESS_MAIN(TestSuite)
#include "tst_suite.moc"
