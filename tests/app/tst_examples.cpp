// The example programs shipped in resources/examples: the catalog reads their headers, and every
// example that needs no model runs with `hako run` and prints what its description promises.
// (Examples that need a model have their own tests against the local test server.)
#include "core/workbench/examplecatalog.h"
#include "tests/app/hakoprocess.h"

#include <QTemporaryDir>
#include <QtTest>

using namespace hako;

namespace {
QString examplesDir()
{
    return QStringLiteral(HAKO_SOURCE_DIR "/resources/examples");
}
} // namespace

class TestExamples : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void headersAreParsed()
    {
        const ExampleInfo info = ExampleCatalog::parseHeader(
            QStringLiteral("x.pdl"), QStringLiteral("# title: A chatbot\n# needs: model\n"
                                                    "# Talks.\n# More.\ntext: hi\n# not header\n"));
        QCOMPARE(info.title, QStringLiteral("A chatbot"));
        QVERIFY(info.needsModel);
        QCOMPARE(info.description, QStringLiteral("Talks. More."));
        const ExampleInfo bare =
            ExampleCatalog::parseHeader(QStringLiteral("plain.pdl"), QStringLiteral("text: hi\n"));
        QCOMPARE(bare.title, QStringLiteral("plain"));
        QVERIFY(!bare.needsModel);
    }

    void catalogListsModelFreeExamplesFirst()
    {
        ExampleCatalog catalog(examplesDir());
        const QList<ExampleInfo> list = catalog.examples();
        QVERIFY(list.size() >= 6);
        bool seenModel = false;
        for (const ExampleInfo& e : list) {
            QVERIFY2(!e.title.isEmpty() && !e.description.isEmpty(), qPrintable(e.fileName));
            if (e.needsModel)
                seenModel = true;
            else
                QVERIFY2(!seenModel, "examples without a model come first");
        }
    }

    void materializeCopiesDataFilesAndKeepsEdits()
    {
        QTemporaryDir dir;
        ExampleCatalog catalog(examplesDir());
        Result<QString> path = catalog.materialize(QStringLiteral("data.pdl"), dir.path());
        QVERIFY(path.ok());
        QVERIFY(QFileInfo::exists(*path));
        QVERIFY(QFileInfo::exists(dir.filePath(QStringLiteral("team.json"))));
        // A user's edit survives opening the example again.
        QFile f(*path);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write("text: edited\n");
        f.close();
        QVERIFY(catalog.materialize(QStringLiteral("data.pdl"), dir.path()).ok());
        QFile again(*path);
        QVERIFY(again.open(QIODevice::ReadOnly));
        QCOMPARE(again.readAll(), QByteArray("text: edited\n"));
        QVERIFY(!catalog.materialize(QStringLiteral("nope.pdl"), dir.path()).ok());
    }

    void modelFreeExamplesRun_data()
    {
        QTest::addColumn<QString>("file");
        QTest::addColumn<QByteArray>("input");
        QTest::addColumn<QStringList>("expected");
        QTest::newRow("hello") << "hello.pdl" << QByteArray()
                               << QStringList{"Hello from Hako!", "Hako has 4 letters."};
        QTest::newRow("loops") << "loops.pdl" << QByteArray()
                               << QStringList{"APPLE, BANANA, CHERRY", "[1, 4, 9, 16, 25]",
                                              "3… 2… 1… lift-off!"};
        QTest::newRow("functions") << "functions.pdl" << QByteArray()
                                   << QStringList{"Good morning, Ada!", "Good evening, Grace!"};
        QTest::newRow("conditions")
            << "conditions.pdl" << QByteArray()
            << QStringList{"cake: sold out", "coffee: bulk order of 12", "Busy day."};
        QTest::newRow("data") << "data.pdl" << QByteArray()
                              << QStringList{"Team of 3:", "- Grace (admiral)",
                                             "Roles: engineer, admiral"};
        QTest::newRow("interactive")
            << "interactive.pdl" << QByteArray("hi\nquit\n") << QStringList{"You said: HI", "Bye!"};
    }

    void modelFreeExamplesRun()
    {
        QFETCH(QString, file);
        QFETCH(QByteArray, input);
        QFETCH(QStringList, expected);
        const HakoOutcome r =
            runHako({QStringLiteral("run"), examplesDir() + QLatin1Char('/') + file}, input);
        QVERIFY2(r.exitCode == 0, qPrintable(r.err));
        for (const QString& e : expected)
            QVERIFY2(r.out.contains(e), qPrintable(r.out));
    }

    void everyModelFreeExampleIsCovered()
    {
        // A new example without a model must be added to the table above.
        QStringList covered{"hello.pdl",      "loops.pdl", "functions.pdl",
                            "conditions.pdl", "data.pdl",  "interactive.pdl"};
        for (const ExampleInfo& e : ExampleCatalog(examplesDir()).examples())
            if (!e.needsModel)
                QVERIFY2(covered.contains(e.fileName), qPrintable(e.fileName));
    }
};

QTEST_GUILESS_MAIN(TestExamples)
#include "tst_examples.moc"
