// Runs the built `hako` executable the way a terminal user would, without any display: the
// command line must work before (and without) a GUI application object.
#include <QFileInfo>
#include <QProcess>
#include <QTest>

class TestCli : public QObject {
    Q_OBJECT

private:
    static QString hakoBinary() { return QStringLiteral(HAKO_BINARY_DIR "/bin/hako"); }

    struct Outcome {
        int exitCode = -1;
        QProcess::ExitStatus status = QProcess::CrashExit;
        QString out;
        QString err;
    };
    static Outcome run(const QStringList& args)
    {
        QProcess process;
        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        for (const char* name : {"DISPLAY", "WAYLAND_DISPLAY", "QT_QPA_PLATFORM"})
            env.remove(QString::fromLatin1(name));
        process.setProcessEnvironment(env);
        process.start(hakoBinary(), args);
        Outcome outcome;
        if (!process.waitForFinished(20000)) {
            process.kill();
            process.waitForFinished();
            return outcome;
        }
        outcome.exitCode = process.exitCode();
        outcome.status = process.exitStatus();
        outcome.out = QString::fromLocal8Bit(process.readAllStandardOutput());
        outcome.err = QString::fromLocal8Bit(process.readAllStandardError());
        return outcome;
    }

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
};

QTEST_GUILESS_MAIN(TestCli)
#include "tst_cli.moc"
