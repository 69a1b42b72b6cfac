// Runs the built `hako` executable the way a terminal user would, without any display: the
// command line must work before (and without) a GUI application object.
#include "hakoprocess.h"

#include <QFile>
#include <QFileInfo>
#include <QProcess>
#include <QRegularExpression>
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

    // Every option whose value may be left out takes `--name VALUE` as `--name=VALUE`, also as
    // the last word, as the help and README write it (`hako serve --otlp 4318`).
    void optionalValueForms_data()
    {
        QTest::addColumn<QStringList>("before");
        QTest::addColumn<QString>("option");
        QTest::addColumn<QString>("value");
        QTest::addColumn<QStringList>("after");
        QTest::addColumn<QString>("writes"); // a file the run must write, relative to the dir
        const QString program = QStringLiteral("p.pdl");
        const QStringList serve{QStringLiteral("serve")};
        QTest::newRow("serve --otlp PORT") << serve << QStringLiteral("--otlp")
                                           << QStringLiteral("99999") << QStringList() << QString();
        QTest::newRow("serve --otlp HOST:PORT")
            << serve << QStringLiteral("--otlp") << QStringLiteral("127.0.0.1:99999")
            << QStringList() << QString();
        QTest::newRow("serve --otlp ADDR --quiet")
            << serve << QStringLiteral("--otlp") << QStringLiteral("bad:address")
            << QStringList{QStringLiteral("--quiet")} << QString();
        QTest::newRow("serve --prompts ADDR")
            << serve << QStringLiteral("--prompts") << QStringLiteral("99999") << QStringList()
            << QString();
        QTest::newRow("run PROGRAM --trace FILE")
            << QStringList{QStringLiteral("run"), program} << QStringLiteral("--trace")
            << QStringLiteral("t.json") << QStringList() << QStringLiteral("t.json");
        QTest::newRow("run --trace FILE PROGRAM")
            << QStringList{QStringLiteral("run")} << QStringLiteral("--trace")
            << QStringLiteral("t.json") << QStringList{program} << QStringLiteral("t.json");
        QTest::newRow("run -t FILE.yaml PROGRAM")
            << QStringList{QStringLiteral("run")} << QStringLiteral("-t")
            << QStringLiteral("t.yaml") << QStringList{program} << QStringLiteral("t.yaml");
        QTest::newRow("run PROGRAM -t FILE --stream none")
            << QStringList{QStringLiteral("run"), program} << QStringLiteral("-t")
            << QStringLiteral("t2.json")
            << QStringList{QStringLiteral("--stream"), QStringLiteral("none")}
            << QStringLiteral("t2.json");
    }
    void optionalValueForms()
    {
        QFETCH(QStringList, before);
        QFETCH(QString, option);
        QFETCH(QString, value);
        QFETCH(QStringList, after);
        QFETCH(QString, writes);
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        QFile file(dir.filePath(QStringLiteral("p.pdl")));
        QVERIFY(file.open(QIODevice::WriteOnly));
        file.write("text: hi\n");
        file.close();
        auto inDir = [&dir](QStringList words) {
            for (QString& w : words)
                if (w.endsWith(QLatin1String(".pdl")))
                    w = dir.filePath(w);
            return words;
        };
        const QString path = writes.isEmpty() ? value : dir.filePath(value);
        // `-t` has no `=` form: its long name's is the same option.
        const QString longName = option == QLatin1String("-t") ? QStringLiteral("--trace") : option;
        const Outcome joined =
            run(inDir(before) + QStringList{longName + QLatin1Char('=') + path} + inDir(after));
        if (!writes.isEmpty()) {
            QVERIFY2(QFile::remove(dir.filePath(writes)), qPrintable(joined.err));
        }
        const Outcome spaced = run(inDir(before) + QStringList{option, path} + inDir(after));
        QCOMPARE(spaced.status, QProcess::NormalExit);
        QVERIFY2(!spaced.err.contains(QLatin1String("unexpected")), qPrintable(spaced.err));
        QCOMPARE(spaced.exitCode, joined.exitCode);
        QCOMPARE(spaced.err, joined.err);
        QCOMPARE(spaced.out, joined.out);
        if (!writes.isEmpty())
            QVERIFY2(QFileInfo::exists(dir.filePath(writes)), qPrintable(spaced.err));
    }

    // `--trace PROGRAM` (value left out) keeps the program and writes PROGRAM_trace.json in
    // the current folder, also when an option with its value follows.
    void runTraceWithoutValueKeepsTheProgram()
    {
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        QFile file(dir.filePath(QStringLiteral("p.pdl")));
        QVERIFY(file.open(QIODevice::WriteOnly));
        file.write("text: hi\n");
        file.close();
        const QString trace = dir.filePath(QStringLiteral("p_trace.json"));
        for (const QStringList& tail :
             {QStringList(), QStringList{QStringLiteral("--stream"), QStringLiteral("none")}}) {
            QProcess p;
            p.setWorkingDirectory(dir.path());
            p.start(hakoBinary(), QStringList{QStringLiteral("run"), QStringLiteral("--trust"),
                                              QStringLiteral("--trace"), file.fileName()} +
                                      tail);
            QVERIFY(p.waitForFinished(20000));
            QVERIFY2(p.exitCode() == 0, p.readAllStandardError().constData());
            QVERIFY(QFile::remove(trace));
        }
    }

    // The table above covers every optional-value option (`--name [VALUE]`) that any
    // subcommand's help lists, so a new one cannot skip the check.
    void optionalValueTableCoversEveryCommand()
    {
        const Outcome help = run({QStringLiteral("--help")});
        QCOMPARE(help.exitCode, 0);
        const QString commands = help.out.section(QStringLiteral("Commands:"), 1);
        static const QRegularExpression commandLine(QStringLiteral("^  ([a-z]+)  "),
                                                    QRegularExpression::MultilineOption);
        static const QRegularExpression optional(QStringLiteral("(--?[a-z][a-z-]*) \\["));
        QStringList covered;
        for (const QString& row :
             {QStringLiteral("serve --otlp"), QStringLiteral("serve --prompts"),
              QStringLiteral("run --trace")})
            covered << row;
        int seen = 0;
        for (const auto& c : commandLine.globalMatch(commands)) {
            const QString command = c.captured(1);
            ++seen;
            const Outcome usage = run({command, QStringLiteral("--help")});
            for (const auto& m : optional.globalMatch(usage.out))
                QVERIFY2(covered.contains(command + QLatin1Char(' ') + m.captured(1)),
                         qPrintable(command + QLatin1Char(' ') + m.captured(1)));
        }
        QVERIFY(seen >= 10);
    }
};

QTEST_GUILESS_MAIN(TestCli)
#include "tst_cli.moc"
