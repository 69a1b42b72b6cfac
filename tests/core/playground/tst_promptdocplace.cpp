// Where a position of a program is in the Prompt view's terms: the card (its `def` name, or
// "model call at line N") and its field, a value of `defs`, a text — what the Problems pane
// shows instead of line:column while the Prompt view is shown.
#include "core/playground/promptdocplace.h"

#include <QTest>

using namespace hako;
using namespace hako::playground;

namespace {

const QString kProgram = QStringLiteral("defs:\n"                           // 1
                                        "  tone: 丁寧に\n"                  // 2
                                        "text:\n"                           // 3
                                        "- def: summary\n"                  // 4
                                        "  model: ollama/x\n"               // 5
                                        "  parameters:\n"                   // 6
                                        "    temperature: 0.2\n"            // 7
                                        "  input: 要約して ${ tone }\n"     // 8
                                        "- model: ollama/y\n"               // 9
                                        "  input:\n"                        // 10
                                        "  - role: system\n"                // 11
                                        "    content: あなたは先生です\n"   // 12
                                        "  - role: user\n"                  // 13
                                        "    content: 質問 ${ question }\n" // 14
                                        "- こんにちは\n"                    // 15
                                        "- repeat:\n"                       // 16
                                        "    text: ${ tone }\n"             // 17
                                        "  max_iterations: 2\n");           // 18

} // namespace

class TestPromptDocPlace : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void place_data()
    {
        QTest::addColumn<int>("line");
        QTest::addColumn<int>("column");
        QTest::addColumn<QString>("heading");
        QTest::addColumn<int>("field");
        QTest::addColumn<QString>("says");
        using F = PromptDocPlace::Field;
        QTest::newRow("value of defs") << 2 << 9 << "tone" << int(F::None) << "Value “tone”";
        QTest::newRow("card's def line")
            << 4 << 8 << "summary" << int(F::None) << "Model call “summary”";
        QTest::newRow("model") << 5 << 12 << "summary" << int(F::Model)
                               << "Model call “summary” › Model";
        QTest::newRow("parameters")
            << 7 << 18 << "summary" << int(F::Parameters) << "Model call “summary” › Parameters";
        QTest::newRow("input text")
            << 8 << 17 << "summary" << int(F::Input) << "Model call “summary” › Input";
        QTest::newRow("system message, no def")
            << 12 << 14 << "" << int(F::Instructions) << "Model call at line 9 › Instructions";
        QTest::newRow("user message")
            << 14 << 18 << "" << int(F::Input) << "Model call at line 9 › Input";
        QTest::newRow("after the input's last character")
            << 8 << 24 << "summary" << int(F::Input) << "Model call “summary” › Input";
        QTest::newRow("text") << 15 << 4 << "" << int(F::None) << "Text at line 15";
    }
    void place()
    {
        QFETCH(int, line);
        QFETCH(int, column);
        QFETCH(QString, heading);
        QFETCH(int, field);
        QFETCH(QString, says);
        const Result<PromptDoc> doc = PromptDoc::build(kProgram, QStringLiteral("p.pdl"));
        QVERIFY2(doc.ok(), qPrintable(doc ? QString() : doc.error().message));
        const PromptDocPlace place = placeAt(*doc, kProgram, line, column);
        QVERIFY(place.isValid());
        QCOMPARE(place.heading, heading);
        QCOMPARE(int(place.field), field);
        QCOMPARE(describePlace(place), says);
    }

    // The id is the item's: the view can scroll to it.
    void idIsTheItems()
    {
        const Result<PromptDoc> doc = PromptDoc::build(kProgram, QStringLiteral("p.pdl"));
        QVERIFY(doc.ok());
        const PromptDocPlace place = placeAt(*doc, kProgram, 14, 18);
        QCOMPARE(place.kind, PromptDocItem::Kind::Card);
        bool found = false;
        for (const PromptDocItem& i : doc->items)
            found = found ||
                    (i.id == place.id && i.kind == PromptDocItem::Kind::Card && i.span.line == 9);
        QVERIFY(found);
    }

    void outsideEveryItem()
    {
        const QString program = QStringLiteral("description: 説明\ntext:\n- こんにちは\n");
        const Result<PromptDoc> doc = PromptDoc::build(program);
        QVERIFY(doc.ok());
        const PromptDocPlace place = placeAt(*doc, program, 1, 3);
        QVERIFY(!place.isValid());
        QCOMPARE(describePlace(place), QString());
    }
};

QTEST_GUILESS_MAIN(TestPromptDocPlace)
#include "tst_promptdocplace.moc"
