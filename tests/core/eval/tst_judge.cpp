// Model-graded evaluators against the local OpenAI-compatible server with scripted judge
// replies: Y passes, N fails, a malformed reply is a clear "judge did not answer" failure (never
// a silent pass); the Japanese prompts; pairwise run twice swapped; embeddings.

#include "core/eval/evaluator.h"
#include "core/eval/judge.h"
#include "core/models/openaiprovider.h"
#include "tests/support/openaitestserver.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QTest>

using namespace hako;
using namespace hako::eval;
using hako::testing::OpenAiTestServer;
using hako::testing::ScriptedReply;

class TestJudge : public QObject {
    Q_OBJECT

    std::unique_ptr<OpenAiTestServer> m_server;
    EvaluatorContext m_context;

    std::shared_ptr<const Evaluator> make(const QString& type, const QJsonObject& options,
                                          const QString& language = QStringLiteral("en"))
    {
        EvaluatorSpec spec;
        spec.type = type;
        spec.options = options;
        EvaluatorContext c = m_context;
        c.language = language;
        auto e = createEvaluator(spec, c);
        if (!e.ok())
            qWarning() << e.error().message;
        return e.ok() ? *e : nullptr;
    }
    QString lastPrompt() const
    {
        const auto requests = m_server->requests();
        if (requests.isEmpty())
            return {};
        const QJsonObject body = QJsonDocument::fromJson(requests.last().body).object();
        return body.value(QStringLiteral("messages"))
            .toArray()
            .last()
            .toObject()
            .value(QStringLiteral("content"))
            .toString();
    }

private Q_SLOTS:
    void init()
    {
        m_server = std::make_unique<OpenAiTestServer>();
        QVERIFY(m_server->start());
        hako::models::EndpointConfig config;
        config.baseUrl = m_server->baseUrl();
        config.apiKey = QStringLiteral("sk-test");
        config.maxRetries = 0;
        m_context.models = std::make_shared<hako::models::OpenAiProvider>(config);
        m_context.judgeModel = QStringLiteral("judge-model");
        m_context.embeddingModel = QStringLiteral("embed-model");
    }
    void cleanup()
    {
        m_context.models.reset();
        m_server.reset();
    }

    void criteriaVerdicts_data()
    {
        QTest::addColumn<QString>("reply");
        QTest::addColumn<bool>("pass");
        QTest::addColumn<bool>("error");
        QTest::addColumn<QString>("language");
        QTest::newRow("Y") << "The answer is short.\nIt stays on topic.\nY" << true << false
                           << "en";
        QTest::newRow("N") << "It rambles for three paragraphs.\nN" << false << false << "en";
        QTest::newRow("bold Y") << "Reasoning…\n**Y**" << true << false << "en";
        QTest::newRow("answer label") << "Reasoning…\nAnswer: N." << false << false << "en";
        QTest::newRow("ja Y") << "簡潔で要点を押さえています。\nY" << true << false << "ja";
        QTest::newRow("ja はい") << "条件を満たします。\nはい" << true << false << "ja";
        QTest::newRow("malformed")
            << "I think it is probably fine overall." << false << true << "en";
        QTest::newRow("verdict not last")
            << "Y\nbut on reflection I am unsure" << false << true << "en";
        QTest::newRow("empty") << "" << false << true << "en";
    }
    void criteriaVerdicts()
    {
        QFETCH(QString, reply);
        QFETCH(bool, pass);
        QFETCH(bool, error);
        QFETCH(QString, language);
        m_server->enqueueChat(ScriptedReply::chat(reply));
        auto e = make(QStringLiteral("criteria"),
                      QJsonObject{{QStringLiteral("criteria"), QStringLiteral("conciseness")}},
                      language);
        QVERIFY(e);
        EvalCase c;
        c.inputs = {{QStringLiteral("question"), QStringLiteral("日本の首都は？")}};
        c.output = QStringLiteral("東京です。");
        const Score s = e->evaluate(c, {});
        QCOMPARE(s.pass, pass);
        QCOMPARE(s.error, error);
        if (error) {
            QVERIFY2(s.reasoning.contains(QLatin1String("judge did not answer")),
                     qPrintable(s.reasoning));
            QCOMPARE(s.score, 0.0);
        } else {
            QCOMPARE(s.label, pass ? QStringLiteral("Y") : QStringLiteral("N"));
        }
        // The prompt: the judge's instructions in the language asked, with the data.
        const QString prompt = lastPrompt();
        QVERIFY(prompt.contains(QStringLiteral("東京です。")));
        QVERIFY(prompt.contains(QStringLiteral("日本の首都は？")));
        if (language == QLatin1String("ja"))
            QVERIFY2(prompt.contains(QStringLiteral("提出物は簡潔で要点を押さえていますか")),
                     qPrintable(prompt));
        else
            QVERIFY(prompt.contains(QStringLiteral("step by step")));
        const QJsonObject body = QJsonDocument::fromJson(m_server->requests().last().body).object();
        QCOMPARE(body.value(QStringLiteral("model")).toString(), QStringLiteral("judge-model"));
    }

    void customJapaneseCriterionAndReference()
    {
        m_server->enqueueChat(ScriptedReply::chat(QStringLiteral("12文字しかありません。\nN")));
        auto e = make(
            QStringLiteral("labeled_criteria"),
            QJsonObject{{QStringLiteral("criteria"),
                         QJsonObject{{QStringLiteral("length"),
                                      QStringLiteral("50文字以上200文字以内に収まっているか")}}}},
            QStringLiteral("ja"));
        QVERIFY(e);
        EvalCase c;
        c.inputs = {{QStringLiteral("topic"), QStringLiteral("猫")}};
        c.output = QStringLiteral("猫はかわいい動物です。");
        c.reference = QStringLiteral("猫は…（参照）");
        const Score s = e->evaluate(c, {});
        QVERIFY(!s.pass);
        QVERIFY(!s.error);
        QVERIFY(s.reasoning.contains(QStringLiteral("12文字")));
        const QString prompt = lastPrompt();
        QVERIFY(prompt.contains(QStringLiteral("50文字以上200文字以内に収まっているか")));
        QVERIFY(prompt.contains(QStringLiteral("[参照回答]: 猫は…（参照）")));
        // Labelled criteria without a reference cannot be judged.
        EvalCase noRef = c;
        noRef.reference = QJsonValue();
        QVERIFY(e->evaluate(noRef, {}).error);
    }

    void qaAndContext()
    {
        m_server->enqueueChat(ScriptedReply::chat(QStringLiteral("Both say Paris.\nY")));
        auto qa = make(QStringLiteral("context_qa"), {});
        QVERIFY(qa);
        EvalCase c;
        c.inputs = {{QStringLiteral("question"), QStringLiteral("Capital of France?")},
                    {QStringLiteral("context"), QStringLiteral("France's capital is Paris.")}};
        c.output = QStringLiteral("It is Paris.");
        c.reference = QStringLiteral("Paris");
        QVERIFY(qa->evaluate(c, {}).pass);
        const QString prompt = lastPrompt();
        QVERIFY(prompt.contains(QStringLiteral("CONTEXT: France's capital is Paris.")));
        QVERIFY(prompt.contains(QStringLiteral("TRUE ANSWER: Paris")));
    }

    void rubricScores_data()
    {
        QTest::addColumn<QString>("reply");
        QTest::addColumn<double>("score");
        QTest::addColumn<bool>("error");
        QTest::newRow("rating") << "Good but terse.\nRating: 8" << 0.8 << false;
        QTest::newRow("brackets") << "Weak.\n[[3]]" << 0.3 << false;
        QTest::newRow("ja") << "良い。\n評価: 9" << 0.9 << false;
        QTest::newRow("out of range") << "Rating: 11" << 0.0 << true;
        QTest::newRow("none") << "It is fine." << 0.0 << true;
    }
    void rubricScores()
    {
        QFETCH(QString, reply);
        QFETCH(double, score);
        QFETCH(bool, error);
        m_server->enqueueChat(ScriptedReply::chat(reply));
        auto e = make(QStringLiteral("score_rubric"), {});
        QVERIFY(e);
        EvalCase c;
        c.inputs = {{QStringLiteral("q"), QStringLiteral("x")}};
        c.output = QStringLiteral("y");
        const Score s = e->evaluate(c, {});
        QCOMPARE(s.error, error);
        QVERIFY(qAbs(s.score - score) < 1e-9);
        QCOMPARE(s.pass, !error && score >= 0.7);
    }

    void pairwiseRunsTwiceSwapped_data()
    {
        QTest::addColumn<QString>("first");
        QTest::addColumn<QString>("second");
        QTest::addColumn<QString>("label");
        QTest::newRow("better both ways") << "A is better.\nA"
                                          << "B is better.\nB"
                                          << "better";
        QTest::newRow("worse both ways") << "B\n"
                                         << "A\n"
                                         << "worse";
        QTest::newRow("position bias") << "A"
                                       << "A"
                                       << "tie";
        QTest::newRow("tie") << "C"
                             << "C"
                             << "tie";
    }
    void pairwiseRunsTwiceSwapped()
    {
        QFETCH(QString, first);
        QFETCH(QString, second);
        QFETCH(QString, label);
        m_server->enqueueChat(ScriptedReply::chat(first));
        m_server->enqueueChat(ScriptedReply::chat(second));
        auto e = make(QStringLiteral("pairwise"), {});
        QVERIFY(e);
        EvalCase c;
        c.inputs = {{QStringLiteral("q"), QStringLiteral("Say hi")}};
        c.output = QStringLiteral("NEW OUTPUT");
        c.otherOutput = QStringLiteral("OLD OUTPUT");
        c.hasOtherOutput = true;
        const Score s = e->evaluate(c, {});
        QVERIFY2(!s.error, qPrintable(s.reasoning));
        QCOMPARE(s.label, label);
        const auto requests = m_server->requests();
        QCOMPARE(requests.size(), 2);
        auto promptOf = [](const hako::testing::RecordedRequest& r) {
            return QJsonDocument::fromJson(r.body)
                .object()
                .value(QStringLiteral("messages"))
                .toArray()
                .last()
                .toObject()
                .value(QStringLiteral("content"))
                .toString();
        };
        const QString p1 = promptOf(requests[0]), p2 = promptOf(requests[1]);
        QVERIFY(p1.indexOf(QLatin1String("NEW OUTPUT")) < p1.indexOf(QLatin1String("OLD OUTPUT")));
        QVERIFY(p2.indexOf(QLatin1String("OLD OUTPUT")) < p2.indexOf(QLatin1String("NEW OUTPUT")));
        // Without another output there is nothing to compare.
        EvalCase alone = c;
        alone.hasOtherOutput = false;
        QVERIFY(e->evaluate(alone, {}).error);
    }

    void judgeFailureIsAnError()
    {
        m_server->enqueueChat(ScriptedReply::error(400, QStringLiteral("bad model")));
        auto e = make(QStringLiteral("criteria"),
                      QJsonObject{{QStringLiteral("criteria"), QStringLiteral("depth")}});
        EvalCase c;
        c.output = QStringLiteral("x");
        const Score s = e->evaluate(c, {});
        QVERIFY(s.error);
        QVERIFY(!s.pass);
        QVERIFY(s.reasoning.contains(QLatin1String("judge call failed")));
    }

    void embeddingSimilarity()
    {
        auto e = make(QStringLiteral("embedding_similarity"), {});
        QVERIFY(e);
        EvalCase c;
        c.output = QStringLiteral("same text");
        c.reference = QStringLiteral("same text");
        const Score s = e->evaluate(c, {});
        QVERIFY2(!s.error, qPrintable(s.reasoning));
        QVERIFY(qAbs(s.score - 1.0) < 1e-6);
        QVERIFY(s.pass);
        QVERIFY(m_server->requests().last().path.endsWith("/embeddings"));
    }

    void presetsHaveBothLanguages()
    {
        const QStringList presets = judge::presetCriteria();
        QCOMPARE(presets.size(), 14);
        for (const QString& p : presets) {
            QVERIFY(!judge::presetCriterion(p, QStringLiteral("en")).isEmpty());
            QVERIFY(!judge::presetCriterion(p, QStringLiteral("ja")).isEmpty());
        }
    }
};

QTEST_GUILESS_MAIN(TestJudge)
#include "tst_judge.moc"
