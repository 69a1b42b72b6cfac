// `hako log` as a user runs it from a terminal: a prompt log file written by the library, read,
// measured, exported, imported and pruned through the command line, with plain errors.
#include "hakoprocess.h"

#include "core/promptlog/promptlog.h"

#include <QDateTime>
#include <QFile>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>
#include <QTest>

using namespace hako::promptlog;

namespace {

constexpr int64_t kDay = 24 * 3600 * 1000;

QStringList lines(const QString& text)
{
    return text.split(QLatin1Char('\n'), Qt::SkipEmptyParts);
}

} // namespace

class TestLogCli : public QObject {
    Q_OBJECT

    QTemporaryDir m_dir;
    QString m_db;
    int64_t m_now = QDateTime::currentMSecsSinceEpoch();

    HakoOutcome log(QStringList args, const QString& db = {})
    {
        args.prepend(QStringLiteral("log"));
        args << QStringLiteral("--db") << (db.isEmpty() ? m_db : db);
        return runHako(args);
    }

private Q_SLOTS:
    void initTestCase()
    {
        if (!QFileInfo(hakoBinary()).isExecutable())
            QSKIP("bin/hako is not built");
        QVERIFY(m_dir.isValid());
        // The user's own settings and log stay out of it.
        qputenv("XDG_CONFIG_HOME", m_dir.filePath(QStringLiteral("config")).toUtf8());
        qputenv("XDG_DATA_HOME", m_dir.filePath(QStringLiteral("data")).toUtf8());
        m_db = m_dir.filePath(QStringLiteral("calls.sqlite"));
        auto store = PromptLog::open(m_db);
        QVERIFY(store);
        // summarize: 3 calls, 3000 tokens; react: 2 calls, 500 tokens, one failed; old: 40 days
        // ago.
        struct Row {
            const char* prompt;
            const char* model;
            int in, out, latency;
            CallStatus status;
            const char* tag;
            const char* run;
            int64_t age;
            const char* text;
        };
        const Row rows[] = {
            {"summarize", "gpt-4o-mini", 800, 200, 900, CallStatus::Ok, "env:prod", "r1", 0,
             "銀河鉄道の夜を要約して"},
            {"summarize", "gpt-4o-mini", 700, 300, 1100, CallStatus::Ok, "env:prod", "r1", 0,
             "風の又三郎を要約して"},
            {"summarize", "gpt-4o", 900, 100, 1500, CallStatus::Ok, "env:test", "r2", kDay,
             "注文の多い料理店"},
            {"react", "gpt-4o-mini", 200, 50, 300, CallStatus::Ok, "env:test", "r2", kDay,
             "should I answer?"},
            {"react", "gpt-4o-mini", 200, 50, 400, CallStatus::Failed, "env:prod", "r3", 0,
             "should I answer again?"},
            {"old", "llama3", 10, 10, 50, CallStatus::Ok, "env:test", "r0", 40 * kDay, "old"},
        };
        int n = 0;
        for (const Row& r : rows) {
            CallRecord c;
            c.uid = QStringLiteral("call-%1-0123456789").arg(++n);
            c.promptName = QLatin1String(r.prompt);
            c.model = QLatin1String(r.model);
            c.promptTokens = r.in;
            c.completionTokens = r.out;
            c.latencyMs = r.latency;
            c.status = r.status;
            c.tags = {QLatin1String(r.tag)};
            c.runId = QLatin1String(r.run);
            c.startedAt = m_now - r.age - n;
            c.messages =
                QJsonArray{QJsonObject{{QStringLiteral("role"), QStringLiteral("user")},
                                       {QStringLiteral("content"), QString::fromUtf8(r.text)}}};
            c.reply = QStringLiteral("reply %1").arg(n);
            if (c.status == CallStatus::Failed)
                c.error = QStringLiteral("HTTP 500");
            store->record(c);
        }
        QVERIFY(store->flush());
    }

    void usageErrorsArePlain()
    {
        const HakoOutcome help = runHako({QStringLiteral("log"), QStringLiteral("--help")});
        QCOMPARE(help.exitCode, 0);
        QVERIFY(help.out.contains(QLatin1String("prune --older-than AGE")));
        const HakoOutcome none = runHako({QStringLiteral("log")});
        QCOMPARE(none.exitCode, 2);
        const HakoOutcome bad = log({QStringLiteral("frobnicate")});
        QCOMPARE(bad.exitCode, 2);
        QVERIFY2(bad.err.contains(QLatin1String("unknown command 'frobnicate'")),
                 qPrintable(bad.err));
        const HakoOutcome since =
            log({QStringLiteral("list"), QStringLiteral("--since"), QStringLiteral("yesterday")});
        QCOMPARE(since.exitCode, 2);
        QVERIFY(since.err.contains(QLatin1String("neither an age")));
        const HakoOutcome by =
            log({QStringLiteral("stats"), QStringLiteral("--by"), QStringLiteral("colour")});
        QCOMPARE(by.exitCode, 2);
        QVERIFY(by.err.contains(
            QLatin1String("--by must be prompt, version, program, tag, model or day")));
        const HakoOutcome missing =
            log({QStringLiteral("list")}, m_dir.filePath(QStringLiteral("nowhere.sqlite")));
        QCOMPARE(missing.exitCode, 1);
        QVERIFY(missing.err.contains(QLatin1String("there is no prompt log at")));
        QVERIFY(!QFileInfo::exists(m_dir.filePath(QStringLiteral("nowhere.sqlite"))));
        const HakoOutcome server =
            runHako({QStringLiteral("log"), QStringLiteral("list"), QStringLiteral("--log"),
                     QStringLiteral("postgresql://nobody@127.0.0.1:1/x")});
        QCOMPARE(server.exitCode, 1);
        QVERIFY2(server.err.contains(QLatin1String("cannot connect to the prompt log")),
                 qPrintable(server.err));
        const HakoOutcome show = log({QStringLiteral("show"), QStringLiteral("12345")});
        QCOMPARE(show.exitCode, 1);
        QVERIFY(show.err.contains(QLatin1String("no call '12345'")));
    }

    // PostgreSQL's client library (and the twenty it pulls in) is loaded when a PostgreSQL log
    // is opened, not by every command: a fifth of `hako run`'s start-up. Without it, opening
    // such a log says what to install.
    void postgresClientIsLoadedOnlyWhenUsed()
    {
        const QString program = m_dir.filePath(QStringLiteral("hello_pq.pdl"));
        QFile f(program);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write("text: hello\n");
        f.close();
        qputenv("LD_DEBUG", "libs"); // the dynamic loader names every library it opens
        const HakoOutcome hello = runHako({QStringLiteral("run"), QStringLiteral("--no-log"),
                                           QStringLiteral("--stream"), QStringLiteral("none"),
                                           program});
        qunsetenv("LD_DEBUG");
        QCOMPARE(hello.exitCode, 0);
        QVERIFY2(hello.err.contains(QLatin1String("libQt6Core")), "LD_DEBUG listed nothing");
        QVERIFY2(!hello.err.contains(QLatin1String("libpq.so")),
                 "hako run loaded the PostgreSQL client library");

        qputenv("HAKO_LIBPQ", QFile::encodeName(m_dir.filePath(QStringLiteral("no/libpq.so.5"))));
        const HakoOutcome server =
            runHako({QStringLiteral("log"), QStringLiteral("list"), QStringLiteral("--log"),
                     QStringLiteral("postgresql://nobody@127.0.0.1:1/x")});
        qunsetenv("HAKO_LIBPQ");
        QCOMPARE(server.exitCode, 1);
        QVERIFY2(server.err.contains(QLatin1String("Install the libpq5 package")),
                 qPrintable(server.err));
    }

    void listFiltersAndJson()
    {
        const HakoOutcome all = log({QStringLiteral("list")});
        QCOMPARE(all.exitCode, 0);
        QStringList l = lines(all.out);
        QCOMPARE(l.size(), 7); // header + 6
        QVERIFY(l[0].startsWith(QLatin1String("ID  TIME (UTC)")));
        QVERIFY(l[1].contains(QLatin1String("summarize"))); // newest first
        QVERIFY(l.last().contains(QLatin1String("old")));

        const HakoOutcome failed = log({QStringLiteral("list"), QStringLiteral("--status"),
                                        QStringLiteral("failed"), QStringLiteral("--json")});
        QCOMPARE(failed.exitCode, 0);
        const QJsonArray calls = QJsonDocument::fromJson(failed.out.toUtf8()).array();
        QCOMPARE(calls.size(), 1);
        QCOMPARE(calls[0].toObject().value(QLatin1String("prompt")).toString(),
                 QStringLiteral("react"));
        QCOMPARE(calls[0].toObject().value(QLatin1String("error")).toString(),
                 QStringLiteral("HTTP 500"));

        auto count = [this](QStringList args) {
            args.prepend(QStringLiteral("list"));
            args << QStringLiteral("--json");
            return QJsonDocument::fromJson(log(args).out.toUtf8()).array().size();
        };
        QCOMPARE(count({QStringLiteral("--tag"), QStringLiteral("env:prod")}), 3);
        QCOMPARE(count({QStringLiteral("--prompt"), QStringLiteral("summarize"),
                        QStringLiteral("--model"), QStringLiteral("gpt-4o-mini")}),
                 2);
        QCOMPARE(count({QStringLiteral("--model"), QStringLiteral("gpt-4o*")}), 5);
        QCOMPARE(count({QStringLiteral("--since"), QStringLiteral("2d")}), 5);
        QCOMPARE(count({QStringLiteral("--search"), QStringLiteral("要約")}), 2);
        QCOMPARE(count({QStringLiteral("--search"), QStringLiteral("銀河鉄道")}), 1);
        QCOMPARE(count({QStringLiteral("--limit"), QStringLiteral("2")}), 2);
    }

    void showPrintsTheWholeCall()
    {
        const HakoOutcome o = log({QStringLiteral("show"), QStringLiteral("call-1-0123456789")});
        QCOMPARE(o.exitCode, 0);
        QVERIFY2(o.out.contains(QLatin1String("prompt:      summarize")), qPrintable(o.out));
        QVERIFY(o.out.contains(QLatin1String("tokens:      800 in, 200 out")));
        QVERIFY(o.out.contains(QStringLiteral("--- user ---\n銀河鉄道の夜を要約して\n")));
        QVERIFY(o.out.contains(QLatin1String("--- reply ---\nreply 1\n")));
        // By number too (the first call stored is 1).
        const HakoOutcome byNumber =
            log({QStringLiteral("show"), QStringLiteral("1"), QStringLiteral("--json")});
        QCOMPARE(byNumber.exitCode, 0);
        QCOMPARE(QJsonDocument::fromJson(byNumber.out.toUtf8()).object().value(QLatin1String("id")),
                 QJsonValue(QStringLiteral("call-1-0123456789")));
    }

    void statsTableSumsAndSorts()
    {
        const HakoOutcome o =
            log({QStringLiteral("stats"), QStringLiteral("--by"), QStringLiteral("prompt"),
                 QStringLiteral("--sort"), QStringLiteral("tokens")});
        QCOMPARE(o.exitCode, 0);
        const QStringList l = lines(o.out);
        QCOMPARE(l.size(), 5); // header, 3 prompts, total
        QVERIFY(l[0].startsWith(QLatin1String("PROMPT")));
        QVERIFY(l[1].startsWith(QLatin1String("summarize")));
        QVERIFY(l[2].startsWith(QLatin1String("react")));
        QVERIFY(l[3].startsWith(QLatin1String("old")));
        QVERIFY(l[4].startsWith(QLatin1String("(total)")));
        // Calls logged without a prompt id are listed by their name (no id beside it).
        QCOMPARE(l[1].simplified(), QStringLiteral("summarize 3 100.0% 2400 600 3000 - 1100 1500"));
        QCOMPARE(l[2].simplified(), QStringLiteral("react 2 50.0% 400 100 500 - 300 400"));
        QCOMPARE(l[4].simplified(), QStringLiteral("(total) 6 83.3% 2810 710 3520 -"));
        // Aligned: every number column ends where its header does.
        const qsizetype end = l[0].indexOf(QLatin1String("TOKENS IN")) + 9;
        for (int i = 1; i < 5; ++i)
            QVERIFY2(l[i].at(end - 1).isDigit() && l[i].at(end) == QLatin1Char(' '),
                     qPrintable(l[i]));

        const HakoOutcome json =
            log({QStringLiteral("stats"), QStringLiteral("--by"), QStringLiteral("tag"),
                 QStringLiteral("--sort"), QStringLiteral("calls"), QStringLiteral("--json")});
        QCOMPARE(json.exitCode, 0);
        const QJsonArray rows = QJsonDocument::fromJson(json.out.toUtf8()).array();
        QCOMPARE(rows.size(), 2);
        QCOMPARE(rows[0].toObject().value(QLatin1String("calls")).toInt(), 3);
        int64_t in = 0;
        for (const QJsonValue& r : rows)
            in += r.toObject().value(QLatin1String("tokens_in")).toInteger();
        QCOMPARE(in, int64_t(2810));
    }

    void exportImportDeletePrune()
    {
        const QString out = m_dir.filePath(QStringLiteral("calls.jsonl"));
        const HakoOutcome ex = log({QStringLiteral("export"), QStringLiteral("--format"),
                                    QStringLiteral("jsonl"), QStringLiteral("--out"), out});
        QCOMPARE(ex.exitCode, 0);
        const QString copy = m_dir.filePath(QStringLiteral("copy.sqlite"));
        const HakoOutcome im = log({QStringLiteral("import"), out}, copy);
        QCOMPARE(im.exitCode, 0);
        QCOMPARE(im.out, QStringLiteral("imported 6 of 6 calls (0 were in the log already)\n"));
        QCOMPARE(log({QStringLiteral("stats")}, copy).out, log({QStringLiteral("stats")}).out);

        const HakoOutcome csv = log(
            {QStringLiteral("export"), QStringLiteral("--format"), QStringLiteral("csv")}, copy);
        QCOMPARE(csv.exitCode, 0);
        QVERIFY(csv.out.startsWith(QLatin1String("id,run_id,started_at,prompt,")));
        QCOMPARE(lines(csv.out).size(), 7);

        const HakoOutcome del = log({QStringLiteral("delete-run"), QStringLiteral("r1")}, copy);
        QCOMPARE(del.exitCode, 0);
        QCOMPARE(del.out, QStringLiteral("deleted 2 calls of run r1\n"));
        QCOMPARE(log({QStringLiteral("delete-run"), QStringLiteral("r1")}, copy).exitCode, 1);
        const HakoOutcome prune = log(
            {QStringLiteral("prune"), QStringLiteral("--older-than"), QStringLiteral("30d")}, copy);
        QCOMPARE(prune.exitCode, 0);
        QVERIFY(prune.out.startsWith(QLatin1String("deleted 1 calls started before")));
        QCOMPARE(lines(log({QStringLiteral("list")}, copy).out).size(), 4);
        QCOMPARE(log({QStringLiteral("prune")}, copy).exitCode, 2);

        QFile broken(m_dir.filePath(QStringLiteral("broken.jsonl")));
        QVERIFY(broken.open(QIODevice::WriteOnly));
        broken.write("{\"id\": \"x\", \"started_at\": \"soon\"}\n");
        broken.close();
        const HakoOutcome bad = log({QStringLiteral("import"), broken.fileName()}, copy);
        QCOMPARE(bad.exitCode, 1);
        QVERIFY2(bad.err.contains(QLatin1String("line 1: 'started_at' must be an ISO 8601 time")),
                 qPrintable(bad.err));
    }
};

QTEST_GUILESS_MAIN(TestLogCli)
#include "tst_logcli.moc"
