// File › New from Template (offscreen): the dialog lists the templates in the interface
// language, the first selected; a template chosen with the keyboard and created with Return
// opens as a new, unsaved, untitled program in the Prompt view, in the interface language, with
// a message in Prompt-view words; Cancel and "save changes?" behave as for New.
// With HAKO_SCREENSHOT_DIR set, saves the dialog in English and Japanese.
#include "core/workbench/templatecatalog.h"
#include "isolatedsettings.h"
#include "widgets/common/messagebar.h"
#include "widgets/editor/editorpane.h"
#include "widgets/editor/pdleditor.h"
#include "widgets/promptview/promptview.h"
#include "widgets/templates/templatedialog.h"
#include "widgets/workbench/filecontroller.h"
#include "widgets/workbench/mainwindow.h"
#include "widgets/workbench/programtabs.h"

#include <QAccessible>
#include <QAction>
#include <QApplication>
#include <QDir>
#include <QFile>
#include <QLabel>
#include <QLineEdit>
#include <QListWidget>
#include <QMenuBar>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QSettings>
#include <QTemporaryDir>
#include <QTest>
#include <QTextEdit>

using namespace hako;

namespace {

QString templateText(const char* file)
{
    QFile f(QStringLiteral(HAKO_SOURCE_DIR "/resources/templates/") + QLatin1String(file));
    return f.open(QIODevice::ReadOnly) ? QString::fromUtf8(f.readAll()) : QString();
}

// Whether the Prompt view shows `text` in one of its fields or labels.
bool promptViewShows(PromptView* view, const QString& text)
{
    for (QLineEdit* w : view->findChildren<QLineEdit*>())
        if (w->text().contains(text))
            return true;
    for (QPlainTextEdit* w : view->findChildren<QPlainTextEdit*>())
        if (w->toPlainText().contains(text))
            return true;
    for (QTextEdit* w : view->findChildren<QTextEdit*>())
        if (w->toPlainText().contains(text))
            return true;
    for (QLabel* w : view->findChildren<QLabel*>())
        if (w->text().contains(text))
            return true;
    return false;
}

QAction* newFromTemplateAction(MainWindow& window)
{
    for (QAction* a : window.menuBar()->actions().first()->menu()->actions())
        if (a->shortcut() == QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_N))
            return a;
    return nullptr;
}

void saveShot(QWidget* w, const QString& name)
{
    const QString dir = qEnvironmentVariable("HAKO_SCREENSHOT_DIR");
    if (dir.isEmpty())
        return;
    QDir().mkpath(dir);
    // Let pending layouts (a changed selection's texts) settle before grabbing.
    QTest::qWait(50);
    QVERIFY(w->grab().save(QDir(dir).filePath(name)));
}

// The texts of a widget's labels.
QStringList labelTexts(QWidget* w)
{
    QStringList texts;
    for (QLabel* l : w->findChildren<QLabel*>())
        texts << l->text();
    return texts;
}

} // namespace

class TestTemplateDialog : public QObject {
    Q_OBJECT

    std::unique_ptr<testing::IsolatedSettings> m_settings;

    // Opens the dialog with Ctrl+Shift+N and returns it.
    TemplateDialog* openDialog(MainWindow& window)
    {
        window.show();
        window.activateWindow();
        if (!QTest::qWaitForWindowActive(&window))
            return nullptr;
        window.editorPane()->editor()->setFocus();
        QTest::keyClick(window.editorPane()->editor(), Qt::Key_N,
                        Qt::ControlModifier | Qt::ShiftModifier);
        TemplateDialog* dialog = nullptr;
        for (int i = 0; i < 50 && !dialog; ++i) {
            dialog = window.findChild<TemplateDialog*>();
            if (!dialog)
                QTest::qWait(20);
        }
        if (dialog && !QTest::qWaitForWindowExposed(dialog))
            return nullptr;
        return dialog;
    }

private Q_SLOTS:
    void initTestCase()
    {
        m_settings =
            std::make_unique<testing::IsolatedSettings>(QStringLiteral("tst_templatedialog"));
        QVERIFY(m_settings->isValid());
    }
    void init()
    {
        QSettings().clear();
        qunsetenv("HAKO_LANGUAGE");
    }

    void menuAction()
    {
        MainWindow window;
        QAction* action = newFromTemplateAction(window);
        QVERIFY(action);
        QCOMPARE(action->text(), QStringLiteral("New from &Template…"));
    }

    void chooseWithKeyboardAndCreate()
    {
        qputenv("HAKO_LANGUAGE", "en");
        MainWindow window;
        TemplateDialog* dialog = openDialog(window);
        QVERIFY(dialog);
        auto* list = dialog->findChild<QListWidget*>(QStringLiteral("templateList"));
        QVERIFY(list);
        QCOMPARE(list->count(), 9);
        QCOMPARE(list->currentRow(), 0); // the first is selected
        QCOMPARE(dialog->selectedId(), QStringLiteral("summarize"));
        QCOMPARE(list->item(0)->text(), QStringLiteral("Summarise a text"));
        QVERIFY(list->hasFocus());
        // Every control is named for screen readers.
        for (QWidget* w : dialog->findChildren<QWidget*>()) {
            if (!w->isVisible() || !w->focusPolicy())
                continue;
            QAccessibleInterface* iface = QAccessible::queryAccessibleInterface(w);
            QVERIFY2(iface && !iface->text(QAccessible::Name).isEmpty(),
                     w->metaObject()->className());
        }
        auto* inputs = dialog->findChild<QLabel*>(QStringLiteral("templateInputs"));
        QVERIFY(inputs->text().contains(QLatin1String("audience")));
        // The hint speaks of the Prompt view the program opens in, not of YAML.
        const QStringList hints = labelTexts(dialog);
        QVERIFY2(hints.join(QLatin1Char('\n')).contains(QLatin1String("Prompt view")),
                 qPrintable(hints.join(QLatin1Char('\n'))));
        QVERIFY(!hints.join(QLatin1Char('\n')).contains(QLatin1String("defs")));
        saveShot(dialog, QStringLiteral("templatedialog-en.png"));

        // Down twice: "Extract data as JSON"; its inputs show.
        QTest::keyClick(list, Qt::Key_Down);
        QTest::keyClick(list, Qt::Key_Down);
        QCOMPARE(dialog->selectedId(), QStringLiteral("extract_json"));
        QVERIFY(dialog->findChild<QLabel*>(QStringLiteral("templateDescription"))
                    ->text()
                    .contains(QLatin1String("repairs")));
        QVERIFY(inputs->text().contains(QLatin1String("fields")));

        QTest::keyClick(list, Qt::Key_Return);
        QTRY_VERIFY(!dialog || !dialog->isVisible());
        PdlEditor* editor = window.editorPane()->editor();
        QCOMPARE(editor->text(), templateText("extract_json.pdl"));
        QVERIFY(window.editorPane()->filePath().isEmpty());
        QVERIFY(window.editorPane()->isModified());
        QCOMPARE(window.windowTitle(), QStringLiteral("untitled.pdl[*] — Hako"));
        QVERIFY(window.isWindowModified());
        const QString message = window.editorPane()->messageBar()->text();
        QVERIFY(message.contains(QLatin1String("Extract data as JSON")));
        QVERIFY2(!message.contains(QLatin1String("defs")), qPrintable(message));
        QVERIFY(message.contains(QLatin1String("inputs at the top")));
        // It opens in the Prompt view, ready to fill in.
        QVERIFY(window.editorPane()->isPromptMode());
        QVERIFY(window.editorPane()->promptView()->isVisible());
        QVERIFY(!editor->isVisible());
        // The dialog is gone (deleted on close).
        QTRY_VERIFY(!window.findChild<TemplateDialog*>());
        window.resize(1000, 700);
        saveShot(&window, QStringLiteral("templates-created-en.png"));
    }

    void newFromTemplateKeepsTheEditedProgram()
    {
        MainWindow window;
        QStringList asked;
        window.files()->setSaveQuestion([&](const QString& name) {
            asked << name;
            return FileController::SaveChoice::Cancel;
        });
        EditorPane* mine = window.editorPane();
        mine->editor()->setText(QStringLiteral("text: mine\n"));
        QVERIFY(mine->isModified());
        // The template opens in a tab of its own: nothing to ask, nothing lost.
        QVERIFY(window.files()->newFromTemplate(QStringLiteral("chat")));
        QVERIFY(asked.isEmpty());
        QVERIFY(window.editorPane() != mine);
        QCOMPARE(window.programTabs()->count(), 2);
        QCOMPARE(mine->editor()->text(), QStringLiteral("text: mine\n"));
        QCOMPARE(window.editorPane()->editor()->text(), templateText("chat.pdl"));
        QVERIFY(!window.files()->newFromTemplate(QStringLiteral("no-such-template")));
        QCOMPARE(window.programTabs()->count(), 2);
        QVERIFY(
            window.editorPane()->messageBar()->text().contains(QLatin1String("no template named")));
    }

    void cancelKeepsTheProgram()
    {
        qputenv("HAKO_LANGUAGE", "en");
        MainWindow window;
        PdlEditor* editor = window.editorPane()->editor();
        TemplateDialog* dialog = openDialog(window);
        QVERIFY(dialog);
        QTest::keyClick(dialog, Qt::Key_Escape);
        QTRY_VERIFY(!window.findChild<TemplateDialog*>());
        QCOMPARE(editor->text(), QString());
        QVERIFY(!window.editorPane()->isModified());
    }

    void japaneseFromEnvironment()
    {
        qputenv("HAKO_LANGUAGE", "ja");
        QSettings().setValue(QStringLiteral("ui/language"), QStringLiteral("en"));
        MainWindow window;
        TemplateDialog* dialog = openDialog(window);
        QVERIFY(dialog);
        auto* list = dialog->findChild<QListWidget*>(QStringLiteral("templateList"));
        QCOMPARE(list->item(0)->text(), QStringLiteral("文章を要約する"));
        QCOMPARE(list->item(8)->text(), QStringLiteral("長期記憶を持つアシスタント"));
        QVERIFY(dialog->findChild<QLabel*>(QStringLiteral("templateInputs"))
                    ->text()
                    .contains(QStringLiteral("要約したい文章")));
        QCOMPARE(dialog->windowTitle(), QStringLiteral("テンプレートから新規作成"));
        saveShot(dialog, QStringLiteral("templatedialog-ja.png"));
        list->setCurrentRow(8);
        saveShot(dialog, QStringLiteral("templatedialog-ja-memory.png"));
        dialog->reject();
    }

    void japaneseTemplateOpensInThePromptView()
    {
        qputenv("HAKO_LANGUAGE", "ja");
        MainWindow window;
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        QVERIFY(window.files()->newFromTemplate(QStringLiteral("classify")));
        EditorPane* pane = window.editorPane();
        // The Japanese program, unsaved and untitled.
        QCOMPARE(pane->editor()->text(), templateText("classify.ja.pdl"));
        QVERIFY(pane->editor()->text() != templateText("classify.pdl"));
        QVERIFY(pane->filePath().isEmpty());
        QVERIFY(pane->isModified());
        // Shown in the Prompt view, its Japanese inputs and instructions in the fields.
        QVERIFY(pane->isPromptMode());
        QVERIFY(pane->promptModeAction()->isChecked());
        QVERIFY(pane->promptView()->isVisible());
        QVERIFY(!pane->editor()->isVisible());
        QTRY_VERIFY(
            promptViewShows(pane->promptView(), QStringLiteral("注文した荷物が2週間も遅れて届き")));
        QVERIFY(promptViewShows(pane->promptView(), QStringLiteral("ラベルだけを")));
        // The message names the Japanese title and says what to do without YAML words.
        const QString message = pane->messageBar()->text();
        QVERIFY2(message.contains(QStringLiteral("ラベルに分類する")), qPrintable(message));
        QVERIFY2(!message.contains(QLatin1String("defs")), qPrintable(message));
        window.resize(1000, 700);
        saveShot(&window, QStringLiteral("templates-created-ja.png"));

        // English stays English.
        qputenv("HAKO_LANGUAGE", "en");
        QVERIFY(window.files()->newFromTemplate(QStringLiteral("classify")));
        QCOMPARE(window.editorPane()->editor()->text(), templateText("classify.pdl"));
        QVERIFY(window.editorPane()->isPromptMode());
    }

    void japaneseHintWithoutYaml()
    {
        TemplateDialog dialog(TemplateCatalog(), QStringLiteral("ja"));
        const QString hints = labelTexts(&dialog).join(QLatin1Char('\n'));
        QVERIFY2(hints.contains(QStringLiteral("プロンプト表示")), qPrintable(hints));
        QVERIFY(!hints.contains(QLatin1String("defs")));
    }

    void japaneseFromSetting()
    {
        QSettings().setValue(QStringLiteral("ui/language"), QStringLiteral("ja"));
        MainWindow window;
        TemplateDialog* dialog = openDialog(window);
        QVERIFY(dialog);
        auto* list = dialog->findChild<QListWidget*>(QStringLiteral("templateList"));
        QCOMPARE(list->item(1)->text(), QStringLiteral("ラベルに分類する"));
        dialog->reject();
    }

    void emptyState()
    {
        QTemporaryDir empty;
        QFile index(QDir(empty.path()).filePath(QStringLiteral("templates.json")));
        QVERIFY(index.open(QIODevice::WriteOnly));
        index.write("{\"templates\": []}");
        index.close();
        TemplateDialog dialog(TemplateCatalog(empty.path()), QStringLiteral("en"));
        dialog.show();
        QVERIFY(QTest::qWaitForWindowExposed(&dialog));
        auto* label = dialog.findChild<QLabel*>(QStringLiteral("templatesEmpty"));
        QVERIFY(label && label->isVisible());
        QCOMPARE(label->text(), QStringLiteral("No templates are installed."));
        QVERIFY(!dialog.findChild<QPushButton*>(QStringLiteral("createButton"))->isEnabled());
        QVERIFY(dialog.selectedId().isEmpty());
        saveShot(&dialog, QStringLiteral("templatedialog-empty.png"));

        // A broken templates.json says why.
        QVERIFY(index.open(QIODevice::WriteOnly | QIODevice::Truncate));
        index.write("{oops");
        index.close();
        TemplateDialog broken(TemplateCatalog(empty.path()), QStringLiteral("en"));
        QVERIFY(broken.findChild<QLabel*>(QStringLiteral("templatesEmpty"))
                    ->text()
                    .contains(QLatin1String("is not valid JSON")));
    }
};

QTEST_MAIN(TestTemplateDialog)
#include "tst_templatedialog.moc"
