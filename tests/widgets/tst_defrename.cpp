// Rename Definition: the variable under the cursor renamed everywhere as one undo step, and
// the refusals reported through message().
#include "widgets/editor/defrename.h"
#include "widgets/editor/pdleditor.h"

#include <QAction>
#include <QSignalSpy>
#include <QTest>

using namespace hako;

namespace {

const QString kProgram = QStringLiteral("text:\n"
                                        "- def: topic # what to write about\n"
                                        "  data: cats\n"
                                        "- \"Write about ${ topic }.\"\n"
                                        "- ${ topic | upper }\n");

void putCursor(PdlEditor* editor, int line, int column)
{
    SourceSpan at;
    at.line = line;
    at.column = column;
    editor->selectSpan(at);
}

} // namespace

class TestDefRename : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void renameIsOneUndoStep()
    {
        PdlEditor editor;
        editor.setDocumentText(kProgram);
        DefRename rename(&editor);
        QString askedFor;
        rename.setNameAsker([&](const QString& current) -> std::optional<QString> {
            askedFor = current;
            return QStringLiteral("subject");
        });
        QSignalSpy finished(&rename, &DefRename::finished);
        QSignalSpy renamed(&rename, &DefRename::renamed);
        QSignalSpy message(&rename, &DefRename::message);
        putCursor(&editor, 4, 19); // on the use
        rename.action()->trigger();
        QTRY_COMPARE(finished.count(), 1);
        QCOMPARE(finished.at(0).at(0).toBool(), true);
        QCOMPARE(message.count(), 0);
        QCOMPARE(askedFor, QStringLiteral("topic"));
        QCOMPARE(renamed.at(0).at(2).toInt(), 3);
        QCOMPARE(editor.text(),
                 QString(kProgram)
                     .replace(QStringLiteral("${ topic"), QStringLiteral("${ subject"))
                     .replace(QStringLiteral("def: topic"), QStringLiteral("def: subject")));
        QVERIFY(editor.isModified());
        editor.undo();
        QCOMPARE(editor.text(), kProgram);
    }

    void cursorJustAfterTheName()
    {
        PdlEditor editor;
        editor.setDocumentText(kProgram);
        DefRename rename(&editor);
        QSignalSpy finished(&rename, &DefRename::finished);
        putCursor(&editor, 2, 13); // right after `topic` in `def: topic`
        rename.renameAtCursorTo(QStringLiteral("t"));
        QTRY_COMPARE(finished.count(), 1);
        QVERIFY(editor.text().contains(QLatin1String("${ t | upper }")));
    }

    void refusals_data()
    {
        QTest::addColumn<int>("line");
        QTest::addColumn<int>("column");
        QTest::addColumn<QString>("newName");
        QTest::addColumn<QString>("expected");
        QTest::newRow("no variable") << 1 << 2 << "x"
                                     << "Put the cursor on a variable";
        QTest::newRow("keyword") << 2 << 9 << "for"
                                 << "keyword";
        QTest::newRow("not an identifier") << 2 << 9 << "my topic"
                                           << "not a valid variable name";
    }

    void refusals()
    {
        QFETCH(int, line);
        QFETCH(int, column);
        QFETCH(QString, newName);
        QFETCH(QString, expected);
        PdlEditor editor;
        editor.setDocumentText(kProgram);
        DefRename rename(&editor);
        rename.setNameAsker([&](const QString&) { return std::optional<QString>(newName); });
        QSignalSpy finished(&rename, &DefRename::finished);
        QSignalSpy message(&rename, &DefRename::message);
        putCursor(&editor, line, column);
        rename.renameAtCursor();
        QTRY_COMPARE(finished.count(), 1);
        QCOMPARE(finished.at(0).at(0).toBool(), false);
        QCOMPARE(message.count(), 1);
        QVERIFY2(message.at(0).at(0).toString().contains(expected),
                 qPrintable(message.at(0).at(0).toString()));
        QCOMPARE(editor.text(), kProgram);
    }

    void cancelChangesNothing()
    {
        PdlEditor editor;
        editor.setDocumentText(kProgram);
        DefRename rename(&editor);
        rename.setNameAsker([](const QString&) { return std::optional<QString>(); });
        QSignalSpy finished(&rename, &DefRename::finished);
        QSignalSpy message(&rename, &DefRename::message);
        putCursor(&editor, 2, 9);
        rename.renameAtCursor();
        QTRY_COMPARE(finished.count(), 1);
        QCOMPARE(message.count(), 0);
        QCOMPARE(editor.text(), kProgram);
    }

    void shortcutAndName()
    {
        PdlEditor editor;
        DefRename rename(&editor);
        QCOMPARE(rename.action()->shortcut(), QKeySequence(Qt::SHIFT | Qt::Key_F6));
        QVERIFY(editor.actions().contains(rename.action()));
        QVERIFY(!rename.action()->text().isEmpty());
        editor.setDocumentText(kProgram);
        rename.setNameAsker(
            [](const QString&) { return std::optional<QString>(QStringLiteral("z")); });
        QSignalSpy finished(&rename, &DefRename::finished);
        editor.show();
        QVERIFY(QTest::qWaitForWindowActive(&editor));
        editor.setFocus();
        putCursor(&editor, 2, 9);
        QTest::keyClick(&editor, Qt::Key_F6, Qt::ShiftModifier);
        QTRY_COMPARE(finished.count(), 1);
        QVERIFY(editor.text().contains(QLatin1String("def: z")));
    }
};

QTEST_MAIN(TestDefRename)
#include "tst_defrename.moc"
