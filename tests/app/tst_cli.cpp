// Runs the built `hako` executable the way a terminal user would, without any display: the
// command line must work before (and without) a GUI application object.
#include "hakoprocess.h"

#include <QFile>
#include <QFileInfo>
#include <QProcess>
#include <QTemporaryDir>
#include <QTest>

class TestCli : public QObject {
    Q_OBJECT

private:
    using Outcome = HakoOutcome;
    static Outcome run(const QStringList& args) { return runHako(args); }

private Q_SLOTS:
    void initTestCase()
    {
        if (!QFileInfo(hakoBinary()).isExecutable())
            QSKIP("bin/hako is not built");
    }

    void version()
    {
        const Outcome o = run({QStringLiteral("--version")});
        QCOMPARE(o.status, QProcess::NormalExit);
        QCOMPARE(o.exitCode, 0);
        QVERIFY2(QRegularExpression(QStringLiteral("^hako \\d+\\.\\d+\\.\\d+\\n$"))
                     .match(o.out)
                     .hasMatch(),
                 qPrintable(o.out));
        QCOMPARE(o.err, QString());
        QCOMPARE(run({QStringLiteral("-v")}).out, o.out);
    }

    void help_data()
    {
        QTest::addColumn<QString>("option");
        QTest::newRow("long") << QStringLiteral("--help");
        QTest::newRow("short") << QStringLiteral("-h");
    }
    void help()
    {
        QFETCH(QString, option);
        const Outcome o = run({option});
        QCOMPARE(o.status, QProcess::NormalExit);
        QCOMPARE(o.exitCode, 0);
        QVERIFY2(o.out.startsWith(QLatin1String("Usage: hako")), qPrintable(o.out));
        QVERIFY(o.out.contains(QLatin1String("--version")));
        QVERIFY(o.out.contains(QLatin1String("Commands:")));
        QCOMPARE(o.err, QString());
    }

    void errors_data()
    {
        QTest::addColumn<QStringList>("args");
        QTest::addColumn<QString>("message");
        QTest::newRow("unknown long option")
            << QStringList{QStringLiteral("--frobnicate")} << QStringLiteral("unknown option");
        QTest::newRow("unknown short option")
            << QStringList{QStringLiteral("-x")} << QStringLiteral("unknown option '-x'");
        QTest::newRow("option after file")
            << QStringList{QStringLiteral("a.pdl"), QStringLiteral("--nope")}
            << QStringLiteral("unknown option '--nope'");
        QTest::newRow("unknown command") << QStringList{QStringLiteral("frobnicate")}
                                         << QStringLiteral("'frobnicate' is not a hako command");
    }
    void errors()
    {
        QFETCH(QStringList, args);
        QFETCH(QString, message);
        const Outcome o = run(args);
        QCOMPARE(o.status, QProcess::NormalExit);
        QCOMPARE(o.exitCode, 2);
        QVERIFY2(o.err.contains(message), qPrintable(o.err));
        QVERIFY(o.err.contains(QLatin1String("Usage: hako")));
        QCOMPARE(o.out, QString());
    }

    // Every subcommand reads its options the same way: `--name VALUE` or `--name=VALUE`, a
    // missing value or an unknown option is a usage error (exit 2) that names it.
    void subcommandOptionErrors_data()
    {
        QTest::addColumn<QStringList>("args");
        QTest::addColumn<QString>("message");
        const QString program = QStringLiteral(HAKO_TEST_DATA_DIR "/hello.pdl");
        QTest::newRow("run: missing value")
            << QStringList{QStringLiteral("run"), program, QStringLiteral("--max-call-depth")}
            << QStringLiteral("hako run: --max-call-depth needs a value");
        QTest::newRow("run: bad value")
            << QStringList{QStringLiteral("run"), QStringLiteral("--stream=loud"), program}
            << QStringLiteral("hako run: --stream takes result, context or none");
        QTest::newRow("run: unknown option")
            << QStringList{QStringLiteral("run"), QStringLiteral("--frob"), program}
            << QStringLiteral("hako run: unknown option --frob");
        QTest::newRow("run: two programs")
            << QStringList{QStringLiteral("run"), program, program}
            << QStringLiteral("hako run: runs one program at a time");
        QTest::newRow("check: unknown option")
            << QStringList{QStringLiteral("check"), QStringLiteral("--frob"), program}
            << QStringLiteral("hako check: unknown option --frob");
        QTest::newRow("check: missing value")
            << QStringList{QStringLiteral("check"), program, QStringLiteral("-d")}
            << QStringLiteral("hako check: -d needs a value");
        QTest::newRow("search: bad units")
            << QStringList{QStringLiteral("search"), QStringLiteral("--units=words"), program}
            << QStringLiteral("hako search: unknown units 'words'");
        QTest::newRow("models: stray word")
            << QStringList{QStringLiteral("models"), QStringLiteral("extra")}
            << QStringLiteral("hako models: unexpected extra");
    }
    void subcommandOptionErrors()
    {
        QFETCH(QStringList, args);
        QFETCH(QString, message);
        const Outcome o = run(args);
        QCOMPARE(o.status, QProcess::NormalExit);
        QCOMPARE(o.exitCode, 2);
        QVERIFY2(o.err.contains(message), qPrintable(o.err));
        QCOMPARE(o.out, QString());
    }

    // `--trace=FILE` and `--trace FILE PROGRAM` both name the trace file.
    void runTraceOptionForms()
    {
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        const QString program = dir.filePath(QStringLiteral("p.pdl"));
        QFile file(program);
        QVERIFY(file.open(QIODevice::WriteOnly));
        file.write("text: hi\n");
        file.close();
        const QString a = dir.filePath(QStringLiteral("a.json"));
        const QString b = dir.filePath(QStringLiteral("b.json"));
        QCOMPARE(run({QStringLiteral("run"), QStringLiteral("--trace=") + a, program}).exitCode, 0);
        QVERIFY(QFileInfo::exists(a));
        QCOMPARE(run({QStringLiteral("run"), QStringLiteral("--trace"), b, program}).exitCode, 0);
        QVERIFY(QFileInfo::exists(b));
    }
};

QTEST_GUILESS_MAIN(TestCli)
#include "tst_cli.moc"
