#include "widgets/editor/findbar.h"
#include "widgets/editor/pdleditor.h"

#include <QApplication>
#include <QKeyEvent>
#include <QLineEdit>
#include <QSignalSpy>
#include <QTest>
#include <QVBoxLayout>

using namespace hako;

Q_DECLARE_METATYPE(hako::FindOptions)

class TestEditor : public QObject {
    Q_OBJECT

private:
    static FindOptions opts(bool matchCase, bool wholeWord, bool regex)
    {
        return FindOptions{matchCase, wholeWord, regex};
    }

private Q_SLOTS:
    void typing()
    {
        PdlEditor editor;
        editor.show();
        QVERIFY(QTest::qWaitForWindowExposed(&editor));
        editor.setFocus();
        QTest::keyClicks(&editor, QStringLiteral("text: "));
        // QTest::keyClicks only takes Latin-1: send the CJK character as a text event.
        QKeyEvent press(QEvent::KeyPress, 0, Qt::NoModifier, QStringLiteral("箱"));
        QApplication::sendEvent(&editor, &press);
        QCOMPARE(editor.text(), QStringLiteral("text: 箱"));
        QCOMPARE(editor.cursorLineColumn(), qMakePair(1, 8));
        QTest::keyClick(&editor, Qt::Key_Return);
        QTest::keyClick(&editor, Qt::Key_Tab);
        QTest::keyClicks(&editor, QStringLiteral("- x"));
        // YAML indentation: Tab inserts two spaces, never a tab character.
        QCOMPARE(editor.text(), QStringLiteral("text: 箱\n  - x"));
        QCOMPARE(editor.cursorLineColumn(), qMakePair(2, 6));
        editor.setDocumentText(QStringLiteral("📦📦x"));
        editor.setCursorPosition(0, 2);
        QCOMPARE(editor.cursorLineColumn(), qMakePair(1, 3));
        QCOMPARE(editor.selectedText(), QString());
    }

    void undoRestoresAndModifiedFlag()
    {
        PdlEditor editor;
        QSignalSpy modified(&editor, &QsciScintilla::modificationChanged);
        editor.setDocumentText(QStringLiteral("a: 1\n"));
        QVERIFY(!editor.isModified());
        QVERIFY(!editor.isUndoAvailable()); // loading is not an edit
        editor.setCursorPosition(0, 4);
        editor.insert(QStringLiteral("23"));
        QCOMPARE(editor.text(), QStringLiteral("a: 1\n").insert(4, QStringLiteral("23")));
        QVERIFY(editor.isModified());
        QCOMPARE(modified.last().at(0).toBool(), true);
        editor.undo();
        QCOMPARE(editor.text(), QStringLiteral("a: 1\n"));
        QVERIFY(!editor.isModified()); // back at the save point
        editor.redo();
        QCOMPARE(editor.text(), QStringLiteral("a: 123\n"));
    }

    void keepsLineEndings()
    {
        PdlEditor editor;
        editor.setDocumentText(QStringLiteral("a: 1\r\nb: 2\r\n"));
        QCOMPARE(editor.eolMode(), QsciScintilla::EolWindows);
        editor.setCursorPosition(1, 4);
        editor.SendScintilla(QsciScintillaBase::SCI_NEWLINE);
        QCOMPARE(editor.text(), QStringLiteral("a: 1\r\nb: 2\r\n\r\n"));
    }

    void findNext_data()
    {
        QTest::addColumn<QString>("text");
        QTest::addColumn<QString>("needle");
        QTest::addColumn<FindOptions>("options");
        QTest::addColumn<bool>("backwards");
        QTest::addColumn<QList<int>>("starts"); // successive match lines*100+index

        QTest::newRow("plain wraps")
            << QStringLiteral("ab\nxab\nab") << QStringLiteral("ab") << opts(false, false, false)
            << false << QList<int>{0, 101, 200, 0};
        QTest::newRow("case-insensitive")
            << QStringLiteral("Model\nmodel") << QStringLiteral("MODEL")
            << opts(false, false, false) << false << QList<int>{0, 100};
        QTest::newRow("match case") << QStringLiteral("Model\nmodel") << QStringLiteral("model")
                                    << opts(true, false, false) << false << QList<int>{100, 100};
        QTest::newRow("whole word") << QStringLiteral("defs def\ndef") << QStringLiteral("def")
                                    << opts(false, true, false) << false << QList<int>{5, 100, 5};
        QTest::newRow("regex") << QStringLiteral("x: 12\ny: 7") << QStringLiteral("[0-9]+")
                               << opts(false, false, true) << false << QList<int>{3, 103};
        QTest::newRow("backwards") << QStringLiteral("ab ab ab") << QStringLiteral("ab")
                                   << opts(false, false, false) << true << QList<int>{6, 3, 0, 6};
        QTest::newRow("after multibyte") << QStringLiteral("箱 a 箱 a") << QStringLiteral("a")
                                         << opts(false, false, false) << false << QList<int>{2, 6};
        QTest::newRow("after astral") << QStringLiteral("📦 a 📦 a") << QStringLiteral("a")
                                      << opts(false, false, false) << false << QList<int>{2, 6};
    }
    void findNext()
    {
        QFETCH(QString, text);
        QFETCH(QString, needle);
        QFETCH(FindOptions, options);
        QFETCH(bool, backwards);
        QFETCH(QList<int>, starts);
        PdlEditor editor;
        editor.setDocumentText(text);
        for (int expected : starts) {
            QVERIFY(editor.findNext(needle, options, backwards));
            int lineFrom, indexFrom, lineTo, indexTo;
            editor.getSelection(&lineFrom, &indexFrom, &lineTo, &indexTo);
            QCOMPARE(lineFrom * 100 + indexFrom, expected); // index counts code points
            QCOMPARE(editor.selectedText().compare(needle, Qt::CaseInsensitive) == 0,
                     !options.regex);
        }
        QVERIFY(!editor.findNext(QStringLiteral("absent"), options, backwards));
    }

    void replaceAll_data()
    {
        QTest::addColumn<QString>("text");
        QTest::addColumn<QString>("needle");
        QTest::addColumn<QString>("replacement");
        QTest::addColumn<FindOptions>("options");
        QTest::addColumn<int>("count");
        QTest::addColumn<QString>("expected");
        QTest::newRow("plain") << QStringLiteral("a b a\na") << QStringLiteral("a")
                               << QStringLiteral("xyz") << opts(false, false, false) << 3
                               << QStringLiteral("xyz b xyz\nxyz");
        QTest::newRow("grows, no rescan")
            << QStringLiteral("aa") << QStringLiteral("a") << QStringLiteral("aa")
            << opts(false, false, false) << 2 << QStringLiteral("aaaa");
        QTest::newRow("whole word")
            << QStringLiteral("def defs def") << QStringLiteral("def") << QStringLiteral("X")
            << opts(false, true, false) << 2 << QStringLiteral("X defs X");
        QTest::newRow("regex groups") << QStringLiteral("a=1\nb=2") << QStringLiteral("(\\w)=(\\d)")
                                      << QStringLiteral("\\2: \\1") << opts(false, false, true) << 2
                                      << QStringLiteral("1: a\n2: b");
        QTest::newRow("empty regex match")
            << QStringLiteral("a\nb\n") << QStringLiteral("^") << QStringLiteral("# ")
            << opts(false, false, true) << 3 << QStringLiteral("# a\n# b\n# ");
        QTest::newRow("unicode") << QStringLiteral("箱 and 箱") << QStringLiteral("箱")
                                 << QStringLiteral("box") << opts(true, false, false) << 2
                                 << QStringLiteral("box and box");
        QTest::newRow("none") << QStringLiteral("abc") << QStringLiteral("z") << QStringLiteral("y")
                              << opts(false, false, false) << 0 << QStringLiteral("abc");
    }
    void replaceAll()
    {
        QFETCH(QString, text);
        QFETCH(QString, needle);
        QFETCH(QString, replacement);
        QFETCH(FindOptions, options);
        QFETCH(int, count);
        QFETCH(QString, expected);
        PdlEditor editor;
        editor.setDocumentText(text);
        QCOMPARE(editor.replaceAll(needle, replacement, options), count);
        QCOMPARE(editor.text(), expected);
        if (count > 0) {
            editor.undo(); // one step undoes every replacement
            QCOMPARE(editor.text(), text);
            QVERIFY(!editor.isUndoAvailable());
        }
    }

    void replaceCurrent()
    {
        PdlEditor editor;
        editor.setDocumentText(QStringLiteral("a a a"));
        const FindOptions plain;
        // Nothing selected: the first call only finds.
        QVERIFY(!editor.replaceCurrent(QStringLiteral("a"), QStringLiteral("b"), plain));
        QCOMPARE(editor.text(), QStringLiteral("a a a"));
        QVERIFY(editor.replaceCurrent(QStringLiteral("a"), QStringLiteral("b"), plain));
        QCOMPARE(editor.text(), QStringLiteral("b a a"));
        QVERIFY(editor.replaceCurrent(QStringLiteral("a"), QStringLiteral("b"), plain));
        QCOMPARE(editor.text(), QStringLiteral("b b a"));
        QCOMPARE(editor.selectedText(), QStringLiteral("a"));
    }

    void toggleComment_data()
    {
        QTest::addColumn<QString>("text");
        QTest::addColumn<int>("fromLine");
        QTest::addColumn<int>("toLine"); // -1: no selection, cursor on fromLine
        QTest::addColumn<QString>("expected");
        QTest::newRow("current line")
            << QStringLiteral("a: 1\nb: 2") << 1 << -1 << QStringLiteral("a: 1\n# b: 2");
        QTest::newRow("uncomment")
            << QStringLiteral("a: 1\n  # b: 2") << 1 << -1 << QStringLiteral("a: 1\n  b: 2");
        QTest::newRow("block at min indent")
            << QStringLiteral("text:\n  - a\n\n    - b\nend") << 1 << 3
            << QStringLiteral("text:\n  # - a\n\n  #   - b\nend");
        QTest::newRow("mixed comments out")
            << QStringLiteral("# a\nb") << 0 << 1 << QStringLiteral("# # a\n# b");
        QTest::newRow("all commented")
            << QStringLiteral("# a\n#b\nc") << 0 << 1 << QStringLiteral("a\nb\nc");
    }
    void toggleComment()
    {
        QFETCH(QString, text);
        QFETCH(int, fromLine);
        QFETCH(int, toLine);
        QFETCH(QString, expected);
        PdlEditor editor;
        editor.setDocumentText(text);
        if (toLine < 0)
            editor.setCursorPosition(fromLine, 0);
        else
            editor.setSelection(fromLine, 0, toLine, editor.text(toLine).trimmed().size());
        editor.toggleComment();
        QCOMPARE(editor.text(), expected);
        editor.undo();
        QCOMPARE(editor.text(), text);
        // Toggling twice gives the original back when the first toggle commented.
        if (!text.contains(u'#')) {
            editor.redo();
            if (toLine < 0)
                editor.setCursorPosition(fromLine, 0);
            else
                editor.setSelection(fromLine, 0, toLine, editor.text(toLine).trimmed().size());
            editor.toggleComment();
            QCOMPARE(editor.text(), text);
        }
    }

    void findBar()
    {
        QWidget window;
        PdlEditor* editor = new PdlEditor(&window);
        FindBar* bar = new FindBar(editor, &window);
        auto* layout = new QVBoxLayout(&window);
        layout->addWidget(editor);
        layout->addWidget(bar);
        window.resize(600, 400);
        window.show();
        QVERIFY(QTest::qWaitForWindowActive(&window));
        editor->setDocumentText(QStringLiteral("model: a\nmodel: b\n"));
        editor->setSelection(0, 0, 0, 5);

        bar->showFind();
        QVERIFY(bar->isVisible());
        QVERIFY(!bar->isReplaceVisible());
        QCOMPARE(bar->findText(), QStringLiteral("model")); // seeded from the selection
        auto* field = bar->findChild<QLineEdit*>();
        QVERIFY(field && field->hasFocus());
        QTest::keyClick(field, Qt::Key_Return);
        int line, index;
        editor->getCursorPosition(&line, &index);
        QCOMPARE(line, 1);

        bar->setFindText(QStringLiteral("nothing"));
        QVERIFY(!bar->findNext());
        QCOMPARE(bar->status(), QStringLiteral("No matches"));

        bar->showReplace();
        QVERIFY(bar->isReplaceVisible());
        bar->setFindText(QStringLiteral("model"));
        bar->setReplaceText(QStringLiteral("m"));
        QCOMPARE(bar->replaceAll(), 2);
        QCOMPARE(editor->text(), QStringLiteral("m: a\nm: b\n"));
        QCOMPARE(bar->status(), QStringLiteral("2 replaced"));

        QTest::keyClick(field, Qt::Key_Escape);
        QVERIFY(!bar->isVisible());
        QVERIFY(editor->hasFocus());
    }
};

QTEST_MAIN(TestEditor)
#include "tst_editor.moc"
