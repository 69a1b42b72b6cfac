// `hako run` as a terminal user meets it: `--stream result` (the default), `context` and `none`,
// and the messages for broken or hostile program files.
#include "hakoprocess.h"

#include <QFileInfo>
#include <QTemporaryDir>
#include <QTest>

namespace {

QString writeFile(const QTemporaryDir& dir, const QString& name, const QByteArray& content)
{
    const QString path = dir.filePath(name);
    QFile f(path);
    if (!f.open(QIODevice::WriteOnly))
        qFatal("cannot write %s", qPrintable(path));
    f.write(content);
    return path;
}

const QByteArray kChat = "text:\n"
                         "- Hello\n"
                         "- role: system\n"
                         "  text: Be brief.\n"
                         "- model: none/echo\n"
                         "  parameters: {mock_response: Hi!}\n";

} // namespace

class TestRunRobust : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void initTestCase()
    {
        if (!QFileInfo(hakoBinary()).isExecutable())
            QSKIP("bin/hako is not built");
    }

    void streamContextDiffersFromResult()
    {
        QTemporaryDir dir;
        const QString prog = writeFile(dir, QStringLiteral("chat.pdl"), kChat);
        const HakoOutcome none = runHako({QStringLiteral("run"), prog});
        QCOMPARE(none.exitCode, 0);
        QCOMPARE(none.out, QStringLiteral("HelloBe brief.Hi!\n"));
        const HakoOutcome context = runHako(
            {QStringLiteral("run"), QStringLiteral("--stream"), QStringLiteral("context"), prog});
        QCOMPARE(context.exitCode, 0);
        // Every message as it joined the context, then the reference's closing newline.
        QCOMPARE(context.out, QStringLiteral("\nuser: Hello\nsystem: Be brief.\nassistant: Hi!\n"));
        QCOMPARE(context.err, QString());
    }

    void streamResultIsTheDefaultAndPrintsInOrder()
    {
        QTemporaryDir dir;
        const QString prog = writeFile(dir, QStringLiteral("ask.pdl"),
                                       "text:\n- 'Hello '\n- read:\n  message: 'Name? '\n"
                                       "- '!'\n- model: none/echo\n"
                                       "  parameters: {mock_response: ' Hi!'}\n");
        // The reference's default, `--stream result`: the text before the read is printed
        // before its prompt, and nothing is printed twice.
        const HakoOutcome streamed = runHako({QStringLiteral("run"), prog}, "Ada\n");
        QCOMPARE(streamed.exitCode, 0);
        QCOMPARE(streamed.out, QStringLiteral("Hello Name? Ada! Hi!\n"));
        const HakoOutcome explicitly = runHako(
            {QStringLiteral("run"), QStringLiteral("--stream"), QStringLiteral("result"), prog},
            "Ada\n");
        QCOMPARE(explicitly.out, streamed.out);
        // `--stream none`, for scripts: only the result, once the run ends.
        const HakoOutcome none = runHako(
            {QStringLiteral("run"), QStringLiteral("--stream"), QStringLiteral("none"), prog},
            "Ada\n");
        QCOMPARE(none.exitCode, 0);
        QCOMPARE(none.out, QStringLiteral("Name? Hello Ada! Hi!\n"));
    }

    void binaryProgramIsRefused()
    {
        QTemporaryDir dir;
        const QString prog =
            writeFile(dir, QStringLiteral("image.pdl"), QByteArray("\x89PNG\r\n\x1A\n\0\0", 10));
        for (const char* sub : {"run", "check"}) {
            const HakoOutcome o = runHako({QString::fromLatin1(sub), prog});
            QCOMPARE(o.status, QProcess::NormalExit);
            QCOMPARE(o.exitCode, 1);
            const QString said = o.out + o.err; // check prints to stdout, run to stderr
            QVERIFY2(said.contains(QLatin1String("image.pdl")) &&
                         said.contains(QLatin1String("not a UTF-8 text file")) &&
                         said.contains(QLatin1String("byte offset 0")),
                     qPrintable(said));
        }
    }

    void aliasBombEndsQuickly()
    {
        QTemporaryDir dir;
        QByteArray y = "defs:\n  a0: &a0 [lol, lol, lol, lol, lol, lol, lol, lol, lol, lol]\n";
        for (int i = 1; i < 12; ++i) {
            y += "  a" + QByteArray::number(i) + ": &a" + QByteArray::number(i) + " [";
            for (int k = 0; k < 10; ++k)
                y += (k ? ", *a" : "*a") + QByteArray::number(i - 1);
            y += "]\n";
        }
        y += "text: ${ a11 }\n";
        const QString prog = writeFile(dir, QStringLiteral("bomb.pdl"), y);
        const HakoOutcome o = runHako({QStringLiteral("check"), prog});
        QCOMPARE(o.status, QProcess::NormalExit); // not killed by the 20 s limit or the OOM killer
        QCOMPARE(o.exitCode, 1);
        QVERIFY2(o.out.contains(QLatin1String("alias")) || o.err.contains(QLatin1String("alias")),
                 qPrintable(o.out + o.err));
    }

    // --- pathological inputs: each used to hang, abort or exhaust memory ----------------------

    void devicesAndFifosAreRefused_data()
    {
        QTest::addColumn<QStringList>("args");
        QTest::addColumn<QString>("said");
        QTest::newRow("run -f /dev/zero")
            << QStringList{QStringLiteral("-f"), QStringLiteral("/dev/zero")}
            << QStringLiteral("/dev/zero is not a regular file");
        QTest::newRow("eval --vars /dev/zero")
            << QStringList{QStringLiteral("--vars"), QStringLiteral("/dev/zero")}
            << QStringLiteral("/dev/zero is not a regular file");
        QTest::newRow("read: /dev/zero") << QStringList{QStringLiteral("read:/dev/zero")}
                                         << QStringLiteral("/dev/zero is not a regular file");
        QTest::newRow("read: /dev/urandom") << QStringList{QStringLiteral("read:/dev/urandom")}
                                            << QStringLiteral("/dev/urandom is not a regular file");
        QTest::newRow("include: /dev/zero") << QStringList{QStringLiteral("include:/dev/zero")}
                                            << QStringLiteral("/dev/zero is not a regular file");
        QTest::newRow("read: a FIFO")
            << QStringList{QStringLiteral("read:FIFO")} << QStringLiteral("is not a regular file");
        QTest::newRow("include: a FIFO") << QStringList{QStringLiteral("include:FIFO")}
                                         << QStringLiteral("is not a regular file");
        QTest::newRow("run a FIFO")
            << QStringList{QStringLiteral("FIFO")} << QStringLiteral("is not a regular file");
    }

    void devicesAndFifosAreRefused()
    {
        QFETCH(QStringList, args);
        QFETCH(QString, said);
        QTemporaryDir dir;
        // Nobody ever writes to this FIFO: opening it for reading would block forever.
        const QString fifo = dir.filePath(QStringLiteral("fifo"));
        QVERIFY(QProcess::execute(QStringLiteral("mkfifo"), {fifo}) == 0);
        const QString prog = writeFile(dir, QStringLiteral("p.pdl"), "text: hello\n");
        QStringList command;
        if (args.first() == QLatin1String("--vars")) {
            command = QStringList{QStringLiteral("expr")} + args + QStringList{"${ 1 }"};
        } else if (args.first() == QLatin1String("FIFO")) {
            command = {QStringLiteral("run"), fifo};
        } else if (args.first().contains(QLatin1Char(':'))) {
            const QString kind = args.first().section(QLatin1Char(':'), 0, 0);
            QString target = args.first().section(QLatin1Char(':'), 1);
            if (target == QLatin1String("FIFO"))
                target = fifo;
            const QString blocks =
                writeFile(dir, QStringLiteral("b.pdl"),
                          (kind + QStringLiteral(": ") + target).toUtf8() + "\n");
            command = {QStringLiteral("run"), blocks};
        } else {
            command = QStringList{QStringLiteral("run")} + args + QStringList{prog};
        }
        const HakoOutcome o = runHako(command);
        QCOMPARE(o.status, QProcess::NormalExit); // not killed at the deadline
        QVERIFY2(o.exitCode == 1 || o.exitCode == 2, qPrintable(o.err));
        QVERIFY2(QString(o.out + o.err).contains(said), qPrintable(o.out + o.err));
    }

    void deepVarsAreAnError()
    {
        QTemporaryDir dir;
        QByteArray deep = "{\"x\": " + QByteArray(100000, '[') + QByteArray(100000, ']') + "}";
        const QString vars = writeFile(dir, QStringLiteral("deep.json"), deep);
        const HakoOutcome o = runHako(
            {QStringLiteral("expr"), QStringLiteral("--vars"), vars, QStringLiteral("${ 1 }")});
        QCOMPARE(o.status, QProcess::NormalExit); // was SIGABRT
        QCOMPARE(o.exitCode, 2);
        QVERIFY2(o.err.contains(QLatin1String("deep.json")) &&
                     o.err.contains(QLatin1String("nested deeper")),
                 qPrintable(o.err));
        // On the command line (an argument holds at most 128 KiB): 50,000 deep.
        const QByteArray deepArg = QByteArray(50000, '[') + QByteArray(50000, ']');
        const HakoOutcome var = runHako({QStringLiteral("expr"), QStringLiteral("--var"),
                                         QStringLiteral("x=") + QString::fromLatin1(deepArg),
                                         QStringLiteral("${ 1 }")});
        QCOMPARE(var.status, QProcess::NormalExit);
        QCOMPARE(var.exitCode, 2);
    }

    void hugeProgramsRunInLinearTime()
    {
        // Both were quadratic: a mapping with many keys (duplicate-key check) and a string with
        // many `${ }` (the template splitter searched for `{#` from every expression).
        QTemporaryDir dir;
        constexpr int kKeys = 200000;
        QByteArray keys = "lastOf:\n- data:\n";
        keys.reserve(kKeys * 20);
        for (int i = 0; i < kKeys; ++i)
            keys += "    k" + QByteArray::number(i) + ": " + QByteArray::number(i) + "\n";
        keys += "  def: d\n- ${ d | length }\n";
        const QString many = writeFile(dir, QStringLiteral("keys.pdl"), keys);
        HakoOutcome o = runHako({QStringLiteral("run"), many});
        QCOMPARE(o.status, QProcess::NormalExit);
        QVERIFY2(o.exitCode == 0, qPrintable(o.err.left(2000)));
        QCOMPARE(o.out.trimmed(), QString::number(kKeys));

        constexpr int kTemplates = 200000;
        QByteArray templ = "text: \"";
        for (int i = 0; i < kTemplates; ++i)
            templ += "${ 1 }";
        templ += "\"\n";
        const QString ones = writeFile(dir, QStringLiteral("templates.pdl"), templ);
        o = runHako({QStringLiteral("run"), ones});
        QCOMPARE(o.status, QProcess::NormalExit);
        QVERIFY2(o.exitCode == 0, qPrintable(o.err.left(2000)));
        QCOMPARE(o.out.trimmed().size(), kTemplates);
    }

    void recursionErrorIsSaidOnce()
    {
        QTemporaryDir dir;
        const QString prog = writeFile(dir, QStringLiteral("rec.pdl"),
                                       "defs:\n"
                                       "  f:\n"
                                       "    function: {g: null, n: integer}\n"
                                       "    return: ${ g(g, n + 1) }\n"
                                       "text: ${ f(f, 0) }\n");
        const HakoOutcome o = runHako({QStringLiteral("run"), prog});
        QCOMPARE(o.status, QProcess::NormalExit);
        QCOMPARE(o.exitCode, 1);
        QCOMPARE(o.err.count(QLatin1String("Error during the evaluation of")), 1);
        // The call-depth limit, or (with the larger frames of a sanitizer build) the stack guard
        // before it: either is one plain error, said once.
        QVERIFY2(o.err.contains(QLatin1String("nested deeper than")) ||
                     o.err.contains(QLatin1String("nested too deeply")),
                 qPrintable(o.err.left(2000)));
        QVERIFY2(o.err.contains(QLatin1String("rec.pdl:5")), qPrintable(o.err.left(2000)));
    }

    void hostileTraceForReplay_data()
    {
        QTest::addColumn<QByteArray>("trace");
        QTest::newRow("msg 5") << QByteArray(
            "{\"kind\": \"error\", \"msg\": 5, \"pdl__id\": 5, \"program\": {\"kind\": \"text\", "
            "\"pdl__id\": \"text\"}}");
        QTest::newRow("pdl__id 5")
            << QByteArray("{\"kind\": \"text\", \"pdl__id\": 5, \"text\": []}");
        QTest::newRow("location file 5")
            << QByteArray("{\"kind\": \"text\", \"pdl__id\": \"text\", \"pdl__location\": "
                          "{\"file\": 5, \"line\": \"x\", \"column\": 1e300}, \"pdl__timing\": "
                          "{\"start_nanos\": \"s\", \"end_nanos\": 1e300}}");
        QTest::newRow("result 1,000,000 deep")
            << QByteArray("{\"kind\": \"text\", \"pdl__id\": \"text\", \"pdl__result\": ") +
                   QByteArray(1000000, '[') + QByteArray(1000000, ']') + "}";
        QTest::newRow("kind 5") << QByteArray("{\"kind\": 5}");
    }

    void hostileTraceForReplay()
    {
        QFETCH(QByteArray, trace);
        QTemporaryDir dir;
        const QString prog = writeFile(dir, QStringLiteral("p.pdl"), "text: hello\n");
        const QString file = writeFile(dir, QStringLiteral("t.json"), trace);
        const HakoOutcome o =
            runHako({QStringLiteral("run"), QStringLiteral("--replay"), file, prog});
        QCOMPARE(o.status, QProcess::NormalExit); // was SIGABRT (an uncaught type_error)
        if (o.exitCode == 0) {
            QCOMPARE(o.out.trimmed(), QStringLiteral("hello"));
        } else {
            QCOMPARE(o.exitCode, 1);
            QVERIFY2(o.err.contains(QLatin1String("t.json")), qPrintable(o.err.left(2000)));
        }
    }
};

QTEST_GUILESS_MAIN(TestRunRobust)
#include "tst_runrobust.moc"
