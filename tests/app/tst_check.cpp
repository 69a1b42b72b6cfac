// `hako check` and `hako expr` as a user runs them from a terminal or a CI script.
#include "hakoprocess.h"

#include <QDir>
#include <QFileInfo>
#include <QRegularExpression>
#include <QTemporaryDir>
#include <QTest>

class TestCheck : public QObject {
    Q_OBJECT

private:
    static QString data(const char* name)
    {
        return QStringLiteral(HAKO_TEST_DATA_DIR "/") + QString::fromLatin1(name);
    }
    QTemporaryDir m_dir;

    QString writeProgram(const QString& name, const QByteArray& text)
    {
        const QString path = m_dir.filePath(name);
        QFile f(path);
        if (!f.open(QIODevice::WriteOnly))
            return {};
        f.write(text);
        return path;
    }

private Q_SLOTS:
    void initTestCase()
    {
        if (!QFileInfo(hakoBinary()).isExecutable())
            QSKIP("bin/hako is not built");
        QVERIFY(m_dir.isValid());
    }

    void validProgramPasses()
    {
        const HakoOutcome o = runHako({QStringLiteral("check"), data("hello.pdl")});
        QCOMPARE(o.status, QProcess::NormalExit);
        QCOMPARE(o.exitCode, 0);
        QCOMPARE(o.out, QString());
        QVERIFY(o.err.contains(QLatin1String("0 error(s)")));
    }

    void structuralErrorsAllReported()
    {
        const QString path = data("pdl/many_errors.pdl");
        const HakoOutcome o = runHako({QStringLiteral("check"), path});
        QCOMPARE(o.exitCode, 1);
        // Every diagnostic line has the file:line:col: severity: message form...
        const QStringList lines = o.out.split(QLatin1Char('\n'), Qt::SkipEmptyParts);
        const QRegularExpression diag(QRegularExpression::escape(path) +
                                      QStringLiteral(":\\d+:\\d+: (error|warning): .+"));
        int diagnostics = 0;
        for (const QString& line : lines)
            diagnostics += diag.match(line).hasMatch() ? 1 : 0;
        QVERIFY2(diagnostics >= 10, qPrintable(o.out));
        // ...and the did-you-mean hint the issue promises.
        QVERIFY2(o.out.contains(QStringLiteral(
                     ":4:3: error: field 'num_iterations' is not allowed in a repeat block "
                     "(did you mean 'maxIterations'?)")),
                 qPrintable(o.out));
        // The source line and a caret follow each located diagnostic.
        QVERIFY(o.out.contains(QLatin1String("  num_iterations: 3\n  ^")));
    }

    void expressionSyntaxErrorPointsInsideTheString_data()
    {
        QTest::addColumn<QByteArray>("program");
        QTest::addColumn<QString>("where");
        QTest::newRow("plain") << QByteArray("text:\n- \"a\"\n- ${ x + }\n") << ":3:";
        QTest::newRow("quoted") << QByteArray("defs:\n  x: 1\ntext: \"value ${ (x }\"\n") << ":3:";
        QTest::newRow("block") << QByteArray("lastOf:\n- |\n  first line\n  ${ [1, 2 }\n") << ":4:";
    }
    void expressionSyntaxErrorPointsInsideTheString()
    {
        QFETCH(QByteArray, program);
        QFETCH(QString, where);
        const QString path = writeProgram(QStringLiteral("expr.pdl"), program);
        const HakoOutcome o = runHako({QStringLiteral("check"), path});
        QCOMPARE(o.exitCode, 1);
        QVERIFY2(o.out.startsWith(path + where), qPrintable(o.out));
        // The column lands on the expression, not at the start of the YAML value.
        const QRegularExpressionMatch m =
            QRegularExpression(QStringLiteral(":(\\d+):(\\d+): error")).match(o.out);
        QVERIFY(m.hasMatch());
        const int line = m.captured(1).toInt();
        const int column = m.captured(2).toInt();
        const QString sourceLine = QString::fromUtf8(program).split(QLatin1Char('\n')).at(line - 1);
        QVERIFY2(column > sourceLine.indexOf(QLatin1String("${")), qPrintable(o.out));
    }

    void undefinedVariableIsAWarningAtTheColumn()
    {
        const QString path = writeProgram(QStringLiteral("undef.pdl"),
                                          "text:\n- def: known\n  data: 1\n- \"${ known } and "
                                          "${ unknown }\"\n");
        const HakoOutcome o = runHako({QStringLiteral("check"), path});
        QCOMPARE(o.status, QProcess::NormalExit);
        QCOMPARE(o.exitCode, 0); // warnings alone keep exit code 0
        // `- "${ known } and ${ unknown }"`: the name starts at column 22.
        QVERIFY2(o.out.startsWith(path + QStringLiteral(":4:22: warning: variable 'unknown' is "
                                                        "used but never defined\n")),
                 qPrintable(o.out));
        QVERIFY(!o.out.contains(QLatin1String("'known'")));
        QVERIFY(o.err.contains(QLatin1String("0 error(s), 1 warning(s)")));
    }

    void dataOptionsDefineNames()
    {
        const QString path =
            writeProgram(QStringLiteral("data.pdl"), "text:\n- ${ a }\n- ${ b }\n");
        const QString dataFile = writeProgram(QStringLiteral("data.yaml"), "b: 2\n");
        const HakoOutcome o =
            runHako({QStringLiteral("check"), QStringLiteral("-d"), QStringLiteral("{a: 1}"),
                     QStringLiteral("-f"), dataFile, path});
        QCOMPARE(o.exitCode, 0);
        QCOMPARE(o.out, QString());
        QVERIFY(o.err.contains(QLatin1String("0 error(s), 0 warning(s)")));
    }

    void missingFileIsAnError()
    {
        const HakoOutcome o = runHako({QStringLiteral("check"), m_dir.filePath("nope.pdl")});
        QCOMPARE(o.exitCode, 1);
        QVERIFY(o.out.contains(QLatin1String("nope.pdl: error: cannot read")));
    }

    void noArgumentsIsUsage()
    {
        const HakoOutcome o = runHako({QStringLiteral("check")});
        QCOMPARE(o.exitCode, 2);
        QVERIFY(o.err.contains(QLatin1String("usage: hako check")));
    }

    void eval_data()
    {
        QTest::addColumn<QStringList>("args");
        QTest::addColumn<int>("exitCode");
        QTest::addColumn<QString>("out");
        QTest::newRow("typed") << QStringList{QStringLiteral("${ [1, 2] + [3] }")} << 0
                               << "[1, 2, 3]\n";
        QTest::newRow("mixed str()")
            << QStringList{QStringLiteral("--var"), QStringLiteral("d={\"k\": [1, true, null]}"),
                           QStringLiteral("a ${ d }")}
            << 0 << "a {'k': [1, True, None]}\n";
        QTest::newRow("filter") << QStringList{QStringLiteral("--var"), QStringLiteral("name=ada"),
                                               QStringLiteral("${ name | upper }")}
                                << 0 << "ADA\n";
        QTest::newRow("repr") << QStringList{QStringLiteral("--repr"),
                                             QStringLiteral("${ 0.1 + 0.2 }")}
                              << 0 << "0.30000000000000004\n";
        QTest::newRow("undefined") << QStringList{QStringLiteral("${ nope + 1 }")} << 1 << "";
        QTest::newRow("syntax") << QStringList{QStringLiteral("${ 1 + }")} << 1 << "";
    }
    void eval()
    {
        QFETCH(QStringList, args);
        QFETCH(int, exitCode);
        QFETCH(QString, out);
        const HakoOutcome o = runHako(QStringList{QStringLiteral("expr")} + args);
        QCOMPARE(o.exitCode, exitCode);
        QCOMPARE(o.out, out);
        if (exitCode != 0)
            QVERIFY(o.err.contains(QLatin1String("error")));
    }

    void evalUndefinedNamesTheVariable()
    {
        const HakoOutcome o = runHako({QStringLiteral("expr"), QStringLiteral("${ nope + 1 }")});
        QVERIFY2(o.err.contains(QLatin1String("'nope' is undefined")), qPrintable(o.err));
    }
};

QTEST_GUILESS_MAIN(TestCheck)
#include "tst_check.moc"
