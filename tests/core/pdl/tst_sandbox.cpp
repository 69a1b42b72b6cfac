#include "core/pdl/code/sandbox.h"

#include "core/pdl/code/childprocess.h"
#include "core/pdl/code/commandrunner.h"
#include "core/pdl/code/pythonsession.h"

#include <QDateTime>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QHostAddress>
#include <QTcpServer>
#include <QTemporaryDir>
#include <QTest>

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

    void readOnlyOutsideTheTemporaryFolder()
    {
        // The build folder is writable for the test itself, so only the sandbox stops this.
        const QString target = QStringLiteral(HAKO_BINARY_DIR "/sandbox-write-probe");
        QFile::remove(target);
        CommandOutcome o = runCommand({"sh", "-c", "echo x > \"$1\"", "sh", target.toStdString()},
                                      std::nullopt, {}, 20s, options());
        QCOMPARE(o.status, CommandOutcome::Status::Exited);
        QVERIFY2(o.err.find("Read-only file system") != std::string::npos, o.err.c_str());
        QVERIFY(!QFile::exists(target));

        // Control: the same command outside the sandbox does write the file.
        CommandOutcome control =
            runCommand({"sh", "-c", "echo x > \"$1\"", "sh", target.toStdString()});
        QVERIFY2(control.ok(), control.errorMessage.c_str());
        QVERIFY(QFile::exists(target));
        QFile::remove(target);
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
        const std::string outside = HAKO_BINARY_DIR "/sandbox-python-probe";
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
