// Autosave recovery: a buffer written by a process that is then killed is found and restored by
// the next start.
#include "core/workbench/recoverystore.h"

#include <QCoreApplication>
#include <QDir>
#include <QProcess>
#include <QTemporaryDir>
#include <QTest>
#include <QThread>

#include <csignal>
#include <cstdio>

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
