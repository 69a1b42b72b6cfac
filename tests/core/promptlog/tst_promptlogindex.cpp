// The SQLite prompt log's full-text index (`hako_trigram`, schema step 5): search finds exactly
// the calls whose text holds the term (ASCII case ignored), whatever the index keeps, and a log
// written before step 5 is upgraded in place, keeping its index, and stays searchable.
#include "core/promptlog/promptlog.h"

#include <QCoreApplication>
#include <QFile>
#include <QHash>
#include <QJsonArray>
#include <QJsonObject>
#include <QProcess>
#include <QRandomGenerator>
#include <QTemporaryDir>
#include <QTest>

#include <optional>

using namespace hako::promptlog;

namespace {

const int64_t kStart = 1767225600000; // 2026-01-01

QStringList sortedUids(const QList<CallRecord>& calls)
{
    QStringList out;
    for (const CallRecord& c : calls)
        out.append(c.uid);
    out.sort();
    return out;
}

// What the log searches: the messages' text and the reply (searchableText()), ASCII case
// ignored and nothing else folded.
QString asciiLower(QString s)
{
    for (QChar& c : s) {
        if (c.unicode() >= u'A' && c.unicode() <= u'Z')
            c = QChar(c.unicode() + 32);
    }
    return s;
}

// The steps a log of schema version 1 (tests/data) took to version 4, as they shipped.
const char* const kSteps2To4 = R"(
ALTER TABLE calls ADD COLUMN prompt_id TEXT NOT NULL DEFAULT '';
ALTER TABLE calls ADD COLUMN program_id TEXT NOT NULL DEFAULT '';
ALTER TABLE calls ADD COLUMN program_name TEXT NOT NULL DEFAULT '';
ALTER TABLE calls ADD COLUMN version TEXT NOT NULL DEFAULT '';
ALTER TABLE calls ADD COLUMN origin TEXT NOT NULL DEFAULT 'program';
CREATE INDEX calls_prompt_id ON calls(prompt_id, started_at);
CREATE INDEX calls_origin ON calls(origin, started_at);
DROP INDEX calls_stats;
CREATE INDEX calls_stats ON calls(started_at, prompt_id, prompt, program_name, model, status,
  tokens_prompt, tokens_completion, cost, latency_ms, tags, origin);
CREATE TABLE call_scores(
  id INTEGER PRIMARY KEY,
  call_uid TEXT NOT NULL,
  name TEXT NOT NULL,
  kind TEXT NOT NULL,
  value_num REAL,
  value_label TEXT NOT NULL DEFAULT '',
  passed INTEGER,
  note TEXT NOT NULL DEFAULT '',
  source TEXT NOT NULL,
  created_at INTEGER NOT NULL,
  author TEXT NOT NULL DEFAULT '',
  UNIQUE(call_uid, name, source));
CREATE INDEX call_scores_time ON call_scores(created_at, name);
ALTER TABLE calls ADD COLUMN resolved_model TEXT NOT NULL DEFAULT '';
ALTER TABLE calls ADD COLUMN response_model TEXT NOT NULL DEFAULT '';
-- What a version-4 Hako wrote for the fixture's first call: its text, indexed by SQLite's own
-- trigram tokenizer.
UPDATE call_content SET messages = '[{"role":"user","content":"銀河鉄道の夜"}]' WHERE id = 1;
INSERT INTO call_fts(rowid, body) VALUES (1, '銀河鉄道の夜' || char(10) || 'r' || char(10));
UPDATE meta SET value = '4' WHERE key = 'schema_version';
)";

} // namespace

class TestPromptLogIndex : public QObject {
    Q_OBJECT

    QTemporaryDir m_dir;

    bool m_noSqlite = false;

    // `sql` run by the sqlite3 command on `path`; its output, or nothing when it failed (and
    // m_noSqlite when the command is not installed).
    std::optional<QString> sqlite(const QString& path, const QString& sql)
    {
        QProcess p;
        p.start(QStringLiteral("sqlite3"), {QStringLiteral("-bail"), path});
        if (!p.waitForStarted()) {
            m_noSqlite = true;
            return std::nullopt;
        }
        p.write(sql.toUtf8());
        p.closeWriteChannel();
        if (!p.waitForFinished(60000) || p.exitStatus() != QProcess::NormalExit ||
            p.exitCode() != 0) {
            qWarning().noquote() << p.readAllStandardError();
            return std::nullopt;
        }
        return QString::fromUtf8(p.readAllStandardOutput()).trimmed();
    }

private Q_SLOTS:
    void searchFindsExactlyTheCallsHoldingTheTerm()
    {
        // Random texts of pieces that repeat (the index keeps each trigram of a call once),
        // differ in ASCII case and in case beyond ASCII, and mix scripts and surrogate pairs.
        const QStringList pieces = {
            QStringLiteral("ab"),   QStringLiteral("AB"),   QStringLiteral("abab"),
            QStringLiteral("c"),    QStringLiteral(" "),    QStringLiteral("\n"),
            QStringLiteral("銀河"), QStringLiteral("鉄道"), QStringLiteral("の"),
            QStringLiteral("Ä"),    QStringLiteral("ä"),    QStringLiteral("\u212A"),
            QStringLiteral("Ｚ"),   QStringLiteral("ｚ"),   QStringLiteral("\U0001F469"),
            QStringLiteral("%"),    QStringLiteral("_"),    QStringLiteral("'")};
        QRandomGenerator rng(20261128);
        auto text = [&](int maxPieces) {
            QString t;
            for (int k = rng.bounded(1, maxPieces); k > 0; --k)
                t += pieces.at(rng.bounded(int(pieces.size())));
            return t;
        };
        auto log = PromptLog::open(m_dir.filePath(QStringLiteral("random.sqlite")));
        QVERIFY(log);
        QHash<QString, QString> searchable; // uid → the text search looks in
        for (int i = 0; i < 400; ++i) {
            CallRecord c;
            c.promptName = QStringLiteral("p");
            c.model = QStringLiteral("m");
            c.startedAt = kStart + i;
            c.messages = QJsonArray{QJsonObject{{QStringLiteral("role"), QStringLiteral("user")},
                                                {QStringLiteral("content"), text(12)}}};
            c.reply = text(6);
            const QString uid = log->record(c);
            searchable.insert(uid, searchableText(c.messages, c.reply) + QLatin1String("\n\n"));
        }
        QVERIFY(log->flush());
        int found = 0;
        for (int i = 0; i < 300; ++i) {
            // Terms of one character or more, at the very end of a text too (the indexed text
            // ends in two line breaks, so that such a term begins a trigram); a third of them
            // a single character, the index's hardest case.
            QString term;
            while (term.isEmpty() || term.size() > 6 || term.trimmed().isEmpty()) {
                term = text(3);
                if (i % 3 == 0) {
                    const QList<uint> points = term.toUcs4();
                    term =
                        QString::fromUcs4(reinterpret_cast<const char32_t*>(points.constData()), 1);
                }
            }
            QStringList expected;
            for (auto it = searchable.cbegin(); it != searchable.cend(); ++it) {
                if (asciiLower(it.value()).contains(asciiLower(term)))
                    expected.append(it.key());
            }
            expected.sort();
            CallFilter f;
            f.text = QLatin1Char('"') + term + QLatin1Char('"'); // one term, spaces and all
            auto got = log->list(f);
            if (!got)
                QFAIL(qPrintable(got.error().message));
            QVERIFY2(sortedUids(*got) == expected,
                     qPrintable(QStringLiteral("term '%1': %2 calls, expected %3")
                                    .arg(term)
                                    .arg(got->size())
                                    .arg(expected.size())));
            found += int(expected.size());
        }
        QVERIFY(found > 300); // the terms were found, not only missed
        auto check = log->integrityCheck();
        QVERIFY(check);
        QCOMPARE(*check, QStringLiteral("ok"));
    }

    void logOfSchema4IsUpgradedInPlace()
    {
        const QString path = m_dir.filePath(QStringLiteral("v4.sqlite"));
        QFile v1(QStringLiteral(HAKO_TEST_DATA_DIR "/promptlog/schema_v1.sqlite.sql"));
        QVERIFY(v1.open(QIODevice::ReadOnly));
        const bool made = bool(sqlite(path, QString::fromUtf8(v1.readAll() + kSteps2To4)));
        if (m_noSqlite)
            QSKIP("the sqlite3 command is not installed");
        QVERIFY(made);
        QCOMPARE(
            sqlite(path, QStringLiteral("SELECT value FROM meta WHERE key = 'schema_version'")),
            std::optional<QString>(QStringLiteral("4")));

        QString error;
        auto log = PromptLog::open(path, &error);
        QVERIFY(log);
        QVERIFY2(error.isEmpty(), qPrintable(error));
        auto search = [&](const QString& term) {
            CallFilter f;
            f.text = term;
            auto got = log->list(f);
            return got ? sortedUids(*got) : QStringList{got.error().message};
        };
        // The calls it had are all there, and their text is found as before.
        QCOMPARE(*log->count({}), int64_t(4));
        QCOMPARE(search(QStringLiteral("銀河")), QStringList{QStringLiteral("old-1")});
        QCOMPARE(search(QStringLiteral("鉄道の夜")), QStringList{QStringLiteral("old-1")});
        // A call written now is found beside them.
        CallRecord c;
        c.uid = QStringLiteral("new-1");
        c.promptName = QStringLiteral("answer");
        c.startedAt = kStart;
        c.messages =
            QJsonArray{QJsonObject{{QStringLiteral("role"), QStringLiteral("user")},
                                   {QStringLiteral("content"), QStringLiteral("銀河の旅")}}};
        log->record(c);
        QVERIFY(log->flush());
        QCOMPARE(search(QStringLiteral("銀河")),
                 (QStringList{QStringLiteral("new-1"), QStringLiteral("old-1")}));
        QCOMPARE(*log->integrityCheck(), QStringLiteral("ok"));
        log.reset();
        QCOMPARE(
            sqlite(path, QStringLiteral("SELECT value FROM meta WHERE key = 'schema_version'")),
            std::optional<QString>(QStringLiteral("5")));
        // Its index is the one it had (indexing a large log again would hold its first
        // opening for minutes); a new log gets the tokenizer that keeps each trigram once.
        const std::optional<QString> table =
            sqlite(path, QStringLiteral("SELECT sql FROM sqlite_master WHERE name = 'call_fts'"));
        QVERIFY(table);
        QVERIFY2(table->contains(QLatin1String("tokenize='trigram'")), qPrintable(*table));
        const QString fresh = m_dir.filePath(QStringLiteral("fresh.sqlite"));
        QVERIFY(PromptLog::open(fresh));
        const std::optional<QString> freshTable =
            sqlite(fresh, QStringLiteral("SELECT sql FROM sqlite_master WHERE name = 'call_fts'"));
        QVERIFY(freshTable);
        QVERIFY2(freshTable->contains(QLatin1String("hako_trigram")), qPrintable(*freshTable));
    }
};

QTEST_GUILESS_MAIN(TestPromptLogIndex)
#include "tst_promptlogindex.moc"
