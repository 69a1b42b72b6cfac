// The editor's PDL language features as a user meets them: completion, hover, live
// diagnostics, selection of spans from other panes, autosave recovery, highlighting.
#include "core/pdl/interp/tracenode.h"
#include "core/pdl/lang/builtindocs.h"
#include "core/pdl/programcheck.h"
#include "core/pdl/trace/tracemodel.h"
#include "core/workbench/recoverystore.h"
#include "core/workbench/workbenchcontext.h"
#include "widgets/editor/editoranalysis.h"
#include "widgets/editor/editorpane.h"
#include "widgets/editor/pdleditor.h"
#include "widgets/editor/pdllexer.h"
#include "widgets/editor/problemsview.h"

#include <QApplication>
#include <QDir>
#include <QInputMethodEvent>
#include <QScreen>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>

using namespace hako;

namespace {

QStringList completionTexts(const PdlEditor& editor)
{
    QStringList out;
    for (const pdl::CompletionItem& i : editor.completionsAtCursor().items)
        out << i.text;
    return out;
}

QString writeFile(const QTemporaryDir& dir, const QString& name, const QByteArray& bytes)
{
    const QString path = dir.filePath(name);
    QFile f(path);
    if (!f.open(QIODevice::WriteOnly))
        qFatal("cannot write fixture");
    f.write(bytes);
    return path;
}

// Analyses the pane's text now and waits for that report (earlier ones are dropped as stale).
void analyse(EditorPane& pane)
{
    QSignalSpy spy(pane.analysis(), &EditorAnalysis::reportReady);
    pane.analysis()->requestNow(pane.editor()->text(), pane.filePath());
    QTRY_VERIFY(!spy.isEmpty());
}

} // namespace

class TestEditorLanguage : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void completionOffersFieldsOfTheEnclosingBlock()
    {
        PdlEditor editor;
        editor.setDocumentText(QStringLiteral("repeat:\n  text: hi\nma"));
        editor.setCursorPosition(2, 2);
        QStringList items = completionTexts(editor);
        QVERIFY2(items.contains(QLatin1String("maxIterations")), qPrintable(items.join(',')));
        QVERIFY(!items.contains(QLatin1String("map"))); // already a repeat: no second kind

        editor.setDocumentText(QStringLiteral("text:\n- hello\nma"));
        editor.setCursorPosition(2, 2);
        items = completionTexts(editor);
        QVERIFY2(!items.contains(QLatin1String("maxIterations")), qPrintable(items.join(',')));

        // Inside the repeat's body (a text block), the loop's fields are not offered either.
        editor.setDocumentText(QStringLiteral("repeat:\n  text: hi\n  ma\nmaxIterations: 2\n"));
        editor.setCursorPosition(2, 4);
        items = completionTexts(editor);
        QVERIFY2(!items.contains(QLatin1String("maxIterations")), qPrintable(items.join(',')));

        // A new list item has no kind yet: block kinds are offered.
        editor.setDocumentText(QStringLiteral("text:\n- mo"));
        editor.setCursorPosition(1, 4);
        items = completionTexts(editor);
        QVERIFY2(items.contains(QLatin1String("model")), qPrintable(items.join(',')));

        // Common fields everywhere; fields already written are not offered again.
        editor.setDocumentText(QStringLiteral("model: m\ndescription: x\nde"));
        editor.setCursorPosition(2, 2);
        items = completionTexts(editor);
        QVERIFY(items.contains(QLatin1String("def")));
        QVERIFY(items.contains(QLatin1String("defs")));
        QVERIFY(!items.contains(QLatin1String("description")));
    }

    // Choosing a field or block kind types its `: ` too (not twice).
    void choosingAKeyTypesItsColon()
    {
        PdlEditor editor;
        editor.show();
        editor.setDocumentText(QStringLiteral("text:\n- descri"));
        editor.setCursorPosition(1, 8);
        QVERIFY(editor.showCompletions(false));
        QTest::keyClick(&editor, Qt::Key_Return);
        QCOMPARE(editor.text(1), QStringLiteral("- description: "));
        QCOMPARE(editor.cursorLineColumn(), qMakePair(2, 16));

        editor.setDocumentText(QStringLiteral("text:\n- mode: x"));
        editor.setCursorPosition(1, 6);
        QVERIFY(editor.showCompletions(false));
        QTest::keyClick(&editor, Qt::Key_Return);
        QCOMPARE(editor.text(1), QStringLiteral("- model: x"));
    }

    void completionOffersVariablesInExpressions()
    {
        EditorPane pane(nullptr);
        PdlEditor* editor = pane.editor();
        editor->setDocumentText(
            QStringLiteral("text:\n- def: answer\n  data: 42\n- ${ ans }\n- def: later\n  "
                           "data: 1\n"));
        analyse(pane);
        editor->setCursorPosition(3, 8); // after `${ ans`
        const pdl::Completions c = editor->completionsAtCursor();
        QCOMPARE(c.prefix, QStringLiteral("ans"));
        QCOMPARE(c.prefixColumn, 6);
        QStringList items;
        for (const auto& i : c.items)
            items << i.text;
        QCOMPARE(items, QStringList{QStringLiteral("answer")});

        editor->setCursorPosition(3, 5); // after `${ `: everything in reach, not `later`
        items.clear();
        for (const auto& i : editor->completionsAtCursor().items)
            items << i.text;
        QVERIFY2(items.contains(QLatin1String("answer")), qPrintable(items.join(',')));
        QVERIFY(items.contains(QLatin1String("pdl_context")));
        QVERIFY(!items.contains(QLatin1String("later")));
    }

    void completionListInsertsTheChoice()
    {
        PdlEditor editor;
        editor.show();
        QVERIFY(QTest::qWaitForWindowExposed(&editor));
        editor.setFocus();
        editor.setDocumentText(QStringLiteral("repeat:\n  text: hi\n"));
        editor.setCursorPosition(2, 0);
        QTest::keyClicks(&editor, QStringLiteral("maxI"));
        QTest::keyClick(&editor, Qt::Key_Space, Qt::ControlModifier);
        QVERIFY(editor.isListActive());
        QTest::keyClick(&editor, Qt::Key_Return);
        QCOMPARE(editor.text(), QStringLiteral("repeat:\n  text: hi\nmaxIterations: "));
    }

    void modelSnippetIsInsertedAsOneUndoStep()
    {
        PdlEditor editor;
        editor.setDefaultModel(QStringLiteral("ollama/granite3.3:8b"));
        editor.show();
        QVERIFY(QTest::qWaitForWindowExposed(&editor));
        editor.setFocus();
        editor.setDocumentText(QStringLiteral("text:\n"));
        editor.setCursorPosition(1, 0);
        QTest::keyClicks(&editor, QStringLiteral("- mod"));
        QTest::keyClick(&editor, Qt::Key_Space, Qt::ControlModifier);
        QVERIFY(editor.isListActive());
        const pdl::Completions c = editor.completionsAtCursor();
        QCOMPARE(c.items.first().kind, pdl::CompletionItem::Kind::Snippet);
        QCOMPARE(c.items.first().text, QStringLiteral("model call"));
        QVERIFY(!c.items.first().documentation.isEmpty());
        QCOMPARE(editor.SendScintilla(QsciScintillaBase::SCI_AUTOCGETCURRENT), 0l);
        QTest::keyClick(&editor, Qt::Key_Return);
        QVERIFY(!editor.isListActive());
        QCOMPARE(editor.text(), QStringLiteral("text:\n- model: ollama/granite3.3:8b\n  input: \n"
                                               "  parameters:\n    temperature: 0"));
        QCOMPARE(editor.cursorLineColumn(), qMakePair(3, 10)); // in the `input:` value
        editor.undo();
        QCOMPARE(editor.text(), QStringLiteral("text:\n- mod"));
        editor.redo();
        QVERIFY(editor.text().contains(QLatin1String("temperature: 0")));
    }

    void snippetByTypingItsKeyword()
    {
        // `model` typed on a new item opens the list with the snippet selected: Tab takes it,
        // in the file's own indentation and line endings.
        PdlEditor editor;
        editor.show();
        QVERIFY(QTest::qWaitForWindowExposed(&editor));
        editor.setFocus();
        editor.setDocumentText(QStringLiteral("text:\r\n    - hi\r\n    "));
        editor.setCursorPosition(2, 4);
        QTest::keyClicks(&editor, QStringLiteral("- model"));
        QVERIFY(editor.isListActive());
        QTest::keyClick(&editor, Qt::Key_Tab);
        QCOMPARE(editor.text(),
                 QStringLiteral("text:\r\n    - hi\r\n    - model: default\r\n      input: \r\n"
                                "      parameters:\r\n          temperature: 0"));
        QCOMPARE(editor.cursorLineColumn(), qMakePair(4, 14));

        // Nothing to insert inside a scalar: the call refuses and changes nothing.
        editor.setDocumentText(QStringLiteral("text: hello there"));
        editor.setCursorPosition(0, 17);
        pdl::Snippet snippet;
        snippet.body = QStringLiteral("get: x");
        QVERIFY(!editor.insertSnippet(snippet));
        QCOMPARE(editor.text(), QStringLiteral("text: hello there"));
    }

    void modelNamesAfterModelKey()
    {
        PdlEditor editor;
        editor.setModelNames({QStringLiteral("ollama/granite3.2:2b"), QStringLiteral("gpt-4o")});
        editor.setDocumentText(QStringLiteral("model: oll"));
        editor.setCursorPosition(0, 10);
        QCOMPARE(completionTexts(editor), QStringList{QStringLiteral("ollama/granite3.2:2b")});
    }

    void hoverDocumentsFieldsKindsAndVariables()
    {
        EditorPane pane(nullptr);
        PdlEditor* editor = pane.editor();
        editor->setDocumentText(QStringLiteral(
            "defs:\n  n: 3\nrepeat:\n  text: ${ n }\nmaxIterations: ${ n }\nuntil: ${ "
            "pdl_context | length > 2 }\n"));
        analyse(pane);

        const QString field = editor->hoverTextAt(5, 3);
        QVERIFY2(field.startsWith(QLatin1String("maxIterations:")), qPrintable(field));
        QVERIFY(field.contains(QLatin1String("most iterations")));

        const QString kind = editor->hoverTextAt(3, 2);
        QVERIFY2(kind.startsWith(QLatin1String("repeat block")), qPrintable(kind));

        // `${ n }` on line 4: the variable, its kind and its line.
        const QString variable = editor->hoverTextAt(4, 12);
        QVERIFY2(variable.startsWith(QLatin1String("n (defs entry)")), qPrintable(variable));
        QVERIFY(variable.contains(QLatin1String("defined at line 2")));

        const QString builtin = editor->hoverTextAt(6, 11);
        QVERIFY2(builtin.startsWith(QLatin1String("pdl_context (built-in variable)")),
                 qPrintable(builtin));

        QCOMPARE(editor->hoverTextAt(4, 1), QString()); // indentation
    }

    void builtinObjectsHoverCompleteAndAreDefined()
    {
        // What the documents area registers at start-up (a stand-in entry here).
        pdl::BuiltinDocs::add(
            {{QStringLiteral("testdoc.search"),
              QStringLiteral("testdoc.search(term, …, page=1) → str"),
              QStringLiteral("Searches the open document."), QStringLiteral("documents")}});
        EditorPane pane(nullptr);
        PdlEditor* editor = pane.editor();
        editor->setDocumentText(QStringLiteral("text: ${ testdoc.search('x') }\n"));
        analyse(pane);
        // The workbench binds `testdoc`: no undefined-variable warning.
        QVERIFY(pane.report()->diagnostics.empty());
        const QString hover = editor->hoverTextAt(1, 19);
        QVERIFY2(hover.startsWith(QLatin1String("testdoc.search(term")), qPrintable(hover));
        QVERIFY(hover.contains(QLatin1String("Searches the open document.")));

        editor->setCursorPosition(0, 17); // after `${ testdoc.`
        QStringList items;
        for (const auto& i : editor->completionsAtCursor().items)
            items << i.text;
        QCOMPARE(items, QStringList{QStringLiteral("testdoc.search")});
    }

    void goToDefinition()
    {
        EditorPane pane(nullptr);
        PdlEditor* editor = pane.editor();
        editor->setDocumentText(
            QStringLiteral("text:\n- def: answer\n  data: 答え\n- ${ answer }\n"));
        analyse(pane);
        editor->setCursorPosition(3, 5); // on the use
        QTest::keyClick(editor, Qt::Key_F12);
        QCOMPARE(editor->selectedText(), QStringLiteral("answer"));
        QCOMPARE(editor->cursorLineColumn(), qMakePair(2, 8)); // the caret at the start of the name
        editor->setCursorPosition(0, 0);                       // on `text`: nothing to go to
        QVERIFY(!editor->goToDefinition());
    }

    void diagnosticsSquiggleAfterTyping()
    {
        EditorPane pane(nullptr);
        pane.resize(700, 400);
        pane.show();
        QVERIFY(QTest::qWaitForWindowExposed(&pane));
        PdlEditor* editor = pane.editor();
        editor->setFocus();
        QSignalSpy reports(pane.analysis(), &EditorAnalysis::reportReady);
        QTest::keyClicks(editor, QStringLiteral("text: \"Hi ${ nope }\""));
        // `text: "Hi ${ nope }"`: the name is bytes [13, 17).
        QTRY_COMPARE(editor->indicatorRanges(PdlEditor::WarningIndicator),
                     (QList<QPair<long, long>>{{13, 17}}));
        QVERIFY(editor->indicatorRanges(PdlEditor::ErrorIndicator).isEmpty());
        QVERIFY(editor->markersAtLine(0) & (1 << PdlEditor::WarningMarker));
        QCOMPARE(pane.problemsView()->topLevelItemCount(), 1);
        QVERIFY(pane.problemsView()->topLevelItem(0)->text(0).contains(QLatin1String("nope")));
        QVERIFY(!reports.isEmpty());

        // Multi-byte text before the name: positions stay exact.
        editor->selectAll(true);
        editor->removeSelectedText();
        QKeyEvent japanese(QEvent::KeyPress, 0, Qt::NoModifier,
                           QStringLiteral("text: \"日本 ${ nope }\""));
        QApplication::sendEvent(editor, &japanese);
        // `text: "日本 ${ nope }"`: 7 bytes, 日本 6 bytes, ` ${ ` 4 bytes → [17, 21).
        QTRY_COMPARE(editor->indicatorRanges(PdlEditor::WarningIndicator),
                     (QList<QPair<long, long>>{{17, 21}}));

        // A syntax error is an error squiggle, and fixing it clears everything.
        editor->selectAll(true);
        editor->removeSelectedText();
        QTest::keyClicks(editor, QStringLiteral("text: ${ 1 + }"));
        QTRY_VERIFY(!editor->indicatorRanges(PdlEditor::ErrorIndicator).isEmpty());
        QVERIFY(editor->markersAtLine(0) & (1 << PdlEditor::ErrorMarker));
        QTest::keyClick(editor, Qt::Key_Backspace);
        QTest::keyClicks(editor, QStringLiteral("2 }"));
        QTRY_VERIFY(editor->indicatorRanges(PdlEditor::ErrorIndicator).isEmpty());
        QVERIFY(editor->indicatorRanges(PdlEditor::WarningIndicator).isEmpty());
        QTRY_COMPARE(pane.problemsView()->topLevelItemCount(), 0);
    }

    void problemActivationJumps()
    {
        EditorPane pane(nullptr);
        PdlEditor* editor = pane.editor();
        editor->setDocumentText(QStringLiteral("text:\n- a\n- ${ missing }\n"));
        pane.analysis()->requestNow(editor->text(), QString());
        QTRY_COMPARE(pane.problemsView()->topLevelItemCount(), 1);
        QTreeWidgetItem* item = pane.problemsView()->topLevelItem(0);
        Q_EMIT pane.problemsView()->itemActivated(item, 0);
        QCOMPARE(editor->cursorLineColumn(), qMakePair(3, 6));
    }

    void revealSourceSelectsExactSpan_data()
    {
        QTest::addColumn<int>("line");
        QTest::addColumn<int>("column");
        QTest::addColumn<int>("endLine");
        QTest::addColumn<int>("endColumn");
        QTest::addColumn<QString>("selected");
        // Line 2: `- "こんにちは ${ name }"`; line 3: `- 📦 ${ box }`.
        QTest::newRow("name after Japanese") << 2 << 13 << 2 << 16 << QStringLiteral("name");
        QTest::newRow("Japanese word") << 2 << 4 << 2 << 8 << QStringLiteral("こんにちは");
        QTest::newRow("after an astral character") << 3 << 8 << 3 << 10 << QStringLiteral("box");
        QTest::newRow("two lines")
            << 2 << 1 << 3 << 4 << QStringLiteral("- \"こんにちは ${ name }\"\n- 📦 ");
    }

    void revealSourceSelectsExactSpan()
    {
        QFETCH(int, line);
        QFETCH(int, column);
        QFETCH(int, endLine);
        QFETCH(int, endColumn);
        QFETCH(QString, selected);
        QTemporaryDir dir;
        const QString path = writeFile(dir, QStringLiteral("jp.pdl"),
                                       "text:\n- \"こんにちは ${ name }\"\n- 📦 ${ box }\n");
        WorkbenchContext context;
        EditorPane pane(&context);
        QVERIFY(pane.openFile(path));
        SourceSpan span{path, line, column, endLine, endColumn};
        context.revealSource(span);
        QCOMPARE(pane.editor()->selectedText(), selected);
        // Another file's span leaves the selection alone.
        pane.editor()->setCursorPosition(0, 0);
        context.revealSource(SourceSpan{dir.filePath(QStringLiteral("other.pdl")), 2, 1, 2, 3});
        QCOMPARE(pane.editor()->selectedText(), QString());
    }

    void currentNodeSelectsItsSource()
    {
        QTemporaryDir dir;
        const QString path = writeFile(dir, QStringLiteral("node.pdl"),
                                       "text:\n- 箱: 1\n- model: m\n  input: こんにちは\n");
        WorkbenchContext context;
        EditorPane pane(&context);
        QVERIFY(pane.openFile(path));
        auto root = std::make_shared<pdl::TraceNode>();
        root->kind = pdl::BlockKind::Text;
        root->id = "text";
        root->span = SourceSpan{path, 1, 1, 4, 14};
        auto model = std::make_shared<pdl::TraceNode>();
        model->kind = pdl::BlockKind::Model;
        model->id = "text.1.model";
        model->span = SourceSpan{path, 3, 3, 4, 14};
        root->addChild("text", model);
        auto elsewhere = std::make_shared<pdl::TraceNode>();
        elsewhere->kind = pdl::BlockKind::Data;
        elsewhere->id = "text.2.data";
        elsewhere->span = SourceSpan{dir.filePath(QStringLiteral("lib.pdl")), 1, 1, 1, 3};
        root->addChild("text", elsewhere);
        pdl::TraceModel trace;
        trace.setTrace(root, path);
        context.setTraceModel(&trace);

        context.setCurrentNode(QStringLiteral("text.1.model"));
        QCOMPARE(pane.editor()->selectedText(), QStringLiteral("model: m\n  input: こんにちは"));
        // A node from another file leaves the editor alone.
        pane.editor()->setCursorPosition(0, 0);
        context.setCurrentNode(QStringLiteral("text.2.data"));
        QCOMPARE(pane.editor()->selectedText(), QString());
    }

    void cursorMovesArePublished()
    {
        WorkbenchContext context;
        EditorPane pane(&context);
        pane.show();
        QVERIFY(QTest::qWaitForWindowExposed(&pane));
        QSignalSpy spy(&context, &WorkbenchContext::sourceCursorChanged);
        pane.editor()->setDocumentText(QStringLiteral("text:\n- 日本語 ${ x }\n"));
        pane.editor()->setCursorPosition(1, 6);
        QTRY_COMPARE(context.sourceCursor().line, 2);
        QCOMPARE(context.sourceCursor().line, 2);
        QCOMPARE(context.sourceCursor().column, 7);
        QCOMPARE(spy.last().at(1).value<QObject*>(), &pane);
    }

    void japaneseInputMethodCommits()
    {
        PdlEditor editor;
        editor.show();
        QVERIFY(QTest::qWaitForWindowExposed(&editor));
        editor.setFocus();
        QVERIFY(editor.testAttribute(Qt::WA_InputMethodEnabled) ||
                editor.viewport()->testAttribute(Qt::WA_InputMethodEnabled));
        QTest::keyClicks(&editor, QStringLiteral("text: "));
        // Composition (preedit) then commit, as an IME sends them.
        QInputMethodEvent preedit(QStringLiteral("にほんご"), {});
        QApplication::sendEvent(&editor, &preedit);
        QInputMethodEvent commit;
        commit.setCommitString(QStringLiteral("日本語"));
        QApplication::sendEvent(&editor, &commit);
        QCOMPARE(editor.text(), QStringLiteral("text: 日本語"));
        QCOMPARE(editor.cursorLineColumn(), qMakePair(1, 10));
    }

    void autosaveAndRestore()
    {
        QTemporaryDir dir;
        RecoveryStore store(dir.filePath(QStringLiteral("recovery")));
        const QString path = writeFile(dir, QStringLiteral("prog.pdl"), "text: saved\n");
        {
            EditorPane pane(nullptr);
            pane.setRecoveryStore(&store);
            pane.setAutosaveInterval(20);
            QVERIFY(pane.openFile(path));
            QVERIFY(store.list(true).isEmpty()); // loading is no change
            pane.editor()->setCursorPosition(0, 11);
            pane.editor()->insert(QStringLiteral(" and unsaved"));
            QTRY_COMPARE(store.list(true).size(), 1);
            QCOMPARE(store.text(store.list(true).front()).value(),
                     QStringLiteral("text: saved and unsaved\n"));
            QCOMPARE(store.list(true).front().originalPath, path);
            QVERIFY(pane.save());
            QVERIFY(store.list(true).isEmpty()); // saved: nothing to recover
            pane.editor()->insert(QStringLiteral("x"));
            QTRY_COMPARE(store.list(true).size(), 1);
        }
        // Closing the pane removed the copy (a clean close); a killed process would not have.
        QVERIFY(store.list(true).isEmpty());

        const QString id = RecoveryStore::newBufferId();
        QVERIFY(store.save(id, path, QStringLiteral("text: recovered 箱\n")).ok());
        EditorPane restored(nullptr);
        restored.setRecoveryStore(&store);
        const QList<RecoveryEntry> entries = store.list(true);
        QCOMPARE(entries.size(), 1);
        QVERIFY(restored.restoreRecovery(entries.front()));
        QCOMPARE(restored.editor()->text(), QStringLiteral("text: recovered 箱\n"));
        QCOMPARE(restored.filePath(), QFileInfo(path).absoluteFilePath());
        QVERIFY(restored.isModified());
        QCOMPARE(restored.bufferId(), id);
        restored.editor()->undo(); // back to the file as it is on disk
        QCOMPARE(restored.editor()->text(), QStringLiteral("text: saved and unsaved\n"));
    }

    void highlightingStyles()
    {
        QByteArray styles;
        const QByteArray line = "- model: ${ m }  # c\n";
        PdlLexer::styleLine(line, 0, styles);
        QCOMPARE(int(styles.at(0)), int(PdlLexer::Operator));
        QCOMPARE(int(styles.at(2)), int(PdlLexer::BlockKindKey));
        QCOMPARE(int(styles.at(9)), int(PdlLexer::ExpressionDelimiter));
        QCOMPARE(int(styles.at(12)), int(PdlLexer::Expression));
        QCOMPARE(int(styles.at(14)), int(PdlLexer::ExpressionDelimiter));
        QCOMPARE(int(styles.at(17)), int(PdlLexer::Comment));

        PdlLexer::styleLine("  description: hi\n", 0, styles);
        QCOMPARE(int(styles.at(2)), int(PdlLexer::CommonFieldKey));
        PdlLexer::styleLine("  foo: 12\n", 0, styles);
        QCOMPARE(int(styles.at(2)), int(PdlLexer::Key));
        QCOMPARE(int(styles.at(7)), int(PdlLexer::Number));

        // A block scalar: its lines are text even when they look like keys, with expressions.
        const int state = PdlLexer::styleLine("text: |\n", 0, styles);
        const int next = PdlLexer::styleLine("  model: ${ x }\n", state, styles);
        QCOMPARE(int(styles.at(2)), int(PdlLexer::BlockText));
        QCOMPARE(int(styles.at(11)), int(PdlLexer::Expression));
        PdlLexer::styleLine("def: y\n", next, styles);
        QCOMPARE(int(styles.at(0)), int(PdlLexer::CommonFieldKey));
    }

    // Not a check: with HAKO_SCREENSHOT_DIR set (run under xvfb), saves a picture of the editor
    // with diagnostics, the Problems list and the completion list open.
    void screenshot()
    {
        const QString out = qEnvironmentVariable("HAKO_SCREENSHOT_DIR");
        if (out.isEmpty())
            QSKIP("set HAKO_SCREENSHOT_DIR to save a screenshot");
        EditorPane pane(nullptr);
        pane.resize(900, 560);
        pane.move(0, 0);
        pane.show();
        QVERIFY(QTest::qWaitForWindowExposed(&pane));
        PdlEditor* editor = pane.editor();
        editor->setDocumentText(QStringLiteral(
            "description: 箱 — a small PDL program\ndefs:\n  topic: 白鳥の停車場\n  count: 3\n"
            "text:\n- \"Tell me about ${ topic } in ${ words } words.\\n\"\n- repeat:\n    "
            "text:\n    - model: ollama/granite3.2:2b\n      parameters:\n        "
            "temperature: 0\n    - \"${ i + 1 }. \"\n  index: i\n  for:\n    x: ${ [1, 2, 3] "
            "}\n  join:\n    with: \"\\n\"\n- lastOf:\n  - code: |\n"
            "      result = ${ 1 + }\n  - def: summary\n    data: ${ pdl_context | length }\n"));
        analyse(pane);
        QDir().mkpath(out);
        editor->setCursorPosition(5, 22);
        const QString hover = editor->hoverTextAt(6, 22);
        qInfo("hover: %s", qPrintable(hover));
        QVERIFY(pane.grab().save(out + QStringLiteral("/editor.png")));
        // A new key in the repeat block, then Ctrl+Space.
        editor->setFocus();
        editor->setCursorPosition(17, 0);
        editor->insert(QStringLiteral("  \n"));
        editor->setCursorPosition(17, 2);
        QTest::keyClick(editor, Qt::Key_Space, Qt::ControlModifier);
        QVERIFY(editor->isListActive());
        QTest::qWait(300);
        QScreen* screen = QGuiApplication::primaryScreen();
        QVERIFY(screen->grabWindow(0).save(out + QStringLiteral("/editor-completion.png")));
    }
};

QTEST_MAIN(TestEditorLanguage)
#include "tst_editorlanguage.moc"
