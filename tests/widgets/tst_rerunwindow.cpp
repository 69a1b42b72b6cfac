// Re-run from Here in the window: after a run of a loop with a model call in each iteration,
// the third iteration's model box offers Re-run from Here; choosing it (with the prompt edited
// in the editor meanwhile) sends only the calls from that block on, marks the replayed blocks,
// and the new run is the one the panes show; its message bar compares it with the original.
#include "core/pdl/trace/tracediff.h"
#include "core/pdl/trace/tracediffmodel.h"
#include "core/pdl/trace/tracemodel.h"
#include "core/workbench/runcontroller.h"
#include "core/workbench/workbenchcontext.h"
#include "isolatedsettings.h"
#include "openaitestserver.h"
#include "widgets/common/messagebar.h"
#include "widgets/editor/editorpane.h"
#include "widgets/editor/pdleditor.h"
#include "widgets/trace/boxview.h"
#include "widgets/trace/tracediffview.h"
#include "widgets/trace/tracetreeview.h"
#include "widgets/workbench/difflinks.h"
#include "widgets/workbench/mainwindow.h"
#include "widgets/workbench/runactions.h"
#include "widgets/workbench/tracedocks.h"

#include <QAction>
#include <QDockWidget>
#include <QFile>
#include <QPushButton>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>
#include <QTreeView>

using namespace hako;
using namespace hako::testing;

namespace {

const char* kProgram = "text:\n"
                       "- repeat:\n"
                       "    text:\n"
                       "    - \"Q${ i }. \"\n"
                       "    - model: openai/gpt-4o-mini\n"
                       "      input: \"Tell me about ${ i }\"\n"
                       "  for:\n"
                       "    i: [1, 2, 3, 4]\n";

const pdl::TraceNode* findNode(const pdl::TraceNode& n, const std::string& id)
{
    if (n.id == id)
        return &n;
    for (const auto& c : n.children)
        for (const auto& x : c.nodes)
            if (x)
                if (const pdl::TraceNode* f = findNode(*x, id))
                    return f;
    return nullptr;
}

int chats(const OpenAiTestServer& server)
{
    int n = 0;
    for (const RecordedRequest& r : server.requests())
        n += r.path.endsWith("/chat/completions");
    return n;
}

} // namespace

class TestRerunWindow : public QObject {
    Q_OBJECT

    std::unique_ptr<IsolatedSettings> m_settings;
    OpenAiTestServer m_server;
    QTemporaryDir m_dir;

private Q_SLOTS:
    void initTestCase()
    {
        qRegisterMetaType<Diagnostic>();
        m_settings = std::make_unique<IsolatedSettings>(QStringLiteral("tst_rerunwindow"));
        QVERIFY(m_settings->isValid());
        QVERIFY(m_server.start());
        qputenv("OPENAI_BASE_URL", m_server.baseUrl().toUtf8());
        qputenv("OPENAI_API_KEY", "sk-test-SECRET-11");
        qputenv("OLLAMA_API_BASE", "http://127.0.0.1:1");
    }

    void rerunFromTheThirdIteration()
    {
        const QString path = m_dir.filePath(QStringLiteral("loop.pdl"));
        {
            QFile f(path);
            QVERIFY(f.open(QIODevice::WriteOnly));
            f.write(kProgram);
        }
        MainWindow window;
        window.resize(1280, 800);
        window.show();
        QVERIFY(window.openFile(path));
        RunController* run = window.runController();
        QSignalSpy finished(run, &RunController::finished);
        QVERIFY(window.runProgram());
        QTRY_COMPARE_WITH_TIMEOUT(finished.count(), 1, 30000);
        QVERIFY(finished.first().at(0).toBool());
        QCOMPARE(chats(m_server), 4);
        const QString firstRun = run->lastRunId();

        // The user edits the prompt, then re-runs from the third iteration's model box.
        PdlEditor* editor = window.editorPane()->editor();
        editor->setText(editor->text().replace(QStringLiteral("Tell me about"),
                                               QStringLiteral("Tell me more about")));
        const QString node = QStringLiteral("text.0.repeat.2.text.1.model");
        QVERIFY(findNode(*run->lastTrace(), node.toStdString()));
        // Selected in the panes (as a click in the Trace Tree does), Run › Re-run from Selected
        // Block — also in the Trace Tree's context menu — re-runs from it.
        QAction* rerun = window.runActions()->rerunSelectedAction();
        QVERIFY(window.traceDocks()->treeView()->treeView()->actions().contains(rerun));
        window.context()->setCurrentNode(node, nullptr);
        QTRY_VERIFY(rerun->isEnabled());
        rerun->trigger();
        QTRY_COMPARE_WITH_TIMEOUT(finished.count(), 2, 30000);
        QVERIFY(finished.at(1).at(0).toBool());
        // Only the third and fourth iterations' calls were sent, with the new wording.
        QCOMPARE(chats(m_server), 6);
        QVERIFY(m_server.requests().last().body.contains("Tell me more about 4"));
        QCOMPARE(run->forkedFromRun(), firstRun);
        QCOMPARE(run->forkedFromNode(), node);
        // The first two iterations' calls were replayed: marked so in the new trace.
        const pdl::TraceNode* replayed =
            findNode(*run->lastTrace(), "text.0.repeat.0.text.1.model");
        QVERIFY(replayed && replayed->replayed);
        const pdl::TraceNode* live = findNode(*run->lastTrace(), node.toStdString());
        QVERIFY(live && !live->replayed);
        // The panes say so: the Trace Tree's duration column of a replayed call.
        pdl::TraceModel* model = window.context()->traceModel();
        const pdl::TraceItem* item =
            model->findById(QStringLiteral("text.0.repeat.0.text.1.model"));
        QVERIFY(item);
        QCOMPARE(model->data(model->indexOf(item, pdl::TraceModel::DurationColumn)).toString(),
                 QStringLiteral("replayed"));
        const pdl::TraceItem* liveItem = model->findById(node);
        QVERIFY(liveItem);
        QVERIFY(model->data(model->indexOf(liveItem, pdl::TraceModel::DurationColumn)).toString() !=
                QStringLiteral("replayed"));

        // The message bar says where the run forked and offers the comparison: only the third
        // and fourth iterations differ, the third's model call by its prompt.
        MessageBar* bar = window.editorPane()->messageBar();
        QVERIFY2(bar->text().contains(QLatin1String("line 5")), qPrintable(bar->text()));
        auto* compare = bar->findChild<QPushButton*>(QStringLiteral("messageBarAction"));
        QVERIFY(compare && compare->isVisible());
        auto* diffs = window.findChild<DiffLinks*>();
        QVERIFY(diffs);
        QSignalSpy compared(diffs, &DiffLinks::compared);
        compare->click();
        QTRY_COMPARE_WITH_TIMEOUT(compared.count(), 1, 20000);
        // It opens as a tab of the wide bottom group, not squeezed beside the Console.
        auto* console = window.findChild<QDockWidget*>(QStringLiteral("consoleDock"));
        QVERIFY(console);
        QVERIFY(window.tabifiedDockWidgets(console).contains(diffs->dock()));
        const auto& diff = diffs->view()->model()->diff();
        QVERIFY(diff && !diff->isSame());
        bool thirdChanged = false;
        for (const pdl::TraceDiff::Node& n : diff->nodes()) {
            if (n.status == pdl::TraceDiff::Status::Same)
                continue;
            QVERIFY2(!n.path.startsWith(QLatin1String("text.0.repeat.0")) &&
                         !n.path.startsWith(QLatin1String("text.0.repeat.1")),
                     qPrintable(n.path + QLatin1Char(' ') +
                                pdl::TraceDiff::changeNames(n.changes).join(QLatin1Char(',')) +
                                QString::number(int(n.status))));
            if (n.path == node)
                thirdChanged = n.changes & pdl::TraceDiff::PromptChanged;
        }
        QVERIFY(thirdChanged);
    }

    void withoutARunItSaysSo()
    {
        MainWindow window;
        window.show();
        QVERIFY(!window.runActions()->rerunFrom(QStringLiteral("text.0.model")));
    }
};

QTEST_MAIN(TestRerunWindow)
#include "tst_rerunwindow.moc"
