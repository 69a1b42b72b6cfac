// The playground's input table: a typed value is a list only when written as one (never split
// into characters), spreadsheet rows are read as spreadsheets copy them (Python's csv module,
// dialect excel-tab, is the oracle), and rows are named by the input that differs.
#include "core/playground/inputtable.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QRandomGenerator>
#include <QStandardPaths>
#include <QTest>

using namespace hako::playground;

class TestInputTable : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void values()
    {
        QCOMPARE(inputValueFromText(QStringLiteral("褒め言葉, 苦情")),
                 QJsonValue(QStringLiteral("褒め言葉, 苦情")));
        QCOMPARE(inputValueFromText(QStringLiteral(" [\"褒め言葉\", \"苦情\"] ")),
                 QJsonValue(QJsonArray{QStringLiteral("褒め言葉"), QStringLiteral("苦情")}));
        QCOMPARE(inputValueFromText(QStringLiteral("{\"k\": 1}")).toObject().value("k").toInt(), 1);
        // Not JSON after all: the text as typed.
        QCOMPARE(inputValueFromText(QStringLiteral("[draft")),
                 QJsonValue(QStringLiteral("[draft")));
        QVERIFY(describeInputText(QStringLiteral("[1, 2, 3]"))
                    .startsWith(QLatin1String("a list of 3")));
        QVERIFY(describeInputText(QStringLiteral("a, b")).startsWith(QLatin1String("text")));
    }

    // A value shown in a cell reads back as the same value: lists and records keep their
    // characters (no \u escapes), a text stays the text.
    void valuesAsText()
    {
        const QJsonArray labels{QStringLiteral("褒め言葉"), QStringLiteral("苦情")};
        QCOMPARE(inputTextFromValue(labels), QStringLiteral("[\"褒め言葉\",\"苦情\"]"));
        const QList<QJsonValue> values{
            QJsonValue(QStringLiteral("注文が遅い")), QJsonValue(labels),
            QJsonValue(QJsonObject{{QStringLiteral("件名"), QStringLiteral("返品")},
                                   {QStringLiteral("n"), 2}}),
            QJsonValue(QJsonArray{QJsonArray{1, 2}, QJsonObject{}})};
        for (const QJsonValue& v : values)
            QCOMPARE(inputValueFromText(inputTextFromValue(v)), v);
        QCOMPARE(inputTextFromValue(3), QStringLiteral("3"));
        QCOMPARE(inputTextFromValue(0.5), QStringLiteral("0.5"));
        QCOMPARE(inputTextFromValue(true), QStringLiteral("true"));
        QCOMPARE(inputTextFromValue(QJsonValue()), QString());
    }

    void rowLabelsNameTheInputThatDiffers()
    {
        const QList<QJsonObject> rows = {
            {{QStringLiteral("inquiry"), QStringLiteral("返品したい")},
             {QStringLiteral("tone"), QStringLiteral("丁寧")}},
            {{QStringLiteral("inquiry"), QStringLiteral("返品したい")},
             {QStringLiteral("tone"), QStringLiteral("親しみやすい")}}};
        QCOMPARE(
            inputRowLabels(rows, {QStringLiteral("inquiry"), QStringLiteral("tone")}),
            (QStringList{QStringLiteral("1: tone=丁寧"), QStringLiteral("2: tone=親しみやすい")}));
        QCOMPARE(
            inputRowLabels({rows.first()}, {QStringLiteral("inquiry"), QStringLiteral("tone")}),
            QStringList{QStringLiteral("1: inquiry=返品したい")});
    }

    void spreadsheetRowsAgainstPythonsCsv()
    {
        const QString python = QStandardPaths::findExecutable(QStringLiteral("python3"));
        if (python.isEmpty())
            QSKIP("python3 is needed for the csv oracle");
        // Random tables of awkward cells; Python writes them as a spreadsheet copies them and
        // prints what it reads back as JSON.
        QJsonArray tables;
        QRandomGenerator rng(20261127);
        const QStringList pieces = {QStringLiteral("a"),   QStringLiteral("返品"),
                                    QStringLiteral(" "),   QStringLiteral("\t"),
                                    QStringLiteral("\n"),  QStringLiteral("\""),
                                    QStringLiteral(","),   QStringLiteral("\r\n"),
                                    QStringLiteral("x y"), QString()};
        for (int t = 0; t < 200; ++t) {
            const int rows = 1 + rng.bounded(4), columns = 1 + rng.bounded(3);
            QJsonArray table;
            for (int r = 0; r < rows; ++r) {
                QJsonArray row;
                for (int c = 0; c < columns; ++c) {
                    QString cell;
                    for (int k = rng.bounded(4); k > 0; --k)
                        cell += pieces.at(rng.bounded(int(pieces.size())));
                    row.append(cell);
                }
                table.append(row);
            }
            tables.append(table);
        }
        const char* script = R"PY(
import csv, io, json, sys
out = []
for table in json.load(sys.stdin):
    buf = io.StringIO()
    csv.writer(buf, dialect="excel-tab", lineterminator="\n").writerows(table)
    text = buf.getvalue()
    out.append({"text": text, "rows": [r for r in csv.reader(io.StringIO(text, newline=""), dialect="excel-tab")]})
print(json.dumps(out))
)PY";
        QProcess py;
        py.start(python, {QStringLiteral("-c"), QString::fromUtf8(script)});
        QVERIFY(py.waitForStarted());
        py.write(QJsonDocument(tables).toJson(QJsonDocument::Compact));
        py.closeWriteChannel();
        QVERIFY(py.waitForFinished(60000));
        QVERIFY2(py.exitCode() == 0, py.readAllStandardError().constData());
        const QJsonArray cases = QJsonDocument::fromJson(py.readAllStandardOutput()).array();
        QCOMPARE(cases.size(), tables.size());
        for (const QJsonValue& c : cases) {
            const QString text = c.toObject().value(QStringLiteral("text")).toString();
            QList<QStringList> want;
            for (const QJsonValue& row : c.toObject().value(QStringLiteral("rows")).toArray()) {
                QStringList cells;
                for (const QJsonValue& cell : row.toArray())
                    cells << cell.toString();
                want << cells;
            }
            QCOMPARE(parseSpreadsheetRows(text), want);
        }
    }
};

QTEST_MAIN(TestInputTable)
#include "tst_inputtable.moc"
