// What a command loads, as the dynamic loader reports it (LD_DEBUG=libs): a model-free `hako run`
// loads neither SQLite, nor the desktop keyring (QtKeychain and QtDBus), nor QtNetwork (with
// Kerberos and libproxy behind it), which are loaded when a command does use them, and such a
// command still works (issue 31: start-up).
#include "hakoprocess.h"
#include "openaitestserver.h"

#include <QFile>
#include <QFileInfo>
#include <QProcess>
#include <QRegularExpression>
#include <QTemporaryDir>
#include <QTest>

namespace {

/// `hako ARGS…` with the dynamic loader naming every library it opens on standard error.
HakoOutcome runListingLibraries(const QStringList& args)
{
    qputenv("LD_DEBUG", "libs");
    HakoOutcome outcome = runHako(args);
    qunsetenv("LD_DEBUG");
    return outcome;
}

/// Writes `text` to `path` (a test's program); false when it cannot.
bool writeProgram(const QString& path, const QByteArray& text)
{
    QFile f(path);
    return f.open(QIODevice::WriteOnly) && f.write(text) == text.size();
}

} // namespace

class TestStartupLibs : public QObject {
    Q_OBJECT

    QTemporaryDir m_dir;

private Q_SLOTS:
    void initTestCase()
    {
        if (!QFileInfo(hakoBinary()).isExecutable())
            QSKIP("bin/hako is not built");
        QVERIFY(m_dir.isValid());
    }

    void modelFreeRunLoadsNoStoreNorKeyring()
    {
        const QString program = m_dir.filePath(QStringLiteral("hello.pdl"));
        QVERIFY(writeProgram(program, "text: Hello\n"));
        const HakoOutcome run =
            runListingLibraries({QStringLiteral("run"), QStringLiteral("--no-log"),
                                 QStringLiteral("--stream"), QStringLiteral("none"), program});
        QCOMPARE(run.exitCode, 0);
        QCOMPARE(run.out, QStringLiteral("Hello\n"));
        QVERIFY2(run.err.contains(QLatin1String("libQt6Core")), "LD_DEBUG listed nothing");
        QVERIFY2(run.err.contains(QLatin1String("libhako_models")), "hako run loaded no models");
        for (const char* library :
             {"libsqlite3", "libqt6keychain", "libQt6DBus", "libhako_keychain", "libQt6Network",
              "libhako_net", "libkrb5", "libproxy"})
            QVERIFY2(!run.err.contains(QLatin1String(library)),
                     qPrintable(QStringLiteral("hako run loaded %1").arg(QLatin1String(library))));
    }

    // Every library is looked for by a full path: never in the folder `hako` is started from (an
    // empty RUNPATH entry, as CMake's padded build RUNPATH had, is read as that folder, and a
    // libstdc++.so.6 lying there would have been loaded).
    void librariesAreNeverLookedForInTheCurrentFolder()
    {
        QTemporaryDir folder;
        QVERIFY(folder.isValid());
        QVERIFY(writeProgram(folder.filePath(QStringLiteral("hello.pdl")), "text: Hello\n"));
        QProcess process;
        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        env.insert(QStringLiteral("LD_DEBUG"), QStringLiteral("libs"));
        env.remove(QStringLiteral("LD_LIBRARY_PATH"));
        process.setProcessEnvironment(env);
        process.setWorkingDirectory(folder.path());
        process.start(hakoBinary(), {QStringLiteral("run"), QStringLiteral("--no-log"),
                                     QStringLiteral("--trust"), QStringLiteral("hello.pdl")});
        QVERIFY(process.waitForFinished(20000));
        QCOMPARE(process.exitCode(), 0);
        const QString err = QString::fromUtf8(process.readAllStandardError());
        static const QRegularExpression trying(QStringLiteral("trying file=(\\S+)"));
        int tried = 0;
        for (auto it = trying.globalMatch(err); it.hasNext(); ++tried) {
            const QString path = it.next().captured(1);
            QVERIFY2(path.startsWith(QLatin1Char('/')) && !path.startsWith(folder.path()),
                     qPrintable(QStringLiteral("looked for a library at %1").arg(path)));
        }
        QVERIFY2(tried > 0, "LD_DEBUG listed no search");
    }

    void modelCallLoadsTheNetworkModuleThen()
    {
        hako::testing::OpenAiTestServer server;
        QVERIFY(server.start());
        server.enqueueChat(
            hako::testing::ScriptedReply::chat(QStringLiteral("箱から、こんにちは")));
        const QString program = m_dir.filePath(QStringLiteral("ask.pdl"));
        QVERIFY(writeProgram(program, "text:\n- model: openai/gpt-4o-mini\n  input: Say hello.\n"));
        qputenv("OPENAI_BASE_URL", server.baseUrl().toUtf8());
        qputenv("OPENAI_API_KEY", "sk-startup-test");
        const HakoOutcome run =
            runListingLibraries({QStringLiteral("run"), QStringLiteral("--no-log"),
                                 QStringLiteral("--stream"), QStringLiteral("none"), program});
        qunsetenv("OPENAI_BASE_URL");
        qunsetenv("OPENAI_API_KEY");
        QVERIFY2(run.exitCode == 0, qPrintable(run.err.right(2000)));
        QVERIFY2(run.out.contains(QStringLiteral("箱から、こんにちは")), qPrintable(run.out));
        QVERIFY2(run.err.contains(QLatin1String("libhako_net")),
                 "the call loaded no network module");
        QCOMPARE(server.requests().size(), 1);
    }

    void storeCommandLoadsSqliteWhenItOpensOne()
    {
        const QString store = m_dir.filePath(QStringLiteral("notes.hakomem"));
        const HakoOutcome add = runListingLibraries(
            {QStringLiteral("memory"), QStringLiteral("--store"), store, QStringLiteral("add"),
             QStringLiteral("--text"), QStringLiteral("箱 keeps SQLite for later")});
        QVERIFY2(add.exitCode == 0, qPrintable(add.err.right(2000)));
        QVERIFY2(add.err.contains(QLatin1String("libsqlite3")), "the store opened without SQLite");
        const HakoOutcome list = runHako(
            {QStringLiteral("memory"), QStringLiteral("--store"), store, QStringLiteral("list")});
        QCOMPARE(list.exitCode, 0);
        QVERIFY2(list.out.contains(QStringLiteral("箱 keeps SQLite for later")),
                 qPrintable(list.out));
    }
};

QTEST_GUILESS_MAIN(TestStartupLibs)
#include "tst_startuplibs.moc"
