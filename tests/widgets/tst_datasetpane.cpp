// The dataset editor: logged calls added as examples, an import with a misfit reported by
// example and field in the message bar, an edit that does not fit refused, versions saved.

#include "core/eval/evalstore.h"
#include "core/eval/resultsmodel.h"
#include "widgets/common/messagebar.h"
#include "widgets/eval/datasetpane.h"

#include <QComboBox>
#include <QJsonArray>
#include <QJsonObject>
#include <QLineEdit>
#include <QPushButton>
#include <QSettings>
#include <QStandardPaths>
#include <QTableView>
#include <QTemporaryDir>
#include <QTest>

using namespace hako;
using namespace hako::eval;

class TestDatasetPane : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void initTestCase() { QStandardPaths::setTestModeEnabled(true); }

    // A saved dataset is found again: after a restart the last one is open, every saved
    // dataset is listed, and an older version can be reopened.
    void savedDatasetsComeBackAfterARestart()
    {
        QSettings().remove(QStringLiteral("eval/dataset/last"));
        QTemporaryDir dir;
        auto opened = EvalStore::open(dir.filePath(QStringLiteral("eval.sqlite")));
        QVERIFY(opened.ok());
        std::shared_ptr<EvalStore> store = std::move(opened).value();
        auto call = [](const QString& text) {
            promptlog::CallRecord c;
            c.uid = text;
            c.inputs = {{QStringLiteral("email"), text}};
            c.reply = QStringLiteral("返信: ") + text;
            return c;
        };
        {
            DatasetPane pane;
            pane.setStore(store);
            QVERIFY(pane.dataset().examples.isEmpty()); // nothing was worked on yet
            pane.nameField()->setText(QStringLiteral("問い合わせ"));
            QCOMPARE(
                pane.addCalls({call(QStringLiteral("配送")), call(QStringLiteral("返品"))}, true),
                2);
            QCOMPARE(pane.save(), 1);
            QCOMPARE(pane.addCalls({call(QStringLiteral("請求"))}, true), 1);
            QCOMPARE(pane.save(), 2);
        }
        DatasetPane pane; // the next session
        pane.setStore(store);
        QCOMPARE(pane.dataset().name, QStringLiteral("問い合わせ"));
        QCOMPARE(pane.dataset().version, 2);
        QCOMPARE(pane.table()->model()->rowCount(), 3);
        QCOMPARE(pane.storedBox()->count(), 2); // "Open a saved dataset…" and this one
        QVERIFY(pane.storedBox()->itemText(1).contains(QStringLiteral("問い合わせ")));
        QCOMPARE(pane.versionBox()->count(), 2);
        const int first = pane.versionBox()->findData(1);
        QVERIFY(first >= 0);
        Q_EMIT pane.versionBox()->activated(first);
        QCOMPARE(pane.dataset().version, 1);
        QCOMPARE(pane.table()->model()->rowCount(), 2);
    }

    void callsImportsEditsAndVersions()
    {
        QTemporaryDir dir;
        auto opened = EvalStore::open(dir.filePath(QStringLiteral("eval.sqlite")));
        QVERIFY(opened.ok());
        std::shared_ptr<EvalStore> store = std::move(opened).value();
        DatasetPane pane;
        pane.setStore(store);
        pane.show();
        QVERIFY(QTest::qWaitForWindowExposed(&pane));
        pane.nameField()->setText(QStringLiteral("summaries"));

        // Three logged calls, their replies as references.
        QList<promptlog::CallRecord> calls;
        for (const char* topic : {"cats", "dogs", "猫"}) {
            promptlog::CallRecord c;
            c.uid = QString::fromUtf8(topic);
            c.inputs = {{QStringLiteral("topic"), QString::fromUtf8(topic)}};
            c.reply = QStringLiteral("About %1.").arg(QString::fromUtf8(topic));
            calls.append(c);
        }
        QCOMPARE(pane.addCalls(calls, true), 3);
        QCOMPARE(pane.table()->model()->rowCount(), 3);
        QCOMPARE(pane.save(QStringLiteral("from the log")), 1);

        // An import with one example of the wrong shape: the rest are added, the misfit named.
        QFile f(dir.filePath(QStringLiteral("more.jsonl")));
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write("{\"inputs\": {\"topic\": \"birds\"}, \"reference\": \"About birds.\"}\n"
                "{\"inputs\": {\"topic\": [1, 2]}, \"reference\": \"?\"}\n");
        f.close();
        QCOMPARE(pane.importFile(f.fileName()), 1);
        QVERIFY2(pane.messageBar()->text().contains(QLatin1String("example 1: inputs.topic")),
                 qPrintable(pane.messageBar()->text()));
        QCOMPARE(pane.table()->model()->rowCount(), 4);

        // Typing a value into a cell; the reference column is last.
        const QModelIndex reference = pane.table()->model()->index(0, 1);
        QVERIFY(pane.table()->model()->setData(reference, QStringLiteral("Cats sleep.")));
        QCOMPARE(pane.save(QStringLiteral("edited")), 2);
        auto v2 = store->dataset(QStringLiteral("summaries"));
        QVERIFY(v2.ok());
        QCOMPARE(v2->version, 2);
        QCOMPARE(v2->examples.size(), 4);
        QCOMPARE(v2->examples[0].reference.toString(), QStringLiteral("Cats sleep."));
        QCOMPARE(store->dataset(QStringLiteral("summaries"), 1)->examples.size(), 3);

        // Export and read back.
        const QString out = dir.filePath(QStringLiteral("out.csv"));
        QVERIFY(pane.exportFile(out, DatasetFormat::Csv));
        auto back = importDatasetFile(out);
        QVERIFY(back.ok());
        QCOMPARE(back->dataset.examples.size(), 4);

        // Opening an older version.
        QVERIFY(pane.open(QStringLiteral("summaries"), 1));
        QCOMPARE(pane.table()->model()->rowCount(), 3);
        QVERIFY(!pane.open(QStringLiteral("nope")));
        QVERIFY(!pane.messageBar()->text().isEmpty());
    }

    // A new dataset starts with a column per input of the program under test; columns are
    // added, renamed (in every example) and removed; a taken name is refused in plain words.
    void columnsFromThePromptsInputs()
    {
        QSettings().remove(QStringLiteral("eval/dataset/last"));
        DatasetPane pane;
        pane.setInputsSource([] {
            return QStringList{QStringLiteral("inquiry"), QStringLiteral("tone")};
        });
        pane.resize(800, 400);
        pane.show();
        QVERIFY(QTest::qWaitForWindowExposed(&pane));
        QCOMPARE(pane.model()->fields(),
                 (QStringList{QStringLiteral("inquiry"), QStringLiteral("tone")}));
        QVERIFY(!pane.model()->isModified());

        pane.model()->insertRows(0, 1);
        QVERIFY(pane.model()->setData(pane.model()->index(0, 0), QStringLiteral("返品したい")));
        pane.setColumnNameQuestion([](const QString&, const QString&) {
            return std::optional<QString>(QStringLiteral("顧客名"));
        });
        QPushButton* addColumn = nullptr;
        for (QPushButton* b : pane.findChildren<QPushButton*>())
            if (b->text() == QStringLiteral("Add Column…"))
                addColumn = b;
        QVERIFY(addColumn);
        addColumn->click();
        QVERIFY(pane.model()->fields().contains(QStringLiteral("顧客名")));

        QVERIFY(pane.renameColumn(QStringLiteral("inquiry"), QStringLiteral("question")));
        QVERIFY(!pane.model()->fields().contains(QStringLiteral("inquiry")));
        QCOMPARE(
            pane.dataset().examples.first().inputs.value(QStringLiteral("question")).toString(),
            QStringLiteral("返品したい"));
        QVERIFY(!pane.renameColumn(QStringLiteral("tone"), QStringLiteral("question")));
        QVERIFY(pane.messageBar()->text().contains(QLatin1String("already")));
        QVERIFY(pane.removeColumn(QStringLiteral("tone")));
        QVERIFY(!pane.model()->fields().contains(QStringLiteral("tone")));
        QVERIFY(!pane.dataset().examples.first().inputs.contains(QStringLiteral("tone")));
        QVERIFY(pane.model()->isModified());
    }

    // A spreadsheet saved by Excel in Japan (Shift_JIS, Japanese headers): before anything is
    // added the pane shows how it was read and what each column becomes; the "expected reply"
    // column is proposed as the reference, a column can be made a note; Cancel adds nothing.
    void csvImportShowsTheMappingFirst()
    {
        QSettings().remove(QStringLiteral("eval/dataset/last"));
        QTemporaryDir dir;
        QFile f(dir.filePath(QStringLiteral("問い合わせ.csv")));
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write("\x96\xe2\x82\xa2\x8d\x87\x82\xed\x82\xb9\x2c\x8a\xfa\x91\xd2\x82\xb7\x82\xe9\x95"
                "\xd4\x90\x4d\x2c\x92\x53\x93\x96\x0a\x95\xd4\x95\x69\x82\xb5\x82\xbd\x82\xa2\x82"
                "\xc5\x82\xb7\x2c\x95\xd4\x95\x69\x82\xf0\x8f\xb3\x82\xe8\x82\xdc\x82\xb7\x2c\x8d"
                "\xb2\x93\xa1\x0a\x93\xcd\x82\xa9\x82\xc8\x82\xa2\x2c\x82\xa8\x92\xb2\x82\xd7\x82"
                "\xb5\x82\xdc\x82\xb7\x2c\x97\xe9\x96\xd8\x0a");
        f.close();
        DatasetPane pane;
        int asked = 0;
        pane.setImportReview([&](eval::CsvPreview& preview) {
            ++asked;
            if (asked == 1)
                return false; // Cancel
            [&] {
                QVERIFY2(preview.encoding.toUpper().startsWith(QLatin1String("SHIFT_JIS")) ||
                             preview.encoding.toUpper().contains(QLatin1String("932")),
                         qPrintable(preview.encoding));
                QCOMPARE(preview.rowCount, 2);
                QCOMPARE(preview.columns.size(), 3);
                QCOMPARE(preview.columns[0].header, QStringLiteral("問い合わせ"));
                QCOMPARE(preview.columns[0].role, eval::CsvColumn::Role::Input);
                QCOMPARE(preview.columns[1].role, eval::CsvColumn::Role::Reference);
                QCOMPARE(preview.rows.first().first(), QStringLiteral("返品したいです"));
            }();
            preview.columns[2].role = eval::CsvColumn::Role::Metadata;
            return true;
        });
        QCOMPARE(pane.importFile(f.fileName()), 0);
        QCOMPARE(pane.dataset().examples.size(), 0);
        QCOMPARE(pane.importFile(f.fileName()), 2);
        QCOMPARE(asked, 2);
        const eval::Example& first = pane.dataset().examples.first();
        QCOMPARE(first.inputs,
                 (QJsonObject{{QStringLiteral("問い合わせ"), QStringLiteral("返品したいです")}}));
        QCOMPARE(first.referenceText(), QStringLiteral("返品を承ります"));
        QCOMPARE(first.metadata.value(QStringLiteral("担当")).toString(), QStringLiteral("佐藤"));
    }
};

QTEST_MAIN(TestDatasetPane)
#include "tst_datasetpane.moc"
