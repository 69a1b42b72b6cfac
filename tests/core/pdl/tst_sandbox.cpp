#include "core/pdl/code/sandbox.h"

#include "core/pdl/code/childprocess.h"
#include "core/pdl/code/commandrunner.h"
#include "core/pdl/code/pythonsession.h"
#include "core/pdl/interp/interpreter.h"
#include "core/pdl/parser/programparser.h"

#include <QCoreApplication>
#include <QDateTime>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QHostAddress>
#include <QLocalServer>
#include <QProcess>
#include <QTcpServer>
#include <QTemporaryDir>
#include <QTest>

#include <unistd.h>

using namespace hako;
using namespace hako::pdl;
using namespace hako::pdl::code;
using namespace std::chrono_literals;

namespace {

// Whether any process has `needle` in its command line.
bool processWithArgument(const QByteArray& needle)
{
    const QStringList pids = QDir("/proc").entryList(QDir::Dirs | QDir::NoDotAndDotDot);
    for (const QString& pid : pids) {
        QFile f("/proc/" + pid + "/cmdline");
        if (f.open(QIODevice::ReadOnly) && f.readAll().split('\0').contains(needle))
            return true;
    }
    return false;
}

} // namespace

class TestSandbox : public QObject {
    Q_OBJECT
    std::shared_ptr<const Sandbox> m_sandbox;

    CommandOptions options() const
    {
        CommandOptions o;
        o.sandbox = m_sandbox;
        return o;
    }

private Q_SLOTS:
    void initTestCase()
    {
        auto sandbox = Sandbox::create();
        if (!sandbox.ok())
            QSKIP(qPrintable("bubblewrap cannot run here: " + sandbox.error().message));
        m_sandbox = sandbox.value();
    }

    void missingBwrapIsAClearError()
    {
        SandboxOptions o;
        o.bwrap = "no-such-bwrap-hako";
        auto sandbox = Sandbox::create(o);
        QVERIFY(!sandbox.ok());
        QVERIFY2(sandbox.error().message.contains("bubblewrap"),
                 qPrintable(sandbox.error().message));
        QVERIFY(sandbox.error().message.contains("no-such-bwrap-hako"));
    }

    void hostFilesOutsideTheProgramFolderAreHidden()
    {
        // The build folder is writable for the test itself, so only the sandbox stops this,
        // wherever the checkout lives (also under /tmp, which the sandbox replaces).
        const QString target = QStringLiteral(HAKO_BINARY_DIR "/sandbox-write-probe");
        QFile::remove(target);
        const std::vector<std::string> argv = {"sh", "-c", "echo x > \"$1\"", "sh",
                                               target.toStdString()};
        CommandOutcome o = runCommand(argv, std::nullopt, {}, 20s, options());
        QCOMPARE(o.status, CommandOutcome::Status::Exited);
        QVERIFY(!QFile::exists(target));
        // Home folders, /run (host sockets: D-Bus, Docker) and /etc secrets are not there.
        CommandOutcome listing = runCommand({"sh", "-c",
                                             "for p in /run /home /root /etc/shadow /var /opt; do "
                                             "test -e $p && echo $p; done; true"},
                                            std::nullopt, {}, 20s, options());
        QVERIFY2(listing.ok(), listing.errorMessage.c_str());
        QCOMPARE(QString::fromStdString(listing.out), QString());

        // Control: the same command outside the sandbox does write the file.
        CommandOutcome control = runCommand(argv);
        QVERIFY2(control.ok(), control.errorMessage.c_str());
        QVERIFY(QFile::exists(target));
        QFile::remove(target);
    }

    void rootInsideCannotWriteTheHost()
    {
        // Even when Hako runs as root, the code runs without capabilities in a user
        // namespace: it can neither remount the program folder writable nor write into it.
        QTemporaryDir dir(QStringLiteral(HAKO_BINARY_DIR "/sandbox-root-XXXXXX"));
        QVERIFY(dir.isValid());
        CommandOptions o = options();
        o.workingDirectory = QFileInfo(dir.path()).canonicalFilePath().toStdString();
        CommandOutcome caps =
            runCommand({"sh", "-c", "grep CapEff /proc/self/status"}, std::nullopt, {}, 20s, o);
        QVERIFY2(caps.ok(), caps.errorMessage.c_str());
        QCOMPARE(QString::fromStdString(caps.out).simplified(),
                 QStringLiteral("CapEff: 0000000000000000"));
        const std::string script = "mount -o remount,rw \"$PWD\" 2>/dev/null; "
                                   "mount -o remount,rw / 2>/dev/null; "
                                   "mount -t tmpfs none /usr 2>/dev/null; "
                                   "echo x > probe; echo y > /usr/hako-probe; true";
        CommandOutcome write = runCommand({"sh", "-c", script}, std::nullopt, {}, 20s, o);
        QVERIFY2(write.ok(), write.errorMessage.c_str());
        QVERIFY(!QFile::exists(dir.filePath("probe")));
        QVERIFY(!QFile::exists("/usr/hako-probe"));
        // Control: the folder itself is writable for this test.
        QVERIFY(QFile(dir.filePath("probe")).open(QIODevice::WriteOnly));
    }

    void hostUnixSocketsAreUnreachable()
    {
        if (findExecutable("python3").empty())
            QSKIP("python3 is needed to connect to a Unix socket");
        QTemporaryDir dir(QStringLiteral(HAKO_BINARY_DIR "/sandbox-socket-XXXXXX"));
        QVERIFY(dir.isValid());
        QLocalServer server;
        server.setSocketOptions(QLocalServer::WorldAccessOption);
        QVERIFY(server.listen(dir.filePath("s")));
        const std::string script = "import socket, sys\n"
                                   "s = socket.socket(socket.AF_UNIX)\n"
                                   "try:\n"
                                   "    s.connect(sys.argv[1]); print('connected')\n"
                                   "except OSError as e:\n"
                                   "    print('refused', e)\n";
        std::vector<std::string> argv = {"python3", "-c", script, dir.filePath("s").toStdString()};
        CommandOutcome control = runCommand(argv, std::nullopt, {}, 20s);
        QVERIFY2(control.ok(), control.errorMessage.c_str());
        QCOMPARE(QString::fromStdString(control.out), QStringLiteral("connected\n"));
        CommandOutcome boxed = runCommand(argv, std::nullopt, {}, 20s, options());
        QVERIFY2(boxed.ok(), boxed.errorMessage.c_str());
        QVERIFY2(boxed.out.rfind("refused", 0) == 0, boxed.out.c_str());
    }

    void environmentIsMinimal()
    {
        qputenv("HAKO_TEST_API_KEY", "sk-sandbox-secret");
        CommandOutcome o = runCommand({"env"}, std::nullopt, {}, 20s, options());
        qunsetenv("HAKO_TEST_API_KEY");
        QVERIFY2(o.ok(), o.errorMessage.c_str());
        const QString env = QString::fromStdString(o.out);
        QVERIFY2(!env.contains("sk-sandbox-secret"), qPrintable(env));
        QVERIFY2(env.contains("\nHOME=/tmp\n") || env.startsWith("HOME=/tmp\n"), qPrintable(env));
        QVERIFY(env.contains("PATH="));
        QStringList names;
        for (const QString& line : env.split('\n', Qt::SkipEmptyParts))
            names << line.section('=', 0, 0);
        names.sort();
        QCOMPARE(names, QStringList({"HOME", "LANG", "PATH", "PWD", "TMPDIR"}));

        if (findExecutable("python3").empty())
            return;
        qputenv("HAKO_TEST_API_KEY", "sk-sandbox-secret");
        PythonSessionOptions po;
        po.sandbox = m_sandbox;
        PythonSession session(po);
        CodeOutcome py = session.exec("import os\nresult = sorted(os.environ)\n", {});
        qunsetenv("HAKO_TEST_API_KEY");
        QVERIFY2(py.ok(), py.describe().c_str());
        QVERIFY(!QString::fromStdString(py.result.toText()).contains("HAKO_TEST_API_KEY"));
    }

    void memoryIsLimited()
    {
        if (findExecutable("python3").empty())
            QSKIP("python3 is not installed");
        SandboxOptions so;
        so.memoryLimitBytes = uint64_t(512) << 20;
        auto small = Sandbox::create(so);
        if (!small.ok())
            QFAIL(qPrintable(small.error().message));
        CommandOptions o;
        o.sandbox = *small;
        // 1 GiB of address space, never touched: instant without the limit, refused with it.
        const std::vector<std::string> argv = {
            "python3", "-c",
            "import mmap\ntry:\n"
            "    m = mmap.mmap(-1, 1 << 30); print('allocated')\n"
            "except OSError:\n    print('refused')\n"};
        CommandOutcome boxed = runCommand(argv, std::nullopt, {}, 60s, o);
        QVERIFY2(boxed.ok(), boxed.errorMessage.c_str());
        QCOMPARE(QString::fromStdString(boxed.out), QStringLiteral("refused\n"));
        // Control: the same mapping is fine without the limit.
        CommandOutcome control = runCommand(argv, std::nullopt, {}, 60s);
        QVERIFY2(control.ok(), control.errorMessage.c_str());
        QCOMPARE(QString::fromStdString(control.out), QStringLiteral("allocated\n"));
    }

    void processesAreLimited()
    {
        if (::geteuid() == 0) {
            // The kernel exempts root from RLIMIT_NPROC: check it as an ordinary user (this
            // same test, run again as nobody).
            const QString setpriv = QString::fromStdString(findExecutable("setpriv"));
            if (setpriv.isEmpty())
                QSKIP("running as root and setpriv (util-linux) is missing");
            QProcess p;
            QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
            env.insert(QStringLiteral("HOME"), QDir::tempPath());
            p.setProcessEnvironment(env);
            p.start(setpriv,
                    {QStringLiteral("--reuid=65534"), QStringLiteral("--regid=65534"),
                     QStringLiteral("--clear-groups"), QCoreApplication::applicationFilePath(),
                     QStringLiteral("processesAreLimited")});
            QVERIFY(p.waitForFinished(120000));
            const QString out = QString::fromUtf8(p.readAllStandardOutput());
            // Not started (the build folder is not readable by nobody) or skipped there.
            if (!out.contains(QLatin1String("Start testing")) ||
                out.contains(QLatin1String("SKIP   : TestSandbox::processesAreLimited()")))
                QSKIP(qPrintable(QStringLiteral("as nobody: ") + out.right(300)));
            QVERIFY2(p.exitCode() == 0 &&
                         out.contains(QLatin1String("PASS   : TestSandbox::processesAreLimited()")),
                     qPrintable(out + QString::fromUtf8(p.readAllStandardError())));
            return;
        }
        if (findExecutable("python3").empty())
            QSKIP("python3 is not installed");
        // RLIMIT_NPROC counts every process of the user: allow what runs now plus a few.
        int mine = 0;
        const QStringList pids = QDir("/proc").entryList(QDir::Dirs | QDir::NoDotAndDotDot);
        for (const QString& pid : pids)
            if (QFileInfo("/proc/" + pid).ownerId() == ::geteuid())
                ++mine;
        SandboxOptions so;
        so.processLimit = uint64_t(mine + 20);
        auto small = Sandbox::create(so);
        if (!small.ok())
            QFAIL(qPrintable(small.error().message));
        CommandOptions o;
        o.sandbox = *small;
        CommandOutcome boxed =
            runCommand({"python3", "-c",
                        "import os, time\nn = 0\ntry:\n    for i in range(200):\n"
                        "        if os.fork() == 0:\n            time.sleep(5); os._exit(0)\n"
                        "        n += 1\nexcept OSError:\n    pass\nprint(n)\n"},
                       std::nullopt, {}, 30s, o);
        QVERIFY2(boxed.ok(), boxed.errorMessage.c_str());
        QVERIFY2(std::stoi(boxed.out) < 200, boxed.out.c_str());
    }

    void backgroundChildrenEndWithTheCommand()
    {
        CommandOutcome o = runCommand({"sh", "-c", "sleep 61.75 & echo started"}, std::nullopt, {},
                                      20s, options());
        QVERIFY2(o.ok(), o.errorMessage.c_str());
        QTRY_VERIFY(!processWithArgument("61.75"));
    }

    void pythonBlockRunsUnderSandboxedInterpreter()
    {
        if (findExecutable("python3").empty())
            QSKIP("python3 is not installed");
        // A Python block used to deadlock: the runner asked for the sandbox while holding the
        // lock that creating the sandbox takes.
        ParseResult parsed = parseProgramText("lang: python\ncode: result = 6 * 7\n",
                                              QStringLiteral("sandboxed.pdl"));
        QVERIFY(parsed.program);
        RunOptions ro;
        ro.sandbox = true;
        Interpreter interpreter(ro);
        RunResult r = interpreter.run(parsed.program);
        QVERIFY2(r.ok, qPrintable(r.error.message));
        QCOMPARE(r.result.asInt(), int64_t(42));
    }

    void privateTemporaryFolderIsWritable()
    {
        CommandOutcome o = runCommand({"sh", "-c", "echo inside > /tmp/note && cat /tmp/note"},
                                      std::nullopt, {}, 20s, options());
        QVERIFY2(o.ok(), o.errorMessage.c_str());
        QCOMPARE(QString::fromStdString(o.out), QStringLiteral("inside\n"));
        // It is the sandbox's own folder on the host, not the host's /tmp.
        QFile note(QString::fromStdString(m_sandbox->temporaryFolder()) + "/note");
        QVERIFY(note.open(QIODevice::ReadOnly));
        QCOMPARE(note.readAll(), QByteArray("inside\n"));
        QVERIFY(!QFile::exists("/tmp/note") ||
                QFileInfo("/tmp/note").lastModified().secsTo(QDateTime::currentDateTime()) > 60);
    }

    void programFolderUnderTmpStaysVisible()
    {
        QTemporaryDir dir; // under the host's /tmp, which the sandbox replaces
        QFile data(dir.filePath("data.txt"));
        QVERIFY(data.open(QIODevice::WriteOnly));
        data.write("payload");
        data.close();
        CommandOptions o = options();
        o.workingDirectory = QFileInfo(dir.path()).canonicalFilePath().toStdString();
        CommandOutcome read = runCommand({"cat", "data.txt"}, std::nullopt, {}, 20s, o);
        QVERIFY2(read.ok(), read.errorMessage.c_str());
        QCOMPARE(QString::fromStdString(read.out), QStringLiteral("payload"));
        CommandOutcome write =
            runCommand({"sh", "-c", "echo x > data.txt"}, std::nullopt, {}, 20s, o);
        QCOMPARE(write.status, CommandOutcome::Status::Exited);
    }

    void noNetwork()
    {
        if (findExecutable("python3").empty())
            QSKIP("python3 is needed to open a TCP connection");
        // A listener on loopback only; the kernel completes the handshake from its backlog.
        QTcpServer server;
        QVERIFY(server.listen(QHostAddress::LocalHost, 0));
        const std::string script =
            "import socket, sys\n"
            "try:\n"
            "    socket.create_connection(('127.0.0.1', int(sys.argv[1])), timeout=3).close()\n"
            "    print('connected')\n"
            "except OSError as e:\n"
            "    print('refused', e)\n";
        std::vector<std::string> argv = {"python3", "-c", script,
                                         std::to_string(server.serverPort())};
        CommandOutcome control = runCommand(argv, std::nullopt, {}, 20s);
        QVERIFY2(control.ok(), control.errorMessage.c_str());
        QCOMPARE(QString::fromStdString(control.out), QStringLiteral("connected\n"));

        CommandOutcome boxed = runCommand(argv, std::nullopt, {}, 20s, options());
        QVERIFY2(boxed.ok(), boxed.errorMessage.c_str());
        QVERIFY2(boxed.out.rfind("refused", 0) == 0, boxed.out.c_str());
    }

    void pythonSessionInTheSandbox()
    {
        if (findExecutable("python3").empty())
            QSKIP("python3 is not installed");
        PythonSessionOptions options;
        options.sandbox = m_sandbox;
        PythonSession session(options);
        CodeOutcome w = session.exec("PDL_SESSION.n = 1\n"
                                     "open('/tmp/from-python', 'w').write('ok')\n"
                                     "result = open('/tmp/from-python').read()\n",
                                     {});
        QVERIFY2(w.ok(), w.describe().c_str());
        QCOMPARE(QString::fromStdString(w.result.asString()), QStringLiteral("ok"));
        // A place outside the sandbox's private /tmp: the build folder, unless the clone is
        // under /tmp itself (then a write there lands in the sandbox's own /tmp and is
        // rightly allowed), else the home folder.
        const QString binaryDir = QStringLiteral(HAKO_BINARY_DIR);
        const QString probeDir =
            binaryDir.startsWith(QLatin1String("/tmp/")) ? QDir::homePath() : binaryDir;
        if (probeDir.startsWith(QLatin1String("/tmp")))
            QSKIP("both the build folder and the home folder are under /tmp");
        const QString probe =
            probeDir +
            QStringLiteral("/sandbox-python-probe-%1").arg(QCoreApplication::applicationPid());
        const std::string outside = probe.toStdString();
        CodeOutcome denied = session.exec("open(path, 'w')\n", {{Value("path"), Value(outside)}});
        QCOMPARE(denied.status, CodeOutcome::Status::Exception);
        QVERIFY(denied.matchesException("OSError"));
        QVERIFY(!QFile::exists(QString::fromStdString(outside)));
        CodeOutcome again = session.exec("result = PDL_SESSION.n + 1\n", {});
        QVERIFY2(again.ok(), again.describe().c_str());
        QCOMPARE(again.result.asInt(), int64_t(2));
    }

    void timeoutKillsTheSandboxedTree()
    {
        if (findExecutable("python3").empty())
            QSKIP("python3 is not installed");
        PythonSessionOptions options;
        options.sandbox = m_sandbox;
        PythonSession session(options);
        CodeOutcome o = session.exec("import subprocess\n"
                                     "subprocess.Popen(['sleep', '61.25'])\n"
                                     "while True:\n"
                                     "    pass\n",
                                     {}, {}, 1500ms);
        QCOMPARE(o.status, CodeOutcome::Status::TimedOut);
        QTRY_VERIFY(!processWithArgument("61.25"));
        CodeOutcome next = session.exec("result = 5\n", {});
        QVERIFY2(next.ok(), next.describe().c_str());
    }
};

QTEST_GUILESS_MAIN(TestSandbox)
#include "tst_sandbox.moc"
