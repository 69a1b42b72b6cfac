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
        {
            QStringList names;
            pdl::ParseResult parsed = pdl::parseProgramText(program, QStringLiteral("p.pdl"));
            QVERIFY(parsed.program);
            overwrittenInputs(*parsed.program, program, columns, &names);
            QCOMPARE(names, refused); // the variable each one sets, for the quick fix
        }
        if (!refused.isEmpty()) {
            QVERIFY(found[0].message.startsWith(QLatin1Char('`') + refused[0] + QLatin1Char('`')));
            QVERIFY(found[0].message.contains(QLatin1String("Make `") + refused[0] +
                                              QLatin1String("` an input")));
            QCOMPARE(found[0].span.line, line);
        }
    }

    // "Make it an input" removes what sets the column, and nothing else; the program then reads
    // the dataset's value.
    void makeInputFix_data()
    {
        QTest::addColumn<QString>("program");
        QTest::addColumn<QString>("column");
        QTest::addColumn<QString>("fixed"); // "-": no fix offered
        QTest::newRow("one of two samples")
            << QStringLiteral("description: 返信\ndefs:\n  email: サンプル\n  tone: polite\n"
                              "text: \"${ email } ${ tone }\"\n")
            << QStringLiteral("email")
            << QStringLiteral("description: 返信\ndefs:\n  tone: polite\n"
                              "text: \"${ email } ${ tone }\"\n");
        QTest::newRow("the only sample: defs goes too")
            << QStringLiteral("defs:\n  email: サンプル\ntext: \"${ email }\"\n")
            << QStringLiteral("email") << QStringLiteral("text: \"${ email }\"\n");
        QTest::newRow("a block scalar with a comment and a blank line inside")
            << QStringLiteral("defs:\n  email: |\n    一行目\n\n    # not a comment\n    三行目\n"
                              "  tone: polite\ntext: \"${ email }\"\n")
            << QStringLiteral("email")
            << QStringLiteral("defs:\n  tone: polite\ntext: \"${ email }\"\n");
        QTest::newRow("the last line without a newline")
            << QStringLiteral("text: \"${ email }\"\ndefs:\n  tone: x\n  email: y")
            << QStringLiteral("email")
            << QStringLiteral("text: \"${ email }\"\ndefs:\n  tone: x\n");
        QTest::newRow("a block's def is its result, not a sample")
            << QStringLiteral("text:\n- def: email\n  text: x\n") << QStringLiteral("email")
            << QStringLiteral("-");
        QTest::newRow("the only sample of a list item's defs")
            << QStringLiteral("text:\n- defs:\n    email: x\n  text: \"${ email }\"\n")
            << QStringLiteral("email") << QStringLiteral("-");
    }

    void makeInputFix()
    {
        QFETCH(QString, program);
        QFETCH(QString, column);
        QFETCH(QString, fixed);
        const std::vector<Diagnostic> found = check(program.toUtf8(), {column});
        QCOMPARE(int(found.size()), 1);
        const std::optional<pdl::QuickFix> fix =
            hako::makeInputFix(program, column, found[0].span.line);
        if (fixed == QLatin1String("-")) {
            QVERIFY(!fix);
            return;
        }
        QVERIFY(fix);
        QCOMPARE(fix->edits.size(), 1);
        QString text = program;
        text.replace(fix->edits[0].offset, fix->edits[0].length, fix->edits[0].replacement);
        QCOMPARE(text, fixed);
        QVERIFY(check(text.toUtf8(), {column}).empty());
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
