// Annotations in the window: Annotate… on a trace file's model call (thumbs down and a note)
// marks its Trace Tree row, shows in the Detail pane, is found by `annotated`, `score:down` and
// `note:` in the tree's search, survives opening the trace again in a new window, exports as
// JSON Lines and goes to a dataset with the note as the reference. A garbled sidecar is
// reported and never written over.
#include "core/pdl/trace/traceloader.h"
#include "core/pdl/trace/tracemodel.h"
#include "core/workbench/runcontroller.h"
#include "core/workbench/workbenchcontext.h"
#include "isolatedsettings.h"
#include "widgets/eval/datasetpane.h"
#include "widgets/trace/annotationdialog.h"
#include "widgets/trace/tracetreeview.h"
#include "widgets/workbench/annotationlinks.h"
#include "widgets/workbench/programtabs.h"
#include "widgets/workbench/tracedocks.h"

#include "core/pdl/trace/tracefilterproxy.h"

#include <QAction>
#include <QComboBox>
#include <QDockWidget>
#include <QFile>
#include <QJsonDocument>
#include <QLabel>
#include <QMainWindow>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>
#include <QToolButton>
#include <QTreeView>

using namespace hako;

namespace {

const char kModelNode[] = "text.1.model";

struct Window {
    QMainWindow window;
    WorkbenchContext context;
    ProgramTabs* tabs = new ProgramTabs(&context, &window);
    TraceDocks traces{&window, &context, tabs->currentRun()};
    AnnotationLinks links{&context, &traces};
    Window() { window.setCentralWidget(tabs); }

    bool open(const QString& path)
    {
        QSignalSpy loaded(traces.traceLoader(), &pdl::TraceLoader::loaded);
        traces.openTrace(path);
        return loaded.wait(20000);
    }
    // The Trace Tree row's text of a node, as screen readers read it.
    QString rowText(const QString& id) const
    {
        pdl::TraceFilterProxy* proxy = traces.treeView()->filterProxy();
        const pdl::TraceModel* model = traces.fileTraceModel();
        const QModelIndex i = proxy->mapFromSource(model->indexOf(model->findById(id)));
        return i.data().toString();
    }
    QStringList hits(const QString& search) const
    {
        traces.treeView()->setFilterText(search);
        QStringList out;
        pdl::TraceFilterProxy* proxy = traces.treeView()->filterProxy();
        std::vector<QModelIndex> stack{QModelIndex()};
        while (!stack.empty()) {
            const QModelIndex p = stack.back();
            stack.pop_back();
            if (p.isValid() && proxy->matches(proxy->itemAt(p)))
                out << QString::fromStdString(proxy->itemAt(p)->node.id);
            for (int r = 0; r < proxy->rowCount(p); ++r)
                stack.push_back(proxy->index(r, 0, p));
        }
        return out;
    }
};

} // namespace

class TestAnnotationLinks : public QObject {
    Q_OBJECT

    std::unique_ptr<testing::IsolatedSettings> m_settings;
    QTemporaryDir m_dir;
    QString m_trace;

private Q_SLOTS:
    void initTestCase()
    {
        m_settings = std::make_unique<testing::IsolatedSettings>("tst_annotationlinks");
        QVERIFY(m_settings->isValid());
    }
    void init()
    {
        m_trace = m_dir.filePath(QStringLiteral("translate.json"));
        QFile::remove(m_trace);
        QFile::remove(pdl::annotationsPath(m_trace));
        QVERIFY(QFile::copy(QStringLiteral(HAKO_TEST_DATA_DIR) +
                                "/conformance/model/traces/"
                                "ex_tutorial_calling_llm_with_input_messages_var.json",
                            m_trace));
    }

    void annotateMarkFilterReload()
    {
        {
            Window w;
            QVERIFY(w.open(m_trace));
            QVERIFY(!w.rowText(kModelNode).contains(QStringLiteral("✗")));
            w.context.setCurrentNode(kModelNode);
            AnnotationDialog* dialog = w.links.annotateCurrent();
            QVERIFY(dialog);
            QVERIFY(!dialog->saveButton()->isEnabled()); // no score yet
            QTest::mouseClick(dialog->thumbsDown(), Qt::LeftButton);
            QVERIFY(dialog->saveButton()->isEnabled());
            dialog->noteField()->setPlainText(QStringLiteral("Hola"));
            QTest::mouseClick(dialog->saveButton(), Qt::LeftButton);

            QVERIFY(w.rowText(kModelNode).endsWith(QStringLiteral("✗")));
            QVERIFY(w.links.detailLabel()->isVisibleTo(w.traces.detailDock()->widget()));
            QVERIFY(w.links.detailLabel()->text().contains(QStringLiteral("Hola")));
            QVERIFY(QFile::exists(pdl::annotationsPath(m_trace)));
            QCOMPARE(w.hits(QStringLiteral("annotated")), QStringList{kModelNode});
            QCOMPARE(w.hits(QStringLiteral("score:down")), QStringList{kModelNode});
            QCOMPARE(w.hits(QStringLiteral("score:up")), QStringList{});
            QCOMPARE(w.hits(QStringLiteral("note:hola")), QStringList{kModelNode});
            QVERIFY(w.traces.treeView()->statusLabel()->text().startsWith(QStringLiteral("1 of")));
            // Another node is not annotated: the Detail line goes away.
            w.context.setCurrentNode(QStringLiteral("text"));
            QVERIFY(!w.links.detailLabel()->isVisibleTo(w.traces.detailDock()->widget()));
        }
        // A new window (as after a restart) opening the trace again shows the annotation.
        Window again;
        QVERIFY(again.open(m_trace));
        QVERIFY(again.rowText(kModelNode).endsWith(QStringLiteral("✗")));
        again.context.setCurrentNode(kModelNode);
        AnnotationDialog* dialog = again.links.annotateCurrent();
        QVERIFY(dialog->thumbsDown()->isChecked());
        QCOMPARE(dialog->noteField()->toPlainText(), QStringLiteral("Hola"));
        // Remove takes it off the tree and out of the file.
        QTest::mouseClick(dialog->removeButton(), Qt::LeftButton);
        QVERIFY(!again.rowText(kModelNode).contains(QStringLiteral("✗")));
        QVERIFY(!QFile::exists(pdl::annotationsPath(m_trace)));
    }

    void numberScoreExportAndDataset()
    {
        Window w;
        QVERIFY(w.open(m_trace));
        w.context.setCurrentNode(kModelNode);
        QVERIFY(!w.links.addToDatasetAction()->isEnabled()); // not annotated yet
        AnnotationDialog* dialog = w.links.annotateCurrent();
        dialog->scoreField()->setCurrentText(QStringLiteral("0.25"));
        dialog->noteField()->setPlainText(QStringLiteral("Hola"));
        QTest::mouseClick(dialog->saveButton(), Qt::LeftButton);
        QVERIFY(w.rowText(kModelNode).endsWith(QStringLiteral("0.25")));
        QCOMPARE(w.hits(QStringLiteral("score:<0.5")), QStringList{kModelNode});

        const QString out = m_dir.filePath(QStringLiteral("notes.jsonl"));
        QVERIFY(w.links.exportTo(out));
        QFile f(out);
        QVERIFY(f.open(QIODevice::ReadOnly));
        const QJsonObject line = QJsonDocument::fromJson(f.readLine()).object();
        QCOMPARE(line.value("node").toString(), QString::fromLatin1(kModelNode));
        QCOMPARE(line.value("value").toDouble(), 0.25);
        QVERIFY(line.value("output").toString().contains(QStringLiteral("Spanish")));

        DatasetPane datasets;
        connect(&w.links, &AnnotationLinks::addToDatasetRequested, &datasets,
                [&](const QList<promptlog::CallRecord>& calls) { datasets.addCalls(calls, true); });
        QVERIFY(w.links.addToDatasetAction()->isEnabled());
        w.links.addToDatasetAction()->trigger();
        QCOMPARE(datasets.dataset().examples.size(), 1);
        const eval::Example& e = datasets.dataset().examples.first();
        QCOMPARE(e.referenceText(), QStringLiteral("Hola"));
        QCOMPARE(e.inputs.value("input").toString(),
                 QStringLiteral("Translate 'Hello' to Spanish"));
    }

    void garbledSidecarIsNotWrittenOver()
    {
        QFile f(pdl::annotationsPath(m_trace));
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write("{ half a file");
        f.close();
        Window w;
        QSignalSpy status(&w.links, &AnnotationLinks::statusMessage);
        QVERIFY(w.open(m_trace));
        QVERIFY(!status.isEmpty());
        QVERIFY(status.first().at(0).toString().contains(QStringLiteral("not a file of Hako")));
        w.context.setCurrentNode(kModelNode);
        AnnotationDialog* dialog = w.links.annotateCurrent();
        QTest::mouseClick(dialog->thumbsUp(), Qt::LeftButton);
        QTest::mouseClick(dialog->saveButton(), Qt::LeftButton);
        QVERIFY(w.rowText(kModelNode).endsWith(QStringLiteral("✓"))); // kept in the window
        QVERIFY(f.open(QIODevice::ReadOnly));
        QCOMPARE(f.readAll(), QByteArray("{ half a file"));
    }
};

QTEST_MAIN(TestAnnotationLinks)
#include "tst_annotationlinks.moc"
