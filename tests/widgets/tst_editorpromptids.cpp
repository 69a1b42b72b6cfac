// Saving a program writes its missing prompt ids (core/pdl/promptidentity.h) through the
// editor: one undoable edit, the cursor stays on its text, saving again changes nothing, an
// unnamed program keeps the ids it got when it ran, and files that are not PDL programs with
// comments (JSON) are left alone.
#include "isolatedsettings.h"
#include "widgets/editor/editorpane.h"
#include "widgets/editor/pdleditor.h"

#include <QFile>
#include <QRegularExpression>
#include <QTemporaryDir>
#include <QTest>

using namespace hako;

namespace {

const QString kProgram = QStringLiteral("description: Notes\n"
                                        "text:\n"
                                        "- Take notes.\n"
                                        "- model: openai/gpt-4o-mini\n"
                                        "- def: title\n"
                                        "  model: openai/gpt-4o-mini\n");

QStringList idsIn(const QString& text)
{
    static const QRegularExpression id(QStringLiteral("# hako-prompt: ([0-9a-f]{12})"));
    QStringList out;
    for (auto it = id.globalMatch(text); it.hasNext();)
        out << it.next().captured(1);
    return out;
}

QString readFile(const QString& path)
{
    QFile f(path);
    return f.open(QIODevice::ReadOnly) ? QString::fromUtf8(f.readAll()) : QString();
}

} // namespace

class TestEditorPromptIds : public QObject {
    Q_OBJECT

    std::unique_ptr<testing::IsolatedSettings> m_settings;
    QTemporaryDir m_dir;

private Q_SLOTS:
    void initTestCase()
    {
        m_settings =
            std::make_unique<testing::IsolatedSettings>(QStringLiteral("tst_editorpromptids"));
    }

    void savingWritesTheMissingIds()
    {
        EditorPane pane(nullptr);
        pane.editor()->setDocumentText(kProgram);
        pane.editor()->setCursorPosition(2, 4); // "- Ta|ke notes."
        const QString path = m_dir.filePath(QStringLiteral("notes.pdl"));
        QVERIFY(pane.saveAs(path));
        const QString saved = readFile(path);
        QCOMPARE(idsIn(saved).size(), 3); // the program and its two model blocks
        QCOMPARE(pane.editor()->text(), saved);
        QVERIFY(!pane.isModified());
        int line = 0, index = 0;
        pane.editor()->getCursorPosition(&line, &index);
        QCOMPARE(pane.editor()->text(line).left(index), QStringLiteral("- Ta"));
        // Saving again changes nothing.
        QVERIFY(pane.save());
        QCOMPARE(readFile(path), saved);
        // One undo step takes the ids out again.
        pane.editor()->undo();
        QCOMPARE(pane.editor()->text(), kProgram);
    }

    void anUnnamedProgramKeepsItsIdsWhenSaved()
    {
        EditorPane pane(nullptr);
        pane.editor()->setDocumentText(kProgram);
        QVERIFY(pane.ensurePromptIds(QString())); // ids written ahead of the first save
        const QStringList ids = idsIn(pane.editor()->text());
        QCOMPARE(ids.size(), 3);
        QVERIFY(!pane.ensurePromptIds(QString()));
        const QString path = m_dir.filePath(QStringLiteral("sub/kept.pdl"));
        QDir().mkpath(QFileInfo(path).absolutePath());
        QVERIFY(pane.saveAs(path));
        QCOMPARE(idsIn(readFile(path)), ids);
    }

    void otherFilesAreLeftAlone_data()
    {
        QTest::addColumn<QString>("name");
        QTest::addColumn<QString>("text");
        QTest::newRow("json") << "p.json"
                              << "{\"model\": \"openai/gpt-4o-mini\"}\n";
        QTest::newRow("yaml without a model") << "data.yaml"
                                              << "rows:\n- 1\n- 2\n";
        QTest::newRow("a program without a model call") << "p.pdl"
                                                        << "text: hi\n";
    }
    void otherFilesAreLeftAlone()
    {
        QFETCH(QString, name);
        QFETCH(QString, text);
        EditorPane pane(nullptr);
        pane.editor()->setDocumentText(text);
        const QString path = m_dir.filePath(name);
        QVERIFY(pane.saveAs(path));
        QCOMPARE(readFile(path), text);
    }
};

QTEST_MAIN(TestEditorPromptIds)
#include "tst_editorpromptids.moc"
