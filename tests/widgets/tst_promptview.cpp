// The Prompt view over the editor's document: card edits become minimal YAML edits with one undo
// step, YAML edits refresh the cards, errors grey the view, inputs are remembered per file.
#include "core/pdl/interp/tracenode.h"
#include "core/playground/programname.h"
#include "isolatedsettings.h"
#include "openaitestserver.h"
#include "widgets/common/thememanager.h"
#include "widgets/editor/editorpane.h"
#include "widgets/editor/pdleditor.h"
#include "widgets/promptview/inputsform.h"
#include "widgets/promptview/promptmessageedit.h"
#include "widgets/promptview/promptreplies.h"
#include "widgets/promptview/promptview.h"

#include <QAbstractSpinBox>
#include <QAction>
#include <QApplication>
#include <QComboBox>
#include <QDoubleSpinBox>
#include <QFile>
#include <QGroupBox>
#include <QHelpEvent>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QLabel>
#include <QLineEdit>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QSpinBox>
#include <QTemporaryDir>
#include <QTest>
#include <QToolButton>
#include <QToolTip>

using namespace hako;

namespace {

const char* kProgram = R"(# 翻訳のテンプレート: 言語と文章を defs で変えてください。
description: 文章を翻訳する
defs:
  # 翻訳先の言語
  target_language: 英語
  # 翻訳する文章
  text: |
    ご注文ありがとうございます。お荷物は金曜日に届きます。
text:
- def: translation
  model: default
  input:
    array:
    - role: system
      content: |
        あなたはプロの翻訳者です。${ target_language }に翻訳してください。
        翻訳文だけを答えてください。
    - role: user
      content: ${ text }
  parameters:
    temperature: 0
  contribute: []
- "${ translation }\n"
- for:
    q: ${ questions }
  repeat:
    def: answer
    model: default
    input: "次の質問に日本語で答えてください: ${ q }"
- lang: python
  code: |
    result = len(answer)
)";

template <typename T> T* byName(QWidget* root, const QString& name)
{
    for (T* w : root->findChildren<T*>()) {
        if (w->accessibleName() == name || w->accessibleDescription() == name)
            return w;
    }
    return nullptr;
}

QStringList lines(const QString& text)
{
    return text.split(QLatin1Char('\n'));
}

} // namespace

class TestPromptView : public QObject {
    Q_OBJECT
    std::unique_ptr<testing::IsolatedSettings> m_settings;
    QTemporaryDir m_dir;

    // A program written under m_dir, shown in a pane's Prompt view (900×900).
    QString writeProgram(const QString& name, const QByteArray& text)
    {
        const QString path = m_dir.filePath(name);
        QFile f(path);
        if (!f.open(QIODevice::WriteOnly) || f.write(text) != text.size())
            qFatal("cannot write a test program");
        return path;
    }
    static std::unique_ptr<EditorPane> promptViewOf(const QString& path)
    {
        auto pane = std::make_unique<EditorPane>(nullptr);
        pane->resize(900, 900);
        pane->show();
        if (!pane->openFile(path))
            return nullptr;
        pane->setPromptMode(true);
        return pane;
    }
    QString m_path;

private Q_SLOTS:
    void initTestCase()
    {
        m_settings = std::make_unique<testing::IsolatedSettings>(QStringLiteral("tst_promptview"));
        QVERIFY(m_settings->isValid());
        m_path = m_dir.filePath(QStringLiteral("翻訳.pdl"));
        QFile f(m_path);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write(kProgram);
    }

    void editCardUndo()
    {
        EditorPane pane(nullptr);
        pane.resize(900, 900);
        pane.show();
        QVERIFY(QTest::qWaitForWindowExposed(&pane));
        QVERIFY(pane.openFile(m_path));
        QVERIFY(!pane.isPromptMode()); // YAML by default
        auto* promptButton = byName<QToolButton>(&pane, QStringLiteral("Prompt view"));
        QVERIFY(promptButton);
        QVERIFY(byName<QToolButton>(&pane, QStringLiteral("YAML view")));
        QTest::mouseClick(promptButton, Qt::LeftButton);
        QVERIFY(pane.isPromptMode());
        PromptView* view = pane.promptView();
        QVERIFY(view->isVisible());
        QCOMPARE(view->inputNames(), QStringList{QStringLiteral("questions")});

        auto* system =
            byName<PromptMessageEdit>(view, QStringLiteral("system message of translation"));
        QVERIFY(system);
        QCOMPARE(
            system->toPlainText(),
            QStringLiteral("あなたはプロの翻訳者です。${ target_language }に翻訳してください。\n"
                           "翻訳文だけを答えてください。"));
        const QString before = pane.editor()->text();
        system->setFocus();
        QTextCursor c = system->textCursor();
        c.movePosition(QTextCursor::End);
        system->setTextCursor(c);
        QTest::keyClicks(system, QStringLiteral(" OK"));
        // Written to the YAML after a short pause, as one edit of that line only.
        QTRY_VERIFY(pane.editor()->text() != before);
        const QStringList a = lines(before), b = lines(pane.editor()->text());
        QCOMPARE(a.size(), b.size());
        int changed = 0;
        for (qsizetype i = 0; i < a.size(); ++i) {
            if (a[i] != b[i]) {
                ++changed;
                QCOMPARE(b[i], a[i] + QStringLiteral(" OK"));
                QCOMPARE(i + 1, 17);
            }
        }
        QCOMPARE(changed, 1);
        QVERIFY(system->hasFocus()); // typing goes on in the same card

        pane.editor()->undo();
        QCOMPARE(pane.editor()->text(), before);
        pane.editor()->setFocus();
        QTRY_COMPARE(
            system->toPlainText(),
            QStringLiteral("あなたはプロの翻訳者です。${ target_language }に翻訳してください。\n"
                           "翻訳文だけを答えてください。"));

        // The mode is remembered for the file.
        EditorPane other(nullptr);
        QVERIFY(other.openFile(m_path));
        QVERIFY(other.isPromptMode());
        other.promptModeAction()->trigger();
        QVERIFY(!other.isPromptMode());
    }

    // A card's Pause Here is the editor's breakpoint on the block's first line, both ways.
    // The prompt's name, typed at the top of the Prompt view, becomes its `description` in the
    // YAML (one undoable edit) and is what the view shows after the YAML changes.
    void nameThePrompt()
    {
        EditorPane pane(nullptr);
        pane.resize(900, 900);
        pane.show();
        QVERIFY(QTest::qWaitForWindowExposed(&pane));
        QVERIFY(pane.openFile(m_path));
        QTest::mouseClick(byName<QToolButton>(&pane, QStringLiteral("Prompt view")),
                          Qt::LeftButton);
        PromptView* view = pane.promptView();
        auto* name = byName<QLineEdit>(view, QStringLiteral("Prompt name"));
        QVERIFY(name);
        const QString before = pane.editor()->text();
        name->setFocus();
        name->setText(QStringLiteral("お客様への翻訳")); // as an input method commits it
        QTest::keyClick(name, Qt::Key_Return);
        QTRY_VERIFY(pane.editor()->text().contains(QStringLiteral("description: お客様への翻訳")));
        pane.editor()->undo();
        QTRY_COMPARE(pane.editor()->text(), before);
        QTRY_COMPARE(name->text(), playground::programName(before).text);
    }

    void cardBreakpoint()
    {
        EditorPane pane(nullptr);
        pane.resize(900, 900);
        pane.show();
        QVERIFY(pane.openFile(m_path));
        pane.setPromptMode(true);
        PromptView* view = pane.promptView();
        QToolButton* pause = nullptr;
        QTRY_VERIFY(
            (pause = byName<QToolButton>(view, QStringLiteral("Pause before translation"))));
        QVERIFY(!pause->isChecked());
        const int line =
            int(lines(pane.editor()->text()).indexOf(QStringLiteral("- def: translation"))) + 1;
        QVERIFY(line > 1);
        pause->click();
        QCOMPARE(pane.editor()->breakpointLines(), QList<int>{line});
        pane.editor()->toggleBreakpoint(line);
        QVERIFY(!pause->isChecked());
        pane.editor()->toggleBreakpoint(line);
        QVERIFY(pause->isChecked());
        pause->click();
        QVERIFY(pane.editor()->breakpointLines().isEmpty());
    }

    // Under each text its length, in characters as a person counts them.
    void characterCounter()
    {
        EditorPane pane(nullptr);
        pane.resize(900, 900);
        pane.show();
        QVERIFY(pane.openFile(m_path));
        pane.setPromptMode(true);
        PromptView* view = pane.promptView();
        PromptMessageEdit* user = nullptr;
        QTRY_VERIFY((
            user = byName<PromptMessageEdit>(view, QStringLiteral("user message of translation"))));
        auto* length =
            byName<QLabel>(view, QStringLiteral("Length of user message of translation"));
        QVERIFY(length);
        QCOMPARE(length->text(), QStringLiteral("9 characters")); // ${ text }
        user->setFocus();
        QTextCursor end = user->textCursor();
        end.movePosition(QTextCursor::End);
        user->setTextCursor(end);
        end.insertText(QStringLiteral(
            "を日本語で👩‍💻")); // the emoji is 3 code points, 1 character
        QCOMPARE(length->text(), QStringLiteral("15 characters"));
        QCOMPARE(length->accessibleName(), length->text());
    }

    // With a tokenizer on the model's server (llama.cpp, vLLM on this machine), the counter
    // also says how many tokens the text is, and follows the typing.
    void tokenCountFromALocalTokenizer()
    {
        testing::OpenAiTestServer server;
        QVERIFY(server.start());
        // Every count the view may ask for (a busy machine re-reads the text more often).
        for (int i = 0; i < 500; ++i)
            server.enqueue("/tokenize", testing::ScriptedReply::withBody(R"({"count":5})"));
        qputenv("OPENAI_BASE_URL", server.baseUrl().toUtf8());
        const auto pane = promptViewOf(writeProgram(QStringLiteral("tokens.pdl"),
                                                    "text:\n"
                                                    "- def: summary\n"
                                                    "  model: openai/view-tokens\n"
                                                    "  input:\n"
                                                    "    array:\n"
                                                    "    - role: user\n"
                                                    "      content: 要約してください\n"));
        QVERIFY(pane);
        PromptView* view = pane->promptView();
        // The card's one message, and its counter.
        QTRY_COMPARE(view->findChildren<PromptMessageEdit*>().size(), 1);
        PromptMessageEdit* user = view->findChildren<PromptMessageEdit*>().constFirst();
        QLabel* length = view->findChild<QLabel*>(QStringLiteral("promptLength"));
        QVERIFY(length);
        QVERIFY(
            length->accessibleDescription().startsWith(QLatin1String("Length of user message")));
        QTRY_COMPARE(length->text(), QStringLiteral("8 characters · 5 tokens"));
        QCOMPARE(length->accessibleName(), length->text());
        QTextCursor end = user->textCursor();
        end.movePosition(QTextCursor::End);
        user->setTextCursor(end);
        end.insertText(QStringLiteral("。"));
        // The new text is counted anew: characters at once, tokens when the server answers.
        QCOMPARE(length->text().left(12), QStringLiteral("9 characters"));
        QTRY_COMPARE_WITH_TIMEOUT(length->text(), QStringLiteral("9 characters · 5 tokens"), 20000);
        QVERIFY(server.requests().constLast().body.contains("要約してください。"));
        qunsetenv("OPENAI_BASE_URL");
    }

    // The inputs form gives each input the control of its kind, and keeps named sets of values
    // (loaded again, exported as a data file for `hako run -f`).
    void inputKindsAndSets()
    {
        const QString path = writeProgram(QStringLiteral("kinds.pdl"),
                                          "text:\n"
                                          "- read: ${ notes_file }\n"
                                          "- for:\n"
                                          "    q: ${ questions }\n"
                                          "  repeat: \"${ q } \"\n"
                                          "  maxIterations: ${ rounds }\n"
                                          "- model: ollama/m\n"
                                          "  input: \"${ article } for ${ reader }\"\n");
        const auto owned = promptViewOf(path);
        QVERIFY(owned);
        EditorPane& pane = *owned;
        PromptView* view = pane.promptView();
        QLineEdit* reader = nullptr;
        QTRY_VERIFY((reader = byName<QLineEdit>(view, QStringLiteral("Input reader"))));
        QVERIFY(byName<PromptMessageEdit>(view, QStringLiteral("Input article")));
        auto* questions = byName<QPlainTextEdit>(view, QStringLiteral("Input questions"));
        auto* rounds = byName<QLineEdit>(view, QStringLiteral("Input rounds"));
        auto* file = byName<QLineEdit>(view, QStringLiteral("Input notes_file"));
        QVERIFY(questions && rounds && file);

        auto* form = view->findChild<InputsForm*>();
        QVERIFY(form);
        form->setFileQuestion(
            [] { return std::optional<QString>(QStringLiteral("/tmp/notes.txt")); });
        auto* choose = byName<QToolButton>(view, QStringLiteral("Choose a file for notes_file"));
        QVERIFY(choose);
        choose->click();
        QCOMPARE(file->text(), QStringLiteral("/tmp/notes.txt"));
        rounds->setFocus();
        QTest::keyClicks(rounds, QStringLiteral("3"));
        reader->setFocus();
        QTest::keyClicks(reader, QStringLiteral("Aiko"));
        questions->setPlainText(QStringLiteral("why?\nhow?\n"));
        const QJsonObject values = view->inputValues();
        QCOMPARE(values.value(QStringLiteral("rounds")), QJsonValue(3));
        QCOMPARE(values.value(QStringLiteral("questions")).toArray(),
                 (QJsonArray{QStringLiteral("why?"), QStringLiteral("how?")}));
        QCOMPARE(values.value(QStringLiteral("notes_file")).toString(),
                 QStringLiteral("/tmp/notes.txt"));

        // Saved as a set, changed, the set chosen again.
        form->setSetNameQuestion([] { return std::optional<QString>(QStringLiteral("Aiko's")); });
        byName<QPushButton>(view, QStringLiteral("Save input set"))->click();
        QCOMPARE(form->setNames(), QStringList{QStringLiteral("Aiko's")});
        reader = byName<QLineEdit>(view, QStringLiteral("Input reader"));
        reader->setFocus();
        QTest::keyClicks(reader, QStringLiteral(" and Ren"));
        QCOMPARE(view->inputValues().value(QStringLiteral("reader")).toString(),
                 QStringLiteral("Aiko and Ren"));
        QVERIFY(form->loadSet(QStringLiteral("Aiko's")));
        QCOMPARE(view->inputValues().value(QStringLiteral("reader")).toString(),
                 QStringLiteral("Aiko"));
        QCOMPARE(byName<QLineEdit>(view, QStringLiteral("Input reader"))->text(),
                 QStringLiteral("Aiko"));

        // Exported as a data file: JSON, which `hako run -f` reads.
        const QString data = m_dir.filePath(QStringLiteral("inputs.json"));
        form->setExportQuestion([data] { return std::optional<QString>(data); });
        byName<QPushButton>(view, QStringLiteral("Export inputs as a data file"))->click();
        QFile f(data);
        QVERIFY(f.open(QIODevice::ReadOnly));
        const QJsonObject exported = QJsonDocument::fromJson(f.readAll()).object();
        QCOMPARE(exported.value(QStringLiteral("rounds")), QJsonValue(3));
        QCOMPARE(exported.value(QStringLiteral("reader")).toString(), QStringLiteral("Aiko"));
        form->deleteSet(QStringLiteral("Aiko's"));
        QVERIFY(form->setNames().isEmpty());
    }

    // Settings › Theme › Dark: the cards take the dark look at once, and back.
    void followsTheTheme()
    {
        EditorPane pane(nullptr);
        pane.resize(900, 900);
        pane.show();
        QVERIFY(pane.openFile(m_path));
        pane.setPromptMode(true);
        PromptView* view = pane.promptView();
        QTRY_VERIFY(view->findChild<QWidget*>(QStringLiteral("promptContent")));
        auto content = [view] {
            QWidget* w = view->findChild<QWidget*>(QStringLiteral("promptContent"));
            return w ? w->styleSheet() : QString();
        };
        QVERIFY(content().contains(QLatin1String("#f6f7f9")));
        const QPalette before = QApplication::palette();
        QApplication::setPalette(ThemeManager::darkPalette());
        QTRY_VERIFY(content().contains(QLatin1String("#181b20")));
        QVERIFY(byName<PromptMessageEdit>(view, QStringLiteral("user message of translation")));
        QApplication::setPalette(before);
        QTRY_VERIFY(content().contains(QLatin1String("#f6f7f9")));
    }

    void yamlEditUpdatesCard()
    {
        EditorPane pane(nullptr);
        pane.resize(900, 900);
        pane.show();
        QVERIFY(pane.openFile(m_path));
        pane.setPromptMode(true);
        PromptView* view = pane.promptView();
        auto* temperature =
            byName<QDoubleSpinBox>(view, QStringLiteral("Temperature of translation"));
        QVERIFY(temperature);
        QCOMPARE(temperature->value(), 0.0);
        auto* user = byName<PromptMessageEdit>(view, QStringLiteral("user message of translation"));
        QVERIFY(user);
        QWidget* cardBefore = user->parentWidget();

        const QString text = pane.editor()->text();
        QList<PdlEditor::TextReplacement> edits;
        const qsizetype t = text.indexOf(QLatin1String("temperature: 0"));
        edits << PdlEditor::TextReplacement{t, 14, QStringLiteral("temperature: 0.5")};
        const qsizetype u = text.indexOf(QLatin1String("${ text }"));
        edits.prepend(PdlEditor::TextReplacement{u, 9, QStringLiteral("${ text } です")});
        pane.editor()->applyTextEdits(edits);
        QTRY_COMPARE(temperature->value(), 0.5);
        QTRY_COMPARE(user->toPlainText(), QStringLiteral("${ text } です"));
        QCOMPARE(user->parentWidget(), cardBefore); // updated in place, not rebuilt

        // Saving or running first writes what is still waiting for a pause in typing.
        user->setFocus();
        QTextCursor end = user->textCursor();
        end.movePosition(QTextCursor::End);
        user->setTextCursor(end);
        QTest::keyClicks(user, QStringLiteral("!"));
        view->commitPendingEdits();
        QVERIFY2(pane.editor()->text().contains(QStringLiteral("content: ${ text } です!\n")),
                 qPrintable(pane.editor()->text()));

        // The temperature control writes the parameter back.
        temperature->setValue(0.7);
        QTRY_VERIFY(pane.editor()->text().contains(QLatin1String("    temperature: 0.7\n")));

        // The model picker offers the given names and writes the chosen one.
        view->setModelNames({QStringLiteral("default"), QStringLiteral("ollama/granite3.3")});
        auto* model = byName<QComboBox>(view, QStringLiteral("Model of translation"));
        QVERIFY(model);
        QVERIFY(model->findText(QStringLiteral("ollama/granite3.3")) >= 0);
        model->setCurrentIndex(model->findText(QStringLiteral("ollama/granite3.3")));
        Q_EMIT model->activated(model->currentIndex());
        QVERIFY(pane.editor()->text().contains(
            QLatin1String("- def: translation\n  model: ollama/granite3.3\n")));

        // A YAML error greys the last good document with a plain message.
        pane.editor()->applyTextEdits({PdlEditor::TextReplacement{0, 0, QStringLiteral("x: [\n")}});
        QTRY_VERIFY(view->hasYamlError());
        auto* error = byName<QLabel>(view, QStringLiteral("YAML problem"));
        QVERIFY(error && error->isVisible());
        QVERIFY2(error->text().startsWith(QLatin1String("The YAML has an error on line")),
                 qPrintable(error->text()));
        QVERIFY(!user->isEnabled());
        pane.editor()->undo();
        QTRY_VERIFY(!view->hasYamlError());
        QVERIFY(user->isEnabled());
    }

    void accessibleAndKeyboard()
    {
        EditorPane pane(nullptr);
        pane.resize(900, 900);
        pane.show();
        QVERIFY(QTest::qWaitForWindowExposed(&pane));
        QApplication::setActiveWindow(&pane);
        QVERIFY(QTest::qWaitForWindowActive(&pane));
        QVERIFY(pane.openFile(m_path));
        pane.setPromptMode(false);
        pane.setFocus();
        QTest::keyClick(pane.editor(), Qt::Key_Y, Qt::ControlModifier | Qt::ShiftModifier);
        QVERIFY(pane.isPromptMode());
        PromptView* view = pane.promptView();
        int checked = 0;
        for (QWidget* w : view->findChildren<QWidget*>()) {
            if (w->focusPolicy() == Qt::NoFocus || !w->isVisibleTo(view))
                continue;
            // The line edits inside combo and spin boxes are named by their box.
            if (qobject_cast<QComboBox*>(w->parentWidget()) ||
                qobject_cast<QAbstractSpinBox*>(w->parentWidget()) || w->inherits("QScrollBar") ||
                w->inherits("QScrollArea"))
                continue;
            if (w->inherits("QAbstractScrollArea") && !qobject_cast<PromptMessageEdit*>(w))
                continue;
            ++checked;
            QVERIFY2(!w->accessibleName().isEmpty(), w->metaObject()->className());
        }
        QVERIFY(checked >= 8);

        // Tab walks the cards in document order.
        auto* first = byName<PromptMessageEdit>(view, QStringLiteral("Value target_language"));
        QVERIFY(first);
        first->setFocus();
        QTest::keyClick(first, Qt::Key_Tab);
        QCOMPARE(QApplication::focusWidget()->accessibleName(), QStringLiteral("Value text"));
        QTest::keyClick(QApplication::focusWidget(), Qt::Key_Tab);
        QCOMPARE(QApplication::focusWidget()->accessibleName(),
                 QStringLiteral("Try translation in the playground"));
        QTest::keyClick(QApplication::focusWidget(), Qt::Key_Tab);
        QCOMPARE(QApplication::focusWidget()->accessibleName(),
                 QStringLiteral("Pause before translation"));
        // The card's own actions, then its settings.
        for (const QString& action :
             {QStringLiteral("Move translation up"), QStringLiteral("Move translation down"),
              QStringLiteral("Rename translation"), QStringLiteral("Remove translation"),
              QStringLiteral("Model of translation")}) {
            QTest::keyClick(QApplication::focusWidget(), Qt::Key_Tab);
            QCOMPARE(QApplication::focusWidget()->accessibleName(), action);
        }

        // A `${ name }` chip says where its value comes from.
        auto* system =
            byName<PromptMessageEdit>(view, QStringLiteral("system message of translation"));
        QVERIFY(system);
        const int at = int(system->toPlainText().indexOf(QLatin1String("target_language")));
        QCOMPARE(system->variableAt(at + 2), QStringLiteral("target_language"));
        QCOMPARE(system->variableAt(0), QString());
        QVERIFY2(
            system->originText(QStringLiteral("target_language")).contains(QLatin1String("line 5")),
            qPrintable(system->originText(QStringLiteral("target_language"))));
        auto* loopInput = byName<PromptMessageEdit>(view, QStringLiteral("user message of answer"));
        QVERIFY(loopInput);
        QVERIFY(loopInput->originText(QStringLiteral("q")).contains(QLatin1String("loop")));
        QTextCursor tc = system->textCursor();
        tc.setPosition(at + 2);
        QHelpEvent help(QEvent::ToolTip, system->cursorRect(tc).center(),
                        system->viewport()->mapToGlobal(system->cursorRect(tc).center()));
        QApplication::sendEvent(system->viewport(), &help);
        QTRY_VERIFY(QToolTip::isVisible());
        QVERIFY2(QToolTip::text().startsWith(QLatin1String("target_language: ")),
                 qPrintable(QToolTip::text()));

        const int zoom = view->zoom();
        QTest::keyClick(QApplication::focusWidget(), Qt::Key_Equal, Qt::ControlModifier);
        QCOMPARE(view->zoom(), zoom + 1);
        QTest::keyClick(QApplication::focusWidget(), Qt::Key_Minus, Qt::ControlModifier);
        QCOMPARE(view->zoom(), zoom);
    }

    void inputsAndReplies()
    {
        {
            EditorPane pane(nullptr);
            pane.show();
            QVERIFY(pane.openFile(m_path));
            pane.setPromptMode(true);
            PromptView* view = pane.promptView();
            // `questions` is looped over: a list, one item per line.
            auto* input = byName<QPlainTextEdit>(view, QStringLiteral("Input questions"));
            QVERIFY(input);
            input->setFocus();
            QTest::keyClicks(input, QStringLiteral("a"));
            QTest::keyClick(input, Qt::Key_Return);
            QTest::keyClicks(input, QStringLiteral("b"));
            QCOMPARE(view->inputValues().value(QStringLiteral("questions")).toArray(),
                     (QJsonArray{QStringLiteral("a"), QStringLiteral("b")}));

            // Replies from the trace, by the model block's span.
            const playground::PromptDocItem* card = nullptr;
            for (const auto& item : view->document().items) {
                if (item.kind == playground::PromptDocItem::Kind::Card)
                    card = &item;
            }
            QVERIFY(card);
            PromptReply reply;
            reply.text = QStringLiteral("Thank you for your order.");
            reply.tokens = 42;
            reply.ms = 1250;
            view->setReplies({{card->id, reply}});
            auto* label = byName<QLabel>(view, QStringLiteral("Reply of translation"));
            QVERIFY(label && label->isVisible());
            QVERIFY(label->text().contains(QLatin1String("Thank you for your order.")));
            QVERIFY(label->text().contains(QLatin1String("42 tokens")));
            reply.error = QStringLiteral("The model server did not answer.");
            view->setReplies({{card->id, reply}});
            QVERIFY(label->text().contains(QLatin1String("did not answer")));
        }
        EditorPane again(nullptr);
        QVERIFY(again.openFile(m_path));
        again.promptView()->refreshNow();
        QCOMPARE(again.promptView()->inputValues().value(QStringLiteral("questions")).toArray(),
                 (QJsonArray{QStringLiteral("a"), QStringLiteral("b")}));
    }

    void repliesFromATrace()
    {
        auto root = std::make_shared<pdl::TraceNode>();
        root->kind = pdl::BlockKind::Text;
        auto call = std::make_shared<pdl::TraceNode>();
        call->kind = pdl::BlockKind::Model;
        call->span = SourceSpan{m_path, 10, 3, 22, 17};
        call->result = pdl::Value(std::string("Thank you."));
        call->hasResult = true;
        pdl::Dict usage;
        usage.set("prompt_tokens", pdl::Value(int64_t(30)));
        usage.set("completion_tokens", pdl::Value(int64_t(12)));
        call->usage = pdl::Value(std::move(usage));
        call->startNanos = 1'000'000'000;
        call->endNanos = 2'500'000'000;
        auto failed = std::make_shared<pdl::TraceNode>();
        failed->kind = pdl::BlockKind::Model;
        failed->span = SourceSpan{m_path, 25, 3, 29, 10};
        failed->error = "connection refused";
        root->children.push_back({"text", {call, failed}, false});
        const QHash<QString, PromptReply> replies = repliesFromTrace(*root, m_path);
        QCOMPARE(replies.size(), 2);
        const PromptReply r = replies.value(QStringLiteral("10:3"));
        QCOMPARE(r.text, QStringLiteral("Thank you."));
        QCOMPARE(r.tokens, 42);
        QCOMPARE(r.ms, 1500);
        QVERIFY(!replies.value(QStringLiteral("25:3")).error.isEmpty());
        QVERIFY(repliesFromTrace(*root, QStringLiteral("/elsewhere.pdl")).isEmpty());
    }

    void screenshot()
    {
        EditorPane pane(nullptr);
        pane.resize(820, 1000);
        pane.show();
        QVERIFY(QTest::qWaitForWindowExposed(&pane));
        QVERIFY(pane.openFile(m_path));
        pane.setPromptMode(true);
        PromptReply reply;
        reply.text = QStringLiteral("Thank you for your order. Your parcel will arrive on Friday.");
        reply.tokens = 57;
        reply.ms = 1840;
        for (const auto& item : pane.promptView()->document().items) {
            if (item.kind == playground::PromptDocItem::Kind::Card)
                pane.promptView()->setReplies({{item.id, reply}});
        }
        QTest::qWait(50);
        QVERIFY(pane.grab().save(QStringLiteral("/tmp/promptview.png")));
        // Beside docks the pane is narrow: every label must still be whole.
        pane.resize(520, 1000);
        QTest::qWait(50);
        QVERIFY(pane.grab().save(QStringLiteral("/tmp/promptview-narrow.png")));
        for (QLabel* l : pane.promptView()->findChildren<QLabel*>()) {
            if (l->isVisibleTo(&pane) && !l->wordWrap() && l->textFormat() != Qt::RichText)
                QVERIFY2(l->width() >= l->minimumSizeHint().width(), qPrintable(l->text()));
        }
        // HAKO_PROMPTVIEW_SHOT=<program>: also look at another program (saved beside it).
        const QString other = qEnvironmentVariable("HAKO_PROMPTVIEW_SHOT");
        if (!other.isEmpty()) {
            QVERIFY(pane.openFile(other));
            pane.setPromptMode(true);
            QTest::qWait(50);
            QVERIFY(pane.grab().save(QStringLiteral("/tmp/promptview-other.png")));
        }
    }
};

QTEST_MAIN(TestPromptView)
#include "tst_promptview.moc"
