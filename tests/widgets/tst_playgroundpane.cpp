// The Playground pane offscreen: the empty state says what to do, a logged call opens as a
// variant whose variables become input columns, a second variant is added and edited, rows are
// pasted from a "spreadsheet", Run fills the results grid from the local test server and the
// selected reply shows a word diff; Cancel leaves every cell final; Save to Program emits the
// edited prompt; Copy as PDL fills the clipboard; every control has an accessible name.
#include "core/models/openaiprovider.h"
#include "core/playground/playgroundresultmodel.h"
#include "core/promptlog/callrecord.h"
#include "isolatedsettings.h"
#include "openaitestserver.h"
#include "widgets/common/messagebar.h"
#include "widgets/playground/playgroundpane.h"
#include "widgets/playground/varianteditor.h"
#include "widgets/promptview/inputsform.h"

#include <QAbstractButton>
#include <QAbstractItemView>
#include <QAbstractSpinBox>
#include <QApplication>
#include <QClipboard>
#include <QComboBox>
#include <QDoubleSpinBox>
#include <QJsonArray>
#include <QLabel>
#include <QLineEdit>
#include <QMenu>
#include <QPlainTextEdit>
#include <QProgressBar>
#include <QPushButton>
#include <QSignalSpy>
#include <QSpinBox>
#include <QTableView>
#include <QTableWidget>
#include <QTest>
#include <QTextBrowser>
#include <QToolButton>

using namespace hako;
using namespace hako::playground;
using testing::OpenAiTestServer;

Q_DECLARE_METATYPE(hako::SourceSpan)

namespace {

promptlog::CallRecord loggedCall()
{
    promptlog::CallRecord c;
    c.model = QStringLiteral("m-a");
    c.promptName = QStringLiteral("greeting");
    c.parameters =
        QJsonObject{{QStringLiteral("temperature"), 0.2}, {QStringLiteral("max_tokens"), 64}};
    c.messages =
        QJsonArray{QJsonObject{{QStringLiteral("role"), QStringLiteral("system")},
                               {QStringLiteral("content"), QStringLiteral("You are kind.")}},
                   QJsonObject{{QStringLiteral("role"), QStringLiteral("user")},
                               {QStringLiteral("content"), QStringLiteral("Hello ${ name }")}}};
    c.inputs = QJsonObject{{QStringLiteral("name"), QStringLiteral("Ada")}};
    return c;
}

std::function<std::shared_ptr<models::IModelProvider>()> factoryFor(const OpenAiTestServer& s)
{
    const QString url = s.baseUrl();
    return [url] {
        models::EndpointConfig config;
        config.baseUrl = url;
        config.maxRetries = 0;
        return std::make_shared<models::OpenAiProvider>(config);
    };
}

/// Controls a user works with, leaving out the parts of composite widgets (a combo box's line
/// edit, a spin box's, a view's corner button) that carry their owner's name.
QList<QWidget*> controls(QWidget* root)
{
    QList<QWidget*> out;
    for (QWidget* w : root->findChildren<QWidget*>()) {
        const bool control = qobject_cast<QAbstractButton*>(w) || qobject_cast<QComboBox*>(w) ||
                             qobject_cast<QAbstractSpinBox*>(w) || qobject_cast<QLineEdit*>(w) ||
                             qobject_cast<QPlainTextEdit*>(w) ||
                             qobject_cast<QAbstractItemView*>(w) ||
                             qobject_cast<QProgressBar*>(w) || qobject_cast<QTextBrowser*>(w);
        if (!control)
            continue;
        bool inner = false;
        for (QWidget* p = w->parentWidget(); p && p != root; p = p->parentWidget()) {
            if (qobject_cast<QComboBox*>(p) || qobject_cast<QAbstractSpinBox*>(p) ||
                qobject_cast<QAbstractItemView*>(p) || p->inherits("QComboBoxPrivateContainer"))
                inner = true;
        }
        if (!inner)
            out << w;
    }
    return out;
}

} // namespace

class TestPlaygroundPane : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void initTestCase() { qRegisterMetaType<SourceSpan>(); }

    void emptyStateSaysWhatToDo()
    {
        PlaygroundPane pane;
        pane.show();
        QVERIFY(pane.emptyLabel()->isVisible());
        QVERIFY(pane.emptyLabel()->text().contains(QLatin1String("Prompt Log")));
        QVERIFY(pane.emptyLabel()->text().contains(QLatin1String("editor")));
        QVERIFY(!pane.runButton()->isEnabled());
        QVERIFY(!pane.emptyLabel()->accessibleName().isEmpty());
    }

    void everyControlHasAnAccessibleName()
    {
        PlaygroundPane pane;
        pane.openCall(loggedCall());
        pane.addVariant();
        pane.variant(1)->addMessage();
        pane.show();
        const QList<QWidget*> list = controls(&pane);
        QVERIFY(list.size() > 30);
        QSet<QString> names;
        for (QWidget* w : list) {
            QVERIFY2(!w->accessibleName().isEmpty(),
                     qPrintable(QStringLiteral("%1 (%2) has no accessible name")
                                    .arg(QString::fromLatin1(w->metaObject()->className()),
                                         w->objectName())));
            names << w->accessibleName();
        }
        QVERIFY(names.contains(QStringLiteral("Variant 2 message 3 text")));
        QVERIFY(names.contains(QStringLiteral("Variant 1 temperature")));
        QVERIFY(names.contains(QStringLiteral("Run")));
        QVERIFY(names.contains(QStringLiteral("Inputs")));
        QVERIFY(names.contains(QStringLiteral("Results")));
        // Removing the first variant renumbers the rest.
        pane.removeVariant(0);
        QCOMPARE(pane.variant(0)->modelCombo()->accessibleName(),
                 QStringLiteral("Variant 1 model"));
    }

    void variantsUpToSix()
    {
        PlaygroundPane pane;
        pane.openCall(loggedCall());
        for (int i = 0; i < 5; ++i)
            QVERIFY(pane.addVariant());
        QCOMPARE(pane.variantCount(), 6);
        QVERIFY(!pane.addVariant());
        QVERIFY(!pane.addVariantButton()->isEnabled());
        QCOMPARE(pane.variant(5)->prompt().messages, pane.variant(0)->prompt().messages);
        QTest::mouseClick(pane.variant(2)->removeButton(), Qt::LeftButton);
        QCOMPARE(pane.variantCount(), 5);
        QVERIFY(pane.addVariantButton()->isEnabled());
    }

    void openCallAddVariantEditRun()
    {
        OpenAiTestServer server;
        QVERIFY(server.start());
        PlaygroundPane pane;
        pane.setProviderFactory(factoryFor(server));
        pane.setModels({QStringLiteral("m-a"), QStringLiteral("m-b")});
        pane.resize(1200, 900);
        pane.show();
        pane.openCall(loggedCall());
        QVERIFY(!pane.emptyLabel()->isVisible());
        QCOMPARE(pane.variantCount(), 1);
        VariantEditor* first = pane.variant(0);
        QCOMPARE(first->modelCombo()->currentText(), QStringLiteral("m-a"));
        QCOMPARE(first->temperatureSpin()->value(), 0.2);
        QCOMPARE(first->maxTokensSpin()->value(), 64);
        QCOMPARE(first->messageCount(), 2);
        QVERIFY(!first->saveButton()->isEnabled()); // a call without a block to write to

        // The variable is an input column, the call's input its first row.
        QCOMPARE(pane.inputsTable()->columnCount(), 1);
        QCOMPARE(pane.inputsTable()->horizontalHeaderItem(0)->text(), QStringLiteral("name"));
        QCOMPARE(pane.inputsTable()->item(0, 0)->text(), QStringLiteral("Ada"));

        // Two more rows pasted from a spreadsheet.
        pane.inputsTable()->setRowCount(2);
        pane.inputsTable()->setCurrentCell(1, 0);
        QApplication::clipboard()->setText(QStringLiteral("Bob\r\nCarol\r\n"));
        QTest::keyClick(pane.inputsTable(), Qt::Key_V, Qt::ControlModifier);
        QCOMPARE(pane.inputsTable()->rowCount(), 3);
        QCOMPARE(pane.inputsTable()->item(2, 0)->text(), QStringLiteral("Carol"));

        // A second variant, edited.
        QTest::mouseClick(pane.addVariantButton(), Qt::LeftButton);
        QCOMPARE(pane.variantCount(), 2);
        VariantEditor* second = pane.variant(1);
        second->modelCombo()->setCurrentText(QStringLiteral("m-b"));
        QPlainTextEdit* text = second->messageEdit(1);
        text->setPlainText(QStringLiteral("Bonjour ${ name }"));
        text->moveCursor(QTextCursor::End);
        QTest::keyClicks(text, QStringLiteral(" please"));
        QCOMPARE(second->prompt().messages[1].content, QStringLiteral("Bonjour ${ name } please"));

        QSignalSpy finished(&pane, &PlaygroundPane::runFinished);
        QTest::mouseClick(pane.runButton(), Qt::LeftButton);
        QTRY_COMPARE_WITH_TIMEOUT(finished.count(), 1, 30000);
        QCOMPARE(server.requestCount(), 6);
        PlaygroundResultModel* results = pane.resultModel();
        QCOMPARE(results->rowCount(), 3);
        QCOMPARE(results->columnCount(), 2);
        QCOMPARE(results->index(0, 0).data().toString(), QStringLiteral("echo: Hello Ada"));
        QCOMPARE(results->index(2, 1).data().toString(),
                 QStringLiteral("echo: Bonjour Carol please"));
        QCOMPARE(results->headerData(1, Qt::Horizontal).toString(), QStringLiteral("2: m-b"));
        QCOMPARE(pane.progressBar()->value(), 6);
        QVERIFY(pane.runButton()->isEnabled());

        // The selected reply, compared word by word with the first variant's.
        pane.resultsView()->setCurrentIndex(results->index(1, 1));
        const QString html = pane.replyView()->toHtml();
        QVERIFY(pane.replyView()->toPlainText().contains(QLatin1String("Bonjour")));
        QVERIFY(html.contains(QLatin1String("line-through")));
        if (const QString shot = qEnvironmentVariable("HAKO_PLAYGROUND_SCREENSHOT");
            !shot.isEmpty())
            pane.grab().save(shot);

        // Ctrl+Return runs again.
        pane.activateWindow();
        pane.runButton()->setFocus();
        QTest::keyClick(pane.runButton(), Qt::Key_Return, Qt::ControlModifier);
        QTRY_COMPARE_WITH_TIMEOUT(finished.count(), 2, 30000);
        QCOMPARE(server.requestCount(), 12);
    }

    void cancelLeavesEveryCellFinal()
    {
        OpenAiTestServer server;
        QVERIFY(server.start());
        server.setDefaultDelayMs(5000);
        PlaygroundPane pane;
        pane.setProviderFactory(factoryFor(server));
        pane.openCall(loggedCall());
        pane.pasteRows(QStringLiteral("Ada\nBob\nCarol\nDan\n"));
        pane.repeatSpin()->setValue(2);
        pane.concurrencySpin()->setValue(2);
        QSignalSpy finished(&pane, &PlaygroundPane::runFinished);
        pane.run();
        QVERIFY(pane.cancelButton()->isEnabled());
        QVERIFY(!pane.runButton()->isEnabled());
        QTRY_COMPARE_WITH_TIMEOUT(server.requestCount(), 2, 30000);
        QTest::mouseClick(pane.cancelButton(), Qt::LeftButton);
        QTRY_COMPARE_WITH_TIMEOUT(finished.count(), 1, 30000);
        QVERIFY(!pane.cancelButton()->isEnabled());
        PlaygroundResultModel* results = pane.resultModel();
        QCOMPARE(results->rowCount(), 4);
        for (int row = 0; row < 4; ++row) {
            for (int r = 0; r < 2; ++r)
                QVERIFY(results->cell({row, 0, r}).isFinal());
        }
        QVERIFY(server.requestCount() < 8);
    }

    // Ctrl+V of spreadsheet rows: a cell holding a line break (copied quoted) stays one cell;
    // a list typed as ["a", "b"] is a list, other text stays text (never split into
    // characters), and each cell says on hover how it is read.
    void pastedRowsAndListInputs()
    {
        PlaygroundPane pane;
        pane.openCall(loggedCall());
        pane.inputsTable()->setRowCount(1);
        pane.inputsTable()->setCurrentCell(0, 0);
        pane.pasteRows(
            QStringLiteral("\"火山\nと地震\"\r\n[\"溶岩\", \"灰\"]\r\n褒め言葉, 苦情\r\n"));
        const QList<QJsonObject> rows = pane.inputRows();
        QCOMPARE(rows.size(), 3);
        QCOMPARE(rows[0].value(QStringLiteral("name")).toString(), QStringLiteral("火山\nと地震"));
        QCOMPARE(rows[1].value(QStringLiteral("name")),
                 QJsonValue(QJsonArray{QStringLiteral("溶岩"), QStringLiteral("灰")}));
        QCOMPARE(rows[2].value(QStringLiteral("name")).toString(),
                 QStringLiteral("褒め言葉, 苦情"));
        QVERIFY(pane.inputsTable()->item(1, 0)->toolTip().startsWith(QLatin1String("a list of 2")));
        QVERIFY(pane.inputsTable()->item(2, 0)->toolTip().startsWith(QLatin1String("text")));
    }

    // Messages pasted under a first row of labels: the new rows keep the labels (copied from
    // the row above, and the pane says so); the pasted column is the pasted text.
    void pastedRowsKeepTheOtherInputs()
    {
        promptlog::CallRecord call = loggedCall();
        call.messages = QJsonArray{QJsonObject{
            {QStringLiteral("role"), QStringLiteral("user")},
            {QStringLiteral("content"), QStringLiteral("${ labels } のどれか: ${ message }")}}};
        call.inputs = QJsonObject{{QStringLiteral("labels"), QJsonArray{"苦情", "質問"}},
                                  {QStringLiteral("message"), QStringLiteral("遅い")}};
        PlaygroundPane pane;
        pane.openCall(call);
        const int message = int(pane.variables().indexOf(QStringLiteral("message")));
        QVERIFY(message >= 0);
        pane.inputsTable()->setCurrentCell(0, message);
        pane.pasteRows(QStringLiteral("届かない\n箱が壊れていた\n返品できますか\n"));
        const QList<QJsonObject> rows = pane.inputRows();
        QCOMPARE(rows.size(), 3);
        const QJsonValue labels = QJsonArray{"苦情", "質問"};
        QStringList messages;
        for (const QJsonObject& r : rows) {
            QCOMPARE(r.value(QStringLiteral("labels")), labels);
            messages << r.value(QStringLiteral("message")).toString();
        }
        QCOMPARE(messages, (QStringList{"届かない", "箱が壊れていた", "返品できますか"}));
        QVERIFY(pane.messageBar()->text().contains(QLatin1String("row above")));
        // A paste inside existing rows copies nothing.
        pane.messageBar()->clearMessage();
        pane.inputsTable()->setCurrentCell(1, message);
        pane.pasteRows(QStringLiteral("別の文\n"));
        QCOMPARE(pane.inputRows().size(), 3);
        QVERIFY(pane.messageBar()->text().isEmpty());
    }

    void saveToProgramEmitsTheEditedPrompt()
    {
        PlaygroundPane pane;
        PlaygroundPrompt prompt;
        prompt.model = QStringLiteral("granite");
        prompt.messages = {{QStringLiteral("user"), QStringLiteral("Summarise ${ doc }")}};
        prompt.parameters.extra.insert(QStringLiteral("custom"), 1);
        SourceSpan span;
        span.file = QStringLiteral("/tmp/program.pdl");
        span.line = 4;
        span.column = 3;
        pane.openPrompt(prompt, QStringLiteral("/tmp/program.pdl"), span);
        pane.show();
        VariantEditor* v = pane.variant(0);
        QVERIFY(v->saveButton()->isEnabled());
        QPlainTextEdit* text = v->messageEdit(0);
        text->moveCursor(QTextCursor::End);
        QTest::keyClicks(text, QStringLiteral(" in one line"));
        v->temperatureSpin()->setValue(0.5);
        v->stopField()->setText(QStringLiteral("END, \\n\\n"));
        v->roleCombo(0)->setCurrentText(QStringLiteral("system"));

        QSignalSpy saved(&pane, &PlaygroundPane::saveToProgramRequested);
        QTest::mouseClick(v->saveButton(), Qt::LeftButton);
        QCOMPARE(saved.count(), 1);
        QCOMPARE(saved.at(0).at(0).toString(), QStringLiteral("/tmp/program.pdl"));
        QCOMPARE(saved.at(0).at(1).value<SourceSpan>(), span);
        const auto edited = saved.at(0).at(2).value<PlaygroundPrompt>();
        QCOMPARE(edited.model, QStringLiteral("granite"));
        QCOMPARE(edited.messages.size(), 1);
        QCOMPARE(edited.messages[0].role, QStringLiteral("system"));
        QCOMPARE(edited.messages[0].content, QStringLiteral("Summarise ${ doc } in one line"));
        QCOMPARE(edited.parameters.temperature, 0.5);
        QCOMPARE(edited.parameters.stop,
                 (QStringList{QStringLiteral("END"), QStringLiteral("\n\n")}));
        QCOMPARE(edited.parameters.extra.value(QLatin1String("custom")).toInt(), 1);
        QVERIFY(!edited.parameters.maxTokens.has_value());

        // Copy as PDL puts the same prompt on the clipboard as a block.
        QTest::mouseClick(v->copyButton(), Qt::LeftButton);
        QCOMPARE(QApplication::clipboard()->text(), edited.toPdl());
        QCOMPARE(pane.messageBar()->kind(), MessageBar::Kind::Information);
    }

    void openProgramBlock()
    {
        PlaygroundPane pane;
        const QString program =
            QStringLiteral("text:\n"
                           "- model: granite # the block\n"
                           "  parameters: {temperature: 0.4}\n"
                           "  input:\n"
                           "    array:\n"
                           "    - {role: system, content: Be brief}\n"
                           "    - {role: user, content: \"Tell me about ${ topic }\"}\n");
        SourceSpan span;
        span.file = QStringLiteral("/tmp/p.pdl");
        span.line = 2;
        span.column = 3;
        QVERIFY(pane.openProgramBlock(program, QStringLiteral("/tmp/p.pdl"), span));
        QCOMPARE(pane.variant(0)->modelCombo()->currentText(), QStringLiteral("granite"));
        QCOMPARE(pane.variant(0)->temperatureSpin()->value(), 0.4);
        QCOMPARE(pane.variant(0)->messageCount(), 2);
        QCOMPARE(pane.variables(), QStringList{QStringLiteral("topic")});
        QCOMPARE(pane.inputsTable()->columnCount(), 1);
        QVERIFY(pane.variant(0)->saveButton()->isEnabled());

        span.line = 1;
        span.column = 1;
        QVERIFY(!pane.openProgramBlock(QStringLiteral("text: [a]\n"), QStringLiteral("/tmp/q.pdl"),
                                       span));
        QVERIFY(pane.messageBar()->text().contains(QLatin1String("no model block")));
    }

    // The input sets saved in the Prompt view are the Playground's rows: one at a time from
    // Add Input Set, or all of them; values the prompt does not use are left out.
    void savedInputSetsBecomeRows()
    {
        testing::IsolatedSettings settings(QStringLiteral("tst_playgroundpane"));
        const QString path = QStringLiteral("/tmp/sets.pdl");
        {
            InputsForm form;
            form.setSetsKey(InputsForm::setsKeyFor(path));
            playground::PromptDocInput topic;
            topic.name = QStringLiteral("topic");
            playground::PromptDocInput count;
            count.name = QStringLiteral("count");
            count.kind = playground::PromptDocInput::Kind::Number;
            form.setInputs({topic, count}, QJsonObject{{QStringLiteral("topic"), "rivers"},
                                                       {QStringLiteral("count"), 3}});
            form.saveSet(QStringLiteral("rivers"));
            form.setInputs({topic, count}, QJsonObject{{QStringLiteral("topic"), "volcanoes"},
                                                       {QStringLiteral("count"), 5}});
            form.saveSet(QStringLiteral("volcanoes"));
        }
        PlaygroundPane pane;
        pane.setInputSetsSource([path] { return InputsForm::storedSets(path); });
        SourceSpan span;
        span.file = path;
        span.line = 2;
        span.column = 3;
        QVERIFY(pane.openProgramBlock(QStringLiteral("text:\n"
                                                     "- model: granite\n"
                                                     "  input: \"Tell me about ${ topic }\"\n"),
                                      path, span));
        pane.inputsTable()->setRowCount(0);
        QToolButton* add = pane.addInputSetButton();
        QVERIFY(add->isEnabled());
        QMenu* menu = add->menu();
        QVERIFY(menu);
        Q_EMIT menu->aboutToShow();
        QStringList labels;
        for (QAction* a : menu->actions())
            labels << a->text();
        QCOMPARE(labels, (QStringList{QStringLiteral("rivers"), QStringLiteral("volcanoes"),
                                      QString(), QStringLiteral("All 2 Sets")}));
        menu->actions().at(1)->trigger();
        QCOMPARE(pane.inputRows(), (QList<QJsonObject>{QJsonObject{{"topic", "volcanoes"}}}));
        menu->actions().at(3)->trigger();
        QCOMPARE(pane.inputRows(), (QList<QJsonObject>{QJsonObject{{"topic", "volcanoes"}},
                                                       QJsonObject{{"topic", "rivers"}},
                                                       QJsonObject{{"topic", "volcanoes"}}}));

        if (const QString shots = qEnvironmentVariable("HAKO_SCREENSHOT_DIR"); !shots.isEmpty()) {
            pane.resize(900, 700);
            pane.show();
            QVERIFY(QTest::qWaitForWindowExposed(&pane));
            pane.grab().save(shots + QStringLiteral("/playground-input-sets.png"));
        }
        // A program without saved sets says where sets come from.
        pane.setInputSetsSource(
            [] { return InputsForm::storedSets(QStringLiteral("/tmp/no.pdl")); });
        Q_EMIT menu->aboutToShow();
        QCOMPARE(menu->actions().size(), 1);
        QVERIFY(!menu->actions().at(0)->isEnabled());
        QVERIFY(menu->actions().at(0)->text().contains(QLatin1String("Save Set")));
    }

    void stopFieldRoundTrips()
    {
        const QStringList stop = {QStringLiteral("a,b"),         QStringLiteral("\n"),
                                  QStringLiteral("back\\slash"), QStringLiteral("END"),
                                  QStringLiteral(" lead"),       QStringLiteral("trail "),
                                  QStringLiteral("x\\ "),        QStringLiteral(" ")};
        QCOMPARE(VariantEditor::parseStop(VariantEditor::stopText(stop)), stop);
        QCOMPARE(VariantEditor::parseStop(QString()), QStringList());
    }

    void runWithoutInputsExplains()
    {
        OpenAiTestServer server;
        QVERIFY(server.start());
        PlaygroundPane pane;
        pane.setProviderFactory(factoryFor(server));
        promptlog::CallRecord call = loggedCall();
        call.inputs = {};
        pane.openCall(call);
        pane.run();
        QVERIFY(!pane.isRunning());
        QVERIFY(pane.messageBar()->text().contains(QLatin1String("name")));
        QCOMPARE(server.requestCount(), 0);
    }

    void runWithoutProviderExplains()
    {
        PlaygroundPane pane;
        pane.openCall(loggedCall());
        pane.run();
        QVERIFY(!pane.isRunning());
        QVERIFY(pane.messageBar()->text().contains(QLatin1String("provider")));
    }
};

QTEST_MAIN(TestPlaygroundPane)
#include "tst_playgroundpane.moc"
