// An experiment's target refuses a program that would overwrite the dataset's inputs with its
// own values (a template's sample in `defs:`), before anything runs: otherwise every example
// runs on the sample and the experiment measures one input believing it measured many.

#include "core/pdl/parser/programparser.h"
#include "core/workbench/programtarget.h"

#include <QFile>
#include <QTemporaryDir>
#include <QTest>

using namespace hako;

class TestProgramTarget : public QObject {
    Q_OBJECT

    static std::vector<Diagnostic> check(const QByteArray& text, const QStringList& names)
    {
        pdl::ParseResult parsed = pdl::parseProgramText(text, QStringLiteral("p.pdl"));
        if (!parsed.program)
            return {};
        return overwrittenInputs(*parsed.program, text, names);
    }

private Q_SLOTS:
    void overwritten_data()
    {
        QTest::addColumn<QByteArray>("program");
        QTest::addColumn<QStringList>("columns");
        QTest::addColumn<QStringList>("refused");
        QTest::addColumn<int>("line");
        const QByteArray sample = "description: reply\n"
                                  "defs:\n"
                                  "  email: サンプルの問い合わせ\n"
                                  "  tone: polite\n"
                                  "text:\n"
                                  "- def: answer\n"
                                  "  text: \"${ email } ${ tone }\"\n";
        QTest::newRow("a sample in defs") << sample << QStringList{QStringLiteral("email")}
                                          << QStringList{QStringLiteral("email")} << 3;
        QTest::newRow("two columns, one sample")
            << sample << QStringList{QStringLiteral("tone"), QStringLiteral("customer")}
            << QStringList{QStringLiteral("tone")} << 4;
        QTest::newRow("a def") << sample << QStringList{QStringLiteral("answer")}
                               << QStringList{QStringLiteral("answer")} << 6;
        QTest::newRow("a real input") << QByteArray("text: \"${ email }\"\n")
                                      << QStringList{QStringLiteral("email")} << QStringList{} << 0;
        QTest::newRow("a function's parameter is its own")
            << QByteArray("defs:\n  f:\n    function: {email: string}\n    return: ${ email }\n"
                          "text: \"${ f(email=email) }\"\n")
            << QStringList{QStringLiteral("email")} << QStringList{} << 0;
    }

    void overwritten()
    {
        QFETCH(QByteArray, program);
        QFETCH(QStringList, columns);
        QFETCH(QStringList, refused);
        QFETCH(int, line);
        const std::vector<Diagnostic> found = check(program, columns);
        QCOMPARE(int(found.size()), int(refused.size()));
        if (!refused.isEmpty()) {
            QVERIFY(found[0].message.startsWith(QLatin1Char('`') + refused[0] + QLatin1Char('`')));
            QVERIFY(found[0].message.contains(QLatin1String("Make `") + refused[0] +
                                              QLatin1String("` an input")));
            QCOMPARE(found[0].span.line, line);
        }
    }

    // make() refuses before any example runs.
    void makeRefuses()
    {
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("p.pdl"));
        QFile f(path);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write("defs:\n  email: sample\ntext: \"${ email }\"\n");
        f.close();
        ProgramTarget target;
        target.programPath = path;
        target.inputNames = {QStringLiteral("email")};
        Result<eval::TargetFunction> made = target.make();
        QVERIFY(!made.ok());
        QVERIFY(made.error().message.contains(QLatin1String("`email` is a column of the dataset")));
        QCOMPARE(made.error().span.line, 2);
    }
};

QTEST_GUILESS_MAIN(TestProgramTarget)
#include "tst_programtarget.moc"
