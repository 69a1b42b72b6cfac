// Values and functions as the reference interpreter (IBM prompt-declaration-language, July 2026
// snapshot) has them (issue 29 §1): each program runs with `hako run --stream none` and its
// stdout is compared exactly, or the line its error is reported at. The reference itself was not
// run (its pydantic 2 is not a Debian 12 package): each expectation is derived from its source,
// cited per case (src/pdl/pdl_interpreter.py unless said otherwise).
#include "hakoprocess.h"

#include <QFile>
#include <QRegularExpression>
#include <QTemporaryDir>
#include <QtTest>

class TestConformanceValues : public QObject {
    Q_OBJECT

private:
    QTemporaryDir m_dir;

    HakoOutcome run(const QByteArray& program, const QByteArray& stdinData = {})
    {
        const QString path = m_dir.filePath(QStringLiteral("program.pdl"));
        QFile f(path);
        if (!f.open(QIODevice::WriteOnly | QIODevice::Truncate))
            return {};
        f.write(program);
        f.close();
        return runHako(
            {QStringLiteral("run"), QStringLiteral("--stream"), QStringLiteral("none"), path},
            stdinData);
    }

    // The lines Hako's error report names (`program.pdl:LINE - …` or `program.pdl:LINE:COL: …`).
    static QList<int> errorLines(const QString& err)
    {
        static const QRegularExpression line(
            QStringLiteral("^[^\\s][^\\n]*?\\.pdl:(\\d+)(?::\\d+)?(?: - |: )"),
            QRegularExpression::MultilineOption);
        QList<int> lines;
        for (auto it = line.globalMatch(err); it.hasNext();)
            lines << it.next().captured(1).toInt();
        return lines;
    }

private Q_SLOTS:
    void initTestCase()
    {
        QVERIFY(m_dir.isValid());
        QVERIFY2(QFile::exists(hakoBinary()), "build the hako target first");
    }

    void stdoutAsReference_data()
    {
        QTest::addColumn<QByteArray>("program");
        QTest::addColumn<QByteArray>("input");
        QTest::addColumn<QString>("expected");

        // process_block_body, case FunctionBlock: the closure's `signature` is
        // {type: function, function: {name, description, parameters}}, the parameters being
        // get_json_schema(function, False) (pdl_schema_utils.py): required, no extra fields.
        QTest::newRow("function signature")
            << QByteArray("text:\n"
                          "- def: add\n"
                          "  description: Adds two numbers\n"
                          "  function:\n"
                          "    x: integer\n"
                          "    y: {type: integer}\n"
                          "  return: ${ x + y }\n"
                          "- ${ add.signature }\n"
                          "- \"\\n\"\n"
                          "- ${ add.signature.function.name }:${ add.description }\n")
            << QByteArray()
            << QStringLiteral("{\"type\": \"function\", \"function\": {\"name\": \"add\", "
                              "\"description\": \"Adds two numbers\", \"parameters\": {\"type\": "
                              "\"object\", \"properties\": {\"x\": {\"type\": \"integer\"}, "
                              "\"y\": {\"type\": \"integer\"}}, \"required\": [\"x\", \"y\"], "
                              "\"additionalProperties\": false}}}\nadd:Adds two numbers\n");
        // Same place: without `function` the parameters are {} and without `description` the
        // signature has none.
        QTest::newRow("signature without parameters")
            << QByteArray("text:\n"
                          "- def: hello\n"
                          "  function:\n"
                          "  return: Hello\n"
                          "- ${ hello.signature }\n")
            << QByteArray()
            << QStringLiteral("{\"type\": \"function\", \"function\": {\"name\": \"hello\", "
                              "\"parameters\": {}}}\n");
        // Same place: the closure's scope holds the closure under its `def`, so a function
        // defined in a `text` list calls itself, from an expression or a call block.
        QTest::newRow("recursion in a text list") << QByteArray("text:\n"
                                                                "- def: fact\n"
                                                                "  function:\n"
                                                                "    n: integer\n"
                                                                "  return:\n"
                                                                "    if: ${ n <= 1 }\n"
                                                                "    then: 1\n"
                                                                "    else: ${ n * fact(n=n-1) }\n"
                                                                "- ${ fact(n=5) }\n"
                                                                "- \" \"\n"
                                                                "- call: ${ fact }\n"
                                                                "  args: {n: 4}\n")
                                                  << QByteArray() << QStringLiteral("120 24\n");
        // combine_results, case JoinReduce: functools.reduce calls ClosureBlock.__call__,
        // which binds the items positionally and runs execute_call without type_check_args:
        // parameters typed integer take the strings unchecked.
        QTest::newRow("reduce with typed parameters")
            << QByteArray("lastOf:\n"
                          "- def: cat\n"
                          "  function: {acc: integer, x: integer}\n"
                          "  return: ${ acc ~ \"-\" ~ x }\n"
                          "- for: {w: [a, b, c]}\n"
                          "  repeat: ${ w }\n"
                          "  join:\n"
                          "    reduce: ${ cat }\n")
            << QByteArray() << QStringLiteral("a-b-c\n");
        // _evaluate_for_field: any Python iterable is looped over as list(value): a mapping's
        // keys in order, a string's characters.
        QTest::newRow("for over a mapping and a string")
            << QByteArray("text:\n"
                          "- def: d\n"
                          "  data: {a: 1, b: 2}\n"
                          "  contribute: []\n"
                          "- for: {k: \"${ d }\"}\n"
                          "  repeat: \"${ k }=${ d[k] };\"\n"
                          "- for: {c: xyz}\n"
                          "  repeat: \"${ c }.\"\n")
            << QByteArray() << QStringLiteral("a=1;b=2;x.y.z.\n");
        // process_input: a multiline read prints its message with print() (its own line) and
        // joins input() lines with "\n"; Python's stdin on Linux keeps a "\r".
        QTest::newRow("multiline read from stdin")
            << QByteArray("text:\n"
                          "- read:\n"
                          "  message: \"Your text:\"\n"
                          "  multiline: true\n"
                          "  def: x\n"
                          "  contribute: []\n"
                          "- \"[${ x }]\"\n")
            << QByteArray("one\r\ntwo") << QStringLiteral("Your text:\n[one\r\ntwo\n]\n");
        // process_input: a one-line read is input(message), which strips the "\n" only.
        QTest::newRow("one-line read from stdin")
            << QByteArray("text:\n"
                          "- read:\n"
                          "  message: \"> \"\n"
                          "  def: x\n"
                          "  contribute: []\n"
                          "- \"[${ x }]\"\n")
            << QByteArray("a\r\nb\n") << QStringLiteral("> [a\r]\n");
    }

    void stdoutAsReference()
    {
        QFETCH(QByteArray, program);
        QFETCH(QByteArray, input);
        QFETCH(QString, expected);
        const HakoOutcome o = run(program, input);
        QVERIFY2(o.exitCode == 0, qPrintable(o.err));
        QCOMPARE(o.out, expected);
    }

    // process_advance_block_retry: each retry prints `[Retry N/MAX] file:LINE - …` with the
    // retried block's line; the final error keeps the failing expression's line.
    void retryNoticeAtRetriedBlock()
    {
        const HakoOutcome o = run("text:\n"
                                  "- \"start\"\n"
                                  "- retry: 1\n"
                                  "  text:\n"
                                  "  - a\n"
                                  "  - ${ undefined_name }\n");
        QVERIFY(o.exitCode != 0);
        QVERIFY2(o.err.contains(QStringLiteral("[Retry 1/1] program.pdl:3 - An error occurred in "
                                               "a PDL block.")),
                 qPrintable(o.err));
        QVERIFY2(errorLines(o.err).contains(6), qPrintable(o.err));
    }
};

QTEST_GUILESS_MAIN(TestConformanceValues)
#include "tst_conformancevalues.moc"
