// The templates of File › New from Template (resources/templates) run end to end with `hako
// run` against the local OpenAI-compatible test server, with scripted replies suited to each:
// each exits 0 and prints what those replies imply, and asks the model what it should. The
// Japanese programs (the same templates for a Japanese interface) likewise, asking in Japanese.
#include "hakoprocess.h"
#include "openaitestserver.h"

#include <QDir>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QRegularExpression>
#include <QTemporaryDir>
#include <QtTest>

using hako::testing::OpenAiTestServer;
using hako::testing::RecordedRequest;
using hako::testing::ScriptedReply;

namespace {

QString templ(const char* name)
{
    return QStringLiteral(HAKO_SOURCE_DIR "/resources/templates/") + QLatin1String(name);
}

QJsonArray messagesOf(const RecordedRequest& r)
{
    return QJsonDocument::fromJson(r.body).object()[QStringLiteral("messages")].toArray();
}

QString templJa(const QString& id)
{
    return QStringLiteral(HAKO_SOURCE_DIR "/resources/templates/") + id + QLatin1String(".ja.pdl");
}

bool hasJapanese(const QString& text)
{
    static const QRegularExpression kana(QStringLiteral("[\\x{3040}-\\x{30ff}]"));
    return text.contains(kana);
}

// Every message of a request as "role: content", joined: what the model saw.
QString transcriptOf(const RecordedRequest& r)
{
    QStringList parts;
    for (const QJsonValue& m : messagesOf(r))
        parts << m.toObject()[QStringLiteral("role")].toString() + QLatin1String(": ") +
                     m.toObject()[QStringLiteral("content")].toString();
    return parts.join(QLatin1Char('\n'));
}

} // namespace

// `--stream none`: the scripted server answers in one piece.
class TestTemplates : public QObject {
    Q_OBJECT

    std::unique_ptr<OpenAiTestServer> m_server;
    QTemporaryDir m_dir;

    void script(const QStringList& replies)
    {
        for (const QString& r : replies)
            m_server->enqueueChat(ScriptedReply::chat(r));
    }
    HakoOutcome run(const QString& file, const QByteArray& stdinData = {},
                    const QStringList& extra = {})
    {
        QStringList args{QStringLiteral("run"), QStringLiteral("--stream"), QStringLiteral("none")};
        args << extra << file;
        return runHako(args, stdinData);
    }

private Q_SLOTS:
    void init()
    {
        m_server = std::make_unique<OpenAiTestServer>();
        QVERIFY(m_server->start());
        // `model: default` is ollama_chat/granite3.2:2b when no default model is configured:
        // Ollama's address is the test server.
        m_server->setModels({QStringLiteral("granite3.2:2b")});
        qputenv("OLLAMA_API_BASE",
                QStringLiteral("http://127.0.0.1:%1").arg(m_server->port()).toUtf8());
        qputenv("HAKO_KEYRING", "0");
        qunsetenv("OPENAI_BASE_URL");
        qunsetenv("OPENAI_API_KEY");
        qunsetenv("LITELLM_PROXY_API_BASE");
        QVERIFY(QDir::setCurrent(m_dir.path()));
    }
    void cleanup() { m_server.reset(); }

    void summarize()
    {
        script({QStringLiteral("Hako shows each model call of a run as a box.")});
        const HakoOutcome r = run(templ("summarize.pdl"));
        QVERIFY2(r.exitCode == 0, qPrintable(r.err));
        QCOMPARE(r.out.trimmed(),
                 QStringLiteral("Summary:\nHako shows each model call of a run as a box."));
        QCOMPARE(m_server->requestCount(), 1);
        const QString seen = transcriptOf(m_server->requests().first());
        QVERIFY2(seen.contains(QLatin1String("three sentences at most")), qPrintable(seen));
        QVERIFY(seen.contains(QLatin1String("Hako is a desktop workbench")));
    }

    void classify_data()
    {
        QTest::addColumn<QString>("reply");
        QTest::addColumn<QString>("printed");
        QTest::newRow("label") << QStringLiteral("complaint") << QStringLiteral("Label: complaint");
        QTest::newRow("capital and full stop")
            << QStringLiteral(" Complaint.\n") << QStringLiteral("Label: complaint");
        QTest::newRow("not a label")
            << QStringLiteral("angry")
            << QStringLiteral("Label: unknown (the model answered “angry”, which is not one of "
                              "the labels)");
    }
    void classify()
    {
        QFETCH(QString, reply);
        QFETCH(QString, printed);
        script({reply});
        const HakoOutcome r = run(templ("classify.pdl"));
        QVERIFY2(r.exitCode == 0, qPrintable(r.err));
        QCOMPARE(r.out.trimmed(), printed);
        const QString seen = transcriptOf(m_server->requests().first());
        QVERIFY2(seen.contains(QLatin1String("praise, complaint, question, other")),
                 qPrintable(seen));
    }

    void extractJson()
    {
        script({QStringLiteral(R"({"name": "Aiko Tanaka", "company": "Sakura Books", )"
                               R"("email": "aiko@sakura-books.example", "quantity": 12})")});
        const HakoOutcome r = run(templ("extract_json.pdl"));
        QVERIFY2(r.exitCode == 0, qPrintable(r.err));
        const QJsonObject record = QJsonDocument::fromJson(r.out.toUtf8()).object();
        QCOMPARE(record[QStringLiteral("name")].toString(), QStringLiteral("Aiko Tanaka"));
        QCOMPARE(record[QStringLiteral("quantity")].toInt(), 12);
        QCOMPARE(m_server->requestCount(), 1);
    }

    void extractJsonRepair()
    {
        // The first reply is no JSON at all: the repair call gets it and fixes it.
        script({QStringLiteral("Sure! The writer is Aiko Tanaka of Sakura Books, who wants twelve "
                               "copies."),
                QStringLiteral(R"({"name": "Aiko Tanaka", "company": "Sakura Books", )"
                               R"("email": "aiko@sakura-books.example", "quantity": 12})")});
        const HakoOutcome r = run(templ("extract_json.pdl"));
        QVERIFY2(r.exitCode == 0, qPrintable(r.err));
        const QJsonObject record = QJsonDocument::fromJson(r.out.toUtf8()).object();
        QCOMPARE(record[QStringLiteral("company")].toString(), QStringLiteral("Sakura Books"));
        QCOMPARE(record[QStringLiteral("quantity")].toInt(), 12);
        QCOMPARE(m_server->requestCount(), 2);
        const QString repair = transcriptOf(m_server->requests().at(1));
        QVERIFY2(repair.contains(QLatin1String("Sure! The writer is Aiko Tanaka")),
                 qPrintable(repair));
    }

    void translate()
    {
        script({QStringLiteral("ご注文ありがとうございます。お荷物は金曜日に届きます。")});
        const HakoOutcome r = run(templ("translate.pdl"));
        QVERIFY2(r.exitCode == 0, qPrintable(r.err));
        QCOMPARE(r.out.trimmed(),
                 QStringLiteral("ご注文ありがとうございます。お荷物は金曜日に届きます。"));
        const QJsonArray messages = messagesOf(m_server->requests().first());
        QCOMPARE(messages.size(), 2);
        QCOMPARE(messages[0].toObject()[QStringLiteral("role")].toString(),
                 QStringLiteral("system"));
        QVERIFY(messages[0].toObject()[QStringLiteral("content")].toString().contains(
            QLatin1String("from English to Japanese")));
        QCOMPARE(messages[1].toObject()[QStringLiteral("content")].toString().trimmed(),
                 QStringLiteral("Thank you for your order. Your parcel will arrive on Friday."));
    }

    void documentQa()
    {
        script({QStringLiteral("From 10:00 to 16:00."), QStringLiteral("Up to five books.")});
        const HakoOutcome r = run(templ("document_qa.pdl"));
        QVERIFY2(r.exitCode == 0, qPrintable(r.err));
        QCOMPARE(r.out.trimmed(),
                 QStringLiteral("Q: When does the library open on Saturdays?\nA: From 10:00 to "
                                "16:00.\n\nQ: How many books can a member borrow?\nA: Up to "
                                "five books."));
        QCOMPARE(m_server->requestCount(), 2);
        QVERIFY(
            transcriptOf(m_server->requests().at(1)).contains(QLatin1String("closed on Sundays")));
    }

    void documentQaFromFile()
    {
        // A copy of the template that names a file beside it.
        QFile in(templ("document_qa.pdl"));
        QVERIFY(in.open(QIODevice::ReadOnly));
        QString text = QString::fromUtf8(in.readAll());
        QVERIFY(text.contains(QLatin1String("document_file: \"\"")));
        text.replace(QLatin1String("document_file: \"\""),
                     QLatin1String("document_file: notes.txt"));
        QFile program(m_dir.filePath(QStringLiteral("qa.pdl")));
        QVERIFY(program.open(QIODevice::WriteOnly));
        program.write(text.toUtf8());
        program.close();
        QFile notes(m_dir.filePath(QStringLiteral("notes.txt")));
        QVERIFY(notes.open(QIODevice::WriteOnly));
        notes.write("The museum opens at 11:00 on Saturdays.\n");
        notes.close();
        script({QStringLiteral("At 11:00."), QStringLiteral("The text does not say.")});
        const HakoOutcome r = run(program.fileName());
        QVERIFY2(r.exitCode == 0, qPrintable(r.err));
        QVERIFY2(r.out.contains(QLatin1String("A: At 11:00.")), qPrintable(r.out));
        QVERIFY(r.out.contains(QLatin1String("A: The text does not say.")));
        const QString seen = transcriptOf(m_server->requests().first());
        QVERIFY2(seen.contains(QLatin1String("The museum opens at 11:00")), qPrintable(seen));
        QVERIFY(!seen.contains(QLatin1String("Sakura Library")));
    }

    void chat()
    {
        script({QStringLiteral("Hello Ken!"), QStringLiteral("You said your name is Ken.")});
        const HakoOutcome r =
            run(templ("chat.pdl"), "I am Ken\nWhat did I tell you?\nquit\nnever read\n");
        QVERIFY2(r.exitCode == 0, qPrintable(r.err));
        QVERIFY2(r.out.contains(QLatin1String("Type quit to end the chat.\n")), qPrintable(r.out));
        QVERIFY(r.out.contains(QLatin1String("Hello Ken!\n")));
        QVERIFY(r.out.contains(QLatin1String("You said your name is Ken.\n")));
        QCOMPARE(m_server->requestCount(), 2);
        const QString seen = transcriptOf(m_server->requests().at(1));
        QVERIFY2(seen.startsWith(QLatin1String("system: You are a friendly assistant.")),
                 qPrintable(seen));
        QVERIFY(seen.contains(QLatin1String("user: I am Ken")));
        QVERIFY(seen.contains(QLatin1String("assistant: Hello Ken!")));
    }

    void agentTools()
    {
        script({
            QStringLiteral(R"({"thought": "I need the notebook price.", "tool": "lookup", )"
                           R"("arguments": {"topic": "notebook"}})"),
            QStringLiteral(R"({"thought": "Now the pen.", "tool": "lookup", )"
                           R"("arguments": {"topic": "pen"}})"),
            QStringLiteral(R"({"thought": "3 x 250 = 750 and 2 x 120 = 240.", "tool": )"
                           R"("calculate", "arguments": {"op": "add", "a": 750, "b": 240}})"),
            QStringLiteral(R"({"thought": "Done.", "tool": "finish", )"
                           R"("arguments": {"answer": "990 yen"}})"),
        });
        const HakoOutcome r = run(templ("agent_tools.pdl"));
        QVERIFY2(r.exitCode == 0, qPrintable(r.err));
        QVERIFY2(r.out.contains(QLatin1String("Observation: A notebook costs 250 yen.\n")),
                 qPrintable(r.out));
        QVERIFY(r.out.contains(QLatin1String("Observation: A pen costs 120 yen.\n")));
        QVERIFY(r.out.contains(QLatin1String("Observation: 990\n")));
        QVERIFY(r.out.trimmed().endsWith(QLatin1String("Answer: 990 yen")));
        QCOMPARE(m_server->requestCount(), 4);
        // The model sees the tools and, at each step, the observations so far.
        const QString seen = transcriptOf(m_server->requests().at(3));
        QVERIFY2(seen.contains(QLatin1String("lookup: finds a topic")), qPrintable(seen));
        QVERIFY(seen.contains(QLatin1String("Observation: 990")));
    }

    void agentToolsStopsAfterFiveSteps()
    {
        QStringList replies;
        for (int i = 0; i < 7; ++i)
            replies << QStringLiteral(R"({"thought": "Again.", "tool": "lookup", )"
                                      R"("arguments": {"topic": "ruler"}})");
        script(replies);
        const HakoOutcome r = run(templ("agent_tools.pdl"));
        QVERIFY2(r.exitCode == 0, qPrintable(r.err));
        QCOMPARE(m_server->requestCount(), 5);
        QVERIFY2(r.out.contains(QLatin1String("Nothing about ruler. Known topics: notebook, "
                                              "pen, eraser")),
                 qPrintable(r.out));
    }

    void writeReview()
    {
        script({QStringLiteral("The library closes early."),
                QStringLiteral("Say which day and at what time."),
                QStringLiteral("Dear members, the library closes at 15:00 this Friday."),
                QStringLiteral("APPROVED")});
        const HakoOutcome r = run(templ("write_review.pdl"));
        QVERIFY2(r.exitCode == 0, qPrintable(r.err));
        QVERIFY2(r.out.contains(QLatin1String("Draft 1:\nThe library closes early.")),
                 qPrintable(r.out));
        QVERIFY(r.out.contains(QLatin1String("Reviewer: Say which day and at what time.")));
        QVERIFY(r.out.contains(QLatin1String("Draft 2:\n")));
        QVERIFY(r.out.trimmed().endsWith(
            QLatin1String("Approved. Final text:\nDear members, the library closes at 15:00 "
                          "this Friday.")));
        QCOMPARE(m_server->requestCount(), 4);
        // The writer's second round sees its draft and the reviewer's feedback.
        const QString revise = transcriptOf(m_server->requests().at(2));
        QVERIFY2(revise.contains(QLatin1String("The reviewer said:\nSay which day")),
                 qPrintable(revise));
        QVERIFY(revise.contains(QLatin1String("Your previous draft:\nThe library closes early.")));
    }

    void writeReviewThreeRounds()
    {
        QStringList replies;
        for (int i = 1; i <= 4; ++i)
            replies << QStringLiteral("Draft text %1").arg(i) << QStringLiteral("Too long.");
        script(replies);
        const HakoOutcome r = run(templ("write_review.pdl"));
        QVERIFY2(r.exitCode == 0, qPrintable(r.err));
        QCOMPARE(m_server->requestCount(), 6);
        QVERIFY2(r.out.trimmed().endsWith(
                     QLatin1String("Not approved after 3 rounds. Final text:\nDraft text 3")),
                 qPrintable(r.out));
    }

    // Each Japanese template, with replies a model would give in Japanese: it exits 0, prints
    // its Japanese wording and every request carries Japanese instructions.
    void japanese_data()
    {
        QTest::addColumn<QString>("id");
        QTest::addColumn<QStringList>("replies");
        QTest::addColumn<QByteArray>("typed");
        QTest::addColumn<QStringList>("printed");
        QTest::addColumn<QString>("asked"); // in the first request
        QTest::newRow("summarize")
            << QStringLiteral("summarize")
            << QStringList{QStringLiteral("Hako はモデル呼び出しを箱で見せるアプリです。")}
            << QByteArray()
            << QStringList{QStringLiteral("要約：\nHako はモデル呼び出しを箱で見せるアプリです。")}
            << QStringLiteral("この文章を読んでいない同僚向けに3文以内で要約してください");
        QTest::newRow("classify") << QStringLiteral("classify")
                                  << QStringList{QStringLiteral("苦情")} << QByteArray()
                                  << QStringList{QStringLiteral("ラベル：苦情")}
                                  << QStringLiteral("褒め言葉、苦情、質問、その他");
        QTest::newRow("extract_json")
            << QStringLiteral("extract_json")
            << QStringList{QStringLiteral(R"({"name": "田中愛子", "company": "さくら書房", )"
                                          R"("email": "aiko@sakura-books.example", )"
                                          R"("quantity": 12})")}
            << QByteArray() << QStringList{QStringLiteral("aiko@sakura-books.example")}
            << QStringLiteral("以下の項目を取り出してください");
        QTest::newRow("translate")
            << QStringLiteral("translate")
            << QStringList{QStringLiteral("Thank you for your order. It arrives on Friday.")}
            << QByteArray()
            << QStringList{QStringLiteral("Thank you for your order. It arrives on Friday.")}
            << QStringLiteral("日本語から英語へのプロの翻訳者");
        QTest::newRow("document_qa")
            << QStringLiteral("document_qa")
            << QStringList{QStringLiteral("10時です。"), QStringLiteral("5冊までです。")}
            << QByteArray()
            << QStringList{QStringLiteral("質問：土曜日は何時に開館しますか？\n答え：10時です。"),
                           QStringLiteral("答え：5冊までです。")}
            << QStringLiteral("下の文章だけをもとに質問に答えてください");
        QTest::newRow("chat") << QStringLiteral("chat")
                              << QStringList{QStringLiteral("こんにちは、健さん！"),
                                             QStringLiteral("健さんとおっしゃいました。")}
                              << QStringLiteral("健です\n私の名前は？\n終了\n読まれない\n").toUtf8()
                              << QStringList{QStringLiteral("quit または 終了 と入力してください"),
                                             QStringLiteral("健さんとおっしゃいました。")}
                              << QStringLiteral("あなたは親切なアシスタントです");
        QTest::newRow("agent_tools")
            << QStringLiteral("agent_tools")
            << QStringList{QStringLiteral(
                               R"({"thought": "ノートの値段を調べる", "tool": "lookup", )"
                               R"("arguments": {"topic": "ノート"}})"),
                           QStringLiteral(R"({"thought": "計算する", "tool": "calculate", )"
                                          R"("arguments": {"op": "add", "a": 750, "b": 240}})"),
                           QStringLiteral(R"({"thought": "完了", "tool": "finish", )"
                                          R"("arguments": {"answer": "990円です。"}})")}
            << QByteArray()
            << QStringList{QStringLiteral("結果：ノートは1冊250円です。\n"),
                           QStringLiteral("結果：990\n"), QStringLiteral("答え：990円です。")}
            << QStringLiteral("あなたは次のツールを使って質問に答えます");
        QTest::newRow("write_review")
            << QStringLiteral("write_review")
            << QStringList{QStringLiteral("図書館は早く閉まります。"),
                           QStringLiteral("曜日と時刻を書いてください。"),
                           QStringLiteral("今週金曜日は15時に閉館いたします。"),
                           QStringLiteral("APPROVED")}
            << QByteArray()
            << QStringList{QStringLiteral("下書き 1：\n図書館は早く閉まります。"),
                           QStringLiteral("レビュー役：曜日と時刻を書いてください。"),
                           QStringLiteral("合格しました。完成した文章：\n今週金曜日は15時に閉館"
                                          "いたします。")}
            << QStringLiteral("最初の下書きを書いてください");
    }
    void japanese()
    {
        QFETCH(QString, id);
        QFETCH(QStringList, replies);
        QFETCH(QByteArray, typed);
        QFETCH(QStringList, printed);
        QFETCH(QString, asked);
        script(replies);
        const HakoOutcome r = run(templJa(id), typed);
        QVERIFY2(r.exitCode == 0, qPrintable(r.err));
        for (const QString& p : printed)
            QVERIFY2(r.out.contains(p), qPrintable(r.out));
        if (id == QLatin1String("extract_json")) {
            const QJsonObject record = QJsonDocument::fromJson(r.out.toUtf8()).object();
            QCOMPARE(record[QStringLiteral("name")].toString(), QStringLiteral("田中愛子"));
            QCOMPARE(record[QStringLiteral("quantity")].toInt(), 12);
        }
        if (id == QLatin1String("agent_tools")) // the arguments as written, not as \uXXXX
            QVERIFY2(r.out.contains(QStringLiteral("行動：lookup {'topic': 'ノート'}")),
                     qPrintable(r.out));
        QCOMPARE(m_server->requestCount(), replies.size());
        const QString first = transcriptOf(m_server->requests().first());
        QVERIFY2(first.contains(asked), qPrintable(first));
        for (const RecordedRequest& request : m_server->requests())
            QVERIFY2(hasJapanese(transcriptOf(request)), qPrintable(transcriptOf(request)));
    }

    void japaneseClassifyLabels_data()
    {
        QTest::addColumn<QString>("reply");
        QTest::addColumn<QString>("printed");
        QTest::newRow("label") << QStringLiteral("質問") << QStringLiteral("ラベル：質問");
        QTest::newRow("full stop and quotes")
            << QStringLiteral(" 「苦情」。\n") << QStringLiteral("ラベル：苦情");
        QTest::newRow("not a label")
            << QStringLiteral("怒り")
            << QStringLiteral("ラベル：不明（モデルの答え「怒り」はラベルの一覧にありません）");
    }
    void japaneseClassifyLabels()
    {
        QFETCH(QString, reply);
        QFETCH(QString, printed);
        script({reply});
        const HakoOutcome r = run(templJa(QStringLiteral("classify")));
        QVERIFY2(r.exitCode == 0, qPrintable(r.err));
        QCOMPARE(r.out.trimmed(), printed);
        const QString seen = transcriptOf(m_server->requests().first());
        QVERIFY2(seen.contains(QStringLiteral("注文した荷物が2週間も遅れて届き")),
                 qPrintable(seen));
    }

    void japaneseMemoryAgent()
    {
        const QString store = m_dir.filePath(QStringLiteral("assistant-ja.hakomem"));
        script({QStringLiteral("お客様のメールを2文で要約する練習はいかがですか。")});
        const HakoOutcome r =
            run(templJa(QStringLiteral("memory_agent")), {}, {QStringLiteral("--memory"), store});
        QVERIFY2(r.exitCode == 0, qPrintable(r.err));
        QVERIFY2(r.out.contains(QStringLiteral("答え：お客様のメールを2文で要約する練習")),
                 qPrintable(r.out));
        QCOMPARE(r.out.count(QLatin1String("\n- ")), 3); // how_many memories
        const QString seen = transcriptOf(m_server->requests().first());
        QVERIFY2(seen.contains(QStringLiteral("覚えていること：\n- ")), qPrintable(seen));
        QVERIFY(seen.contains(QStringLiteral("練習に使える最初のプロンプト")));
        const HakoOutcome list = runHako(
            {QStringLiteral("memory"), QStringLiteral("--store"), store, QStringLiteral("list")});
        QVERIFY2(list.exitCode == 0, qPrintable(list.err));
        QCOMPARE(list.out.count(QStringLiteral("ユーザーの名前は愛子")), 1);
        QCOMPARE(list.out.count(QStringLiteral("答え：お客様のメール")), 1);
    }

    void memoryAgent()
    {
        const QString store = m_dir.filePath(QStringLiteral("assistant.hakomem"));
        script({QStringLiteral("Try: summarise a customer e-mail in two sentences."),
                QStringLiteral("You live in Osaka, Aiko.")});
        const HakoOutcome first =
            run(templ("memory_agent.pdl"), {}, {QStringLiteral("--memory"), store});
        QVERIFY2(first.exitCode == 0, qPrintable(first.err));
        QVERIFY2(first.out.contains(QLatin1String("Answer: Try: summarise a customer e-mail")),
                 qPrintable(first.out));
        QCOMPARE(first.out.count(QLatin1String("\n- ")), 3); // how_many memories
        const QString seen = transcriptOf(m_server->requests().first());
        QVERIFY2(seen.contains(QLatin1String("What you remember:\n- ")), qPrintable(seen));

        // The second run does not store the notes again, and remembers the first answer.
        const HakoOutcome second =
            run(templ("memory_agent.pdl"), {}, {QStringLiteral("--memory"), store});
        QVERIFY2(second.exitCode == 0, qPrintable(second.err));
        QVERIFY(second.out.contains(QLatin1String("Answer: You live in Osaka, Aiko.")));
        const HakoOutcome list = runHako(
            {QStringLiteral("memory"), QStringLiteral("--store"), store, QStringLiteral("list")});
        QVERIFY2(list.exitCode == 0, qPrintable(list.err));
        QCOMPARE(list.out.count(QLatin1String("The user's name is Aiko")), 1);
        QCOMPARE(list.out.count(QLatin1String("I answered:")), 2);
    }
};

QTEST_GUILESS_MAIN(TestTemplates)
#include "tst_templates.moc"
