// Datasets: schema inference and shape checks (a malformed example reported by index and field
// at import), the import/export formats and encodings, examples from logged calls. (Versions
// in the store: tst_evalstore.)

#include "core/eval/datasetio.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QStringEncoder>
#include <QTemporaryDir>
#include <QTest>

using namespace hako;
using namespace hako::eval;

class TestDataset : public QObject {
    Q_OBJECT

    QTemporaryDir m_dir;

    QString write(const QString& name, const QByteArray& data)
    {
        QFile f(m_dir.filePath(name));
        if (!f.open(QIODevice::WriteOnly))
            return {};
        f.write(data);
        return f.fileName();
    }

private Q_SLOTS:
    void malformedExampleIsReportedWithIndexAndField_data()
    {
        QTest::addColumn<QString>("file");
        QTest::addColumn<QByteArray>("data");
        QTest::addColumn<int>("index");
        QTest::addColumn<QString>("field");
        QTest::addColumn<QString>("reason");

        QTest::newRow("jsonl wrong type")
            << "qa.jsonl"
            << QByteArray(
                   "{\"inputs\": {\"question\": \"首都は？\", \"n\": 1}, \"reference\": \"東京\"}\n"
                   "{\"inputs\": {\"question\": \"Capital?\", \"n\": 2}, \"reference\": "
                   "\"Paris\"}\n"
                   "{\"inputs\": {\"question\": 42, \"n\": 3}, \"reference\": \"Rome\"}\n"
                   "{\"inputs\": {\"question\": \"Largest?\", \"n\": 4}, \"reference\": "
                   "\"Pacific\"}\n")
            << 2 << "inputs.question"
            << "expected string";
        QTest::newRow("jsonl missing field")
            << "missing.jsonl"
            << QByteArray("{\"question\": \"a\", \"context\": \"x\"}\n"
                          "{\"question\": \"b\"}\n"
                          "{\"question\": \"c\", \"context\": \"y\"}\n"
                          "{\"question\": \"d\", \"context\": \"z\"}\n")
            << 1 << "inputs.context"
            << "missing required property";
        QTest::newRow("jsonl not json")
            << "broken.jsonl"
            << QByteArray("{\"question\": \"a\"}\n{\"question\": \"b\"\n{\"question\": \"c\"}\n"
                          "{\"question\": \"d\"}\n")
            << 1 << ""
            << "line 2: not JSON";
        QTest::newRow("csv wrong field count")
            << "rows.csv" << QByteArray("input.question,reference\n\"a, b\",x\nc,d,e\nf,g\nh,i\n")
            << 1 << ""
            << "row 3 has 3 fields";
        QTest::newRow("json array")
            << "all.json"
            << QByteArray(
                   "[{\"inputs\": {\"x\": 1}}, {\"inputs\": {\"x\": 2}}, {\"inputs\": {\"x\": "
                   "\"three\"}}, {\"inputs\": {\"x\": 4}}]")
            << 2 << "inputs.x"
            << "expected number";
        QTest::newRow("promptfoo")
            << "tests.yaml"
            << QByteArray("tests:\n  - vars: {topic: cats}\n  - vars: {topic: [a, b]}\n"
                          "  - vars: {topic: dogs}\n  - vars: {topic: birds}\n")
            << 1 << "inputs.topic"
            << "expected string";
    }
    void malformedExampleIsReportedWithIndexAndField()
    {
        QFETCH(QString, file);
        QFETCH(QByteArray, data);
        QFETCH(int, index);
        QFETCH(QString, field);
        QFETCH(QString, reason);
        const QString path = write(file, data);
        Result<ImportedDataset> imported = importDatasetFile(path);
        QVERIFY2(imported.ok(), imported.ok() ? "" : qPrintable(imported.error().message));
        QCOMPARE(imported->problems.size(), 1);
        const ShapeProblem& p = imported->problems.first();
        QCOMPARE(p.index, index);
        QCOMPARE(p.field, field);
        QVERIFY2(p.reason.contains(reason), qPrintable(p.toString()));
        QCOMPARE(imported->dataset.examples.size(), 3); // the three that fit
        QVERIFY(p.toString().startsWith(QStringLiteral("example %1").arg(index)));
    }

    void formatsRoundTrip_data()
    {
        QTest::addColumn<int>("format");
        QTest::newRow("jsonl") << int(DatasetFormat::Jsonl);
        QTest::newRow("json") << int(DatasetFormat::Json);
        QTest::newRow("csv") << int(DatasetFormat::Csv);
        QTest::newRow("langsmith") << int(DatasetFormat::LangSmith);
        QTest::newRow("promptfoo") << int(DatasetFormat::Promptfoo);
    }
    void formatsRoundTrip()
    {
        QFETCH(int, format);
        const auto f = DatasetFormat(format);
        QList<Example> examples;
        Example a;
        a.inputs = {
            {QStringLiteral("question"), QStringLiteral("日本の首都は？, \"quoted\"\nline")},
            {QStringLiteral("lang"), QStringLiteral("ja")}};
        a.reference = QStringLiteral("東京");
        Example b;
        b.inputs = {{QStringLiteral("question"), QStringLiteral("Capital of France?")},
                    {QStringLiteral("lang"), QStringLiteral("en")}};
        b.reference = QStringLiteral("Paris");
        examples << a << b;
        const QByteArray out = exportExamples(examples, f);
        Result<ParsedExamples> back = parseExamples(out, f);
        QVERIFY2(back.ok(), back.ok() ? "" : qPrintable(back.error().message));
        QVERIFY2(back->problems.isEmpty(), out.constData());
        QCOMPARE(back->examples.size(), 2);
        for (int i = 0; i < 2; ++i) {
            QCOMPARE(back->examples[i].inputs, examples[i].inputs);
            QCOMPARE(back->examples[i].reference, examples[i].reference);
        }
    }

    void foreignFormats()
    {
        // LangSmith's export: outputs is a dict.
        Result<ParsedExamples> ls = parseExamples(
            "{\"inputs\": {\"q\": \"hi\"}, \"outputs\": {\"answer\": \"hello\"}, \"metadata\": "
            "{\"source\": \"prod\"}}\n",
            DatasetFormat::LangSmith);
        QVERIFY(ls.ok());
        QCOMPARE(ls->examples.at(0).reference.toString(), QStringLiteral("hello"));
        QCOMPARE(ls->examples.at(0).metadata.value(QStringLiteral("source")).toString(),
                 QStringLiteral("prod"));
        // promptfoo: vars, assertions kept, an `equals` assertion is the reference.
        Result<ParsedExamples> pf = parseExamples(
            "prompts: [p.txt]\ntests:\n  - description: capital\n    vars:\n      city: Paris\n"
            "    assert:\n      - type: equals\n        value: France\n      - type: icontains\n"
            "        value: fr\n",
            DatasetFormat::Promptfoo);
        QVERIFY(pf.ok());
        QCOMPARE(pf->examples.size(), 1);
        QCOMPARE(pf->examples[0].inputs.value(QStringLiteral("city")).toString(),
                 QStringLiteral("Paris"));
        QCOMPARE(pf->examples[0].reference.toString(), QStringLiteral("France"));
        QCOMPARE(pf->examples[0].metadata.value(QStringLiteral("assert")).toArray().size(), 2);
        // YAML errors carry the line.
        Result<ParsedExamples> bad =
            parseExamples("tests:\n  - vars: {a: 1\n  - x\n", DatasetFormat::Promptfoo, "t.yaml");
        QVERIFY(!bad.ok());
        QVERIFY(bad.error().span.line > 0);
        // CSV: plain columns are inputs, `expected` the reference, quoted line breaks kept.
        Result<ParsedExamples> csv =
            parseExamples("\xEF\xBB\xBFquestion,expected,metadata.tag\r\n\"two\r\nlines\",x,t\r\n",
                          DatasetFormat::Csv);
        QVERIFY(csv.ok());
        QCOMPARE(csv->examples.size(), 1);
        QCOMPARE(csv->examples[0].inputs.value(QStringLiteral("question")).toString(),
                 QStringLiteral("two\r\nlines"));
        QCOMPARE(csv->examples[0].reference.toString(), QStringLiteral("x"));
        QCOMPARE(csv->examples[0].metadata.value(QStringLiteral("tag")).toString(),
                 QStringLiteral("t"));
    }

    // A Japanese user's Excel CSV is Shift_JIS (CP932): imported as the characters it holds.
    void shiftJisCsvImports()
    {
        const QString text = QStringLiteral(
            "問い合わせ,reference,metadata.担当\r\n"
            "注文した商品がまだ届きません。いつ届きますか？,配送状況を確認してご連絡します,山田\r\n"
            "請求書の宛名を株式会社に変更したいです,変更した請求書を再発行いたします,佐藤\r\n"
            "パスワードを忘れてしまいました,再設定の手順をご案内します,鈴木\r\n"
            "①の項目について詳しく教えてください,詳細な資料をお送りします,高橋\r\n");
        QStringEncoder encoder("windows-31j");
        QVERIFY2(encoder.isValid(), "Qt cannot encode CP932 here (ICU)");
        const QByteArray sjis = encoder.encode(text);
        QVERIFY(!encoder.hasError());
        const QString path = write(QStringLiteral("問い合わせ.csv"), sjis);
        Result<ImportedDataset> imported = importDatasetFile(path);
        QVERIFY2(imported.ok(), imported.ok() ? "" : qPrintable(imported.error().toString()));
        const QList<Example>& examples = imported->dataset.examples;
        QCOMPARE(examples.size(), 4);
        QCOMPARE(examples[0].inputs.value(QStringLiteral("問い合わせ")).toString(),
                 QStringLiteral("注文した商品がまだ届きません。いつ届きますか？"));
        QCOMPARE(examples[3].inputs.value(QStringLiteral("問い合わせ")).toString(),
                 QStringLiteral("①の項目について詳しく教えてください"));
        QCOMPARE(examples[1].reference.toString(),
                 QStringLiteral("変更した請求書を再発行いたします"));
        QCOMPARE(examples[2].metadata.value(QStringLiteral("担当")).toString(),
                 QStringLiteral("鈴木"));
    }

    // Bytes that are not UTF-8 and no reliably recognised encoding: refused at their line,
    // saying what to do, instead of imported with U+FFFD.
    void unreadableCsvIsRefusedWithItsLine_data()
    {
        QTest::addColumn<QByteArray>("data");
        QTest::addColumn<int>("line");
        QTest::addColumn<int>("column");
        QTest::newRow("damaged UTF-8") << QByteArray("question,reference\n"
                                                     "東京,晴れ\n"
                                                     "大阪,\xe6\x99\n")
                                       << 3 << 4;
        QTest::newRow("stray byte") << QByteArray("question,reference\nab\xffcd,x\n") << 2 << 3;
        QTest::newRow("Latin-1") << QByteArray("question,reference\ncaf\xe9 au lait,x\n"
                                               "cr\xe8me br\xfbl\xe9e,y\n")
                                 << 2 << 4;
    }
    void unreadableCsvIsRefusedWithItsLine()
    {
        QFETCH(QByteArray, data);
        QFETCH(int, line);
        QFETCH(int, column);
        const QString path = write(QStringLiteral("bad.csv"), data);
        Result<ImportedDataset> imported = importDatasetFile(path);
        QVERIFY(!imported.ok());
        const Diagnostic& e = imported.error();
        QCOMPARE(e.span.file, path);
        QCOMPARE(e.span.line, line);
        QCOMPARE(e.span.column, column);
        QVERIFY2(e.message.contains(QLatin1String("not UTF-8")) &&
                     e.message.contains(QLatin1String("save it as UTF-8")),
                 qPrintable(e.message));
        // The dataset pane parses the bytes itself: the same refusal.
        QVERIFY(!parseExamples(data, DatasetFormat::Csv, path).ok());
    }

    void examplesFromLoggedCalls()
    {
        hako::promptlog::CallRecord withInputs;
        withInputs.uid = QStringLiteral("u1");
        withInputs.inputs = {{QStringLiteral("topic"), QStringLiteral("cats")}};
        withInputs.reply = QStringLiteral("Cats are calm.");
        hako::promptlog::CallRecord plain;
        plain.uid = QStringLiteral("u2");
        plain.messages =
            QJsonArray{QJsonObject{{QStringLiteral("role"), QStringLiteral("system")},
                                   {QStringLiteral("content"), QStringLiteral("Be brief.")}},
                       QJsonObject{{QStringLiteral("role"), QStringLiteral("user")},
                                   {QStringLiteral("content"), QStringLiteral("猫について")}}};
        plain.reply = QStringLiteral("猫は穏やかです。");
        const QList<Example> ex = fromCalls({withInputs, plain}, true);
        QCOMPARE(ex.size(), 2);
        QCOMPARE(ex[0].inputs.value(QStringLiteral("topic")).toString(), QStringLiteral("cats"));
        QCOMPARE(ex[0].reference.toString(), QStringLiteral("Cats are calm."));
        QCOMPARE(ex[1].inputs.value(QStringLiteral("input")).toString(),
                 QStringLiteral("猫について"));
        QCOMPARE(ex[1].metadata.value(QStringLiteral("call_uid")).toString(), QStringLiteral("u2"));
        QVERIFY(!fromCalls({plain}, false).at(0).hasReference());
    }

    void schemaFromPdlType()
    {
        Result<QJsonObject> schema = Dataset::schemaFromPdlTypes(
            QJsonObject{{QStringLiteral("question"), QStringLiteral("string")},
                        {QStringLiteral("n"),
                         QJsonObject{{QStringLiteral("optional"), QStringLiteral("integer")}}}},
            QStringLiteral("string"));
        QVERIFY2(schema.ok(), schema.ok() ? "" : qPrintable(schema.error().message));
        Dataset d;
        d.schema = *schema;
        Example good;
        good.inputs = {{QStringLiteral("question"), QStringLiteral("何？")}};
        good.reference = QStringLiteral("これ");
        Example bad;
        bad.inputs = {{QStringLiteral("question"), QStringLiteral("x")},
                      {QStringLiteral("n"), QStringLiteral("one")}};
        bad.reference = QStringLiteral("y");
        const QList<ShapeProblem> problems = d.add({good, bad});
        QCOMPARE(problems.size(), 1);
        QCOMPARE(problems[0].index, 1);
        QCOMPARE(problems[0].field, QStringLiteral("inputs.n"));
        QCOMPARE(d.examples.size(), 1);
        QVERIFY(!Dataset::schemaFromPdlTypes(QStringLiteral("nonsense")).ok());
    }
};

QTEST_GUILESS_MAIN(TestDataset)
#include "tst_dataset.moc"
