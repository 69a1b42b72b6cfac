// Autosave recovery: a buffer written by a process that is then killed is found and restored by
// the next start.
#include "core/workbench/recoverystore.h"

#include <QCoreApplication>
#include <QDir>
#include <QFile>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QTemporaryDir>
#include <QTest>
#include <QThread>

#include <csignal>
#include <cstdio>

#include <sys/wait.h>
#include <unistd.h>

using namespace hako;

namespace {
const char* kChildDir = "HAKO_RECOVERY_CHILD_DIR";
const QString kText = QStringLiteral("text:\n- こんにちは ${ name }\n- unsaved edit\n");
} // namespace

class TestRecoveryStore : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void saveListRestoreRemove()
    {
        QTemporaryDir dir;
        RecoveryStore store(dir.path());
        const QString id = RecoveryStore::newBufferId();
        QVERIFY(store.save(id, QStringLiteral("/tmp/prog.pdl"), kText).ok());
        // Written by this (live) process: not offered unless asked for.
        QVERIFY(store.list().isEmpty());
        const QList<RecoveryEntry> live = store.list(true);
        QCOMPARE(live.size(), 1);
        QCOMPARE(live.front().bufferId, id);
        QCOMPARE(live.front().originalPath, QStringLiteral("/tmp/prog.pdl"));
        QCOMPARE(store.text(live.front()).value(), kText);
        // A later save replaces the copy.
        QVERIFY(store.save(id, QString(), QStringLiteral("v2")).ok());
        QCOMPARE(store.list(true).size(), 1);
        QCOMPARE(store.text(store.list(true).front()).value(), QStringLiteral("v2"));
        store.remove(id);
        QVERIFY(store.list(true).isEmpty());
        QVERIFY(QDir(dir.path()).entryList(QDir::Files).isEmpty());
    }

    void rejectsBadIds()
    {
        QTemporaryDir dir;
        RecoveryStore store(dir.path());
        QVERIFY(!store.save(QStringLiteral("../escape"), {}, QStringLiteral("x")).ok());
        QVERIFY(!store.save(QString(), {}, QStringLiteral("x")).ok());
    }

    void damagedFilesAreSkipped()
    {
        QTemporaryDir dir;
        QFile junk(QDir(dir.path()).filePath(QStringLiteral("junk.json")));
        QVERIFY(junk.open(QIODevice::WriteOnly));
        junk.write("{not json");
        junk.close();
        QVERIFY(RecoveryStore(dir.path()).list(true).isEmpty());
    }

    // Each copy stands alone: a malformed one (here the newest, so it would be offered first)
    // is reported and left out, and every copy listed restores.
    void malformedCopyIsReportedAndTheOthersRestore()
    {
        QTemporaryDir dir;
        RecoveryStore store(dir.path());
        QStringList ids;
        for (int i = 0; i < 3; ++i) {
            ids << RecoveryStore::newBufferId();
            QVERIFY(store
                        .save(ids.last(), QStringLiteral("/tmp/p%1.pdl").arg(i),
                              QStringLiteral("text: %1\n").arg(i))
                        .ok());
        }
        auto write = [&](const QString& name, const QByteArray& bytes) {
            QFile f(QDir(dir.path()).filePath(name));
            QVERIFY(f.open(QIODevice::WriteOnly));
            f.write(bytes);
        };
        QJsonObject noText{{QStringLiteral("version"), 1},
                           {QStringLiteral("buffer"), QStringLiteral("bad-text")},
                           {QStringLiteral("path"), QStringLiteral("/tmp/bad.pdl")},
                           {QStringLiteral("saved"), QStringLiteral("2999-01-01T00:00:00.000Z")},
                           {QStringLiteral("text"), 42}};
        write(QStringLiteral("bad-text.json"), QJsonDocument(noText).toJson());
        write(QStringLiteral("truncated.json"), QByteArray("{\"version\": 1, \"buffer\": \"tr"));

        QStringList damaged;
        const QList<RecoveryEntry> entries = store.list(true, &damaged);
        QCOMPARE(entries.size(), 3);
        for (const RecoveryEntry& e : entries) {
            QVERIFY(ids.contains(e.bufferId));
            QVERIFY2(store.text(e).ok(), qPrintable(e.recoveryFile));
        }
        QCOMPARE(damaged.size(), 2);
        damaged.sort();
        QVERIFY2(damaged.at(0).contains(QLatin1String("bad-text.json")) &&
                     damaged.at(0).contains(QLatin1String("no text")),
                 qPrintable(damaged.at(0)));
        QVERIFY2(damaged.at(1).contains(QLatin1String("truncated.json")),
                 qPrintable(damaged.at(1)));
    }

    // After a kill the next start may get the same pid (a container, a fresh pid namespace):
    // a copy from an earlier process with this pid is still offered.
    void reusedPidIsNotLive()
    {
        QTemporaryDir dir;
        RecoveryStore store(dir.path());
        const QString id = RecoveryStore::newBufferId();
        QVERIFY(store.save(id, QStringLiteral("/tmp/p.pdl"), kText).ok());
        QVERIFY(store.list().isEmpty()); // ours, live
        QFile f(dir.filePath(id + QStringLiteral(".json")));
        QVERIFY(f.open(QIODevice::ReadOnly));
        QJsonObject o = QJsonDocument::fromJson(f.readAll()).object();
        f.close();
        QVERIFY(o.contains(QStringLiteral("started")));
        o.insert(QStringLiteral("started"), o.value(QStringLiteral("started")).toInteger() - 1);
        QVERIFY(f.open(QIODevice::WriteOnly | QIODevice::Truncate));
        f.write(QJsonDocument(o).toJson());
        f.close();
        QCOMPARE(store.list().size(), 1);
    }

    // A killed writer not yet reaped by its parent (a zombie) no longer runs.
    void zombieWriterIsNotLive()
    {
        QTemporaryDir dir;
        const pid_t child = ::fork();
        if (child == 0) {
            RecoveryStore store(dir.path());
            store.save(RecoveryStore::newBufferId(), QStringLiteral("/tmp/z.pdl"), kText);
            ::_exit(0);
        }
        QVERIFY(child > 0);
        // Not reaped: it stays a zombie until waitpid below.
        QTRY_COMPARE(RecoveryStore(dir.path()).list(true).size(), 1);
        QTRY_COMPARE(RecoveryStore(dir.path()).list().size(), 1);
        int status = 0;
        ::waitpid(child, &status, 0);
    }

    void survivesSigkill()
    {
        QTemporaryDir dir;
        QProcess child;
        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        env.insert(QString::fromLatin1(kChildDir), dir.path());
        child.setProcessEnvironment(env);
        child.start(QCoreApplication::applicationFilePath(), {});
        QVERIFY(child.waitForStarted());
        QTRY_VERIFY_WITH_TIMEOUT(child.readAllStandardOutput().contains("saved") ||
                                     !RecoveryStore(dir.path()).list(true).isEmpty(),
                                 10000);
        // While the writer runs its buffer is not offered to another window.
        QVERIFY(RecoveryStore(dir.path()).list().isEmpty());
        ::kill(pid_t(child.processId()), SIGKILL);
        QVERIFY(child.waitForFinished(5000));
        QCOMPARE(child.exitStatus(), QProcess::CrashExit);

        RecoveryStore next(dir.path());
        const QList<RecoveryEntry> found = next.list();
        QCOMPARE(found.size(), 1);
        QCOMPARE(found.front().originalPath, QStringLiteral("/work/example.pdl"));
        QCOMPARE(next.text(found.front()).value(), kText);
        next.remove(found.front().bufferId);
        QVERIFY(next.list(true).isEmpty());
    }
};

int main(int argc, char** argv)
{
    if (qEnvironmentVariableIsSet(kChildDir)) {
        // The child: autosave a buffer, report, then wait to be killed.
        QCoreApplication app(argc, argv);
        RecoveryStore store(qEnvironmentVariable(kChildDir));
        if (!store.save(RecoveryStore::newBufferId(), QStringLiteral("/work/example.pdl"), kText))
            return 3;
        std::puts("saved");
        std::fflush(stdout);
        for (;;)
            QThread::sleep(1);
    }
    QCoreApplication app(argc, argv);
    TestRecoveryStore test;
    return QTest::qExec(&test, argc, argv);
}

#include "tst_recoverystore.moc"
