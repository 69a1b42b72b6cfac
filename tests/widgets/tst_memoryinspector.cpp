// The memory inspector over a populated store: table, filters, bulk archive with confirmation,
// retrieval candidates and what-if, history with word diffs and revert, provenance.
#include "core/memory/candidatemodel.h"
#include "core/memory/hashembedding.h"
#include "core/memory/memorystore.h"
#include "core/memory/memorytablemodel.h"
#include "core/workbench/workbenchcontext.h"
#include "isolatedsettings.h"
#include "widgets/memory/memoryhistoryview.h"
#include "widgets/memory/memoryinspector.h"
#include "widgets/memory/memorytimelineview.h"
#include "widgets/memory/retrievalview.h"
#include "widgets/memory/threadview.h"
#include "widgets/workbench/mainwindow.h"

#include <QAction>
#include <QDockWidget>
#include <QMenu>
#include <QMenuBar>
#include <QSettings>
#include <QStandardPaths>

#include <QDoubleSpinBox>
#include <QLineEdit>
#include <QListWidget>
#include <QSignalSpy>
#include <QTabWidget>
#include <QTableView>
#include <QTableWidget>
#include <QTemporaryDir>
#include <QTest>
#include <QTreeWidget>

using namespace hako;
using namespace hako::memory;

namespace {

constexpr Millis kHour = 3600000;
constexpr Millis kNow = 1714557600000;

const char* kTexts[] = {
    "Mika asked whether anyone tried the new ramen place on 5th street",
    "Jun said the broth is great but the queue is long",
    "Sora wondered if the ramen place is vegetarian friendly",
    "Jun waited about forty minutes on Saturday",
    "Ren suggested going on a weekday",
    "The ramen place has a miso vegetable bowl",
    "Mika plans to visit Hobbs Cafe on Friday",
    "Tax forms are due at the end of April",
    "Sora is training for a marathon in October",
    "Ren fixed the bicycle's rear brake",
    "Mika likes spicy food",
    "The city council discussed new bike lanes",
};

struct Populated {
    std::shared_ptr<MemoryStore> store;
    int64_t edited = 0;
    int64_t reflection = 0;
    int64_t retrieval = 0;
    int count = 0;
};

Populated populate(const QString& path)
{
    Populated p;
    p.store = MemoryStore::open(path).value();
    const ChangeContext agent{Actor::Agent, QStringLiteral("observe"), QStringLiteral("run-1"), {}};
    std::vector<MemoryRecord> batch;
    int i = 0;
    for (const char* t : kTexts) {
        MemoryRecord r;
        r.text = QString::fromUtf8(t);
        r.importance = 1 + (i * 7) % 10;
        r.createdAt = kNow - (40 - i * 3) * kHour;
        r.embeddingModel = HashEmbeddingProvider::modelName();
        r.embedding = HashEmbeddingProvider::embedText(r.text);
        r.source.threadId = QStringLiteral("cbddc");
        batch.push_back(r);
        ++i;
    }
    const auto ids = p.store->addBatch(batch, agent).value();
    p.count = int(ids.size());
    MemoryRecord edit = p.store->get(ids[1], true).value();
    edit.text = QStringLiteral("Jun said the broth is rich but the queue is very long");
    edit.embedding = HashEmbeddingProvider::embedText(edit.text);
    p.store->update(edit, {Actor::User, QStringLiteral("typo"), {}, {}});
    p.edited = ids[1];
    MemoryRecord refl;
    refl.kind = Kind::Reflection;
    refl.text = QStringLiteral("The ramen place is popular but slow");
    refl.importance = 8;
    refl.createdAt = kNow - 2 * kHour;
    refl.evidence = {ids[1], ids[3], 9999};
    refl.embeddingModel = HashEmbeddingProvider::modelName();
    refl.embedding = HashEmbeddingProvider::embedText(refl.text);
    p.reflection = p.store->add(refl, agent).value();
    ++p.count;
    RetrievalParams params;
    params.mode = RetrievalMode::Ga;
    params.k = 5;
    params.now = kNow;
    const QString q = QStringLiteral("ramen queue");
    p.retrieval = p.store
                      ->retrieve(q, HashEmbeddingProvider::embedText(q),
                                 HashEmbeddingProvider::modelName(), params, agent)
                      ->seq;
    return p;
}

} // namespace

class TestMemoryInspector : public QObject {
    Q_OBJECT

    QTemporaryDir m_dir;
    int m_n = 0;

private Q_SLOTS:
    void initTestCase() { QVERIFY(m_dir.isValid()); }

    void mainWindowHasTheMemoryDock()
    {
        // The window reads and writes settings: keep them in the test's own folder.
        testing::IsolatedSettings settings(QStringLiteral("tst_memoryinspector"));
        QVERIFY(settings.isValid());
        MainWindow window;
        QVERIFY(window.memoryInspector());
        auto* dock = window.findChild<QDockWidget*>(QStringLiteral("memoryDock"));
        QVERIFY(dock);
        QCOMPARE(dock->widget(), static_cast<QWidget*>(window.memoryInspector()));
        QAction* toggle = dock->toggleViewAction();
        QVERIFY(!toggle->isChecked());
        // The View menu's entry for the pane (it brings the pane to the front).
        QAction* entry = window.findChild<QAction*>(QStringLiteral("memoryDockViewAction"));
        QVERIFY(entry);
        QCOMPARE(entry->text(), toggle->text());
        bool inViewMenu = false;
        for (QAction* menu : window.menuBar()->actions()) {
            if (menu->menu() && menu->menu()->actions().contains(entry))
                inViewMenu = true;
        }
        QVERIFY(inViewMenu);
        entry->trigger();
        QVERIFY(!dock->isHidden());
    }

    void threadViewMarksTheContextBoundary()
    {
        MemoryInspector inspector;
        ThreadView* view = inspector.threadView();
        view->loadFile(QStringLiteral(HAKO_TEST_DATA_DIR "/memory/thread.json"));
        QCOMPARE(view->tree()->topLevelItemCount(), 1);
        view->selectMessage(QStringLiteral("8938b"));
        QCOMPARE(view->contextIds(), (QStringList{"cbddc", "fa950", "32411", "8938b"}));
        // The sibling reply 77777 is in the tree under fa950 but outside the context.
        QTreeWidgetItem* fa950 = view->tree()->topLevelItem(0)->child(0);
        QCOMPARE(fa950->text(0), QStringLiteral("fa950"));
        QCOMPARE(fa950->childCount(), 2);
        QVERIFY(fa950->font(0).bold());
        QVERIFY(!fa950->child(1)->font(0).bold());
        QCOMPARE(fa950->child(1)->text(0), QStringLiteral("77777"));
        if (qEnvironmentVariableIsSet("HAKO_SCREENSHOT_DIR")) {
            inspector.resize(1300, 600);
            inspector.tabs()->setCurrentWidget(view);
            inspector.show();
            QTest::qWait(100);
            inspector.grab().save(qEnvironmentVariable("HAKO_SCREENSHOT_DIR") +
                                  QStringLiteral("/memory-thread.png"));
        }
        QSignalSpy errors(view, &ThreadView::errorOccurred);
        view->loadFile(m_dir.filePath(QStringLiteral("missing.json")));
        QCOMPARE(errors.count(), 1);
    }

    void tableFiltersAndArchive()
    {
        const Populated p = populate(m_dir.filePath(QStringLiteral("t%1.hakomem").arg(++m_n)));
        MemoryInspector inspector;
        QStringList asked;
        bool answer = false;
        inspector.setConfirm([&](const QString& q) {
            asked.append(q);
            return answer;
        });
        QSignalSpy loaded(&inspector, &MemoryInspector::loaded);
        inspector.setStore(p.store);
        QTRY_COMPARE(loaded.count(), 1);
        QCOMPARE(inspector.model()->rowCount(), p.count);
        // The timeline: every memory and every access the retrieval made.
        QCOMPARE(inspector.timelineView()->events().size(), size_t(p.count + 5));

        inspector.searchField()->setText(QStringLiteral("ramen"));
        QCOMPARE(inspector.proxy()->rowCount(), 4);
        inspector.searchField()->clear();

        // Semantic search (hash embedding here): the three nearest, without touching the store.
        QSignalSpy searched(&inspector, &MemoryInspector::semanticSearchDone);
        inspector.semanticSearch(QStringLiteral("bicycle brake"), 3);
        QTRY_COMPARE(searched.count(), 1);
        QCOMPARE(inspector.proxy()->rowCount(), 3);
        bool hasBrake = false;
        for (int r = 0; r < 3; ++r)
            hasBrake |= inspector.proxy()
                            ->index(r, MemoryTableModel::Text)
                            .data()
                            .toString()
                            .contains(QLatin1String("brake"));
        QVERIFY(hasBrake);
        QCOMPARE(p.store->retrievals()->size(), size_t(1));
        inspector.semanticSearch({});
        QCOMPARE(inspector.proxy()->rowCount(), p.count);

        // Select two rows and archive: refused first, then confirmed.
        QTableView* table = inspector.table();
        table->selectRow(0);
        table->selectionModel()->select(inspector.proxy()->index(2, 0),
                                        QItemSelectionModel::Select | QItemSelectionModel::Rows);
        inspector.archiveSelected();
        QCOMPARE(asked.size(), 1);
        QVERIFY(asked[0].contains(QLatin1String("2 memories")));
        QCOMPARE(p.store->count(State::Archived), int64_t(0));
        answer = true;
        inspector.archiveSelected();
        QTRY_COMPARE(loaded.count(), 2);
        QCOMPARE(p.store->count(State::Archived), int64_t(2));
        QCOMPARE(inspector.model()->index(0, MemoryTableModel::State).data().toString(),
                 QStringLiteral("archived"));
        QCOMPARE(p.store->journal(1)->back().actor, Actor::User);
    }

    void retrievalAndWhatIf()
    {
        const Populated p = populate(m_dir.filePath(QStringLiteral("t%1.hakomem").arg(++m_n)));
        MemoryInspector inspector;
        inspector.resize(1300, 800);
        QSignalSpy loaded(&inspector, &MemoryInspector::loaded);
        inspector.setStore(p.store);
        QTRY_COMPARE(loaded.count(), 1);
        RetrievalView* view = inspector.retrievalView();
        QTRY_COMPARE(view->retrievalList()->count(), 1);
        QSignalSpy shown(view, &RetrievalView::resultShown);
        view->retrievalList()->setCurrentRow(0);
        QTRY_COMPARE(shown.count(), 1);
        CandidateModel* model = view->candidateModel();
        QCOMPARE(model->rowCount(), p.count);
        QCOMPARE(model->result().promptOrder.size(), size_t(5));
        QCOMPARE(model->index(5, CandidateModel::Cut).data().toString(),
                 QStringLiteral("below top 5"));
        QVERIFY(!model->index(0, CandidateModel::Text)
                     .data()
                     .toString()
                     .startsWith(QLatin1String("(memory")));

        // Relevance only: the ranking changes and the view names what was added and removed.
        const RetrievalResult original = model->result();
        RetrievalParams relevanceOnly = original.params;
        relevanceOnly.weights = {0, 0, 1};
        const RetrievalDiff expected =
            diffRetrievals(original, p.store->whatIf(p.retrieval, relevanceOnly)->result);
        QVERIFY(!expected.added.empty());
        const auto spins = view->findChildren<QDoubleSpinBox*>();
        QCOMPARE(spins.size(), 4); // decay + three weights
        spins[1]->setValue(0);
        spins[2]->setValue(0);
        view->runWhatIf();
        QTRY_COMPARE(shown.count(), 2);
        QCOMPARE(model->diff().added, expected.added);
        QCOMPARE(model->diff().removed, expected.removed);
        QVERIFY2(
            view->diffSummary().contains(QStringLiteral("added %1").arg(expected.added.front())),
            qPrintable(view->diffSummary()));
        // What-if left the store alone: still one retrieval, same access counts.
        QCOMPARE(p.store->retrievals()->size(), size_t(1));

        if (qEnvironmentVariableIsSet("HAKO_SCREENSHOT_DIR")) {
            inspector.show();
            QTest::qWait(200);
            inspector.grab().save(qEnvironmentVariable("HAKO_SCREENSHOT_DIR") +
                                  QStringLiteral("/memory-whatif.png"));
        }
    }

    // Clicking a retrieval made during a run selects the trace node that made it; selecting a
    // node elsewhere shows that node's retrieval; retrievals made outside a run change nothing.
    void retrievalSelectsItsTraceNode()
    {
        const Populated p = populate(m_dir.filePath(QStringLiteral("t%1.hakomem").arg(++m_n)));
        RetrievalParams params;
        params.mode = RetrievalMode::Seed;
        const QString q = QStringLiteral("bike lanes");
        const ChangeContext inRun{Actor::Agent, QStringLiteral("memory.retrieve"),
                                  QStringLiteral("run-2"), QStringLiteral("text.3.repeat.1.data")};
        const int64_t fromRun = p.store
                                    ->retrieve(q, HashEmbeddingProvider::embedText(q),
                                               HashEmbeddingProvider::modelName(), params, inRun)
                                    ->seq;
        const ChangeContext other{Actor::Agent, QStringLiteral("memory.retrieve"),
                                  QStringLiteral("run-2"), QStringLiteral("text.5.data")};
        const int64_t fromOther = p.store
                                      ->retrieve(q, HashEmbeddingProvider::embedText(q),
                                                 HashEmbeddingProvider::modelName(), params, other)
                                      ->seq;

        WorkbenchContext context;
        MemoryInspector inspector;
        inspector.setWorkbenchContext(&context);
        QCOMPARE(inspector.workbenchContext(), &context);
        QSignalSpy loaded(&inspector, &MemoryInspector::loaded);
        inspector.setStore(p.store);
        QTRY_COMPARE(loaded.count(), 1);
        QListWidget* list = inspector.retrievalView()->retrievalList();
        QTRY_COMPARE(list->count(), 3);
        QSignalSpy nodeChanged(&context, &WorkbenchContext::currentNodeChanged);

        auto rowOf = [&](int64_t seq) {
            for (int row = 0; row < list->count(); ++row)
                if (list->item(row)->data(RetrievalView::SeqRole).toLongLong() == seq)
                    return row;
            return -1;
        };
        auto clickRow = [&](int row) {
            const QRect r = list->visualItemRect(list->item(row));
            QTest::mouseClick(list->viewport(), Qt::LeftButton, {}, r.center());
        };
        inspector.resize(1300, 800);
        inspector.tabs()->setCurrentWidget(inspector.retrievalView());
        inspector.show();
        QVERIFY(QTest::qWaitForWindowExposed(&inspector));
        QVERIFY(list->item(rowOf(fromRun))->text().contains(u"@ text.3.repeat.1.data"));

        clickRow(rowOf(fromRun));
        QTRY_COMPARE(nodeChanged.count(), 1);
        QCOMPARE(context.currentNode(), QStringLiteral("text.3.repeat.1.data"));
        QCOMPARE(nodeChanged.at(0).at(1).value<QObject*>(), static_cast<QObject*>(&inspector));

        // A retrieval made outside a run (no node): the trace selection stays.
        clickRow(rowOf(p.retrieval));
        QTest::qWait(50);
        QCOMPARE(nodeChanged.count(), 1);
        QCOMPARE(context.currentNode(), QStringLiteral("text.3.repeat.1.data"));

        // Another pane selects a node: the inspector shows that node's retrieval, without
        // echoing a selection back.
        QSignalSpy shown(inspector.retrievalView(), &RetrievalView::resultShown);
        QObject trace;
        context.setCurrentNode(QStringLiteral("text.5.data"), &trace);
        QCOMPARE(list->currentRow(), rowOf(fromOther));
        QTRY_VERIFY(shown.count() >= 1);
        QCOMPARE(context.currentNode(), QStringLiteral("text.5.data"));
        QCOMPARE(nodeChanged.count(), 2);

        // Disconnected: clicks no longer reach the bus.
        inspector.setWorkbenchContext(nullptr);
        clickRow(rowOf(fromRun));
        QTest::qWait(50);
        QCOMPARE(context.currentNode(), QStringLiteral("text.5.data"));

        if (qEnvironmentVariableIsSet("HAKO_SCREENSHOT_DIR"))
            inspector.grab().save(qEnvironmentVariable("HAKO_SCREENSHOT_DIR") +
                                  QStringLiteral("/memory-retrieval-node.png"));
    }

    void historyDiffRevertAndProvenance()
    {
        const Populated p = populate(m_dir.filePath(QStringLiteral("t%1.hakomem").arg(++m_n)));
        MemoryInspector inspector;
        inspector.resize(1300, 800);
        inspector.setConfirm([](const QString&) { return true; });
        QSignalSpy loaded(&inspector, &MemoryInspector::loaded);
        inspector.setStore(p.store);
        QTRY_COMPARE(loaded.count(), 1);
        MemoryHistoryView* history = inspector.historyView();
        QSignalSpy historyLoaded(history, &MemoryHistoryView::loaded);
        inspector.selectMemory(p.edited);
        QTRY_COMPARE(historyLoaded.count(), 1);
        // add, update, and an access if the retrieval chose it
        const int entries = int(p.store->journal(p.edited)->size());
        QVERIFY(entries >= 2);
        QCOMPARE(history->entries()->rowCount(), entries);
        history->entries()->selectRow(1);
        QCOMPARE(history->entries()->item(1, 2)->text(), QStringLiteral("update"));
        const QString html = history->diffHtml();
        QVERIFY2(html.contains(QLatin1String("line-through")) &&
                     html.contains(QLatin1String("great")),
                 qPrintable(html));
        QVERIFY(html.contains(QLatin1String("rich")));
        history->revertSelected();
        QTRY_COMPARE(historyLoaded.count(), 2);
        QCOMPARE(p.store->get(p.edited)->text, QString::fromUtf8(kTexts[1]));
        QCOMPARE(history->entries()->rowCount(), entries + 1);

        if (qEnvironmentVariableIsSet("HAKO_SCREENSHOT_DIR")) {
            inspector.tabs()->setCurrentWidget(history);
            inspector.show();
            QTest::qWait(200);
            inspector.grab().save(qEnvironmentVariable("HAKO_SCREENSHOT_DIR") +
                                  QStringLiteral("/memory-history.png"));
            inspector.tabs()->setCurrentWidget(inspector.timelineView());
            QTest::qWait(100);
            inspector.grab().save(qEnvironmentVariable("HAKO_SCREENSHOT_DIR") +
                                  QStringLiteral("/memory-timeline.png"));
        }

        inspector.selectMemory(p.reflection);
        QTRY_COMPARE(historyLoaded.count(), 3);
        QTreeWidgetItem* evidence = history->provenance()->topLevelItem(0);
        QCOMPARE(evidence->childCount(), 3);
        QCOMPARE(evidence->child(2)->text(1), QStringLiteral("broken link: no such memory"));
        QVERIFY(evidence->child(0)->text(1).startsWith(QLatin1String("Jun said")));
    }
};

QTEST_MAIN(TestMemoryInspector)
#include "tst_memoryinspector.moc"
