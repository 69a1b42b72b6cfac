// `hako run --debug`: a breakpoint or `until` that could never stop is refused or moved, and
// said so — a line without a block goes to the next line that has one; a line past the end,
// a file not in the run and a condition that does not parse are refused with the reason —
// instead of being accepted silently and the run going to its end.
#include "hakoprocess.h"

#include <QTemporaryDir>
#include <QtTest>

class TestDebugLocations : public QObject {
    Q_OBJECT

    QTemporaryDir m_dir;

    QString program()
    {
        const QString path = m_dir.filePath(QStringLiteral("steps.pdl"));
        QFile f(path);
        if (!f.exists() && f.open(QIODevice::WriteOnly))
            f.write("description: four steps\n" // 1
                    "text:\n"                   // 2
                    "- def: a\n"                // 3
                    "  data: 1\n"               // 4
                    "\n"                        // 5
                    "- \"one \"\n"              // 6
                    "# a comment\n"             // 7
                    "\n"                        // 8
                    "- \"two \"\n"              // 9
                    "- \"three ${ a }\"\n");    // 10
        return path;
    }

    HakoOutcome debug(const QByteArray& commands)
    {
        return runHako({QStringLiteral("run"), QStringLiteral("--no-log"),
                        QStringLiteral("--debug"), program()},
                       commands);
    }

private Q_SLOTS:
    void untilALineWithoutABlockStopsAtTheNextBlock()
    {
        const HakoOutcome r = debug("until 7\nwhere\nc\n");
        QCOMPARE(r.out, QStringLiteral("paused at steps.pdl:1 (text block)\n"
                                       "Line 7 has no block: running until line 9\n"
                                       "1one \n"
                                       "paused at steps.pdl:9 (data block)\n"
                                       "steps.pdl:9 (data block) [text.2.data]\n"
                                       "two three 1\n"));
        QCOMPARE(r.exitCode, 0);
    }

    void untilPastTheEndIsRefused()
    {
        const HakoOutcome r = debug("until 40\nc\n");
        QCOMPARE(r.out, QStringLiteral("paused at steps.pdl:1 (text block)\n"
                                       "Not resumed: steps.pdl has 10 lines: there is no line 40\n"
                                       "1one two three 1\n"));
    }

    void breakpointsThatCouldNeverStopAreRefused_data()
    {
        QTest::addColumn<QByteArray>("command");
        QTest::addColumn<QString>("reply");
        QTest::newRow("past the end")
            << QByteArray("break 99")
            << QStringLiteral("No breakpoint set: steps.pdl has 10 lines: there is no line 99");
        QTest::newRow("no such file")
            << QByteArray("break nowhere.pdl:3")
            << QStringLiteral("No breakpoint set: no program file 'nowhere.pdl' in this run (it "
                              "runs steps.pdl)");
        QTest::newRow("condition does not parse")
            << QByteArray("break 9 if a ==")
            << QStringLiteral("No breakpoint set: the condition 'a ==' cannot be read: ");
        QTest::newRow("line without a block: the next one")
            << QByteArray("break 5")
            << QStringLiteral("Breakpoint 1 at steps.pdl:6 (line 5 has no block)");
    }
    void breakpointsThatCouldNeverStopAreRefused()
    {
        QFETCH(QByteArray, command);
        QFETCH(QString, reply);
        const HakoOutcome r = debug(command + "\nbreaks\nc\nc\n");
        const QStringList lines = r.out.split(QLatin1Char('\n'));
        QVERIFY2(lines.size() > 2, qPrintable(r.out));
        QVERIFY2(lines.at(1).startsWith(reply), qPrintable(r.out));
        if (reply.startsWith(QLatin1String("No breakpoint set")))
            QVERIFY2(lines.contains(QStringLiteral("No breakpoints.")), qPrintable(r.out));
        else
            QVERIFY2(
                r.out.contains(QLatin1String("paused at steps.pdl:6 (data block), breakpoint 1")),
                qPrintable(r.out));
    }
};

QTEST_GUILESS_MAIN(TestDebugLocations)
#include "tst_debuglocations.moc"
