// Completion after `model:` in the editor offers the models the configured servers serve (listed
// in the background by ModelCatalog) and `default` when it goes to a server that answered, for
// the configuration of the program's own folder; never a bare prefix (`ollama/`) nor a name that
// would not reach a server.
#include "core/models/modelcatalog.h"
#include "core/models/modelconfig.h"
#include "openaitestserver.h"
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
        // Only what the catalog found: no bare prefix, no default model nobody answered for.
        QVERIFY(!names.contains(QStringLiteral("ollama/")));
        QVERIFY(!names.contains(QString::fromLatin1(models::ModelConfig::kFallbackDefaultModel)));
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
        catalog->setLister(&models::listModelChoices);
    }

    void offersTheConfiguredDefaultModelWhenItsServerAnswers()
    {
        QTemporaryDir project;
        const QString yaml = project.filePath(QStringLiteral("hako-models.yaml"));
        // A server that does not answer: neither its default model, nor `default`, nor `gpu/`.
        writeFile(yaml, "endpoints:\n  gpu: {base_url: 'http://127.0.0.1:9/v1'}\n"
                        "models:\n  \"gpu/*\": gpu\ndefault_model: gpu/llama\n");
        models::ModelCatalog* catalog = models::ModelCatalog::instance();
        catalog->invalidate();
        const QString program = project.filePath(QStringLiteral("ask.pdl"));
        writeFile(program, "text:\n- model: \n");
        EditorPane pane(nullptr);
        QSignalSpy changed(catalog, &models::ModelCatalog::modelsChanged);
        QVERIFY(pane.openFile(program));
        const QString key = models::ModelCatalog::folderKey(project.path());
        auto answeredFor = [&changed, key] {
            for (const QList<QVariant>& s : changed)
                if (s.at(0).toString() == key)
                    return true;
            return false;
        };
        QTRY_VERIFY_WITH_TIMEOUT(answeredFor(), 15000);
        pane.editor()->setCursorPosition(1, 9);
        QStringList names = offered(pane.editor());
        for (const QString& n : names)
            QVERIFY2(!n.startsWith(QLatin1String("gpu/")) && n != QLatin1String("default"),
                     qPrintable(names.join(',')));

        // The same settings with a server that answers: `default` and its models, and the
        // `model` snippet calls the default model.
        testing::OpenAiTestServer server;
        QVERIFY(server.start());
        server.setModels({QStringLiteral("llama"), QStringLiteral("qwen")});
        writeFile(yaml, "endpoints:\n  gpu: {base_url: '" + server.baseUrl().toUtf8() +
                            "'}\nmodels:\n  \"gpu/*\": gpu\ndefault_model: gpu/llama\n");
        changed.clear();
        catalog->invalidate(); // what the model settings do after a change
        QTRY_VERIFY_WITH_TIMEOUT(answeredFor(), 15000);
        names = offered(pane.editor());
        QVERIFY2(names.contains(QStringLiteral("default")) &&
                     names.contains(QStringLiteral("gpu/llama")) &&
                     names.contains(QStringLiteral("gpu/qwen")),
                 qPrintable(names.join(',')));
        QVERIFY(!names.contains(QStringLiteral("gpu/")));
        QCOMPARE(pane.editor()->defaultModel(), QStringLiteral("gpu/llama"));
        // Each says which server serves it.
        QString why;
        for (const pdl::CompletionItem& i : pane.editor()->completionsAtCursor().items)
            if (i.text == QLatin1String("gpu/qwen"))
                why = i.documentation;
        QVERIFY2(why.contains(server.baseUrl()), qPrintable(why));
    }
};

QTEST_MAIN(TestModelCompletion)
#include "tst_modelcompletion.moc"
