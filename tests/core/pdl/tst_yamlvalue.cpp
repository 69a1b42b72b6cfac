#include "core/pdl/parser/yamlvalue.h"

#include <QTest>

#include <cmath>

using namespace hako::pdl;

class TstYamlValue : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void scalarTyping_data()
    {
        QTest::addColumn<QByteArray>("text");
        QTest::addColumn<QString>("type");
        QTest::addColumn<QString>("repr");

        // PyYAML safe_load (YAML 1.1) typing.
        QTest::newRow("yes") << QByteArray("yes") << "bool"
                             << "True";
        QTest::newRow("Off") << QByteArray("Off") << "bool"
                             << "False";
        QTest::newRow("TRUE") << QByteArray("TRUE") << "bool"
                              << "True";
        QTest::newRow("y is a string") << QByteArray("y") << "str"
                                       << "'y'";
        QTest::newRow("tilde") << QByteArray("~") << "NoneType"
                               << "None";
        QTest::newRow("Null") << QByteArray("Null") << "NoneType"
                              << "None";
        QTest::newRow("empty") << QByteArray("") << "NoneType"
                               << "None";
        QTest::newRow("int") << QByteArray("42") << "int"
                             << "42";
        QTest::newRow("negative") << QByteArray("-7") << "int"
                                  << "-7";
        QTest::newRow("underscores") << QByteArray("1_000") << "int"
                                     << "1000";
        QTest::newRow("hex") << QByteArray("0x1F") << "int"
                             << "31";
        QTest::newRow("octal") << QByteArray("017") << "int"
                               << "15";
        QTest::newRow("binary") << QByteArray("0b101") << "int"
                                << "5";
        QTest::newRow("sexagesimal") << QByteArray("1:30") << "int"
                                     << "90";
        QTest::newRow("08 is a string") << QByteArray("08") << "str"
                                        << "'08'";
        QTest::newRow("float") << QByteArray("2.5") << "float"
                               << "2.5";
        QTest::newRow("1e5 is a string") << QByteArray("1e5") << "str"
                                         << "'1e5'";
        QTest::newRow("signed exponent") << QByteArray("1.0e+5") << "float"
                                         << "100000.0";
        QTest::newRow("leading dot") << QByteArray(".5") << "float"
                                     << "0.5";
        QTest::newRow("inf") << QByteArray("-.inf") << "float"
                             << "-inf";
        QTest::newRow("int64 max") << QByteArray("9223372036854775807") << "int"
                                   << "9223372036854775807";
        QTest::newRow("quoted number") << QByteArray("'42'") << "str"
                                       << "'42'";
        QTest::newRow("double quoted bool") << QByteArray("\"yes\"") << "str"
                                            << "'yes'";
        QTest::newRow("block") << QByteArray("|\n  a\n  b\n") << "str"
                               << "'a\\nb\\n'";
        QTest::newRow("tagged str") << QByteArray("!!str 12") << "str"
                                    << "'12'";
        QTest::newRow("tagged float") << QByteArray("!!float 1") << "float"
                                      << "1.0";
        QTest::newRow("date stays text") << QByteArray("2001-12-14") << "str"
                                         << "'2001-12-14'";
    }

    void scalarTyping()
    {
        QFETCH(QByteArray, text);
        QFETCH(QString, type);
        QFETCH(QString, repr);
        auto r = loadYaml(text, "t.yaml");
        QVERIFY2(r.ok(), r.ok() ? "" : qPrintable(r.error().toString()));
        QCOMPARE(QString(r.value().scalar().typeName()), type);
        QCOMPARE(QString::fromStdString(r.value().scalar().repr()), repr);
    }

    void nanIsFloat()
    {
        auto r = loadYaml(".nan", "t.yaml");
        QVERIFY(r.ok());
        QVERIFY(r.value().scalar().isFloat());
        QVERIFY(std::isnan(r.value().scalar().asFloat()));
    }

    void spansCountCodePoints()
    {
        const QByteArray text = "a: 1\n"
                                "é: \"ünï\"\n"
                                "list:\n"
                                "  - x\n"
                                "  - {k: v}\n";
        auto r = loadYaml(text, "f.yaml");
        QVERIFY(r.ok());
        const YamlValue& root = r.value();
        QCOMPARE(root.entries().size(), size_t(3));
        const auto& e = root.entries()[1];
        QCOMPARE(e.key.span().line, 2);
        QCOMPARE(e.key.span().column, 1);
        // The value starts after "é: " - 3 code points, 4 bytes.
        QCOMPARE(e.value.span().column, 4);
        QCOMPARE(e.value.span().endColumn, 8);
        QCOMPARE(e.value.span().file, QString("f.yaml"));
        const YamlValue& list = root.entries()[2].value;
        QVERIFY(list.isSequence());
        QCOMPARE(list.items()[0].span().line, 4);
        QCOMPARE(list.items()[0].span().column, 5);
        const YamlValue& flow = list.items()[1];
        QCOMPARE(flow.span().line, 5);
        QCOMPARE(flow.span().column, 5);
        QCOMPARE(flow.span().endColumn, 10);
        QCOMPARE(root.span().endLine, 5);
    }

    void blockScalarSpan()
    {
        auto r = loadYaml("code: |\n  line one\n  line two\nnext: 1\n", "f.yaml");
        QVERIFY(r.ok());
        const hako::SourceSpan s = r.value().entries()[0].value.span();
        QCOMPARE(s.line, 1);
        QCOMPARE(s.column, 7);
        QCOMPARE(s.endLine, 3);
        QCOMPARE(s.endColumn, 10);
    }

    void keyOrderKept()
    {
        auto r = loadYaml("z: 1\na: 2\nm: 3\n", "f.yaml");
        QVERIFY(r.ok());
        const Value v = r.value().toValue();
        QCOMPARE(QString::fromStdString(v.str()), QString("{'z': 1, 'a': 2, 'm': 3}"));
    }

    void anchorsAndMerge()
    {
        auto r = loadYaml("base: &b {x: 1, y: 2}\ncopy: *b\nmerged:\n  <<: *b\n  y: 3\n", "f.yaml");
        QVERIFY(r.ok());
        const Value v = r.value().toValue();
        QCOMPARE(QString::fromStdString(v.str()),
                 QString("{'base': {'x': 1, 'y': 2}, 'copy': {'x': 1, 'y': 2}, "
                         "'merged': {'x': 1, 'y': 3}}"));
    }

    void errors_data()
    {
        QTest::addColumn<QByteArray>("text");
        QTest::addColumn<QString>("expected");
        QTest::newRow("duplicate key") << QByteArray("a: 1\nb: 2\na: 3\n")
                                       << "f.yaml:3:1: error: duplicate key 'a' in a mapping";
        QTest::newRow("overflow") << QByteArray("n: 99999999999999999999\n")
                                  << "f.yaml:1:4: error: integer 99999999999999999999 does not "
                                     "fit in 64 bits";
        QTest::newRow("two documents") << QByteArray("a: 1\n---\nb: 2\n")
                                       << "f.yaml:1:1: error: a PDL program must be a single YAML "
                                          "document";
        QTest::newRow("unknown tag")
            << QByteArray("a: !foo 1\n") << "f.yaml:1:4: error: unsupported YAML tag '!foo'";
    }

    void errors()
    {
        QFETCH(QByteArray, text);
        QFETCH(QString, expected);
        auto r = loadYaml(text, "f.yaml");
        QVERIFY(!r.ok());
        QCOMPARE(r.error().toString(), expected);
    }

    void syntaxErrorHasPosition()
    {
        auto r = loadYaml("a: [1, 2\nb: 3\n", "f.yaml");
        QVERIFY(!r.ok());
        QVERIFY(r.error().span.line >= 1);
        QVERIFY(r.error().message.startsWith("YAML syntax error"));
        auto r2 = loadYaml("a: 1\n  b: 2\n", "f.yaml");
        QVERIFY(!r2.ok());
        QCOMPARE(r2.error().span.line, 2);
    }

    void lineIndex()
    {
        LineIndex index("ab\nçd\n");
        QCOMPARE(index.position(0), std::make_pair(1, 1));
        QCOMPARE(index.position(3), std::make_pair(2, 1));
        QCOMPARE(index.position(5), std::make_pair(2, 2)); // 'd' after a 2-byte 'ç'
        QCOMPARE(index.lineStart(2), qsizetype(3));
    }
};

QTEST_APPLESS_MAIN(TstYamlValue)
#include "tst_yamlvalue.moc"
