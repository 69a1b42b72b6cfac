#include "core/pdl/code/pythonsession.h"

#include "core/pdl/code/childprocess.h"

#include <QFileInfo>
#include <QTest>

#include <atomic>
#include <cmath>
#include <csignal>
#include <thread>

using namespace hako;
using namespace hako::pdl;
using namespace hako::pdl::code;
using namespace std::chrono_literals;

namespace {

QString describe(const CodeOutcome& o)
{
    return QString::fromStdString(o.describe() + "\n" + o.traceback + "\nstderr: " + o.err);
}

#define REQUIRE_OK(outcome) QVERIFY2((outcome).ok(), qPrintable(describe(outcome)))

bool processAlive(pid_t pid)
{
    return ::kill(pid, 0) == 0;
}

} // namespace

class TestPythonSession : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void initTestCase()
    {
        if (findExecutable("python3").empty())
            QSKIP("python3 is not installed");
    }

    void resultFromGlobals()
    {
        PythonSession session;
        QVERIFY(!session.isRunning()); // started lazily
        Dict globals{{Value("x"), Value(10)}, {Value("y"), Value(20)}};
        CodeOutcome o = session.exec("result = x + y\n", globals);
        REQUIRE_OK(o);
        QVERIFY(o.result.isInt());
        QCOMPARE(o.result.asInt(), int64_t(30));
        QVERIFY(session.isRunning());
        QCOMPARE(session.startCount(), 1);
    }

    void resultUnsetIsNone()
    {
        PythonSession session;
        CodeOutcome o = session.exec("x = 1\n", {});
        REQUIRE_OK(o);
        QVERIFY(o.result.isNull());
    }

    void conversions_data()
    {
        QTest::addColumn<QString>("code");
        QTest::addColumn<QString>("expectedRepr");
        QTest::addColumn<QString>("expectedType");
        QTest::newRow("int") << "result = 7"
                             << "7"
                             << "int";
        QTest::newRow("float stays float") << "result = 2.0"
                                           << "2.0"
                                           << "float";
        QTest::newRow("bool") << "result = 1 < 2"
                              << "True"
                              << "bool";
        QTest::newRow("str") << "result = 'it\\'s'"
                             << "\"it's\""
                             << "str";
        QTest::newRow("unicode") << "result = '銀河'"
                                 << "'銀河'"
                                 << "str";
        QTest::newRow("tuple becomes list") << "result = (1, 'a')"
                                            << "[1, 'a']"
                                            << "list";
        QTest::newRow("dict order kept") << "result = {'z': 1, 'a': [True, None]}"
                                         << "{'z': 1, 'a': [True, None]}"
                                         << "dict";
        QTest::newRow("int keys kept") << "result = {2: 'b', 1: 'a'}"
                                       << "{2: 'b', 1: 'a'}"
                                       << "dict";
        QTest::newRow("nan") << "result = float('nan')"
                             << "nan"
                             << "float";
        QTest::newRow("-inf") << "result = float('-inf')"
                              << "-inf"
                              << "float";
        QTest::newRow("int64 max") << "result = 2**63 - 1"
                                   << "9223372036854775807"
                                   << "int";
        QTest::newRow("int64 min") << "result = -2**63"
                                   << "-9223372036854775808"
                                   << "int";
        QTest::newRow("set is an object") << "result = {1}"
                                          << "{1}"
                                          << "set";
        QTest::newRow("generator of a range") << "result = list(range(3))"
                                              << "[0, 1, 2]"
                                              << "list";
    }
    void conversions()
    {
        QFETCH(QString, code);
        QFETCH(QString, expectedRepr);
        QFETCH(QString, expectedType);
        PythonSession session;
        CodeOutcome o = session.exec(code.toStdString(), {});
        REQUIRE_OK(o);
        QCOMPARE(QString::fromStdString(o.result.repr()), expectedRepr);
        if (o.result.isCallable())
            QCOMPARE(QString::fromStdString(o.result.asCallable()->name()), expectedType);
        else
            QCOMPARE(QString::fromUtf8(o.result.typeName()), expectedType);
    }

    void bigIntBecomesFloatWithNote()
    {
        PythonSession session;
        CodeOutcome o = session.exec("result = 2**64", {});
        REQUIRE_OK(o);
        QVERIFY(o.result.isFloat());
        QCOMPARE(o.result.asFloat(), 18446744073709551616.0);
        QCOMPARE(o.notes.size(), size_t(1));
        QVERIFY(o.notes[0].find("18446744073709551616") != std::string::npos);
    }

    void globalsRoundTrip()
    {
        // Every kind of PDL value reaches Python as the matching Python value.
        PythonSession session;
        Dict inner{{Value("role"), Value("user")}, {Value("content"), Value("hi")}};
        Dict keyed;
        keyed.set(Value(1), Value("one"));
        keyed.set(Value::tuple({Value(1), Value(2)}), Value("pair"));
        Dict globals{{Value("pdl_context"), Value(List{Value(inner)})},
                     {Value("f"), Value(1.5)},
                     {Value("n"), Value(std::nan(""))},
                     {Value("t"), Value::tuple({Value(1), Value("x")})},
                     {Value("k"), Value(keyed)},
                     {Value("s"), Value("銀河")}};
        CodeOutcome o =
            session.exec("import math\n"
                         "result = [pdl_context[0]['content'], type(f).__name__, math.isnan(n),\n"
                         "          type(t).__name__, k[(1, 2)], k[1], len(s)]\n",
                         globals);
        REQUIRE_OK(o);
        QCOMPARE(QString::fromStdString(o.result.repr()),
                 QStringLiteral("['hi', 'float', True, 'tuple', 'pair', 'one', 2]"));
    }

    void outputCapturedPerBlock()
    {
        PythonSession session;
        CodeOutcome a = session.exec("import sys\nprint('hello')\nprint('oops', file=sys.stderr)\n"
                                     "result = 1\n",
                                     {});
        REQUIRE_OK(a);
        QCOMPARE(QString::fromStdString(a.out), QStringLiteral("hello\n"));
        QCOMPARE(QString::fromStdString(a.err), QStringLiteral("oops\n"));
        // Output from a subprocess of the code goes to the same pipes.
        CodeOutcome b =
            session.exec("import os\nos.system('echo from-shell')\nprint('銀河')\n", {});
        REQUIRE_OK(b);
        QCOMPARE(QString::fromStdString(b.out), QStringLiteral("from-shell\n銀河\n"));
        QVERIFY(b.err.empty());
    }

    void sessionPersists()
    {
        PythonSession session;
        REQUIRE_OK(session.exec("PDL_SESSION.count = 41\nimport json\n", {}));
        CodeOutcome o = session.exec("import sys\nPDL_SESSION.count += 1\n"
                                     "result = [PDL_SESSION.count, 'json' in sys.modules]\n",
                                     {});
        REQUIRE_OK(o);
        QCOMPARE(QString::fromStdString(o.result.repr()), QStringLiteral("[42, True]"));
        // Plain globals of one block do not leak into the next (each gets the PDL scope).
        CodeOutcome leak = session.exec("result = 'count' in globals()\n", {});
        REQUIRE_OK(leak);
        QCOMPARE(leak.result.asBool(), false);
    }

    void exceptionDetails()
    {
        PythonSession session;
        CodeOutcome o = session.exec("x = 1\n"
                                     "def f():\n"
                                     "    raise ConnectionError(f'attempt {x}: unavailable')\n"
                                     "f()\n",
                                     {});
        QCOMPARE(o.status, CodeOutcome::Status::Exception);
        QCOMPARE(QString::fromStdString(o.errorType), QStringLiteral("ConnectionError"));
        QCOMPARE(QString::fromStdString(o.errorMessage), QStringLiteral("attempt 1: unavailable"));
        QCOMPARE(o.errorLine, 3);
        QVERIFY(o.matchesException("ConnectionError"));
        QVERIFY(o.matchesException("OSError"));
        QVERIFY(o.matchesException("Exception"));
        QVERIFY(!o.matchesException("TimeoutError"));
        QVERIFY(!o.matchesException("ValueError"));
        QCOMPARE(QString::fromStdString(o.describe()),
                 QStringLiteral("ConnectionError: attempt 1: unavailable"));
        // The traceback shows the block's own lines (not the driver's) with their source.
        QString tb = QString::fromStdString(o.traceback);
        QVERIFY2(tb.contains("line 3, in f"), qPrintable(tb));
        QVERIFY2(tb.contains("raise ConnectionError"), qPrintable(tb));
        QVERIFY2(!tb.contains("_run"), qPrintable(tb));
        // The session survives an exception.
        REQUIRE_OK(session.exec("result = 1", {}));
        QCOMPARE(session.startCount(), 1);
    }

    void syntaxErrorLine()
    {
        PythonSession session;
        CodeOutcome o = session.exec("a = 1\nb = (\n", {});
        QCOMPARE(o.status, CodeOutcome::Status::Exception);
        QCOMPARE(QString::fromStdString(o.errorType), QStringLiteral("SyntaxError"));
        QCOMPARE(o.errorLine, 2);
        QVERIFY(o.matchesException("SyntaxError"));
    }

    void systemExitIsAnError()
    {
        PythonSession session;
        CodeOutcome o = session.exec("import sys\nsys.exit(3)\n", {});
        QCOMPARE(o.status, CodeOutcome::Status::Exception);
        QCOMPARE(QString::fromStdString(o.errorType), QStringLiteral("SystemExit"));
        REQUIRE_OK(session.exec("result = 1", {}));
    }

    void objectsStayInTheSubprocess()
    {
        // retry.pdl: an itertools.count made by one block is advanced by later blocks.
        PythonSession session;
        CodeOutcome made = session.exec("import itertools\nresult = itertools.count(1)\n", {});
        REQUIRE_OK(made);
        QVERIFY(made.result.isCallable());
        QCOMPARE(QString::fromStdString(made.result.repr()), QStringLiteral("count(1)"));
        Dict globals{{Value("attempts"), made.result}};
        for (int expected = 1; expected <= 3; ++expected) {
            CodeOutcome o = session.exec("result = next(attempts)\n", globals);
            REQUIRE_OK(o);
            QCOMPARE(o.result.asInt(), int64_t(expected));
        }
    }

    void callableObjects()
    {
        // python-reduce.pdl: operator.add used as a reduce function from the interpreter.
        PythonSession session;
        CodeOutcome made = session.exec("import operator\nresult = operator.add\n", {});
        REQUIRE_OK(made);
        auto plus = made.result.asCallable();
        QCOMPARE(QString::fromStdString(plus->repr()), QStringLiteral("<built-in function add>"));
        Value acc(0);
        for (int i : {1, 2, 3, 4}) {
            CallArgs args;
            args.positional = {acc, Value(i)};
            acc = plus->call(args);
        }
        QCOMPARE(acc.asInt(), int64_t(10));
        CallArgs strings;
        strings.positional = {Value("ab"), Value("cd")};
        QCOMPARE(QString::fromStdString(plus->call(strings).asString()), QStringLiteral("abcd"));

        // Keyword arguments and errors raised by the call.
        CodeOutcome fn = session.exec("def greet(name, punct='!'):\n"
                                      "    print('greeting', name)\n"
                                      "    return 'hi ' + name + punct\n"
                                      "result = greet\n",
                                      {});
        REQUIRE_OK(fn);
        auto* obj = dynamic_cast<const PythonObject*>(fn.result.asCallable().get());
        QVERIFY(obj);
        CallArgs kw;
        kw.positional = {Value("ann")};
        kw.keyword = {{"punct", Value("?")}};
        CodeOutcome called = obj->invoke(kw);
        REQUIRE_OK(called);
        QCOMPARE(QString::fromStdString(called.result.asString()), QStringLiteral("hi ann?"));
        QCOMPARE(QString::fromStdString(called.out), QStringLiteral("greeting ann\n"));
        CallArgs none;
        QVERIFY_THROWS_EXCEPTION(EvalError, obj->call(none));
        try {
            obj->call(none);
        } catch (const EvalError& e) {
            QVERIFY2(QString(e.what()).startsWith("TypeError: "), e.what());
        }
    }

    void pdlFunctionsAreCalledBack()
    {
        PythonSession session;
        auto fn = makeCallable("double", [](const CallArgs& a) {
            if (a.positional.empty() || !a.positional[0].isInt())
                throw std::runtime_error("double needs a number");
            return Value(a.positional[0].asInt() * 2);
        });
        CodeOutcome o = session.exec("result = [repr(f), f(21)]\n", {{Value("f"), Value(fn)}});
        QCOMPARE(o.status, CodeOutcome::Status::Ok);
        QVERIFY(o.result.isList() && o.result.asList().size() == 2);
        QVERIFY(o.result.asList()[0].asString().find("<function double>") != std::string::npos);
        QVERIFY(o.result.asList()[1] == Value(42));
        // The function's error is an exception in the code, which may catch it.
        CodeOutcome e = session.exec("f()\n", {{Value("f"), Value(fn)}});
        QCOMPARE(e.status, CodeOutcome::Status::Exception);
        QCOMPARE(QString::fromStdString(e.errorType), QStringLiteral("RuntimeError"));
        QVERIFY(e.errorMessage.find("double needs a number") != std::string::npos);
    }

    void timeoutKillsAndRestarts()
    {
        PythonSession session;
        CodeOutcome made = session.exec("import itertools\nresult = itertools.count(5)\n", {});
        REQUIRE_OK(made);
        // The code starts a grandchild in its own session; the timeout must kill it too.
        CodeOutcome o =
            session.exec("import subprocess, sys\n"
                         "p = subprocess.Popen(['sleep', '60'], start_new_session=True)\n"
                         "print(p.pid, flush=True)\n"
                         "while True:\n"
                         "    pass\n",
                         {}, {}, 500ms);
        QCOMPARE(o.status, CodeOutcome::Status::TimedOut);
        QCOMPARE(QString::fromStdString(o.describe()), QStringLiteral("timed out after 0.5 s"));
        QVERIFY(o.matchesException("TimeoutError"));
        pid_t grandchild = pid_t(std::stol(o.out));
        QVERIFY(grandchild > 0);
        QTRY_VERIFY(!processAlive(grandchild));
        QVERIFY(!session.isRunning());

        // The next exec starts a fresh subprocess; objects of the old one are gone.
        REQUIRE_OK(session.exec("result = 1", {}));
        QCOMPARE(session.startCount(), 2);
        CodeOutcome stale = session.exec("result = next(c)\n", {{Value("c"), made.result}});
        QCOMPARE(stale.status, CodeOutcome::Status::Failed);
        QVERIFY(stale.errorMessage.find("count(5)") != std::string::npos);
        QVERIFY_THROWS_EXCEPTION(EvalError, made.result.asCallable()->call(CallArgs{}));
    }

    void cancelFromAnotherThread()
    {
        PythonSession session;
        REQUIRE_OK(session.exec("result = 1", {}));
        CancelToken token;
        std::thread canceller([token] {
            std::this_thread::sleep_for(300ms);
            token.cancel();
        });
        CodeOutcome o =
            session.exec("import time\nprint('started', flush=True)\ntime.sleep(60)\n", {}, token);
        canceller.join();
        QCOMPARE(o.status, CodeOutcome::Status::Cancelled);
        QCOMPARE(QString::fromStdString(o.describe()), QStringLiteral("cancelled"));
        QCOMPARE(QString::fromStdString(o.out), QStringLiteral("started\n"));
        QVERIFY(!o.matchesException("Exception"));
        REQUIRE_OK(session.exec("result = 2", {}));
    }

    void runCancelStopsObjectCalls()
    {
        PythonSessionOptions options;
        PythonSession session(options);
        CodeOutcome fn = session.exec("import time\nresult = time.sleep\n", {});
        REQUIRE_OK(fn);
        options.runCancel.cancel(); // the session copied the token; copies share the flag
        CallArgs args;
        args.positional = {Value(60)};
        QVERIFY_THROWS_EXCEPTION(EvalError, fn.result.asCallable()->call(args));
    }

    void crashIsReported()
    {
        PythonSession session;
        CodeOutcome o =
            session.exec("import os, sys\nprint('bye', file=sys.stderr)\nos._exit(3)\n", {});
        QCOMPARE(o.status, CodeOutcome::Status::Failed);
        QVERIFY2(o.errorMessage.find("exit code 3") != std::string::npos, o.errorMessage.c_str());
        QCOMPARE(QString::fromStdString(o.err), QStringLiteral("bye\n"));
        REQUIRE_OK(session.exec("result = 1", {}));
    }

    void largeOutputDoesNotDeadlock()
    {
        PythonSession session;
        // 8 MB on stdout and 2 MB on stderr, far beyond pipe buffers, plus a large result and
        // large globals in the request.
        std::string big(3 << 20, 'x');
        CodeOutcome o = session.exec("import sys\n"
                                     "sys.stdout.write('a' * (8 << 20))\n"
                                     "sys.stderr.write('b' * (2 << 20))\n"
                                     "result = len(big) + len('c' * (4 << 20))\n",
                                     {{Value("big"), Value(big)}});
        REQUIRE_OK(o);
        QCOMPARE(o.out.size(), size_t(8 << 20));
        QCOMPARE(o.err.size(), size_t(2 << 20));
        QCOMPARE(o.result.asInt(), int64_t((3 << 20) + (4 << 20)));
        CodeOutcome r = session.exec("result = 'r' * (5 << 20)\n", {});
        REQUIRE_OK(r);
        QCOMPARE(r.result.asString().size(), size_t(5 << 20));
    }

    void outputLimit()
    {
        PythonSessionOptions options;
        options.maxOutputBytes = 1 << 20;
        PythonSession session(options);
        CodeOutcome o = session.exec("while True:\n    print('x' * 1000)\n", {}, {}, 20s);
        QCOMPARE(o.status, CodeOutcome::Status::Failed);
        QVERIFY2(o.errorMessage.find("more than 1 MiB") != std::string::npos,
                 o.errorMessage.c_str());
    }

    void concurrentCallersAreSerialised()
    {
        PythonSession session;
        REQUIRE_OK(session.exec("PDL_SESSION.log = []\n", {}));
        std::atomic<int> failures{0};
        std::vector<std::thread> threads;
        for (int t = 0; t < 4; ++t)
            threads.emplace_back([&, t] {
                for (int i = 0; i < 25; ++i) {
                    Dict g{{Value("t"), Value(t)}, {Value("i"), Value(i)}};
                    CodeOutcome o = session.exec("PDL_SESSION.log.append((t, i))\n"
                                                 "print(t, i)\n"
                                                 "result = t * 1000 + i\n",
                                                 g);
                    if (!o.ok() || o.result.asInt() != t * 1000 + i ||
                        o.out != std::to_string(t) + " " + std::to_string(i) + "\n")
                        ++failures;
                }
            });
        for (auto& th : threads)
            th.join();
        QCOMPARE(failures.load(), 0);
        CodeOutcome n = session.exec("result = len(PDL_SESSION.log)\n", {});
        REQUIRE_OK(n);
        QCOMPARE(n.result.asInt(), int64_t(100));
    }

    void workingDirectory()
    {
        PythonSessionOptions options;
        options.workingDirectory = HAKO_TEST_DATA_DIR;
        PythonSession session(options);
        CodeOutcome o = session.exec("import os\nresult = os.getcwd()\n", {});
        REQUIRE_OK(o);
        QCOMPARE(QString::fromStdString(o.result.asString()),
                 QFileInfo(HAKO_TEST_DATA_DIR).canonicalFilePath());
    }

    void sessionOutlivesTheThreadThatStartedIt()
    {
        // Children die with Hako (parent-death signal), not with the thread that started them:
        // a session started by a worker of a parallel map keeps its state after the worker.
        PythonSession session;
        CodeOutcome first;
        std::thread worker([&] { first = session.exec("PDL_SESSION.kept = 41\n", {}); });
        worker.join();
        QVERIFY2(first.ok(), first.describe().c_str());
        CodeOutcome again = session.exec("result = PDL_SESSION.kept + 1\n", {});
        QVERIFY2(again.ok(), again.describe().c_str());
        QCOMPARE(again.result.asInt(), int64_t(42));
    }

    void missingInterpreter()
    {
        PythonSessionOptions options;
        options.python = "no-such-python-hako";
        PythonSession session(options);
        CodeOutcome o = session.exec("result = 1", {});
        QCOMPARE(o.status, CodeOutcome::Status::Failed);
        QVERIFY2(o.errorMessage.find("no-such-python-hako") != std::string::npos,
                 o.errorMessage.c_str());
        QVERIFY2(o.errorMessage.find("not in PATH") != std::string::npos, o.errorMessage.c_str());
    }

    void destructorKillsTheSubprocess()
    {
        pid_t pid = 0;
        {
            PythonSession session;
            CodeOutcome o = session.exec("import os\nresult = os.getpid()\n", {});
            REQUIRE_OK(o);
            pid = pid_t(o.result.asInt());
            QVERIFY(processAlive(pid));
        }
        QVERIFY(!processAlive(pid));
    }
};

QTEST_GUILESS_MAIN(TestPythonSession)
#include "tst_pythonsession.moc"
