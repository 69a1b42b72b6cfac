// The Prompt view's structure edits, driven through the real EditorPane: a `defs` list edited
// one item per line, a second prompt added, renamed, moved (refused above the prompt whose
// result it reads), undone and removed — each one undoable edit of the YAML.
#include "core/playground/promptdoc.h"
#include "isolatedsettings.h"
#include "widgets/editor/editorpane.h"
#include "widgets/editor/pdleditor.h"
#include "widgets/promptview/promptcard.h"
#include "widgets/promptview/promptview.h"

#include <QApplication>
#include <QCheckBox>
#include <QDoubleSpinBox>
#include <QFile>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>
#include <QToolButton>

using namespace hako;
using playground::PromptDoc;
using playground::PromptDocItem;

namespace {

template <typename T> T* byName(QWidget* root, const QString& name)
{
    for (T* w : root->findChildren<T*>()) {
        if (w->accessibleName() == name)
            return w;
    }
    return nullptr;
}

std::optional<PromptDocItem> valueOf(const QString& text, const QString& name)
{
    const Result<PromptDoc> doc = PromptDoc::build(text);
    if (doc) {
        for (const PromptDocItem& i : doc->items)
            if (i.kind == PromptDocItem::Kind::Value && i.heading == name)
                return i;
    }
    return std::nullopt;
}

QStringList cardNames(PromptView* view)
{
    QStringList out;
    for (const PromptCard* c : view->cards())
        out << c->item().heading;
    return out;
}

} // namespace

class TestPromptViewStructure : public QObject {
    Q_OBJECT
    std::unique_ptr<testing::IsolatedSettings> m_settings;
    QTemporaryDir m_dir;
    QString m_classify;

    std::unique_ptr<EditorPane> open(const QString& path)
    {
        auto pane = std::make_unique<EditorPane>(nullptr);
        pane->resize(1000, 900);
        pane->show();
        if (!QTest::qWaitForWindowExposed(pane.get()) || !pane->openFile(path))
            return nullptr;
        pane->setPromptMode(true);
        pane->promptView()->refreshNow();
        QApplication::setActiveWindow(pane.get());
        return pane;
    }

private Q_SLOTS:
    void initTestCase()
    {
        m_settings =
            std::make_unique<testing::IsolatedSettings>(QStringLiteral("tst_promptviewstructure"));
        QVERIFY(m_settings->isValid());
        m_classify = m_dir.filePath(QStringLiteral("分類.pdl"));
        QVERIFY(QFile::copy(QStringLiteral(HAKO_SOURCE_DIR "/resources/templates/classify.ja.pdl"),
                            m_classify));
        QFile::setPermissions(m_classify, QFile::ReadOwner | QFile::WriteOwner);
    }

    // The labels of the classify template, one per line: 要望 added, その他 removed. The YAML
    // keeps everything else byte for byte and reads back the new list; Ctrl+Z undoes it.
    void editTheLabelList()
    {
        auto pane = open(m_classify);
        QVERIFY(pane);
        PromptView* view = pane->promptView();
        auto* labels = byName<QPlainTextEdit>(view, QStringLiteral("Value labels"));
        QVERIFY(labels);
        QCOMPARE(labels->toPlainText(), QStringLiteral("褒め言葉\n苦情\n質問\nその他"));
        const QString before = pane->editor()->text();
        labels->setFocus();
        QTextCursor c = labels->textCursor();
        c.movePosition(QTextCursor::End);
        c.movePosition(QTextCursor::StartOfLine, QTextCursor::KeepAnchor);
        labels->setTextCursor(c);
        labels->insertPlainText(QStringLiteral("要望")); // as an input method commits it
        QTRY_VERIFY(pane->editor()->text() != before);
        QString want = before;
        want.replace(QStringLiteral("    - その他\n"), QStringLiteral("    - 要望\n"));
        QCOMPARE(pane->editor()->text(), want);
        QCOMPARE(valueOf(pane->editor()->text(), QStringLiteral("labels"))->list,
                 QStringList({QStringLiteral("褒め言葉"), QStringLiteral("苦情"),
                              QStringLiteral("質問"), QStringLiteral("要望")}));
        QVERIFY(labels->hasFocus()); // the same field, typing goes on

        // An item added on a new line.
        QTest::keyClick(labels, Qt::Key_End, Qt::ControlModifier);
        QTest::keyClick(labels, Qt::Key_Return);
        labels->insertPlainText(QStringLiteral("その他"));
        QTRY_VERIFY(pane->editor()->text().contains(QStringLiteral("    - 要望\n    - その他\n")));
        QCOMPARE(valueOf(pane->editor()->text(), QStringLiteral("labels"))->list.size(), 5);

        pane->editor()->undo();
        pane->editor()->undo();
        QCOMPARE(pane->editor()->text(), before);
        QTRY_COMPARE(labels->toPlainText(), QStringLiteral("褒め言葉\n苦情\n質問\nその他"));
    }

    // A number and a yes/no of `defs` get a spin box and a check box.
    void numbersAndYesNo()
    {
        const QString path = m_dir.filePath(QStringLiteral("numbers.pdl"));
        QFile f(path);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write("defs:\n  # how many\n  how_many: 3\n  strict: false\ntext:\n- model: m\n"
                "  input: \"${ how_many } ${ strict }\"\n");
        f.close();
        auto pane = open(path);
        QVERIFY(pane);
        PromptView* view = pane->promptView();
        auto* number = byName<QDoubleSpinBox>(view, QStringLiteral("Value how_many"));
        auto* strict = byName<QCheckBox>(view, QStringLiteral("Value strict"));
        QVERIFY(number && strict);
        QCOMPARE(number->value(), 3.0);
        number->setValue(5);
        QTRY_VERIFY(pane->editor()->text().contains(QLatin1String("  how_many: 5\n")));
        strict->click();
        QTRY_VERIFY(pane->editor()->text().contains(QLatin1String("  strict: true\n")));
    }

    // Add a second prompt after the classify one, name it, move it, undo, remove it.
    void addRenameMoveRemove()
    {
        auto pane = open(m_classify);
        QVERIFY(pane);
        PromptView* view = pane->promptView();
        PdlEditor* editor = pane->editor();
        const QString t0 = editor->text();
        QCOMPARE(cardNames(view), QStringList{QStringLiteral("answer")});

        auto* add = byName<QPushButton>(view, QStringLiteral("Add Prompt"));
        QVERIFY(add);
        add->click();
        const QString t1 = editor->text();
        QVERIFY(t1.startsWith(t0));
        QCOMPARE(t1.mid(t0.size()), QStringLiteral("- def: prompt\n  model: default\n  input: |\n"
                                                   "    Write here what the model should do.\n"
                                                   "    The result of the prompt above: "
                                                   "${ answer }\n"));
        QCOMPARE(cardNames(view),
                 QStringList({QStringLiteral("answer"), QStringLiteral("prompt")}));
        QVERIFY(!playground::PromptDoc::build(t1)->inputs.size()); // `answer` is found

        // Renamed: the card and the YAML follow.
        view->setNameAsker([](const QString& current) -> std::optional<QString> {
            return current == QLatin1String("prompt")
                       ? std::optional<QString>(QStringLiteral("reply"))
                       : std::nullopt;
        });
        auto* rename = byName<QToolButton>(view, QStringLiteral("Rename prompt"));
        QVERIFY(rename);
        rename->click();
        const QString t2 = editor->text();
        QVERIFY(t2.contains(QLatin1String("- def: reply\n")));
        QCOMPARE(cardNames(view), QStringList({QStringLiteral("answer"), QStringLiteral("reply")}));

        // Up past the condition and the label; the focus stays on its Up button.
        byName<QToolButton>(view, QStringLiteral("Move reply up"))->click();
        const QString t3 = editor->text();
        QVERIFY(t3.indexOf(QLatin1String("- def: reply")) < t3.indexOf(QLatin1String("- if:")));
        QTRY_COMPARE(QApplication::focusWidget(), static_cast<QWidget*>(byName<QToolButton>(
                                                      view, QStringLiteral("Move reply up"))));
        byName<QToolButton>(view, QStringLiteral("Move reply up"))->click();
        const QString t4 = editor->text();
        QVERIFY(t4.indexOf(QLatin1String("- def: reply")) <
                t4.indexOf(QLatin1String("- def: label")));
        // Above the prompt whose result it reads: refused, in words, nothing changes.
        QSignalSpy failed(view, &PromptView::editFailed);
        byName<QToolButton>(view, QStringLiteral("Move reply up"))->click();
        QCOMPARE(failed.size(), 1);
        QVERIFY2(failed[0][0].toString().contains(QStringLiteral("“answer”")),
                 qPrintable(failed[0][0].toString()));
        QCOMPARE(editor->text(), t4);

        // One undo per step.
        editor->undo();
        QCOMPARE(editor->text(), t3);
        editor->undo();
        QCOMPARE(editor->text(), t2);
        view->refreshNow();
        QCOMPARE(cardNames(view), QStringList({QStringLiteral("answer"), QStringLiteral("reply")}));

        // Removing `answer` warns that others use its result; declined, nothing changes.
        QString asked;
        view->setConfirmer([&asked](const QString& q) {
            asked = q;
            return false;
        });
        byName<QToolButton>(view, QStringLiteral("Remove answer"))->click();
        QVERIFY2(asked.contains(QLatin1String("use its result")), qPrintable(asked));
        QCOMPARE(editor->text(), t2);
        // Removing the reply: the program is as it was.
        view->setConfirmer([&asked](const QString& q) {
            asked = q;
            return true;
        });
        byName<QToolButton>(view, QStringLiteral("Remove reply"))->click();
        QVERIFY(!asked.contains(QLatin1String("use its result")));
        QCOMPARE(editor->text(), t0);
        QCOMPARE(cardNames(view), QStringList{QStringLiteral("answer")});
        editor->undo();
        QCOMPARE(editor->text(), t2);
    }
};

QTEST_MAIN(TestPromptViewStructure)
#include "tst_promptviewstructure.moc"
