// What `hako run` and `hako memory` do with a user's machine: which programs may run code
// without being trusted, what output paths a run may replace, which processes outlive a killed
// run, and how a damaged or read-only memory store and imported data are treated.
#include "hakoprocess.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>
#include <QTest>

#include <csignal>
#include <sys/stat.h>
#include <unistd.h>

namespace {

bool isCharacterDevice(const char* path)
{
    struct stat st {};
    return ::stat(path, &st) == 0 && S_ISCHR(st.st_mode);
}

void writeFile(const QString& path, const QByteArray& text)
{
    QFile f(path);
    QVERIFY(f.open(QIODevice::WriteOnly | QIODevice::Truncate));
    f.write(text);
}

// Direct children of `parent` (from /proc).
QList<pid_t> childrenOf(pid_t parent)
{
    QList<pid_t> found;
    const QStringList pids = QDir("/proc").entryList(QDir::Dirs | QDir::NoDotAndDotDot);
    for (const QString& pid : pids) {
        QFile f("/proc/" + pid + "/stat");
        if (!f.open(QIODevice::ReadOnly))
            continue;
        const QByteArray stat = f.readAll();
        const int close = stat.lastIndexOf(')');
        const QList<QByteArray> fields = stat.mid(close + 2).split(' ');
        if (fields.size() > 1 && fields[1].toInt() == parent)
            found << pid_t(pid.toInt());
    }
    return found;
}

// Whether `pid` still runs (a zombie waiting for its reaper has ended).
bool running(pid_t pid)
{
    QFile f(QStringLiteral("/proc/%1/stat").arg(pid));
    if (!f.open(QIODevice::ReadOnly))
        return false;
    const QByteArray stat = f.readAll();
    const int close = stat.lastIndexOf(')');
    return close > 0 && stat.size() > close + 2 && stat[close + 2] != 'Z';
}

bool processWithArgument(const QByteArray& needle)
{
    const QStringList pids = QDir("/proc").entryList(QDir::Dirs | QDir::NoDotAndDotDot);
    for (const QString& pid : pids) {
        QFile f("/proc/" + pid + "/cmdline");
        if (f.open(QIODevice::ReadOnly) && f.readAll().split('\0').contains(needle) &&
            running(pid_t(pid.toInt())))
            return true;
    }
    return false;
}

} // namespace

class TestRunSafety : public QObject {
    Q_OBJECT

    QTemporaryDir m_config; // the user's configuration (trusted folders) for these runs

    // `hako ARGS` with a configuration folder of its own: trusting a folder here never
    // touches the real user's settings.
    HakoOutcome hako(const QStringList& args, const QByteArray& input = {})
    {
        qputenv("XDG_CONFIG_HOME", m_config.path().toUtf8());
        HakoOutcome o = runHakoAsGiven(args, input);
        qunsetenv("XDG_CONFIG_HOME");
        return o;
    }

    static QString program(const QTemporaryDir& dir, const QByteArray& text)
    {
        const QString path = dir.filePath(QStringLiteral("prog.pdl"));
        writeFile(path, text);
        return path;
    }

    static bool bubblewrapWorks()
    {
        QProcess p;
        p.start(QStringLiteral("bwrap"),
                {QStringLiteral("--unshare-user"), QStringLiteral("--ro-bind"), QStringLiteral("/"),
                 QStringLiteral("/"), QStringLiteral("true")});
        return p.waitForFinished(20000) && p.exitStatus() == QProcess::NormalExit &&
               p.exitCode() == 0;
    }

private Q_SLOTS:
    void initTestCase()
    {
        if (!QFileInfo(hakoBinary()).isExecutable())
            QSKIP("bin/hako is not built");
        QVERIFY(m_config.isValid());
    }

    void untrustedCodeIsRefusedUntilTrusted()
    {
        QTemporaryDir dir;
        const QString marker = dir.filePath(QStringLiteral("ran"));
        const QString prog = program(
            dir,
            "text:\n- lang: python\n  code: |\n    open(" +
                QJsonDocument(QJsonArray{marker}).toJson(QJsonDocument::Compact).mid(1).chopped(1) +
                ", 'w').write('x')\n    result = 'ran'\n");
        const HakoOutcome refused = hako({QStringLiteral("run"), prog});
        QCOMPARE(refused.exitCode, 1);
        QVERIFY2(refused.err.contains(QLatin1String("Python code at prog.pdl:2")),
                 qPrintable(refused.err));
        QVERIFY(refused.err.contains(QLatin1String("--trust")));
        QVERIFY(!QFile::exists(marker));

        const HakoOutcome once = hako({QStringLiteral("run"), QStringLiteral("--trust"), prog});
        QVERIFY2(once.exitCode == 0, qPrintable(once.err));
        QCOMPARE(once.out.trimmed(), QStringLiteral("ran"));
        QVERIFY(QFile::remove(marker));
        // --trust is for one run only.
        QCOMPARE(hako({QStringLiteral("run"), prog}).exitCode, 1);

        const HakoOutcome folder =
            hako({QStringLiteral("run"), QStringLiteral("--trust-folder"), prog});
        QVERIFY2(folder.exitCode == 0, qPrintable(folder.err));
        const HakoOutcome remembered = hako({QStringLiteral("run"), prog});
        QVERIFY2(remembered.exitCode == 0, qPrintable(remembered.err));
    }

    void programWithoutCodeNeedsNoTrust()
    {
        QTemporaryDir dir;
        const HakoOutcome o =
            hako({QStringLiteral("run"), program(dir, "text:\n- Hello\n- lang: jinja\n  code: "
                                                      "'{{ 1 + 1 }}'\n")});
        QVERIFY2(o.exitCode == 0, qPrintable(o.err));
        QCOMPARE(o.out.trimmed(), QStringLiteral("Hello2"));
    }

    void untrustedModelServerIsRefused()
    {
        QTemporaryDir dir;
        const QString prog = program(
            dir, "model: openai/gpt-4o\nparameters:\n  base_url: http://collector.invalid:9/v1\n");
        const HakoOutcome o = hako({QStringLiteral("run"), prog});
        QCOMPARE(o.exitCode, 1);
        QVERIFY2(o.err.contains(QLatin1String("model requests to http://collector.invalid:9/v1")),
                 qPrintable(o.err));
        const QString computed = program(
            dir, "defs:\n  p: {base_url: 'http://x.invalid'}\nmodel: m\nparameters: ${ p }\n");
        const HakoOutcome c = hako({QStringLiteral("run"), computed});
        QCOMPARE(c.exitCode, 1);
        QVERIFY2(c.err.contains(QLatin1String("a server chosen at run time")), qPrintable(c.err));
    }

    void sandboxedCodeNeedsNoTrust()
    {
        if (!bubblewrapWorks())
            QSKIP("bubblewrap cannot create a sandbox here");
        QTemporaryDir dir;
        qputenv("HAKO_SECRET", "sk-not-for-code");
        const HakoOutcome o = hako({QStringLiteral("run"), QStringLiteral("--sandbox"),
                                    program(dir, "lang: python\ncode: |\n  import os\n  result = "
                                                 "os.environ.get('HAKO_SECRET', 'none')\n")});
        qunsetenv("HAKO_SECRET");
        QVERIFY2(o.exitCode == 0, qPrintable(o.err));
        QCOMPARE(o.out.trimmed(), QStringLiteral("none"));
    }

    void traceToDevicesIsWrittenInPlace()
    {
        if (!isCharacterDevice("/dev/null") || !isCharacterDevice("/dev/full"))
            QSKIP("needs /dev/null and /dev/full");
        QTemporaryDir dir;
        const QString prog = program(dir, "text: Hello\n");
        const HakoOutcome discard = hako(
            {QStringLiteral("run"), QStringLiteral("--trace"), QStringLiteral("/dev/null"), prog});
        QVERIFY2(discard.exitCode == 0, qPrintable(discard.err));
        QCOMPARE(discard.out.trimmed(), QStringLiteral("Hello"));
        QVERIFY(isCharacterDevice("/dev/null"));

        // A trace that cannot be written fails the run, and the device stays a device.
        const HakoOutcome full = hako(
            {QStringLiteral("run"), QStringLiteral("--trace"), QStringLiteral("/dev/full"), prog});
        QCOMPARE(full.exitCode, 1);
        QVERIFY2(full.err.contains(QLatin1String("cannot write the trace /dev/full")),
                 qPrintable(full.err));
        QVERIFY(isCharacterDevice("/dev/full"));

        const HakoOutcome folder =
            hako({QStringLiteral("run"), QStringLiteral("--trace"), dir.path(), prog});
        QCOMPARE(folder.exitCode, 1);
        QVERIFY2(folder.err.contains(QLatin1String("it is a folder")), qPrintable(folder.err));
        const HakoOutcome missing =
            hako({QStringLiteral("run"), QStringLiteral("--trace"),
                  dir.filePath(QStringLiteral("no/such/folder/t.json")), prog});
        QCOMPARE(missing.exitCode, 1);
    }

    void fileAggregatorOnADevice()
    {
        if (!isCharacterDevice("/dev/full"))
            QSKIP("needs /dev/full");
        QTemporaryDir dir;
        const QByteArray text = "defs:\n  log:\n    aggregator:\n      file: /dev/full\n"
                                "text:\n- text: hello\n  contribute: [result, log]\n";
        const HakoOutcome o = hako({QStringLiteral("run"), program(dir, text)});
        QVERIFY(o.exitCode != 0);
        QVERIFY2(o.err.contains(QLatin1String("/dev/full")), qPrintable(o.err));
        QVERIFY(isCharacterDevice("/dev/full"));
    }

    void memoryExportToDevices()
    {
        if (!isCharacterDevice("/dev/full"))
            QSKIP("needs /dev/full");
        QTemporaryDir dir;
        const QString store = dir.filePath(QStringLiteral("m.hakomem"));
        QCOMPARE(hako({QStringLiteral("memory"), QStringLiteral("--store"), store,
                       QStringLiteral("add"), QStringLiteral("--text"), QStringLiteral("a fact")})
                     .exitCode,
                 0);
        QCOMPARE(hako({QStringLiteral("memory"), QStringLiteral("--store"), store,
                       QStringLiteral("export"), QStringLiteral("/dev/null")})
                     .exitCode,
                 0);
        const HakoOutcome full = hako({QStringLiteral("memory"), QStringLiteral("--store"), store,
                                       QStringLiteral("export"), QStringLiteral("/dev/full")});
        QCOMPARE(full.exitCode, 1);
        QVERIFY(isCharacterDevice("/dev/full"));
        QVERIFY(isCharacterDevice("/dev/null"));
    }

    void killedRunLeavesNoPythonSession()
    {
        QTemporaryDir dir;
        const QString prog = program(dir, "lang: python\ncode: |\n  while True:\n    pass\n");
        QProcess run;
        run.start(hakoBinary(), {QStringLiteral("run"), QStringLiteral("--trust"), prog});
        QVERIFY(run.waitForStarted());
        QList<pid_t> children;
        QTRY_VERIFY_WITH_TIMEOUT(!(children = childrenOf(pid_t(run.processId()))).isEmpty(), 20000);
        ::kill(pid_t(run.processId()), SIGKILL);
        QVERIFY(run.waitForFinished());
        for (pid_t child : children)
            QTRY_VERIFY_WITH_TIMEOUT(!running(child), 20000);
    }

    // Without the sandbox too: what the code started in its process group dies with Hako.
    void killedRunLeavesNoGrandchild()
    {
        QTemporaryDir dir;
        const QString prog = program(dir, "lang: python\ncode: |\n  import subprocess\n"
                                          "  subprocess.Popen(['sleep', '62.7'])\n"
                                          "  while True:\n    pass\n");
        QProcess run;
        run.start(hakoBinary(), {QStringLiteral("run"), QStringLiteral("--trust"), prog});
        QVERIFY(run.waitForStarted());
        QTRY_VERIFY_WITH_TIMEOUT(processWithArgument("62.7"), 20000);
        ::kill(pid_t(run.processId()), SIGKILL);
        QVERIFY(run.waitForFinished());
        QTRY_VERIFY_WITH_TIMEOUT(!processWithArgument("62.7"), 20000);
    }

    // A run that ends normally leaves no watchdog behind (they are reaped with their group).
    void finishedRunsLeaveNoWatchdogs()
    {
        QTemporaryDir dir;
        const QString prog = program(dir, "text:\n- lang: python\n  code: result = 1\n"
                                          "- lang: command\n  code: echo hi\n");
        for (int i = 0; i < 3; ++i) {
            const HakoOutcome o = hako({QStringLiteral("run"), QStringLiteral("--trust"), prog});
            QVERIFY2(o.exitCode == 0, qPrintable(o.err));
            QVERIFY2(o.out.contains(QLatin1String("hi")), qPrintable(o.out));
        }
    }

    void killedSandboxedRunLeavesNothing()
    {
        if (!bubblewrapWorks())
            QSKIP("bubblewrap cannot create a sandbox here");
        QTemporaryDir dir;
        const QString prog = program(dir, "lang: python\ncode: |\n  import subprocess\n"
                                          "  subprocess.Popen(['sleep', '61.4'])\n"
                                          "  while True:\n    pass\n");
        QProcess run;
        run.start(hakoBinary(), {QStringLiteral("run"), QStringLiteral("--sandbox"), prog});
        QVERIFY(run.waitForStarted());
        const pid_t pid = pid_t(run.processId());
        QTRY_VERIFY_WITH_TIMEOUT(processWithArgument("61.4"), 20000);
        const QStringList folders =
            QDir(QDir::tempPath())
                .entryList({QStringLiteral("hako-sandbox-%1-*").arg(pid)}, QDir::Dirs);
        QCOMPARE(folders.size(), 1);
        ::kill(pid, SIGKILL);
        QVERIFY(run.waitForFinished());
        QTRY_VERIFY_WITH_TIMEOUT(!processWithArgument("61.4"), 20000);
        // The next sandboxed run removes the private folder the killed one left.
        const HakoOutcome next = hako({QStringLiteral("run"), QStringLiteral("--sandbox"),
                                       program(dir, "lang: python\ncode: result = 1\n")});
        QVERIFY2(next.exitCode == 0, qPrintable(next.err));
        QVERIFY(!QFileInfo::exists(QDir::tempPath() + QLatin1Char('/') + folders.first()));
    }
};

QTEST_GUILESS_MAIN(TestRunSafety)
#include "tst_runsafety.moc"
