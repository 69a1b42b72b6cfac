// The evaluation store, the same cases against a SQLite file and a PostgreSQL server started by
// the test: dataset versions, experiments with the prompt version they ran (read back, renamed,
// listed per prompt, newest first), results committed one by one and seen by a second
// connection (and after the server restarted), writes from many threads at once, id prefixes taken
// literally (never as LIKE patterns), an old SQLite store upgraded in place, and URLs whose
// password never shows.

#include "storeengines.h"

#include "core/eval/evalstore.h"

#include <QFile>
#include <QFileInfo>
#include <QJsonArray>
#include <QTest>

#include <sqlite3.h>

#include <atomic>
#include <thread>

using namespace hako;
using namespace hako::eval;

namespace {

Example example(const QString& country, const QString& capital)
{
    Example e;
    e.inputs = {{QStringLiteral("country"), country}};
    e.reference = capital;
    return e;
}

ExperimentInfo experimentInfo(const QString& id, int64_t startedAt, const QString& promptId = {})
{
    ExperimentInfo info;
    info.id = id;
    info.name = QStringLiteral("run ") + id;
    info.dataset = QStringLiteral("capitals");
    info.datasetVersion = 1;
    info.startedAt = startedAt;
    info.promptId = promptId;
    return info;
}

ExampleResult result(int index, const QString& output)
{
    ExampleResult r;
    r.index = index;
    r.exampleId = QStringLiteral("ex%1").arg(index);
    r.run.output = output;
    Score s;
    s.evaluator = QStringLiteral("exact_match");
    s.score = 1;
    s.pass = true;
    r.scores.append(s);
    return r;
}

QStringList ids(const QList<ExperimentInfo>& list)
{
    QStringList out;
    for (const ExperimentInfo& e : list)
        out << e.id;
    return out;
}

} // namespace

#define OPEN_STORE(var, spec)                                                                      \
    auto var##Opened = EvalStore::open(spec);                                                      \
    QVERIFY2(var##Opened.ok(), var##Opened.ok() ? "" : qPrintable(var##Opened.error().message));   \
    EvalStore& var = **var##Opened;

class TestEvalStore : public QObject {
    Q_OBJECT

    StoreEngines m_engines;

private Q_SLOTS:
    void initTestCase() { QVERIFY2(m_engines.start(), qPrintable(m_engines.why())); }

    void datasetVersions_data() { StoreEngines::addEngines(); }
    void datasetVersions()
    {
        STORE_SPEC(m_engines, spec);
        OPEN_STORE(store, spec);
        Dataset d;
        d.name = QStringLiteral("capitals");
        d.description = QStringLiteral("首都");
        QVERIFY(d.add({example(QStringLiteral("日本"), QStringLiteral("東京"))}).isEmpty());
        Result<int> v1 = store.saveDataset(d, QStringLiteral("first"));
        QVERIFY2(v1.ok(), v1.ok() ? "" : qPrintable(v1.error().message));
        QCOMPARE(*v1, 1);
        // Unchanged: no new version when asked so.
        QCOMPARE(*store.saveDataset(d, {}, true), 1);
        QVERIFY(d.add({example(QStringLiteral("France"), QStringLiteral("Paris"))}).isEmpty());
        QCOMPARE(*store.saveDataset(d, QStringLiteral("second")), 2);

        Result<Dataset> first = store.dataset(QStringLiteral("capitals"), 1);
        QVERIFY(first.ok());
        QCOMPARE(first->examples.size(), 1);
        Result<Dataset> latest = store.dataset(QStringLiteral("capitals"));
        QVERIFY(latest.ok());
        QCOMPARE(latest->version, 2);
        QCOMPARE(latest->examples.size(), 2);
        QCOMPARE(latest->examples[0].id, first->examples[0].id);
        QCOMPARE(latest->examples[0].inputs.value(QStringLiteral("country")).toString(),
                 QStringLiteral("日本"));
        QCOMPARE(latest->description, QStringLiteral("首都"));
        QCOMPARE(latest->schema, d.schema);
        Result<QList<DatasetVersionInfo>> versions = store.versions(QStringLiteral("capitals"));
        QVERIFY(versions.ok());
        QCOMPARE(versions->size(), 2);
        QCOMPARE(versions->at(1).message, QStringLiteral("second"));
        QCOMPARE(versions->at(1).examples, 2);
        QCOMPARE(*store.datasetNames(), QStringList{QStringLiteral("capitals")});
        QVERIFY(!store.dataset(QStringLiteral("nope")).ok());
        QVERIFY(!store.dataset(QStringLiteral("capitals"), 3).ok());
    }

    void experimentsKeepThePromptVersion_data() { StoreEngines::addEngines(); }
    void experimentsKeepThePromptVersion()
    {
        STORE_SPEC(m_engines, spec);
        OPEN_STORE(store, spec);
        ExperimentInfo info = experimentInfo(QStringLiteral("e-1"), 1000, QStringLiteral("p-1"));
        info.promptName = QStringLiteral("問い合わせ返信");
        info.promptCommit = QStringLiteral("0123456789abcdef0123456789abcdef01234567");
        info.promptVersion = 3;
        info.config = {{QStringLiteral("concurrency"), 2}};
        info.total = 5;
        QCOMPARE(*store.createExperiment(info), true);
        QCOMPARE(info.status, QStringLiteral("running"));
        // A second create of the same id keeps the first.
        ExperimentInfo again = info;
        again.name = QStringLiteral("other");
        QCOMPARE(*store.createExperiment(again), false);

        Result<ExperimentInfo> read = store.experiment(QStringLiteral("e-1"));
        QVERIFY(read.ok());
        QCOMPARE(read->name, QStringLiteral("run e-1"));
        QCOMPARE(read->promptId, QStringLiteral("p-1"));
        QCOMPARE(read->promptName, QStringLiteral("問い合わせ返信"));
        QCOMPARE(read->promptCommit, info.promptCommit);
        QCOMPARE(read->promptVersion, 3);
        QCOMPARE(read->config, info.config);
        QCOMPARE(read->total, 5);
        QCOMPARE(read->startedAt, int64_t(1000));

        QCOMPARE(*store.setExperimentStatus(QStringLiteral("e-1"), QStringLiteral("finished")),
                 true);
        read = store.experiment(QStringLiteral("e-1"));
        QCOMPARE(read->status, QStringLiteral("finished"));
        QVERIFY(read->finishedAt > 0);
        QCOMPARE(*store.setExperimentStatus(QStringLiteral("none"), QStringLiteral("finished")),
                 false);
    }

    void renameExperiment_data() { StoreEngines::addEngines(); }
    void renameExperiment()
    {
        STORE_SPEC(m_engines, spec);
        OPEN_STORE(store, spec);
        ExperimentInfo info = experimentInfo(QStringLiteral("e-1"), 1000);
        QVERIFY(store.createExperiment(info).ok());
        Result<bool> renamed =
            store.renameExperiment(QStringLiteral("e-1"), QStringLiteral("  v2 の比較 "));
        QVERIFY(renamed.ok());
        QCOMPARE(*renamed, true);
        QCOMPARE(store.experiment(QStringLiteral("e-1"))->name, QStringLiteral("v2 の比較"));
        Result<bool> empty = store.renameExperiment(QStringLiteral("e-1"), QStringLiteral("  "));
        QVERIFY(!empty.ok());
        QVERIFY2(empty.error().message.contains(QLatin1String("empty")),
                 qPrintable(empty.error().message));
        QCOMPARE(store.experiment(QStringLiteral("e-1"))->name, QStringLiteral("v2 の比較"));
        QCOMPARE(*store.renameExperiment(QStringLiteral("missing"), QStringLiteral("x")), false);
    }

    void experimentsOfPromptNewestFirst_data() { StoreEngines::addEngines(); }
    void experimentsOfPromptNewestFirst()
    {
        STORE_SPEC(m_engines, spec);
        OPEN_STORE(store, spec);
        for (ExperimentInfo info : {experimentInfo(QStringLiteral("old"), 1000, "p-1"),
                                    experimentInfo(QStringLiteral("other"), 3000, "p-2"),
                                    experimentInfo(QStringLiteral("new"), 2000, "p-1"),
                                    experimentInfo(QStringLiteral("same-ms"), 2000, "p-1"),
                                    experimentInfo(QStringLiteral("none"), 4000)})
            QVERIFY(store.createExperiment(info).ok());
        Result<QList<ExperimentInfo>> ofPrompt = store.experimentsOfPrompt(QStringLiteral("p-1"));
        QVERIFY(ofPrompt.ok());
        // Started in the same millisecond: the one created last first.
        QCOMPARE(ids(*ofPrompt), (QStringList{"same-ms", "new", "old"}));
        QCOMPARE(ids(*store.experimentsOfPrompt(QStringLiteral("p-2"))), QStringList{"other"});
        QVERIFY(store.experimentsOfPrompt(QStringLiteral("p-3"))->isEmpty());
        QVERIFY(!store.experimentsOfPrompt(QString()).ok());
        QCOMPARE(ids(*store.experiments()),
                 (QStringList{"none", "other", "same-ms", "new", "old"}));
        QCOMPARE(store.experiments(QStringLiteral("capitals"))->size(), 5);
        QVERIFY(store.experiments(QStringLiteral("elsewhere"))->isEmpty());
    }

    void idPrefixIsLiteral_data() { StoreEngines::addEngines(); }
    void idPrefixIsLiteral()
    {
        STORE_SPEC(m_engines, spec);
        OPEN_STORE(store, spec);
        for (ExperimentInfo info : {experimentInfo(QStringLiteral("abcd-1111"), 1000),
                                    experimentInfo(QStringLiteral("abcd-2222"), 2000),
                                    experimentInfo(QStringLiteral("a%c_-3333"), 3000)})
            QVERIFY(store.createExperiment(info).ok());
        QCOMPARE(store.experiment(QStringLiteral("abcd-1"))->id, QStringLiteral("abcd-1111"));
        QCOMPARE(store.experiment(QStringLiteral("abcd-2222"))->id, QStringLiteral("abcd-2222"));
        // Wildcards are characters: `%`, `_` and `\` match only themselves.
        QCOMPARE(store.experiment(QStringLiteral("a%c_"))->id, QStringLiteral("a%c_-3333"));
        for (const char* pattern : {"%%%%", "ab_d", "abc%", "a\\cd", "____-1111", "%"}) {
            Result<ExperimentInfo> e = store.experiment(QString::fromLatin1(pattern));
            QVERIFY2(!e.ok(), pattern);
        }
        Result<ExperimentInfo> shortPrefix = store.experiment(QStringLiteral("abc"));
        QVERIFY(!shortPrefix.ok());
        QVERIFY2(shortPrefix.error().message.contains(QLatin1String("at least 4")),
                 qPrintable(shortPrefix.error().message));
        Result<ExperimentInfo> ambiguous = store.experiment(QStringLiteral("abcd"));
        QVERIFY(!ambiguous.ok());
        QVERIFY2(ambiguous.error().message.contains(QLatin1String("abcd-1111")) &&
                     ambiguous.error().message.contains(QLatin1String("abcd-2222")),
                 qPrintable(ambiguous.error().message));
    }

    void resultsCommittedOneByOne_data() { StoreEngines::addEngines(); }
    void resultsCommittedOneByOne()
    {
        STORE_SPEC(m_engines, spec);
        OPEN_STORE(writer, spec);
        OPEN_STORE(reader, spec);
        ExperimentInfo info = experimentInfo(QStringLiteral("e-1"), 1000);
        QVERIFY(writer.createExperiment(info).ok());
        QVERIFY(writer.saveResult(QStringLiteral("e-1"), result(1, QStringLiteral("b"))).ok());
        // Seen by another connection as soon as saveResult() returned.
        QCOMPARE(reader.results(QStringLiteral("e-1"))->size(), 1);
        QVERIFY(writer.saveResult(QStringLiteral("e-1"), result(0, QStringLiteral("a"))).ok());
        // A second result for an example replaces the first.
        QVERIFY(writer.saveResult(QStringLiteral("e-1"), result(1, QStringLiteral("B"))).ok());
        Result<QList<ExampleResult>> all = reader.results(QStringLiteral("e-1"));
        QVERIFY(all.ok());
        QCOMPARE(all->size(), 2);
        QCOMPARE(all->at(0).run.output, QStringLiteral("a"));
        QCOMPARE(all->at(1).run.output, QStringLiteral("B"));
        QCOMPARE(all->at(1).exampleId, QStringLiteral("ex1"));
        QVERIFY(all->at(1).scores.at(0).pass);
        QVERIFY(reader.results(QStringLiteral("other"))->isEmpty());
    }

    void manyThreadsWriteAtOnce_data() { StoreEngines::addEngines(); }
    void manyThreadsWriteAtOnce()
    {
        STORE_SPEC(m_engines, spec);
        OPEN_STORE(store, spec);
        ExperimentInfo info = experimentInfo(QStringLiteral("e-1"), 1000);
        QVERIFY(store.createExperiment(info).ok());
        std::atomic<int> failures{0};
        std::vector<std::thread> threads;
        for (int t = 0; t < 6; ++t)
            threads.emplace_back([&, t] {
                for (int i = 0; i < 30; ++i)
                    if (!store.saveResult(QStringLiteral("e-1"), result(t * 30 + i, "x")).ok())
                        ++failures;
                Dataset d;
                d.name = QStringLiteral("d");
                d.add({example(QString::number(t), QStringLiteral("x"))});
                if (!store.saveDataset(d).ok())
                    ++failures;
            });
        for (auto& t : threads)
            t.join();
        QCOMPARE(failures.load(), 0);
        QCOMPARE(store.results(QStringLiteral("e-1"))->size(), 180);
        // Every save made its own version: none numbered twice.
        QCOMPARE(store.versions(QStringLiteral("d"))->size(), 6);
    }

    // A team's server restarted mid-experiment: the next result reconnects and is written,
    // nothing of what was written before is lost.
    void postgresRestartKeepsWriting()
    {
        if (!m_engines.postgresUp())
            QSKIP(qPrintable(m_engines.skipReason()));
        const QString spec = m_engines.freshSpec(QStringLiteral("postgresql"));
        OPEN_STORE(store, spec);
        ExperimentInfo info = experimentInfo(QStringLiteral("e-1"), 1000);
        QVERIFY(store.createExperiment(info).ok());
        QVERIFY(store.saveResult(QStringLiteral("e-1"), result(0, QStringLiteral("a"))).ok());
        QVERIFY(m_engines.restartPostgres());
        Result<bool> saved =
            store.saveResult(QStringLiteral("e-1"), result(1, QStringLiteral("b")));
        QVERIFY2(saved.ok(), saved.ok() ? "" : qPrintable(saved.error().message));
        QCOMPARE(store.results(QStringLiteral("e-1"))->size(), 2);
    }

    void storesOpenedAtOnceAgree_data() { StoreEngines::addEngines(); }
    void storesOpenedAtOnceAgree()
    {
        // `hako eval` and the window may create the same store at the same moment: one of them
        // creates the schema, the others wait and find it.
        STORE_SPEC(m_engines, spec);
        std::atomic<int> ok{0};
        std::vector<std::thread> threads;
        for (int i = 0; i < 6; ++i)
            threads.emplace_back([&] {
                auto store = EvalStore::open(spec);
                if (store.ok() && (*store)->datasetNames().ok())
                    ++ok;
            });
        for (auto& t : threads)
            t.join();
        QCOMPARE(ok.load(), 6);
    }

    void oldSqliteStoreUpgrades()
    {
        // A store of schema 1 (before experiments recorded the prompt version), made as that
        // Hako made it, with a dataset and an experiment in it.
        const QString path = m_engines.freshSpec(QStringLiteral("sqlite"));
        sqlite3* db = nullptr;
        QCOMPARE(sqlite3_open(path.toUtf8().constData(), &db), SQLITE_OK);
        const char* v1 = R"(
CREATE TABLE datasets(id INTEGER PRIMARY KEY, name TEXT NOT NULL UNIQUE,
  description TEXT NOT NULL DEFAULT '', created_at INTEGER NOT NULL);
CREATE TABLE dataset_versions(dataset_id INTEGER NOT NULL REFERENCES datasets(id),
  version INTEGER NOT NULL, description TEXT NOT NULL DEFAULT '',
  schema TEXT NOT NULL DEFAULT '{}', message TEXT NOT NULL DEFAULT '',
  created_at INTEGER NOT NULL, PRIMARY KEY(dataset_id, version));
CREATE TABLE examples(dataset_id INTEGER NOT NULL, version INTEGER NOT NULL,
  idx INTEGER NOT NULL, example_id TEXT NOT NULL, body TEXT NOT NULL,
  PRIMARY KEY(dataset_id, version, idx));
CREATE TABLE experiments(id TEXT PRIMARY KEY, name TEXT NOT NULL DEFAULT '',
  dataset TEXT NOT NULL DEFAULT '', dataset_version INTEGER NOT NULL DEFAULT 0,
  target TEXT NOT NULL DEFAULT '', config TEXT NOT NULL DEFAULT '{}',
  status TEXT NOT NULL DEFAULT 'running', total INTEGER NOT NULL DEFAULT 0,
  started_at INTEGER NOT NULL, finished_at INTEGER NOT NULL DEFAULT 0);
CREATE INDEX experiments_dataset ON experiments(dataset, started_at);
CREATE TABLE results(experiment_id TEXT NOT NULL, idx INTEGER NOT NULL,
  example_id TEXT NOT NULL, body TEXT NOT NULL, finished_at INTEGER NOT NULL,
  PRIMARY KEY(experiment_id, idx));
INSERT INTO datasets VALUES(1, 'capitals', '', 5);
INSERT INTO dataset_versions VALUES(1, 1, '', '{}', 'imported', 5);
INSERT INTO examples VALUES(1, 1, 0, 'ex0',
  '{"id":"ex0","inputs":{"country":"日本"},"reference":"東京"}');
INSERT INTO experiments(id, name, dataset, dataset_version, target, status, total, started_at)
  VALUES('old-experiment', 'before', 'capitals', 1, '/p.pdl', 'finished', 1, 10);
INSERT INTO results VALUES('old-experiment', 0, 'ex0', '{"index":0,"exampleId":"ex0"}', 11);
PRAGMA user_version=1;
)";
        char* error = nullptr;
        const int rc = sqlite3_exec(db, v1, nullptr, nullptr, &error);
        const QString why = QString::fromUtf8(error ? error : "");
        sqlite3_free(error);
        sqlite3_close(db);
        QVERIFY2(rc == SQLITE_OK, qPrintable(why));

        OPEN_STORE(store, path);
        Result<ExperimentInfo> old = store.experiment(QStringLiteral("old-experiment"));
        QVERIFY2(old.ok(), old.ok() ? "" : qPrintable(old.error().message));
        QCOMPARE(old->name, QStringLiteral("before"));
        QCOMPARE(old->promptId, QString());
        QCOMPARE(old->promptVersion, 0);
        QCOMPARE(store.results(QStringLiteral("old-experiment"))->size(), 1);
        QCOMPARE(store.dataset(QStringLiteral("capitals"))->examples.size(), 1);
        // The upgraded store takes the new fields and the new calls.
        ExperimentInfo info = experimentInfo(QStringLiteral("new"), 20, QStringLiteral("p-1"));
        info.promptVersion = 2;
        QVERIFY(store.createExperiment(info).ok());
        QCOMPARE(store.experimentsOfPrompt(QStringLiteral("p-1"))->first().promptVersion, 2);
        QCOMPARE(*store.renameExperiment(QStringLiteral("old-experiment"), QStringLiteral("v1")),
                 true);
        QCOMPARE(*store.saveDataset(*store.dataset(QStringLiteral("capitals")), {}), 2);

        // Opened again: already at the newest schema, nothing lost.
        OPEN_STORE(again, path);
        QCOMPARE(again.experiment(QStringLiteral("old-experiment"))->name, QStringLiteral("v1"));
        QCOMPARE(again.experiments()->size(), 2);
    }

    void newerStoreIsRefused()
    {
        const QString path = m_engines.freshSpec(QStringLiteral("sqlite"));
        {
            OPEN_STORE(store, path);
        }
        sqlite3* db = nullptr;
        QCOMPARE(sqlite3_open(path.toUtf8().constData(), &db), SQLITE_OK);
        QCOMPARE(sqlite3_exec(db, "PRAGMA user_version=99", nullptr, nullptr, nullptr), SQLITE_OK);
        sqlite3_close(db);
        Result<std::unique_ptr<EvalStore>> store = EvalStore::open(path);
        QVERIFY(!store.ok());
        QVERIFY2(store.error().message.contains(QLatin1String("newer")),
                 qPrintable(store.error().message));
    }

    void urlsAndPasswords()
    {
        // The server is not there (port 1): the error names the store without its password.
        Result<std::unique_ptr<EvalStore>> pg =
            EvalStore::open(QStringLiteral("postgresql://hako:s3cret-pw@127.0.0.1:1/evals"));
        QVERIFY(!pg.ok());
        QVERIFY2(pg.error().message.contains(QLatin1String("127.0.0.1")),
                 qPrintable(pg.error().message));
        QVERIFY2(!pg.error().message.contains(QLatin1String("s3cret")),
                 qPrintable(pg.error().message));
        // Neither a file nor a PostgreSQL URL.
        Result<std::unique_ptr<EvalStore>> other =
            EvalStore::open(QStringLiteral("mysql://root:s3cret-pw@host/db"));
        QVERIFY(!other.ok());
        QVERIFY2(!other.error().message.contains(QLatin1String("s3cret")),
                 qPrintable(other.error().message));
        QVERIFY(!EvalStore::open(QString()).ok());
        if (!m_engines.postgresUp())
            QSKIP(qPrintable(m_engines.skipReason()));
        QString url = m_engines.freshSpec(QStringLiteral("postgresql"));
        OPEN_STORE(store,
                   url.replace(QLatin1String("postgresql://"), QLatin1String("postgres://")));
        QVERIFY(store.isPostgres());
        QVERIFY(store.datasetNames().ok());
        QCOMPARE(store.folder(), QFileInfo(EvalStore::defaultPath()).absolutePath());
    }
};

QTEST_GUILESS_MAIN(TestEvalStore)
#include "tst_evalstore.moc"
