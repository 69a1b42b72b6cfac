// The Runs dock as a user works it: the runs of an OTLP file with several traces listed with
// status, tokens, session and user; the filter field (words, status:error, session:…) and its
// message when nothing matches; sortable headers; Group by session with the session's totals
// and its thread; two runs selected and compared in the window's Trace Comparison dock.
#include "core/otel/otlpdecode.h"
#include "core/otel/runtable.h"
#include "core/pdl/trace/tracemodel.h"
#include "core/promptlog/promptlog.h"
#include "core/workbench/workbenchcontext.h"
#include "isolatedsettings.h"
#include "otlprunsfixture.h"
#include "widgets/otel/otelrunlist.h"
#include "widgets/workbench/mainwindow.h"
#include "widgets/workbench/tracedocks.h"

#include <QAbstractItemModel>
#include <QJsonArray>
#include <QJsonObject>

#include <QCheckBox>
#include <QDockWidget>
#include <QFile>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QSignalSpy>
#include <QStatusBar>
#include <QTemporaryDir>
#include <QTest>
#include <QTextBrowser>
#include <QTreeWidget>

using namespace hako;

namespace {

std::vector<otel::RunRow> threeRuns()
{
    otel::RunCollector c;
    auto add = [&c](const std::vector<test::FixtureSpan>& spans) {
        auto decoded = otel::decodeOtlpJson(test::otlpRequest(spans));
        QVERIFY(decoded.ok());
        c.add(*decoded);
    };
    add(test::agentRun(0, "chat-1", "alice"));
    add(test::agentRun(1, "chat-1", "alice"));
    add(test::agentRun(2, "", "bob", true));
    return c.rows();
}

QStringList topNames(const QTreeWidget* list)
{
    QStringList out;
    for (int i = 0; i < list->topLevelItemCount(); ++i)
        out << list->topLevelItem(i)->text(OtelRunList::NameColumn);
    return out;
}

void click(QTreeWidget* list, QTreeWidgetItem* item, Qt::KeyboardModifiers mods = {})
{
    list->scrollToItem(item);
    QTest::mouseClick(
        list->viewport(), Qt::LeftButton, mods,
        QPoint(list->visualItemRect(item).left() + 30, list->visualItemRect(item).center().y()));
}

} // namespace

class TestRunsList : public QObject {
    Q_OBJECT

    std::unique_ptr<testing::IsolatedSettings> m_settings;

private Q_SLOTS:
    void initTestCase()
    {
        m_settings = std::make_unique<testing::IsolatedSettings>(QStringLiteral("tst_runslist"));
        QVERIFY(m_settings->isValid());
    }

    void listsFiltersAndSorts()
    {
        OtelRunList runs;
        runs.resize(900, 400);
        runs.show();
        QVERIFY(runs.findChild<QLabel*>() != nullptr);
        runs.setRuns(QStringLiteral("agent.jsonl"), std::vector<otel::RunRow>{}, {});
        QVERIFY(!runs.list()->topLevelItemCount());
        QCOMPARE(runs.compareButton()->isEnabled(), false);
        runs.setRuns(QStringLiteral("agent.jsonl: 3 runs"), threeRuns(), {});
        QCOMPARE(topNames(runs.list()), QStringList({"agent 0", "agent 1", "agent 2"}));
        const QTreeWidgetItem* first = runs.list()->topLevelItem(0);
        QCOMPARE(first->text(OtelRunList::TokensColumn), QStringLiteral("120"));
        QCOMPARE(first->text(OtelRunList::SessionColumn), QStringLiteral("chat-1"));
        QCOMPARE(first->text(OtelRunList::UserColumn), QStringLiteral("alice"));
        QCOMPARE(first->text(OtelRunList::StatusColumn), QStringLiteral("ok"));
        QCOMPARE(runs.list()->topLevelItem(2)->text(OtelRunList::StatusColumn),
                 QStringLiteral("error"));

        QTest::keyClicks(runs.filterField(), QStringLiteral("status:error"));
        QCOMPARE(topNames(runs.list()), QStringList({"agent 2"}));
        runs.filterField()->clear();
        QTest::keyClicks(runs.filterField(), QStringLiteral("session:chat-1"));
        QCOMPARE(topNames(runs.list()), QStringList({"agent 0", "agent 1"}));
        runs.filterField()->setText(QStringLiteral("nobody"));
        QCOMPARE(runs.list()->topLevelItemCount(), 0);
        const QLabel* message = nullptr;
        for (QLabel* l : runs.findChildren<QLabel*>())
            if (l->accessibleName() == QLatin1String("Runs list message"))
                message = l;
        QVERIFY(message && message->isVisible());
        QVERIFY2(message->text().contains(QLatin1String("3 run")), qPrintable(message->text()));
        runs.filterField()->clear();
        QVERIFY(!message->isVisible());

        // Sort by tokens, most first, with the header.
        const int x = runs.list()->header()->sectionViewportPosition(OtelRunList::TokensColumn) + 5;
        QTest::mouseClick(runs.list()->header()->viewport(), Qt::LeftButton, {}, QPoint(x, 5));
        if (runs.list()->header()->sortIndicatorOrder() == Qt::AscendingOrder)
            QTest::mouseClick(runs.list()->header()->viewport(), Qt::LeftButton, {}, QPoint(x, 5));
        QCOMPARE(topNames(runs.list()), QStringList({"agent 2", "agent 1", "agent 0"}));
    }

    void groupsSessionsAndShowsTheThread()
    {
        OtelRunList runs;
        runs.resize(900, 500);
        runs.show();
        runs.setRuns(QStringLiteral("agent.jsonl"), threeRuns(), {});
        runs.groupBySession()->click();
        QCOMPARE(runs.list()->topLevelItemCount(), 2); // the session, and the run without one
        QTreeWidgetItem* session = nullptr;
        for (int i = 0; i < 2; ++i)
            if (runs.list()->topLevelItem(i)->childCount() == 2)
                session = runs.list()->topLevelItem(i);
        QVERIFY(session);
        QVERIFY(session->isExpanded());
        QVERIFY(session->text(OtelRunList::NameColumn).contains(QLatin1String("chat-1")));
        QCOMPARE(session->text(OtelRunList::TokensColumn), QStringLiteral("241"));
        QCOMPARE(session->text(OtelRunList::SpansColumn), QStringLiteral("6"));
        QVERIFY(!runs.threadView()->isVisible());
        click(runs.list(), session);
        QTRY_VERIFY(runs.threadView()->isVisible());
        const QString thread = runs.threadView()->toPlainText();
        QVERIFY2(thread.indexOf(QLatin1String("question 0")) <
                         thread.indexOf(QLatin1String("answer 0")) &&
                     thread.indexOf(QLatin1String("answer 0")) <
                         thread.indexOf(QLatin1String("question 1")),
                 qPrintable(thread));
        QVERIFY(thread.contains(QLatin1String("241 tokens")));
        QVERIFY2(thread.startsWith(QLatin1String("Session chat-1")), qPrintable(thread));
        QVERIFY(!thread.contains(QLatin1String("question 2"))); // another session's run

        // A new batch keeps the grouping, the session open and the thread.
        runs.setRuns(QStringLiteral("agent.jsonl"), threeRuns(), {});
        QCOMPARE(runs.list()->topLevelItemCount(), 2);
        QVERIFY(runs.threadView()->isVisible());
    }

    void twoSelectedRunsAreCompared()
    {
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("agent.jsonl"));
        QFile f(path);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write(QByteArray::fromStdString(
            test::otlpRequest(test::agentRun(0, "chat-1", "alice")) + "\n" +
            test::otlpRequest(test::agentRun(1, "chat-1", "alice")) + "\n" +
            test::otlpRequest(test::agentRun(2, "", "bob", true)) + "\n"));
        f.close();
        MainWindow window;
        window.show();
        window.openTrace(path);
        OtelRunList* runs = window.traceDocks()->runList();
        QTRY_COMPARE_WITH_TIMEOUT(runs->list()->topLevelItemCount(), 3, 20000);
        QCOMPARE(runs->list()->topLevelItem(0)->text(OtelRunList::TokensColumn),
                 QStringLiteral("120"));
        // Picking a run shows it.
        pdl::TraceModel* model = window.traceDocks()->fileTraceModel();
        click(runs->list(), runs->list()->topLevelItem(2));
        QTRY_VERIFY(model->root() && model->root()->node.def == "agent 2");
        QVERIFY(!runs->compareButton()->isEnabled());
        click(runs->list(), runs->list()->topLevelItem(0), Qt::ControlModifier);
        QCOMPARE(runs->selectedRunIds().size(), 2);
        QVERIFY(runs->compareButton()->isEnabled());
        auto* diffDock = window.findChild<QDockWidget*>(QStringLiteral("traceDiffDock"));
        QVERIFY(diffDock);
        runs->compareButton()->click();
        QTRY_VERIFY(diffDock->isVisible());
        QVERIFY2(diffDock->widget()->findChildren<QWidget*>().size() > 0, "the comparison shows");
    }

    void anOpenTelemetryFileAsksForNoProgram()
    {
        // File › Open of an OTLP file: its runs are listed, and nothing says a program is
        // missing (another framework's run has none).
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("agent.otlp.json"));
        QFile f(path);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write(QByteArray::fromStdString(test::otlpRequest(test::agentRun(0, "chat-1", "alice"))));
        f.close();
        MainWindow window;
        window.show();
        QStringList messages;
        connect(window.statusBar(), &QStatusBar::messageChanged, this,
                [&messages](const QString& m) { messages << m; });
        QVERIFY(window.openPath(path));
        QTRY_VERIFY2_WITH_TIMEOUT(
            messages.join(QLatin1Char('\n')).contains(QStringLiteral("Opened trace")),
            qPrintable(messages.join(QLatin1Char('|'))), 20000);
        QTRY_COMPARE_WITH_TIMEOUT(window.traceDocks()->runList()->list()->topLevelItemCount(), 1,
                                  20000);
        for (const QString& m : messages)
            QVERIFY2(!m.contains(QStringLiteral("not found")), qPrintable(m));
    }

    void runsThatGrowChangeTheirRowsInPlace()
    {
        // A receiver's runs, listed again as spans arrive: the rows change, nothing is cleared,
        // the picked run stays picked and sessions stay open.
        OtelRunList runs;
        runs.resize(900, 400);
        runs.show();
        std::vector<otel::RunRow> rows = threeRuns();
        const otel::RunRow third = rows.back();
        rows.pop_back();
        rows[1].status = otel::RunStatus::Running;
        runs.groupBySession()->setChecked(true);
        runs.setRuns(QStringLiteral("receiver"), rows, {});
        QTreeWidgetItem* session = runs.list()->topLevelItem(0);
        QCOMPARE(session->childCount(), 2);
        QTreeWidgetItem* running = session->child(1);
        QCOMPARE(running->text(OtelRunList::StatusColumn), QStringLiteral("running"));
        runs.list()->setCurrentItem(running);
        QSignalSpy resets(runs.list()->model(), &QAbstractItemModel::modelReset);
        QSignalSpy removed(runs.list()->model(), &QAbstractItemModel::rowsRemoved);

        rows[1].status = otel::RunStatus::Ok;
        rows[1].spans += 2;
        rows[1].completionTokens += 30;
        rows.push_back(third);
        runs.setRuns(QStringLiteral("receiver"), rows, {});
        QCOMPARE(resets.count(), 0);
        QCOMPARE(removed.count(), 0);
        QCOMPARE(runs.list()->topLevelItem(0), session);
        QCOMPARE(session->child(1), running);
        QCOMPARE(running->text(OtelRunList::StatusColumn), QStringLiteral("ok"));
        QCOMPARE(running->text(OtelRunList::SpansColumn), QString::number(rows[1].spans));
        QVERIFY(running->isSelected());
        QVERIFY(session->isExpanded());
        QCOMPARE(runs.list()->topLevelItemCount(), 2); // the session and the new run
        QCOMPARE(runs.list()->topLevelItem(1)->text(OtelRunList::NameColumn),
                 QStringLiteral("agent 2"));

        // A run gone from the list (a bounded receiver dropped it) loses its row.
        rows.erase(rows.begin());
        runs.setRuns(QStringLiteral("receiver"), rows, {});
        QCOMPARE(session->childCount(), 1);
        QCOMPARE(session->child(0), running);
    }

    void promptLogRunsAreListedAndOpened()
    {
        // The Runs dock's Prompt log: one row per logged run with its calls' totals; picking
        // one shows its calls in the trace panes.
        QTemporaryDir dir;
        QString error;
        std::shared_ptr<promptlog::PromptLog> log =
            promptlog::PromptLog::open(dir.filePath(QStringLiteral("log.sqlite")), &error);
        QVERIFY2(log, qPrintable(error));
        std::vector<promptlog::CallRecord> calls;
        auto call = [&calls](const QString& run, const QString& prompt, int64_t at, int tokens) {
            promptlog::CallRecord c;
            c.runId = run;
            c.programName = QStringLiteral("support-bot");
            c.promptName = prompt;
            c.model = QStringLiteral("gpt-4o-mini");
            QJsonObject message;
            message.insert(QStringLiteral("role"), QStringLiteral("user"));
            message.insert(QStringLiteral("content"), QString(prompt + QStringLiteral(" ?")));
            c.messages = QJsonArray{message};
            c.reply = prompt + QStringLiteral(" !");
            c.promptTokens = tokens;
            c.completionTokens = 5;
            c.latencyMs = 200;
            c.startedAt = at;
            c.tags = QStringList{QStringLiteral("session:s-1")};
            calls.push_back(c);
        };
        call(QStringLiteral("run-a"), QStringLiteral("classify"), 1764300000000, 10);
        call(QStringLiteral("run-a"), QStringLiteral("answer"), 1764300001000, 20);
        call(QStringLiteral("run-b"), QStringLiteral("classify"), 1764300060000, 11);
        QVERIFY(log->insertNow(calls));

        MainWindow window;
        window.context()->setPromptLog(log);
        window.resize(1280, 800);
        window.show();
        OtelRunList* list = window.traceDocks()->runList();
        QTest::mouseClick(list->promptLogButton(), Qt::LeftButton);
        QTRY_COMPARE_WITH_TIMEOUT(list->list()->topLevelItemCount(), 2, 20000);
        QVERIFY(window.traceDocks()->runsDock()->isVisible());
        QVERIFY2(list->heading()->text().contains(QStringLiteral("2 run")),
                 qPrintable(list->heading()->text()));
        const QTreeWidgetItem* a = list->list()->topLevelItem(0);
        QCOMPARE(a->text(OtelRunList::NameColumn), QStringLiteral("support-bot"));
        QCOMPARE(a->text(OtelRunList::SpansColumn), QStringLiteral("2"));
        QCOMPARE(a->text(OtelRunList::TokensColumn), QStringLiteral("40"));
        QCOMPARE(a->text(OtelRunList::SessionColumn), QStringLiteral("s-1"));

        click(list->list(), list->list()->topLevelItem(0));
        QTRY_VERIFY_WITH_TIMEOUT(window.context()->traceModel() &&
                                     window.context()->traceModel()->root() &&
                                     window.context()->traceModel()->root()->children.size() == 2,
                                 20000);
        const pdl::TraceItem* root = window.context()->traceModel()->root();
        QCOMPARE(root->label(), QStringLiteral("support-bot"));
        QCOMPARE(root->children[0]->label(), QStringLiteral("classify"));
        QCOMPARE(root->children[1]->resultText(), QStringLiteral("answer !"));
    }
};

QTEST_MAIN(TestRunsList)
#include "tst_runslist.moc"
