// The Notebook pane: a notebook of %%pdl cells run one after another, outputs under the cells,
// edits and outputs saved back into the file.
#include "widgets/notebook/notebookpane.h"

#include "core/workbench/notebook.h"

#include <QLabel>
#include <QPlainTextEdit>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>

using namespace hako;

namespace {

QStringList outputTexts(NotebookPane& pane)
{
    QStringList out;
    for (QLabel* label : pane.findChildren<QLabel*>()) {
        if (label->accessibleDescription().startsWith(QStringLiteral("Output of cell")) &&
            !label->text().isEmpty())
            out << label->accessibleDescription().mid(15) + QLatin1Char('=') + label->text();
    }
    out.sort();
    return out;
}

} // namespace

class TestNotebookPane : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void runAllShowsEachCellsOutputAndSaveKeepsThem()
    {
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("n.ipynb"));
        Notebook notebook = Notebook::forPdl();
        notebook.cells.push_back(NotebookCell::pdl(QStringLiteral("defs:\n  c: 京都\ntext: ${ c }\n")));
        notebook.cells.push_back(
            NotebookCell::pdl(QStringLiteral("text: ${ c }で${ pdl_context | length }\n")));
        QString error;
        QVERIFY2(notebook.write(path, &error), qPrintable(error));

        NotebookPane pane;
        pane.show();
        QVERIFY(pane.openNotebook(path));
        QCOMPARE(pane.cellCount(), 3);
        QSignalSpy finished(&pane, &NotebookPane::cellFinished);
        pane.runAll();
        QTRY_COMPARE_WITH_TIMEOUT(finished.count(), 2, 30000);
        QCOMPARE(outputTexts(pane),
                 (QStringList{QStringLiteral("2=京都"), QStringLiteral("3=京都で1")}));

        // Edit the second PDL cell and run it alone.
        QList<QPlainTextEdit*> editors = pane.findChildren<QPlainTextEdit*>();
        QPlainTextEdit* third = nullptr;
        for (QPlainTextEdit* e : editors) {
            if (e->accessibleName() == QStringLiteral("Source of cell 3"))
                third = e;
        }
        QVERIFY(third);
        third->setPlainText(QStringLiteral("%%pdl\ntext: 奈良\n"));
        pane.runCell(2);
        QTRY_COMPARE_WITH_TIMEOUT(finished.count(), 3, 30000);
        QVERIFY(outputTexts(pane).contains(QStringLiteral("3=奈良")));
        QVERIFY2(pane.save(&error), qPrintable(error));

        Result<Notebook> saved = Notebook::read(path);
        QVERIFY(saved);
        QCOMPARE(saved->cells[2].source, QStringLiteral("%%pdl\ntext: 奈良\n"));
        NotebookPane reopened;
        QVERIFY(reopened.openNotebook(path));
        QVERIFY(outputTexts(reopened).contains(QStringLiteral("3=奈良")));
    }

    void aNonNotebookSaysWhy()
    {
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("x.ipynb"));
        QFile f(path);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write("not json");
        f.close();
        NotebookPane pane;
        QVERIFY(!pane.openNotebook(path));
        bool said = false;
        for (QLabel* label : pane.findChildren<QLabel*>())
            said = said || label->text().contains(QStringLiteral("x.ipynb"));
        QVERIFY(said);
    }
};

QTEST_MAIN(TestNotebookPane)
#include "tst_notebookpane.moc"
