// The prompt log keyed by prompt identity, against both stores (SQLite and a PostgreSQL server
// this test starts; skipped with the reason when the server binaries are missing): the ids,
// names, version and origin read back and travel through export/import; the table by prompt
// has one row per prompt id (not per name), by program and by version likewise; origin and
// prompt id filter; a log of schema version 1 upgrades, telling old judge and playground calls
// apart.
#include "promptlogstores.h"

#include "core/promptlog/callexchange.h"
#include "core/promptlog/promptlog.h"

#include <QBuffer>
#include <QCoreApplication>
#include <QDateTime>
#include <QJsonArray>
#include <QJsonObject>
#include <QTemporaryDir>
#include <QTest>

using namespace hako::promptlog;

namespace {

const int64_t kNow = QDateTime::currentMSecsSinceEpoch();

CallRecord call(const QString& promptId, const QString& prompt, const QString& program, int64_t in,
                int64_t out, CallOrigin origin = CallOrigin::Program)
{
    static int n = 0;
    CallRecord c;
    c.uid = QStringLiteral("call-%1").arg(++n);
    c.runId = QStringLiteral("run-%1").arg(n);
    c.promptId = promptId;
    c.promptName = prompt;
    c.programId = program.isEmpty() ? QString() : QStringLiteral("prog-") + program;
    c.programName = program;
    c.programPath = QStringLiteral("/work/%1.pdl").arg(program);
    c.programHash = QStringLiteral("hash-") + program;
    c.origin = origin;
    c.model = QStringLiteral("m");
    c.promptTokens = in;
    c.completionTokens = out;
    c.startedAt = kNow - 100000 + n;
    c.reply = QStringLiteral("r");
    return c;
}

const StatsRow* row(const QList<StatsRow>& rows, const QString& key)
{
    for (const StatsRow& r : rows)
        if (r.key == key)
            return &r;
    return nullptr;
}

} // namespace

// Its own freshLog() (a schema-1 fixture on request) is the one FRESH_LOG calls.
class TestPromptIdentityLog : public QObject, public promptlogtest::PromptLogStores {
    Q_OBJECT

    // A new store's spec; `v1Fixture` first loads the schema-1 log of tests/data into it.
    QString freshSpec(const QString& backend, bool v1Fixture = false)
    {
        ++m_n;
        const QString fixture =
            QStringLiteral(HAKO_TEST_DATA_DIR "/promptlog/schema_v1.%1.sql")
                .arg(backend == QLatin1String("postgresql") ? QStringLiteral("postgres")
                                                            : QStringLiteral("sqlite"));
        QString spec;
        QProcess p;
        if (backend == QLatin1String("postgresql")) {
            spec = m_pg.createDatabase(QStringLiteral("i%1").arg(m_n));
            if (spec.isEmpty() || !v1Fixture)
                return spec;
            p.start(QStringLiteral("psql"),
                    {QStringLiteral("-q"), QStringLiteral("-v"), QStringLiteral("ON_ERROR_STOP=1"),
                     spec, QStringLiteral("-f"), fixture});
        } else {
            spec = m_dir.filePath(QStringLiteral("log%1.sqlite").arg(m_n));
            if (!v1Fixture)
                return spec;
            p.setStandardInputFile(fixture);
            p.start(QStringLiteral("sqlite3"), {spec});
        }
        if (!p.waitForFinished(60000) || p.exitStatus() != QProcess::NormalExit ||
            p.exitCode() != 0) {
            m_lastError = QString::fromUtf8(p.readAllStandardError()) + p.errorString();
            return {};
        }
        return spec;
    }

    std::unique_ptr<PromptLog> freshLog(const QString& backend, bool v1Fixture = false)
    {
        const QString spec = freshSpec(backend, v1Fixture);
        if (spec.isEmpty())
            return nullptr;
        PromptLogOptions options;
        options.batchIntervalMs = 20;
        QString error;
        auto log = PromptLog::open(spec, &error, std::move(options));
        m_lastError = error;
        return error.isEmpty() ? std::move(log) : nullptr;
    }

private Q_SLOTS:
    void initTestCase() { startStores(); }

    void identityReadsBackAndTravels_data() { addBackends(); }
    void identityReadsBackAndTravels()
    {
        FRESH_LOG(log);
        CallRecord c = call(QStringLiteral("0a1b2c3d4e5f"), QStringLiteral("Summary"),
                            QStringLiteral("Reports"), 10, 2, CallOrigin::Experiment);
        c.version = QStringLiteral("1f2e3d4c");
        QVERIFY(log->insertNow({c}));
        const auto listed = log->list({}, true);
        QVERIFY(listed);
        QCOMPARE(listed->size(), 1);
        CallRecord back = listed->first();
        QCOMPARE(back.promptId, c.promptId);
        QCOMPARE(back.programId, c.programId);
        QCOMPARE(back.programName, c.programName);
        QCOMPARE(back.version, c.version);
        QCOMPARE(back.origin, CallOrigin::Experiment);
        const auto read = CallRecord::fromJson(back.toJson());
        QVERIFY(read.ok());
        back.id = 0;
        QCOMPARE(read.value(), back);
        // An export line written before origins existed is read by the old rule.
        QJsonObject old = c.toJson();
        old.remove(QStringLiteral("origin"));
        old.insert(QStringLiteral("tags"), QJsonArray{QStringLiteral("eval:judge")});
        QCOMPARE(CallRecord::fromJson(old)->origin, CallOrigin::Judge);
    }

    void statsKeyedByIdentity_data() { addBackends(); }
    void statsKeyedByIdentity()
    {
        FRESH_LOG(log);
        // One prompt under two names (renamed), two prompts of two programs sharing `answer`,
        // a judge call without an id.
        std::vector<CallRecord> calls = {
            call(QStringLiteral("aaaaaaaaaaaa"), QStringLiteral("answer"), QStringLiteral("A"), 10,
                 1),
            call(QStringLiteral("aaaaaaaaaaaa"), QStringLiteral("reply"), QStringLiteral("A"), 20,
                 2),
            call(QStringLiteral("bbbbbbbbbbbb"), QStringLiteral("answer"), QStringLiteral("B"), 40,
                 4),
            call(QString(), QStringLiteral("eval:judge"), QString(), 80, 8, CallOrigin::Judge),
        };
        calls[1].version = QStringLiteral("c0ffee");
        QVERIFY(log->insertNow(calls));
        const auto byPrompt = log->stats(StatsGroup::Prompt);
        QVERIFY(byPrompt);
        QCOMPARE(byPrompt->size(), 3);
        const StatsRow* a = row(*byPrompt, QStringLiteral("aaaaaaaaaaaa"));
        QVERIFY(a);
        QCOMPARE(a->calls, 2);
        QCOMPARE(a->tokens(), 33);
        QCOMPARE(a->name, QStringLiteral("A › reply")); // the newest call's names
        const StatsRow* b = row(*byPrompt, QStringLiteral("bbbbbbbbbbbb"));
        QVERIFY(b);
        QCOMPARE(b->tokens(), 44);
        QCOMPARE(b->name, QStringLiteral("B › answer"));
        QVERIFY(row(*byPrompt, QStringLiteral("eval:judge")));

        const auto byProgram = log->stats(StatsGroup::Program);
        QVERIFY(byProgram);
        QCOMPARE(byProgram->size(), 3);
        QCOMPARE(row(*byProgram, QStringLiteral("prog-A"))->calls, 2);
        QCOMPARE(row(*byProgram, QStringLiteral("prog-A"))->name, QStringLiteral("A"));

        // A version is the library's commit, else the program's content hash.
        const auto byVersion = log->stats(StatsGroup::Version);
        QVERIFY(byVersion);
        QVERIFY(row(*byVersion, QStringLiteral("c0ffee")));
        QCOMPARE(row(*byVersion, QStringLiteral("hash-A"))->calls, 1);

        // The series use the same keys.
        SeriesRange range = SeriesRange::ending(kNow, 3600 * 1000, 4);
        const auto series = log->series(StatsGroup::Prompt, {}, range);
        QVERIFY(series);
        bool found = false;
        for (const TimeSeries& s : *series)
            found = found || s.key == QLatin1String("aaaaaaaaaaaa");
        QVERIFY(found);
    }

    void filtersByOriginAndId_data() { addBackends(); }
    void filtersByOriginAndId()
    {
        FRESH_LOG(log);
        QVERIFY(log->insertNow({
            call(QStringLiteral("aaaaaaaaaaaa"), QStringLiteral("p"), QStringLiteral("A"), 1, 1),
            call(QString(), QStringLiteral("eval:judge"), QString(), 1, 1, CallOrigin::Judge),
            call(QString(), QStringLiteral("playground"), QString(), 1, 1, CallOrigin::Playground),
            call(QStringLiteral("aaaaaaaaaaaa"), QStringLiteral("p"), QStringLiteral("A"), 1, 1,
                 CallOrigin::Experiment),
            call(QString(), QStringLiteral("span"), QString(), 1, 1, CallOrigin::Received),
        }));
        for (CallOrigin o : {CallOrigin::Program, CallOrigin::Judge, CallOrigin::Playground,
                             CallOrigin::Experiment, CallOrigin::Received}) {
            CallFilter f;
            f.origin = o;
            const auto listed = log->list(f);
            QVERIFY(listed);
            QCOMPARE(listed->size(), 1);
            QCOMPARE(listed->first().origin, o);
        }
        CallFilter byId;
        byId.promptId = QStringLiteral("aaaaaaaaaaaa");
        QCOMPARE(log->count(byId).value(), 2);
        byId.origin = CallOrigin::Program;
        QCOMPARE(log->count(byId).value(), 1);
        CallFilter program;
        program.programId = QStringLiteral("prog-A");
        QCOMPARE(log->count(program).value(), 2);
    }

    void schemaOneUpgrades_data() { addBackends(); }
    void schemaOneUpgrades()
    {
        QFETCH(QString, backend);
        if (backend == QLatin1String("postgresql") && !m_pgUp)
            QSKIP(qPrintable(m_pgSkip));
        auto log = freshLog(backend, true);
        if (!log && backend == QLatin1String("sqlite") &&
            m_lastError.contains(QLatin1String("sqlite3")))
            QSKIP("the sqlite3 command is not installed");
        QVERIFY2(log, qPrintable(m_lastError));
        CallFilter oldest;
        oldest.oldestFirst = true;
        const auto calls = log->list(oldest);
        QVERIFY2(calls, calls ? "" : qPrintable(calls.error().message));
        QCOMPARE(calls->size(), 4);
        QCOMPARE(calls->at(0).origin, CallOrigin::Program);
        QCOMPARE(calls->at(1).origin, CallOrigin::Judge);
        QCOMPARE(calls->at(2).origin, CallOrigin::Playground);
        QCOMPARE(calls->at(3).origin, CallOrigin::Program);
        QVERIFY(calls->at(0).promptId.isEmpty());
        // Old calls are keyed by their name; new ones record and count as usual.
        CallRecord fresh = call(QStringLiteral("aaaaaaaaaaaa"), QStringLiteral("answer"),
                                QStringLiteral("A"), 1, 1);
        QVERIFY(log->insertNow({fresh}));
        const auto byPrompt = log->stats(StatsGroup::Prompt);
        QVERIFY(byPrompt);
        QCOMPARE(row(*byPrompt, QStringLiteral("answer"))->calls, 2);
        QCOMPARE(row(*byPrompt, QStringLiteral("aaaaaaaaaaaa"))->calls, 1);
        CallFilter judges;
        judges.origin = CallOrigin::Judge;
        QCOMPARE(log->count(judges).value(), 1);
    }
};

QTEST_GUILESS_MAIN(TestPromptIdentityLog)
#include "tst_promptidentitylog.moc"
