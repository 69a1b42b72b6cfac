// Scores of logged calls on both stores: a person's thumbs and note and an evaluator's number
// kept with their call, replaced when given again, found by the Prompt log's `score:` filter,
// summed per evaluator and over time, gone with their calls; and a log of schema version 2
// (before scores) upgrading in place with every call still there.
#include "promptlogstores.h"

#include "core/promptlog/callexchange.h"
#include "core/promptlog/promptlog.h"

#include <QBuffer>

#include <QDateTime>
#include <QProcess>
#include <QTemporaryDir>
#include <QTest>

#include <cmath>

using namespace hako::promptlog;

namespace {

constexpr int64_t kHour = 3600 * 1000;

CallRecord call(const QString& uid, const QString& run, int64_t startedAt)
{
    CallRecord c;
    c.uid = uid;
    c.runId = run;
    c.traceNodeId = uid + QStringLiteral("-node");
    c.promptName = QStringLiteral("answer");
    c.model = QStringLiteral("m");
    c.startedAt = startedAt;
    c.reply = QStringLiteral("ok");
    return c;
}

CallScore thumbs(const QString& uid, bool up, const QString& note)
{
    CallScore s;
    s.callUid = uid;
    s.name = QStringLiteral("human");
    s.kind = ScoreValueKind::Bool;
    s.number = up ? 1 : 0;
    s.passed = up;
    s.note = note;
    s.source = ScoreSource::Human;
    s.author = QStringLiteral("aiko");
    return s;
}

CallScore online(const QString& uid, const QString& name, double value, bool passed, int64_t at)
{
    CallScore s;
    s.callUid = uid;
    s.name = name;
    s.kind = ScoreValueKind::Number;
    s.number = value;
    s.passed = passed;
    s.source = ScoreSource::Online;
    s.createdAt = at;
    return s;
}

QStringList uidsOf(const QList<CallRecord>& calls)
{
    QStringList out;
    for (const CallRecord& c : calls)
        out.append(c.uid);
    out.sort();
    return out;
}

// What a log of schema version 2 is made of, after the version-1 fixture (tests/data): the
// step that version 2 of Hako applied, as it shipped.
const char* const kSqliteStep2 = R"(
ALTER TABLE calls ADD COLUMN prompt_id TEXT NOT NULL DEFAULT '';
ALTER TABLE calls ADD COLUMN program_id TEXT NOT NULL DEFAULT '';
ALTER TABLE calls ADD COLUMN program_name TEXT NOT NULL DEFAULT '';
ALTER TABLE calls ADD COLUMN version TEXT NOT NULL DEFAULT '';
ALTER TABLE calls ADD COLUMN origin TEXT NOT NULL DEFAULT 'program';
UPDATE calls SET origin = 'playground'
  WHERE id IN (SELECT call_id FROM call_tags WHERE tag = 'playground');
UPDATE calls SET origin = 'judge'
  WHERE prompt = 'eval:judge' OR id IN (SELECT call_id FROM call_tags WHERE tag = 'eval:judge');
CREATE INDEX calls_prompt_id ON calls(prompt_id, started_at);
CREATE INDEX calls_origin ON calls(origin, started_at);
UPDATE meta SET value = '2' WHERE key = 'schema_version';
)";
const char* const kPostgresStep2 = R"(
ALTER TABLE calls ADD COLUMN prompt_id TEXT NOT NULL DEFAULT '',
  ADD COLUMN program_id TEXT NOT NULL DEFAULT '',
  ADD COLUMN program_name TEXT NOT NULL DEFAULT '',
  ADD COLUMN version TEXT NOT NULL DEFAULT '',
  ADD COLUMN origin TEXT NOT NULL DEFAULT 'program';
UPDATE calls SET origin = 'playground'
  WHERE id IN (SELECT call_id FROM call_tags WHERE tag = 'playground');
UPDATE calls SET origin = 'judge'
  WHERE prompt = 'eval:judge' OR id IN (SELECT call_id FROM call_tags WHERE tag = 'eval:judge');
CREATE INDEX calls_prompt_id ON calls(prompt_id, started_at);
CREATE INDEX calls_origin ON calls(origin, started_at);
UPDATE meta SET value = '2' WHERE key = 'schema_version';
)";

} // namespace

// Its own freshLog() (a schema-2 store on request).
class TestCallScores : public QObject, public promptlogtest::PromptLogStores {
    Q_OBJECT

    bool runSql(const QString& backend, const QString& spec, const QStringList& files)
    {
        for (const QString& file : files) {
            QProcess p;
            p.setStandardInputFile(file);
            if (backend == QLatin1String("postgresql"))
                p.start(QStringLiteral("psql"), {QStringLiteral("-q"), QStringLiteral("-v"),
                                                 QStringLiteral("ON_ERROR_STOP=1"), spec});
            else
                p.start(QStringLiteral("sqlite3"), {QStringLiteral("-bail"), spec});
            if (!p.waitForFinished(60000) || p.exitStatus() != QProcess::NormalExit ||
                p.exitCode() != 0) {
                m_lastError = QString::fromUtf8(p.readAllStandardError()) + p.errorString();
                return false;
            }
        }
        return true;
    }

    // A new store; `v2` first makes it a log of schema version 2 holding four calls.
    std::unique_ptr<PromptLog> freshLog(const QString& backend, bool v2 = false)
    {
        ++m_n;
        const bool pg = backend == QLatin1String("postgresql");
        const QString spec = pg ? m_pg.createDatabase(QStringLiteral("s%1").arg(m_n))
                                : m_dir.filePath(QStringLiteral("log%1.sqlite").arg(m_n));
        if (spec.isEmpty()) {
            m_lastError = QStringLiteral("createdb failed: ") + m_pg.lastOutput();
            return nullptr;
        }
        if (v2) {
            const QString step = m_dir.filePath(QStringLiteral("step2-%1.sql").arg(m_n));
            QFile f(step);
            if (!f.open(QIODevice::WriteOnly) || f.write(pg ? kPostgresStep2 : kSqliteStep2) < 0)
                return nullptr;
            f.close();
            const QString v1 = QStringLiteral(HAKO_TEST_DATA_DIR "/promptlog/schema_v1.%1.sql")
                                   .arg(pg ? QStringLiteral("postgres") : QStringLiteral("sqlite"));
            if (!runSql(backend, spec, {v1, step}))
                return nullptr;
        }
        PromptLogOptions options;
        options.batchIntervalMs = 20;
        QString error;
        auto log = PromptLog::open(spec, &error, std::move(options));
        m_lastError = error;
        return error.isEmpty() ? std::move(log) : nullptr;
    }

private Q_SLOTS:
    void initTestCase() { startStores(); }

    void scoresStayWithTheirCalls_data() { addBackends(); }
    void scoresStayWithTheirCalls()
    {
        QFETCH(QString, backend);
        if (backend == QLatin1String("postgresql") && !m_pgUp)
            QSKIP(qPrintable(m_pgSkip));
        auto log = freshLog(backend);
        QVERIFY2(log, qPrintable(m_lastError));
        const int64_t now = QDateTime::currentMSecsSinceEpoch();
        // A score may come before its call is committed (an evaluator faster than the batch).
        QVERIFY(log->setScore(online(QStringLiteral("c1"), QStringLiteral("exact"), 1, true, 0)));
        log->record(call(QStringLiteral("c1"), QStringLiteral("run-a"), now));
        log->record(call(QStringLiteral("c2"), QStringLiteral("run-a"), now));
        log->record(call(QStringLiteral("c3"), QStringLiteral("run-b"), now));
        QVERIFY(log->flush());
        QVERIFY(log->setScore(thumbs(QStringLiteral("c2"), true, QStringLiteral("fine"))));
        QVERIFY(log->setScore(online(QStringLiteral("c2"), QStringLiteral("exact"), 0, false, 0)));
        // Changing one's mind replaces the person's score, keeping the evaluator's.
        QVERIFY(log->setScore(thumbs(QStringLiteral("c2"), false, QStringLiteral("wrong year"))));

        ScoreFilter ofC2;
        ofC2.callUids = {QStringLiteral("c2")};
        const auto c2 = log->scores(ofC2);
        QVERIFY2(c2, c2 ? "" : qPrintable(c2.error().message));
        QCOMPARE(c2->size(), 2);
        const CallScore& human = c2->at(0).source == ScoreSource::Human ? c2->at(0) : c2->at(1);
        QCOMPARE(human.note, QStringLiteral("wrong year"));
        QCOMPARE(human.passed, std::optional<bool>(false));
        QCOMPARE(human.author, QStringLiteral("aiko"));
        QCOMPARE(human.text(), QStringLiteral("✗"));
        QVERIFY(std::abs(human.createdAt - now) < 3600 * 1000);

        // `score:✗` finds the call with a failing score; `score:✓` the one that only passed.
        CallFilter failed;
        failed.scored = CallFilter::Scored::Failed;
        QCOMPARE(uidsOf(log->list(failed).value()), QStringList{QStringLiteral("c2")});
        CallFilter passed;
        passed.scored = CallFilter::Scored::Passed;
        QCOMPARE(uidsOf(log->list(passed).value()), QStringList{QStringLiteral("c1")});
        // A trace node's call (how an annotation in the window finds it).
        CallFilter node;
        node.runId = QStringLiteral("run-a");
        node.traceNodeId = QStringLiteral("c2-node");
        QCOMPARE(uidsOf(log->list(node).value()), QStringList{QStringLiteral("c2")});
        CallFilter any;
        any.scored = CallFilter::Scored::Any;
        QCOMPARE(log->count(any).value(), int64_t(2));

        const auto stats = log->scoreStats();
        QVERIFY2(stats, stats ? "" : qPrintable(stats.error().message));
        QCOMPARE(stats->size(), 2);
        QCOMPARE(stats->at(0).name, QStringLiteral("exact"));
        QCOMPARE(stats->at(0).scores, int64_t(2));
        QCOMPARE(stats->at(0).mean, std::optional<double>(0.5));
        QCOMPARE(stats->at(0).passed, int64_t(1));
        QCOMPARE(stats->at(1).name, QStringLiteral("human"));

        QVERIFY(log->removeScore(QStringLiteral("c2"), QStringLiteral("human"), ScoreSource::Human)
                    .value());
        QVERIFY(!log->removeScore(QStringLiteral("c2"), QStringLiteral("human"), ScoreSource::Human)
                     .value());
        QCOMPARE(log->scores(ofC2)->size(), 1);
        // Deleting a run deletes its calls' scores.
        QCOMPARE(log->deleteRun(QStringLiteral("run-a")).value(), int64_t(2));
        QCOMPARE(log->scores()->size(), 0);
    }

    void scoresOverTime_data() { addBackends(); }
    void scoresOverTime()
    {
        QFETCH(QString, backend);
        if (backend == QLatin1String("postgresql") && !m_pgUp)
            QSKIP(qPrintable(m_pgSkip));
        auto log = freshLog(backend);
        QVERIFY2(log, qPrintable(m_lastError));
        const int64_t from = 1700000000000 - 1700000000000 % kHour;
        const QString judge = QStringLiteral("judge");
        QVERIFY(log->setScore(online(QStringLiteral("a"), judge, 0.2, false, from + 10)));
        QVERIFY(log->setScore(online(QStringLiteral("b"), judge, 0.6, true, from + kHour - 1)));
        QVERIFY(log->setScore(online(QStringLiteral("c"), judge, 1.0, true, from + 2 * kHour)));
        QVERIFY(log->setScore(online(QStringLiteral("d"), judge, 1.0, true, from + 5 * kHour)));
        SeriesRange range;
        range.fromMs = from;
        range.bucketMs = kHour;
        range.buckets = 3;
        const auto series = log->scoreSeries(range);
        QVERIFY2(series, series ? "" : qPrintable(series.error().message));
        QCOMPARE(series->size(), 1);
        QCOMPARE(series->at(0).name, judge);
        QCOMPARE(series->at(0).count, (std::vector<int64_t>{2, 0, 1}));
        QCOMPARE(series->at(0).mean[0], 0.4);
        QVERIFY(std::isnan(series->at(0).mean[1]));
        QCOMPARE(series->at(0).mean[2], 1.0);
    }

    void exportCarriesScoresToAnotherLog_data() { addBackends(); }
    void exportCarriesScoresToAnotherLog()
    {
        QFETCH(QString, backend);
        if (backend == QLatin1String("postgresql") && !m_pgUp)
            QSKIP(qPrintable(m_pgSkip));
        auto from = freshLog(backend);
        QVERIFY2(from, qPrintable(m_lastError));
        const int64_t now = QDateTime::currentMSecsSinceEpoch();
        QVERIFY(from->insertNow({call(QStringLiteral("e1"), QStringLiteral("r"), now),
                                 call(QStringLiteral("e2"), QStringLiteral("r"), now)}));
        QVERIFY(from->setScore(thumbs(QStringLiteral("e1"), false, QStringLiteral("年が違う"))));
        QVERIFY(from->setScore(
            online(QStringLiteral("e1"), QStringLiteral("exact"), 0.25, false, now - 5000)));
        QBuffer file;
        QVERIFY(file.open(QIODevice::ReadWrite));
        QCOMPARE(exportCalls(*from, {}, ExportFormat::Jsonl, file).value(), int64_t(2));
        auto to = freshLog(QStringLiteral("sqlite"));
        QVERIFY2(to, qPrintable(m_lastError));
        file.seek(0);
        auto imported = importCalls(*to, file);
        QVERIFY2(imported, imported ? "" : qPrintable(imported.error().message));
        QCOMPARE(imported->added, int64_t(2));
        auto strip = [](QList<CallScore> scores) {
            for (CallScore& s : scores)
                s.id = 0;
            return scores;
        };
        QCOMPARE(strip(to->scores().value()), strip(from->scores().value()));
        QCOMPARE(to->scores()->size(), 2);
    }

    void schemaTwoUpgradesInPlace_data() { addBackends(); }
    void schemaTwoUpgradesInPlace()
    {
        QFETCH(QString, backend);
        if (backend == QLatin1String("postgresql") && !m_pgUp)
            QSKIP(qPrintable(m_pgSkip));
        auto log = freshLog(backend, true);
        if (!log && m_lastError.contains(QLatin1String("sqlite3")))
            QSKIP("the sqlite3 command is not installed");
        QVERIFY2(log, qPrintable(m_lastError));
        CallFilter oldest;
        oldest.oldestFirst = true;
        const auto calls = log->list(oldest, true);
        QVERIFY2(calls, calls ? "" : qPrintable(calls.error().message));
        QCOMPARE(uidsOf(*calls), (QStringList{QStringLiteral("old-1"), QStringLiteral("old-2"),
                                              QStringLiteral("old-3"), QStringLiteral("old-4")}));
        QCOMPARE(calls->at(1).origin, CallOrigin::Judge);
        QCOMPARE(calls->at(0).reply, QStringLiteral("r"));
        // An old call takes a score, and the filter finds it.
        QVERIFY(log->setScore(thumbs(QStringLiteral("old-4"), false, QStringLiteral("no"))));
        CallFilter failed;
        failed.scored = CallFilter::Scored::Failed;
        QCOMPARE(uidsOf(log->list(failed).value()), QStringList{QStringLiteral("old-4")});
    }
};

QTEST_GUILESS_MAIN(TestCallScores)
#include "tst_callscores.moc"
