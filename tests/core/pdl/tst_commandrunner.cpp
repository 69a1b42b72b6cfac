#include "core/pdl/code/commandrunner.h"

#include "core/pdl/code/childprocess.h"

#include <QDir>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QProcess>
#include <QTemporaryDir>
#include <QTest>

#include <csignal>
#include <thread>

using namespace hako;
using namespace hako::pdl::code;
using namespace std::chrono_literals;

Q_DECLARE_METATYPE(std::vector<std::string>)

namespace {

std::vector<std::string> words(std::initializer_list<const char*> list)
{
    return std::vector<std::string>(list.begin(), list.end());
}

QStringList toQt(const std::vector<std::string>& v)
{
    QStringList out;
    for (const auto& s : v)
        out << QString::fromStdString(s);
    return out;
}

} // namespace

class TestCommandRunner : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void split_data()
    {
        QTest::addColumn<QString>("line");
        QTest::addColumn<QStringList>("expected");
        // Expectations follow shlex.split's POSIX rules (checked against Python in splitOracle).
        QTest::newRow("plain") << "echo Hello World!" << QStringList{"echo", "Hello", "World!"};
        QTest::newRow("runs of space") << "  a \t b\n\nc  " << QStringList{"a", "b", "c"};
        QTest::newRow("double quotes")
            << "echo \"Hello World!\"" << QStringList{"echo", "Hello World!"};
        QTest::newRow("single quotes literal")
            << "echo 'a \\\" $x'" << QStringList{"echo", "a \\\" $x"};
        QTest::newRow("escape in double quotes")
            << "a \"x \\\" \\\\ \\n y\"" << QStringList{"a", "x \" \\ \\n y"};
        QTest::newRow("escape outside quotes")
            << "a\\ b \\$c \\\\" << QStringList{"a b", "$c", "\\"};
        QTest::newRow("adjacent parts join") << "a'b'\"c\"d" << QStringList{"abcd"};
        QTest::newRow("empty quotes are a word") << "a '' \"\" b" << QStringList{"a", "", "", "b"};
        QTest::newRow("no expansion")
            << "ls *.txt ~ $HOME # x" << QStringList{"ls", "*.txt", "~", "$HOME", "#", "x"};
        QTest::newRow("empty") << "" << QStringList{};
        QTest::newRow("only space") << " \n " << QStringList{};
        QTest::newRow("unicode") << "echo '銀河 鉄道'" << QStringList{"echo", "銀河 鉄道"};
    }
    void split()
    {
        QFETCH(QString, line);
        QFETCH(QStringList, expected);
        auto result = splitCommandLine(line.toStdString());
        QVERIFY2(result.ok(), qPrintable(result.ok() ? QString() : result.error().message));
        QCOMPARE(toQt(result.value()), expected);
    }

    void splitErrors_data()
    {
        QTest::addColumn<QString>("line");
        QTest::addColumn<QString>("message");
        QTest::newRow("open single") << "echo 'abc"
                                     << "No closing quotation";
        QTest::newRow("open double") << "echo \"abc"
                                     << "No closing quotation";
        QTest::newRow("backslash in open double") << "echo \"abc\\"
                                                  << "No closing quotation";
        QTest::newRow("trailing backslash") << "echo abc\\"
                                            << "No escaped character";
    }
    void splitErrors()
    {
        QFETCH(QString, line);
        QFETCH(QString, message);
        auto result = splitCommandLine(line.toStdString());
        QVERIFY(!result.ok());
        QCOMPARE(result.error().message, message);
    }

    void splitOracle()
    {
        // Compares with Python's shlex.split on tricky inputs, when python3 is available.
        if (findExecutable("python3").empty())
            QSKIP("python3 is not installed");
        const QStringList inputs = {"a \"b\\\"c\" 'd\\'e",
                                    "x\\\\y \"p\\q\" 'r\\s'",
                                    "\\'a\\' \\\"b\\\"",
                                    "tab\tsep\rcr\nnl",
                                    "\"\"'' x",
                                    "a\"b c\"d e' 'f",
                                    "echo \"a\\\\\\\"b\"",
                                    "\\\nnext",
                                    "--opt=\"v a l\" -k='x y'",
                                    "mixed \"dq 'sq' in\" 'sq \"dq\" in'"};
        QStringList script = {"import json, shlex, sys",
                              "out = []",
                              "for s in json.load(sys.stdin):",
                              "    try: out.append(shlex.split(s))",
                              "    except ValueError as e: out.append(str(e))",
                              "print(json.dumps(out))"};
        QProcess py;
        py.start("python3", {"-c", script.join('\n')});
        py.write(QJsonDocument(QJsonArray::fromStringList(inputs)).toJson());
        py.closeWriteChannel();
        QVERIFY(py.waitForFinished(30000));
        QJsonArray expected = QJsonDocument::fromJson(py.readAllStandardOutput()).array();
        QCOMPARE(expected.size(), inputs.size());
        for (int i = 0; i < inputs.size(); ++i) {
            auto result = splitCommandLine(inputs[i].toStdString());
            QJsonValue want = expected[i];
            if (want.isString()) {
                QVERIFY2(!result.ok(), qPrintable(inputs[i]));
                QCOMPARE(result.error().message, want.toString());
            } else {
                QVERIFY2(result.ok(), qPrintable(inputs[i]));
                QStringList wantWords;
                for (const auto& w : want.toArray())
                    wantWords << w.toString();
                QCOMPARE(toQt(result.value()), wantWords);
            }
        }
    }

    void joinRoundTrips()
    {
        std::vector<std::string> argv = words({"echo", "a b", "it's", "", "$x", "plain-1.txt"});
        std::string line = joinCommandLine(argv);
        QCOMPARE(QString::fromStdString(line),
                 QStringLiteral("echo 'a b' 'it'\"'\"'s' '' '$x' plain-1.txt"));
        auto back = splitCommandLine(line);
        QVERIFY(back.ok());
        QCOMPARE(toQt(back.value()), toQt(argv));
    }

    void runEcho()
    {
        // code_command.pdl: `echo "Hello World!"` prints the text and a newline.
        auto argv = splitCommandLine("echo \"Hello World!\"");
        QVERIFY(argv.ok());
        CommandOutcome o = runCommand(argv.value());
        QVERIFY2(o.ok(), o.errorMessage.c_str());
        QCOMPARE(o.exitCode, 0);
        QCOMPARE(QString::fromStdString(o.out), QStringLiteral("Hello World!\n"));
        QVERIFY(o.err.empty());
    }

    void noShell()
    {
        // Shell syntax reaches the program as plain words.
        CommandOutcome o = runCommand(words({"echo", "$HOME", "|", "wc", ";", "*"}));
        QVERIFY(o.ok());
        QCOMPARE(QString::fromStdString(o.out), QStringLiteral("$HOME | wc ; *\n"));
    }

    void stdinIsFed()
    {
        CommandOutcome o = runCommand(words({"tr", "a-z", "A-Z"}), std::string("hello\n"));
        QVERIFY2(o.ok(), o.errorMessage.c_str());
        QCOMPARE(QString::fromStdString(o.out), QStringLiteral("HELLO\n"));
        // Without input, stdin is empty rather than the terminal.
        CommandOutcome empty = runCommand(words({"cat"}));
        QVERIFY(empty.ok());
        QVERIFY(empty.out.empty());
    }

    void inputNotReadDoesNotKillUs()
    {
        // 16 MB to a command that exits without reading: EPIPE, not SIGPIPE for the caller.
        CommandOutcome o = runCommand(words({"true"}), std::string(16 << 20, 'x'));
        QVERIFY2(o.ok(), o.errorMessage.c_str());
    }

    void largeOutput()
    {
        CommandOutcome o = runCommand(words({"head", "-c", "12000000", "/dev/zero"}));
        QVERIFY(o.ok());
        QCOMPARE(o.out.size(), size_t(12000000));
        // Large input echoed back through both pipes at once.
        std::string input(6 << 20, 'y');
        CommandOutcome cat = runCommand(words({"cat"}), input);
        QVERIFY(cat.ok());
        QCOMPARE(cat.out.size(), input.size());
    }

    void nonZeroExit()
    {
        CommandOutcome o = runCommand(words({"ls", "/no/such/folder-hako"}));
        QCOMPARE(o.status, CommandOutcome::Status::Exited);
        QVERIFY(o.exitCode != 0);
        QString msg = QString::fromStdString(o.errorMessage);
        QVERIFY2(msg.startsWith("command 'ls /no/such/folder-hako' failed with exit code"),
                 qPrintable(msg));
        QVERIFY2(msg.contains("/no/such/folder-hako"), qPrintable(msg));
        QVERIFY2(msg.contains("No such file"), qPrintable(msg)); // ls's stderr
        QVERIFY(!o.err.empty());
    }

    void killedBySignal()
    {
        CommandOutcome o = runCommand(words({"sh", "-c", "kill -SEGV $$"}));
        QCOMPARE(o.status, CommandOutcome::Status::Exited);
        QCOMPARE(o.exitCode, -SIGSEGV);
        QVERIFY2(o.errorMessage.find("SIGSEGV") != std::string::npos, o.errorMessage.c_str());
    }

    void missingProgram()
    {
        CommandOutcome o = runCommand(words({"no-such-program-hako", "x"}));
        QCOMPARE(o.status, CommandOutcome::Status::Failed);
        QCOMPARE(QString::fromStdString(o.errorMessage),
                 QStringLiteral("command not found: 'no-such-program-hako' is not in PATH"));
        CommandOutcome empty = runCommand({});
        QCOMPARE(empty.status, CommandOutcome::Status::Failed);
    }

    void workingDirectoryAndRelativeProgram()
    {
        QTemporaryDir dir;
        QFile script(dir.filePath("tool.sh"));
        QVERIFY(script.open(QIODevice::WriteOnly));
        script.write("#!/bin/sh\npwd\n");
        script.close();
        script.setPermissions(script.permissions() | QFileDevice::ExeOwner);
        CommandOptions options;
        options.workingDirectory = dir.path().toStdString();
        CommandOutcome o = runCommand(words({"./tool.sh"}), std::nullopt, {}, 0ms, options);
        QVERIFY2(o.ok(), o.errorMessage.c_str());
        QCOMPARE(QString::fromStdString(o.out).trimmed(),
                 QFileInfo(dir.path()).canonicalFilePath());
    }

    void timeoutKillsTheTree()
    {
        CommandOutcome o = runCommand(words({"sh", "-c", "setsid sleep 60 & echo $!; sleep 60"}),
                                      std::nullopt, {}, 400ms);
        QCOMPARE(o.status, CommandOutcome::Status::TimedOut);
        QCOMPARE(QString::fromStdString(o.errorMessage),
                 QStringLiteral("command 'sh -c 'setsid sleep 60 & echo $!; sleep 60'' timed "
                                "out after 0.4 s"));
        pid_t escaped = pid_t(std::stol(o.out));
        QTRY_VERIFY(::kill(escaped, 0) != 0);
    }

    void timeoutAfterPipesClosed()
    {
        // A command that closes its outputs but keeps running still times out.
        CommandOutcome o =
            runCommand(words({"sh", "-c", "exec >&- 2>&-; sleep 60"}), std::nullopt, {}, 300ms);
        QCOMPARE(o.status, CommandOutcome::Status::TimedOut);
    }

    void cancel()
    {
        CancelToken token;
        std::thread t([token] {
            std::this_thread::sleep_for(200ms);
            token.cancel();
        });
        CommandOutcome o = runCommand(words({"sleep", "60"}), std::nullopt, token);
        t.join();
        QCOMPARE(o.status, CommandOutcome::Status::Cancelled);
    }
};

QTEST_GUILESS_MAIN(TestCommandRunner)
#include "tst_commandrunner.moc"
