// Japanese input methods (ibus, fcitx) reach Qt widgets as QInputMethodEvents: a composition
// (preedit) shown while the person picks kanji, then the committed text. Every place a prompt
// author types Japanese takes them: the Prompt view's message cards and inputs form, the
// playground's messages and the documents command line. The committed text arrives whole, at
// the cursor, and a composition still open changes nothing that is saved (the YAML, the
// remembered inputs).
#include "isolatedsettings.h"
#include "widgets/docs/documentpane.h"
#include "widgets/editor/editorpane.h"
#include "widgets/editor/pdleditor.h"
#include "widgets/playground/varianteditor.h"
#include "widgets/promptview/promptmessageedit.h"
#include "widgets/promptview/promptview.h"

#include <QApplication>
#include <QFile>
#include <QInputMethodEvent>
#include <QLineEdit>
#include <QPlainTextEdit>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>

using namespace hako;

namespace {

const char* kProgram = "description: 要約\n"
                       "text:\n"
                       "- def: summary\n"
                       "  model: ollama/granite3.3:8b\n"
                       "  input: \"次の文章を要約してください: ${ article } ${ question }\"\n";

template <typename T> T* byName(QWidget* root, const QString& name)
{
    for (T* w : root->findChildren<T*>())
        if (w->accessibleName() == name)
            return w;
    return nullptr;
}

// What an IME sends: the composition, updated as the person types, then the chosen text.
void compose(QWidget* w, const QStringList& preedits, const QString& commit)
{
    QVERIFY(w->testAttribute(Qt::WA_InputMethodEnabled));
    for (const QString& p : preedits) {
        QInputMethodEvent preedit(p, {});
        QApplication::sendEvent(w, &preedit);
    }
    QInputMethodEvent done;
    done.setCommitString(commit);
    QApplication::sendEvent(w, &done);
}

void preeditOnly(QWidget* w, const QString& text)
{
    QInputMethodEvent preedit(text, {});
    QApplication::sendEvent(w, &preedit);
}

} // namespace

class TestInputMethod : public QObject {
    Q_OBJECT
    std::unique_ptr<testing::IsolatedSettings> m_settings;
    QTemporaryDir m_dir;
    QString m_path;

private Q_SLOTS:
    void initTestCase()
    {
        m_settings = std::make_unique<testing::IsolatedSettings>(QStringLiteral("tst_inputmethod"));
        QVERIFY(m_settings->isValid());
        m_path = m_dir.filePath(QStringLiteral("要約.pdl"));
        QFile f(m_path);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write(kProgram);
    }

    void promptViewCardAndInputs()
    {
        EditorPane pane(nullptr);
        pane.resize(900, 900);
        pane.show();
        QVERIFY(QTest::qWaitForWindowExposed(&pane));
        QVERIFY(pane.openFile(m_path));
        pane.setPromptMode(true);
        PromptView* view = pane.promptView();

        // The card's message: composed text goes into the YAML at the cursor once committed.
        PromptMessageEdit* message = nullptr;
        QTRY_VERIFY(
            (message = byName<PromptMessageEdit>(view, QStringLiteral("user message of summary"))));
        message->setFocus();
        QTextCursor c = message->textCursor();
        c.movePosition(QTextCursor::End);
        message->setTextCursor(c);
        const QString before = pane.editor()->text();
        preeditOnly(message, QStringLiteral("みじかく"));
        view->commitPendingEdits();
        QCOMPARE(pane.editor()->text(), before); // a composition is not text yet
        compose(message, {QStringLiteral("みじかく")}, QStringLiteral("短く"));
        view->commitPendingEdits();
        QTRY_VERIFY2(pane.editor()->text().contains(QStringLiteral("${ question }短く\"\n")),
                     qPrintable(pane.editor()->text()));

        // The inputs form: a long-text input (a multi-line editor) and a one-line input.
        auto* article = byName<QWidget>(view, QStringLiteral("Input article"));
        auto* question = byName<QLineEdit>(view, QStringLiteral("Input question"));
        QVERIFY(article && question);
        QVERIFY(qobject_cast<PromptMessageEdit*>(article));
        article->setFocus();
        compose(article, {QStringLiteral("き"), QStringLiteral("きょう")}, QStringLiteral("今日"));
        question->setFocus();
        preeditOnly(question, QStringLiteral("なに"));
        QCOMPARE(view->inputValues().value(QStringLiteral("question")).toString(), QString());
        compose(question, {QStringLiteral("なに")}, QStringLiteral("何"));
        QCOMPARE(view->inputValues().value(QStringLiteral("article")).toString(),
                 QStringLiteral("今日"));
        QCOMPARE(view->inputValues().value(QStringLiteral("question")).toString(),
                 QStringLiteral("何"));
    }

    void playgroundMessage()
    {
        VariantEditor variant(1);
        variant.addMessage();
        variant.show();
        QVERIFY(QTest::qWaitForWindowExposed(&variant));
        QPlainTextEdit* edit = variant.messageEdit(0);
        QVERIFY(edit);
        edit->setFocus();
        QTest::keyClicks(edit, QStringLiteral("Q: "));
        compose(edit, {QStringLiteral("しつもん")}, QStringLiteral("質問"));
        QCOMPARE(edit->toPlainText(), QStringLiteral("Q: 質問"));
        QCOMPARE(variant.prompt().messages.value(0).content, QStringLiteral("Q: 質問"));
    }

    void documentsCommandLine()
    {
        const QString text = m_dir.filePath(QStringLiteral("銀河.txt"));
        {
            QFile f(text);
            QVERIFY(f.open(QIODevice::WriteOnly));
            f.write("白鳥の停車場\n");
        }
        DocumentPane pane;
        pane.show();
        QVERIFY(QTest::qWaitForWindowExposed(&pane));
        QSignalSpy ready(&pane, &DocumentPane::documentReady);
        pane.openDocument(text);
        QTRY_COMPARE(ready.count(), 1);
        auto* command = byName<QLineEdit>(&pane, QStringLiteral("Document command"));
        QVERIFY(command);
        command->setFocus();
        QTest::keyClicks(command, QStringLiteral("search "));
        compose(command, {QStringLiteral("はくちょう")}, QStringLiteral("白鳥"));
        QCOMPARE(command->text(), QStringLiteral("search 白鳥"));
        QCOMPARE(command->cursorPosition(), int(command->text().size()));
    }
};

QTEST_MAIN(TestInputMethod)
#include "tst_inputmethod.moc"
