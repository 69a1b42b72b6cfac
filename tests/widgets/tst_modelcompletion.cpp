// Completion after `model:` in the editor offers the models every configured endpoint serves (as
// `hako models` finds them, listed in the background by ModelCatalog), `default` and the default
// model, for the configuration of the program's own folder.
#include "core/models/modelcatalog.h"
#include "core/models/modelconfig.h"
#include "widgets/editor/editorpane.h"
#include "widgets/editor/pdleditor.h"

#include <QSignalSpy>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QThreadPool>
#include <QtTest>

#include <atomic>

using namespace hako;

namespace {

QStringList offered(PdlEditor* editor)
{
    QStringList out;
    for (const pdl::CompletionItem& i : editor->completionsAtCursor().items)
        out << i.text;
    return out;
}

void writeFile(const QString& path, const QByteArray& text)
{
    QFile f(path);
    QVERIFY(f.open(QIODevice::WriteOnly));
    f.write(text);
}

} // namespace

class TestModelCompletion : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void initTestCase()
    {
        QStandardPaths::setTestModeEnabled(true);
        QCoreApplication::setOrganizationName(QStringLiteral("hako-tests"));
        QCoreApplication::setApplicationName(QStringLiteral("tst_modelcompletion"));
        QFile::remove(models::ModelConfig::userFile());
    }
    void cleanup() { QThreadPool::globalInstance()->waitForDone(); }

    void offersWhatTheEndpointsServe()
    {
        std::atomic<int> asked{0};
        QTemporaryDir project;
        models::ModelCatalog* catalog = models::ModelCatalog::instance();
        catalog->invalidate();
        const QString projectKey = models::ModelCatalog::folderKey(project.path());
        catalog->setLister([&asked, projectKey](const QString& dir, const CancelToken&) {
            // Only the project folder's listings count: an editor may also ask for another
            // folder (none open yet), whose answer can arrive at any time.
            if (dir == projectKey)
                ++asked;
            // What `hako models` would list for this folder's configuration.
            return dir.isEmpty() ? QStringList()
                                 : QStringList{QStringLiteral("ollama/granite3.2:8b"),
                                               QStringLiteral("openai/gpt-4o-mini")};
        });
        const QString program = project.filePath(QStringLiteral("ask.pdl"));
        writeFile(program, "text:\n- model: \n");
        EditorPane pane(nullptr);
        QSignalSpy changed(catalog, &models::ModelCatalog::modelsChanged);
        QVERIFY(pane.openFile(program));
        PdlEditor* editor = pane.editor();
        editor->setCursorPosition(1, 9); // after "- model: "
        // Listed in the background: the editor offers them once the endpoints answered.
        QTRY_VERIFY(offered(editor).contains(QStringLiteral("openai/gpt-4o-mini")));
        const QStringList names = offered(editor);
        QVERIFY2(names.contains(QStringLiteral("ollama/granite3.2:8b")),
                 qPrintable(names.join(',')));
        QVERIFY(names.contains(QStringLiteral("default")));
        QVERIFY(names.contains(QString::fromLatin1(models::ModelConfig::kFallbackDefaultModel)));
        QVERIFY(names.contains(QStringLiteral("ollama/")));
        // Cached: another editor on the same folder gets the names without asking again.
        const int before = asked;
        EditorPane second(nullptr);
        QVERIFY(second.openFile(program));
        second.editor()->setCursorPosition(1, 9);
        QVERIFY(offered(second.editor()).contains(QStringLiteral("openai/gpt-4o-mini")));
        QCOMPARE(asked.load(), before);
        // Typed text filters them.
        editor->insertAt(QStringLiteral("openai"), 1, 9);
        editor->setCursorPosition(1, 15);
        QCOMPARE(offered(editor), QStringList{QStringLiteral("openai/gpt-4o-mini")});
        catalog->setLister(&models::ModelCatalog::listConfigured);
    }

    void offersTheConfiguredDefaultModel()
    {
        QTemporaryDir project;
        writeFile(project.filePath(QStringLiteral("hako-models.yaml")),
                  "endpoints:\n  gpu: {base_url: 'http://127.0.0.1:9/v1'}\n"
                  "models:\n  \"gpu/*\": gpu\ndefault_model: gpu/llama\n");
        models::ModelCatalog* catalog = models::ModelCatalog::instance();
        catalog->invalidate();
        catalog->setLister([](const QString&, const CancelToken&) { return QStringList(); });
        const QString program = project.filePath(QStringLiteral("ask.pdl"));
        writeFile(program, "text:\n- model: \n");
        EditorPane pane(nullptr);
        QVERIFY(pane.openFile(program));
        pane.editor()->setCursorPosition(1, 9);
        const QStringList names = offered(pane.editor());
        QVERIFY2(names.contains(QStringLiteral("gpu/llama")), qPrintable(names.join(',')));
        QVERIFY(names.contains(QStringLiteral("gpu/")));
        catalog->setLister(&models::ModelCatalog::listConfigured);
    }
};

QTEST_MAIN(TestModelCompletion)
#include "tst_modelcompletion.moc"
