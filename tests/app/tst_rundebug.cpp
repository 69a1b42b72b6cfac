// `hako run --debug`: the debugger's command prompt scripted through a pipe over the conformance
// programs (break, inspect, set, step, continue give the expected output) and over small
// programs of its own (answering a model call by hand, pausing on an error, quitting).
#include "hakoprocess.h"

#include <QDir>
#include <QTemporaryDir>
#include <QtTest>

namespace {

QString conformanceProgram(const QString& name)
{
    return QStringLiteral(HAKO_SHARED_DIR "/conformance/pdl/programs/") + name;
}

} // namespace

class TestRunDebug : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void scripted_data()
    {
        QTest::addColumn<QString>("program");
        QTest::addColumn<QByteArray>("commands");
        QTest::addColumn<QString>("expected");
        QTest::addColumn<int>("exitCode");

        QTest::newRow("continue runs to the end")
            << "examples/tutorial/for.pdl" << QByteArray("c\n")
            << "paused at for.pdl:1 (repeat block)\n1234\n"
            << 0;
        QTest::newRow("conditional breakpoint, print, set")
            << "examples/tutorial/for.pdl"
            << QByteArray(
                   "break for.pdl:5 if i == 3\nc\nwhere\np i\nset i = 10\np i * 2\nvars\nc\n")
            << "paused at for.pdl:1 (repeat block)\n"
               "Breakpoint 1 at for.pdl:5 if i == 3\n"
               "12\n"
               "paused at for.pdl:5 (data block), breakpoint 1\n"
               "for.pdl:5 (data block), breakpoint 1 [repeat.2.data]\n"
               "3\n"
               "i = 10\n"
               "20\n"
               "i = 10\n"
               "104\n"
            << 0;
        QTest::newRow("step, next, out")
            << "examples/tutorial/while.pdl" << QByteArray("step\nstep\np i\nnext\np i\nout\n")
            << "paused at while.pdl:1 (repeat block)\n"
               "paused at while.pdl:2 (data block)\n"
               "paused at while.pdl:5 (text block)\n"
               "0\n"
               "1\n"
               "paused at while.pdl:5 (text block)\n"
               "1\n"
               "23\n"
            << 0;
        QTest::newRow("break and delete")
            << "examples/tutorial/loop_index.pdl"
            << QByteArray("break 3\nc\np i\ndelete 1\ndelete 7\nc\n")
            << "paused at loop_index.pdl:1 (repeat block)\n"
               "Breakpoint 1 at loop_index.pdl:3\n"
               "paused at loop_index.pdl:3 (data block), breakpoint 1\n"
               "0\n"
               "Deleted breakpoint 1\n"
               "No breakpoint 7\n"
               "123\n"
            << 0;
        QTest::newRow("end of input quits")
            << "examples/tutorial/for.pdl" << QByteArray("p 1 + 1\n")
            << "paused at for.pdl:1 (repeat block)\n2\n"
            << 1;
        QTest::newRow("quit") << "examples/tutorial/for.pdl" << QByteArray("quit\nc\n")
                              << "paused at for.pdl:1 (repeat block)\n"
                              << 1;
        QTest::newRow("unknown command")
            << "examples/tutorial/for.pdl" << QByteArray("frobnicate\nc\n")
            << "paused at for.pdl:1 (repeat block)\n"
               "Unknown command: frobnicate (help lists them)\n"
               "1234\n"
            << 0;
    }

    void scripted()
    {
        QFETCH(QString, program);
        QFETCH(QByteArray, commands);
        QFETCH(QString, expected);
        QFETCH(int, exitCode);
        const QString path = conformanceProgram(program);
        if (!QFileInfo::exists(path))
            QSKIP("../shared/conformance/pdl is not present");
        const HakoOutcome r = runHako(
            {QStringLiteral("run"), QStringLiteral("--no-log"), QStringLiteral("--debug"), path},
            commands);
        QCOMPARE(r.out, expected);
        QCOMPARE(r.exitCode, exitCode);
    }

    void answerAModelCallByHand()
    {
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("ask.pdl"));
        QFile f(path);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write("text:\n"
                "- \"Question: \"\n"
                "- model: ollama/no-such-model\n"
                "  def: reply\n"
                "- \"\\nGot: ${ reply }\"\n");
        f.close();
        const QString trace = dir.filePath(QStringLiteral("t.json"));
        const HakoOutcome r =
            runHako({QStringLiteral("run"), QStringLiteral("--no-log"), QStringLiteral("--debug"),
                     QStringLiteral("--trace"), trace, path},
                    "pause models on\nc\ncontext\nanswer forty-two\n");
        QCOMPARE(r.out, QStringLiteral("paused at ask.pdl:1 (text block)\n"
                                       "Question: \n"
                                       "paused at ask.pdl:3 (model block 'reply'), before the "
                                       "model call\n"
                                       "[0] user: Question: \n"
                                       "forty-two\nGot: forty-two\n"));
        QCOMPARE(r.exitCode, 0);
    }

    void pausesOnAnError()
    {
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("bad.pdl"));
        QFile f(path);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write("text:\n"
                "- def: x\n"
                "  data: 5\n"
                "- \"${ x + nothing }\"\n");
        f.close();
        const HakoOutcome r = runHako(
            {QStringLiteral("run"), QStringLiteral("--no-log"), QStringLiteral("--debug"), path},
            "c\np x\nc\n");
        QVERIFY2(r.out.startsWith(QStringLiteral("paused at bad.pdl:1 (text block)\n5\n"
                                                 "paused at bad.pdl:4 (data block), error: ")),
                 qPrintable(r.out));
        QVERIFY(r.out.endsWith(QStringLiteral("\n5\n")));
        QCOMPARE(r.exitCode, 1);
        QVERIFY(r.err.contains(QLatin1String("nothing")));
    }
};

QTEST_GUILESS_MAIN(TestRunDebug)
#include "tst_rundebug.moc"
