// The Prompt Log pane over a real log on a temporary SQLite file: the calls appear, sort by
// tokens, filter by Japanese full text, show their reply when selected; the stats tab adds up.
#include "core/eval/evalstore.h"
#include "core/promptlog/calltablemodel.h"
#include "core/promptlog/promptlog.h"
#include "core/workbench/runcontroller.h"
#include "core/workbench/workbenchcontext.h"
#include "isolatedsettings.h"
#include "widgets/eval/datasetpane.h"
#include "widgets/promptlog/promptlogpane.h"
#include "widgets/promptlog/timechart.h"
#include "widgets/workbench/evallinks.h"
#include "widgets/workbench/mainwindow.h"

#include <QAbstractButton>
#include <QAbstractItemModelTester>
#include <QComboBox>
#include <QDateTime>
#include <QDockWidget>
#include <QHeaderView>
#include <QJsonArray>
#include <QJsonObject>
#include <QLabel>
#include <QLineEdit>
#include <QMenu>
#include <QMenuBar>
#include <QPushButton>
#include <QSignalSpy>
#include <QTabWidget>
#include <QTableView>
#include <QTemporaryDir>
#include <QTest>
#include <QTextBrowser>
#include <QToolButton>

using namespace hako;
using namespace hako::promptlog;

namespace {

CallRecord makeCall(const QString& uid, const QString& prompt, const QString& model,
                    const QString& question, const QString& reply, int64_t in, int64_t out,
                    double latency, CallStatus status, int64_t startedAt)
{
    CallRecord c;
    c.uid = uid;
    c.runId = QStringLiteral("run-1");
    c.programPath = QStringLiteral("/tmp/demo.pdl");
    c.promptName = prompt;
    c.model = model;
    c.tags = {QStringLiteral("env:test")};
    c.parameters = QJsonObject{{QStringLiteral("temperature"), 0.2}};
    c.messages =
        QJsonArray{QJsonObject{{QStringLiteral("role"), QStringLiteral("system")},
                               {QStringLiteral("content"), QStringLiteral("You are terse.")}},
                   QJsonObject{{QStringLiteral("role"), QStringLiteral("user")},
                               {QStringLiteral("content"), question}}};
    c.reply = reply;
    c.promptTokens = in;
    c.completionTokens = out;
    c.latencyMs = latency;
    c.status = status;
    c.startedAt = startedAt;
    c.finishReason = QStringLiteral("stop");
    return c;
}

} // namespace

class TestPromptLogPane : public QObject {
    Q_OBJECT

    std::unique_ptr<testing::IsolatedSettings> m_settings;

private Q_SLOTS:
    void initTestCase()
    {
        m_settings = std::make_unique<testing::IsolatedSettings>(QStringLiteral("tst_promptlog"));
        QVERIFY(m_settings->isValid());
    }

    void emptyLogSaysSoUntilACallIsLogged()
    {
        QTemporaryDir dir;
        QString error;
        std::shared_ptr<PromptLog> log =
            PromptLog::open(dir.filePath(QStringLiteral("log.sqlite")), &error);
        QVERIFY2(log, qPrintable(error));
        WorkbenchContext context;
        context.setPromptLog(log);
        PromptLogPane pane;
        pane.setWorkbenchContext(&context);
        pane.show();
        QTRY_VERIFY(
            pane.emptyLabel()->text().contains(QStringLiteral("No model calls logged yet")));
        QVERIFY(pane.emptyLabel()->isVisible());
        QCOMPARE(pane.callModel()->rowCount(), 0);

        // A call the playground logs (through the log's writer, not a program run) shows in
        // the open pane by itself: nobody presses Refresh.
        CallRecord call =
            makeCall(QStringLiteral("p1"), QStringLiteral("遊び場"), QStringLiteral("gpt-a"),
                     QStringLiteral("こんにちは"), QStringLiteral("やあ"), 3, 4, 50, CallStatus::Ok,
                     QDateTime::currentMSecsSinceEpoch());
        call.origin = CallOrigin::Playground;
        log->record(call);
        QTRY_COMPARE(pane.callModel()->rowCount(), 1);
        QCOMPARE(pane.callModel()->index(0, CallTableModel::Prompt).data().toString(),
                 QStringLiteral("遊び場"));
    }

    void listSortFilterSelectStats()
    {
        QTemporaryDir dir;
        QString error;
        std::shared_ptr<PromptLog> log =
            PromptLog::open(dir.filePath(QStringLiteral("log.sqlite")), &error);
        QVERIFY2(log, qPrintable(error));
        const int64_t t0 = 1700000000000;
        std::vector<CallRecord> calls{
            makeCall(QStringLiteral("u1"), QStringLiteral("summary"), QStringLiteral("gpt-a"),
                     QStringLiteral("Summarise the report."), QStringLiteral("It is fine."), 120,
                     30, 400, CallStatus::Ok, t0),
            makeCall(QStringLiteral("u2"), QStringLiteral("translate"), QStringLiteral("gpt-b"),
                     QStringLiteral("「猫が好き」を英訳して"), QStringLiteral("吾輩は猫である。"),
                     50, 500, 900, CallStatus::Ok, t0 + 1000),
            makeCall(QStringLiteral("u3"), QStringLiteral("summary"), QStringLiteral("gpt-a"),
                     QStringLiteral("Summarise again."), QString(), 300, 5, 100, CallStatus::Failed,
                     t0 + 2000),
        };
        auto inserted = log->insertNow(calls);
        QVERIFY2(inserted, qPrintable(inserted ? QString() : inserted.error().message));
        QCOMPARE(*inserted, int64_t(3));

        WorkbenchContext context;
        context.setPromptLog(log);
        PromptLogPane pane;
        QAbstractItemModelTester callTester(pane.callModel());
        QAbstractItemModelTester statsTester(pane.statsModel());
        pane.setWorkbenchContext(&context);
        pane.resize(1100, 700);
        pane.show();
        QTableView* view = pane.callsView();
        QTRY_COMPARE(view->model()->rowCount(), 3);
        QVERIFY(view->isVisible());
        QVERIFY(pane.summaryLabel()->text().contains(QLatin1Char('3')));

        // Every control is named for screen readers.
        for (QWidget* w : pane.findChildren<QWidget*>()) {
            if (qobject_cast<QLineEdit*>(w) || qobject_cast<QComboBox*>(w) ||
                qobject_cast<QTableView*>(w) || qobject_cast<QTextBrowser*>(w) ||
                qobject_cast<QAbstractButton*>(w)) {
                if (qobject_cast<QLineEdit*>(w->parentWidget()) ||
                    qobject_cast<QTableView*>(w->parentWidget()))
                    continue; // a line edit's clear button, a table's corner button
                QVERIFY2(!w->accessibleName().isEmpty(), w->metaObject()->className());
            }
        }

        // Newest first by default.
        QCOMPARE(view->model()->index(0, CallTableModel::Prompt).data().toString(),
                 QStringLiteral("summary"));
        QCOMPARE(view->model()->index(0, CallTableModel::Status).data().toString(),
                 QStringLiteral("failed"));

        // Sort by tokens out: a click on the header, then the other way round.
        // The store sorts (every call, not only those loaded): the rows come back in order.
        view->sortByColumn(CallTableModel::TokensOut, Qt::DescendingOrder);
        QTRY_COMPARE(view->model()->index(0, CallTableModel::Prompt).data().toString(),
                     QStringLiteral("translate"));
        view->horizontalHeader()->setSortIndicator(CallTableModel::TokensIn, Qt::AscendingOrder);
        QTRY_COMPARE(view->model()
                         ->index(0, CallTableModel::TokensIn)
                         .data(CallTableModel::SortRole)
                         .toDouble(),
                     50.0);
        QCOMPARE(view->model()
                     ->index(2, CallTableModel::TokensIn)
                     .data(CallTableModel::SortRole)
                     .toDouble(),
                 300.0);

        // Selecting a call shows its messages and reply.
        view->selectRow(0);
        QTRY_VERIFY(pane.detailView()->toPlainText().contains(QStringLiteral("吾輩は猫である。")));
        const QString detail = pane.detailView()->toPlainText();
        // Not a check: what the pane looks like, for a person (HAKO_SCREENSHOT_DIR=/tmp).
        if (const QString shots = qEnvironmentVariable("HAKO_SCREENSHOT_DIR"); !shots.isEmpty())
            pane.grab().save(shots + QStringLiteral("/promptlogpane.png"));
        QVERIFY(detail.contains(QStringLiteral("[user]")));
        QVERIFY(detail.contains(QStringLiteral("「猫が好き」を英訳して")));
        QVERIFY(detail.contains(QStringLiteral("temperature")));
        QVERIFY(detail.contains(QStringLiteral("gpt-b")));

        // Stats: one row per prompt, the sums of the calls.
        pane.tabs()->setCurrentIndex(1);
        QTRY_COMPARE(pane.statsView()->model()->rowCount(), 2);
        int64_t callsSum = 0, inSum = 0, outSum = 0;
        for (const StatsRow& row : pane.statsModel()->rows()) {
            callsSum += row.calls;
            inSum += row.tokensIn;
            outSum += row.tokensOut;
            if (row.key == QLatin1String("summary")) {
                QCOMPARE(row.calls, int64_t(2));
                QCOMPARE(row.okCalls, int64_t(1));
            }
        }
        QCOMPARE(callsSum, int64_t(3));
        QCOMPARE(inSum, int64_t(470));
        QCOMPARE(outSum, int64_t(535));
        // Sortable by any column: by tokens out, largest first.
        pane.statsView()->sortByColumn(StatsTableModel::TokensOut, Qt::DescendingOrder);
        QCOMPARE(pane.statsView()->model()->index(0, StatsTableModel::Key).data().toString(),
                 QStringLiteral("translate"));
        pane.statsView()->sortByColumn(StatsTableModel::Calls, Qt::DescendingOrder);
        QCOMPARE(pane.statsView()->model()->index(0, StatsTableModel::Key).data().toString(),
                 QStringLiteral("summary"));
        // By model.
        pane.groupCombo()->setCurrentIndex(pane.groupCombo()->findData(int(StatsGroup::Model)));
        QTRY_COMPARE(pane.statsModel()->group(), StatsGroup::Model);
        QCOMPARE(pane.statsModel()->rowCount(), 2);
        pane.tabs()->setCurrentIndex(0);

        // Full-text search in Japanese, through typing and the debounce.
        QSignalSpy refreshed(&pane, &PromptLogPane::refreshed);
        pane.searchField()->setFocus();
        pane.searchField()->setText(QStringLiteral("猫")); // keyClicks is ASCII-only
        QTest::keyClick(pane.searchField(), Qt::Key_Return);
        QTRY_COMPARE(view->model()->rowCount(), 1);
        QCOMPARE(view->model()->index(0, CallTableModel::Prompt).data().toString(),
                 QStringLiteral("translate"));
        QTRY_COMPARE(pane.statsModel()->rowCount(), 1);

        // A filter that matches nothing says so; clearing it brings the calls back.
        QTest::keyClicks(pane.searchField(), QStringLiteral("zzz"));
        QTRY_COMPARE(view->model()->rowCount(), 0);
        QTRY_VERIFY(pane.emptyLabel()->isVisible());
        QVERIFY(pane.emptyLabel()->text().contains(QStringLiteral("match")));
        pane.searchField()->clear();
        QTRY_COMPARE(view->model()->rowCount(), 3);

        // Status filter.
        pane.statusCombo()->setCurrentIndex(pane.statusCombo()->findData(QStringLiteral("failed")));
        QTRY_COMPARE(view->model()->rowCount(), 1);
        pane.statusCombo()->setCurrentIndex(0);
        QTRY_COMPARE(view->model()->rowCount(), 3);

        // A call recorded later shows after a refresh (Ctrl+R).
        CallRecord later = makeCall(QStringLiteral("u4"), QStringLiteral("classify"),
                                    QStringLiteral("gpt-a"), QStringLiteral("Which?"),
                                    QStringLiteral("A"), 10, 1, 50, CallStatus::Ok, t0 + 3000);
        log->record(later);
        view->setFocus();
        QTest::keyClick(view, Qt::Key_R, Qt::ControlModifier);
        QTRY_COMPARE(view->model()->rowCount(), 4);
    }

    // Every call scrolls: the table reads its pages as they come into view, the store sorts
    // all of them, and only a bounded number of pages stays in memory.
    void manyCallsScrollAndSortInTheStore()
    {
        QTemporaryDir dir;
        QString error;
        std::shared_ptr<PromptLog> log =
            PromptLog::open(dir.filePath(QStringLiteral("log.sqlite")), &error);
        QVERIFY2(log, qPrintable(error));
        const int n = CallTableModel::kPageSize * (CallTableModel::kMaxPages + 11) + 7;
        std::vector<CallRecord> calls;
        calls.reserve(size_t(n));
        for (int i = 0; i < n; ++i) {
            CallRecord c =
                makeCall(QStringLiteral("m%1").arg(i), QStringLiteral("p%1").arg(i),
                         QStringLiteral("gpt-a"), QStringLiteral("q"), QStringLiteral("a"),
                         (i * 7919) % n, 1, 10, CallStatus::Ok, 1700000000000 + i);
            calls.push_back(std::move(c));
        }
        QVERIFY(log->insertNow(calls));
        WorkbenchContext context;
        context.setPromptLog(log);
        PromptLogPane pane;
        QAbstractItemModelTester tester(pane.callModel());
        pane.setWorkbenchContext(&context);
        pane.resize(1000, 600);
        pane.show();
        QTableView* view = pane.callsView();
        QTRY_COMPARE(view->model()->rowCount(), n);
        QCOMPARE(pane.summaryLabel()->text(), QStringLiteral("%1 calls").arg(formatCount(n)));
        // The oldest call is the last row (newest first); it loads when scrolled to.
        view->scrollToBottom();
        QTRY_COMPARE(view->model()->index(n - 1, CallTableModel::Prompt).data().toString(),
                     QStringLiteral("p0"));
        // Jumping through the whole table keeps a bounded number of pages.
        for (int row = 0; row < n; row += CallTableModel::kPageSize) {
            view->scrollTo(view->model()->index(row, 0));
            QTRY_VERIFY(!view->model()->index(row, CallTableModel::Prompt).data().isNull());
        }
        QVERIFY(pane.callModel()->loadedCalls().size() <=
                CallTableModel::kMaxPages * CallTableModel::kPageSize);
        // Sorting asks the store: the largest prompt token count of all calls comes first.
        view->sortByColumn(CallTableModel::TokensIn, Qt::DescendingOrder);
        QTRY_COMPARE(view->model()
                         ->index(0, CallTableModel::TokensIn)
                         .data(CallTableModel::SortRole)
                         .toDouble(),
                     double(n - 1));
        view->scrollToBottom();
        QTRY_COMPARE(view->model()
                         ->index(n - 1, CallTableModel::TokensIn)
                         .data(CallTableModel::SortRole)
                         .toDouble(),
                     0.0);
    }

    // Tags as check boxes, a time range, each prompt's tokens over time, the charts, and the
    // links of the selected call.
    void tagsRangeTrendChartsLinks()
    {
        QTemporaryDir dir;
        QString error;
        std::shared_ptr<PromptLog> log =
            PromptLog::open(dir.filePath(QStringLiteral("log.sqlite")), &error);
        QVERIFY2(log, qPrintable(error));
        const int64_t now = QDateTime::currentMSecsSinceEpoch();
        const int64_t hour = 3600 * 1000;
        std::vector<CallRecord> calls;
        // Two days ago, 3 hours ago and 10 minutes ago; one old call 60 days ago.
        for (const auto& [uid, prompt, age, tag] :
             std::vector<std::tuple<QString, QString, int64_t, QString>>{
                 {QStringLiteral("a"), QStringLiteral("summary"), 48 * hour,
                  QStringLiteral("team:a")},
                 {QStringLiteral("b"), QStringLiteral("summary"), 3 * hour,
                  QStringLiteral("team:b")},
                 {QStringLiteral("c"), QStringLiteral("translate"), hour / 6,
                  QStringLiteral("team:a")},
                 {QStringLiteral("d"), QStringLiteral("translate"), 60 * 24 * hour,
                  QStringLiteral("team:b")}}) {
            CallRecord c = makeCall(uid, prompt, QStringLiteral("gpt-a"), QStringLiteral("Q"),
                                    QStringLiteral("A"), 100, 10, 200, CallStatus::Ok, now - age);
            c.tags = {tag};
            c.traceNodeId = QStringLiteral("text.0.model");
            c.span.line = 4;
            c.span.column = 3;
            calls.push_back(c);
        }
        QVERIFY(log->insertNow(calls));
        WorkbenchContext context;
        context.setPromptLog(log);
        PromptLogPane pane;
        QAbstractItemModelTester statsTester(pane.statsModel());
        pane.setWorkbenchContext(&context);
        pane.resize(1100, 700);
        pane.show();
        QTableView* view = pane.callsView();
        QTRY_COMPARE(view->model()->rowCount(), 4);

        // The tags of the log are offered as check boxes; checking one filters by it.
        QMenu* tags = pane.tagsButton()->menu();
        QTRY_COMPARE(tags->actions().size(), 2);
        QAction* teamA = nullptr;
        for (QAction* a : tags->actions())
            if (a->text() == QLatin1String("team:a"))
                teamA = a;
        QVERIFY(teamA && teamA->isCheckable() && !teamA->isChecked());
        teamA->setChecked(true);
        QCOMPARE(pane.tagField()->text(), QStringLiteral("team:a"));
        QTRY_COMPARE(view->model()->rowCount(), 2);
        // The menu keeps the check after the refresh rebuilt it.
        for (QAction* a : pane.tagsButton()->menu()->actions())
            QCOMPARE(a->isChecked(), a->text() == QLatin1String("team:a"));
        pane.tagField()->clear();
        QTRY_COMPARE(view->model()->rowCount(), 4);

        // Time range: the last 24 hours hold two calls, the last hour one.
        pane.rangeCombo()->setCurrentIndex(2);
        QTRY_COMPARE(view->model()->rowCount(), 2);
        pane.rangeCombo()->setCurrentIndex(1);
        QTRY_COMPARE(view->model()->rowCount(), 1);
        pane.rangeCombo()->setCurrentIndex(3); // 7 days
        QTRY_COMPARE(view->model()->rowCount(), 3);

        // Each stats row has its tokens over the range: summary's two calls, 110 tokens each,
        // in two different 6-hour buckets.
        pane.tabs()->setCurrentIndex(1);
        QTRY_COMPARE(pane.statsModel()->rowCount(), 2);
        for (int r = 0; r < 2; ++r) {
            const QModelIndex key = pane.statsModel()->index(r, StatsTableModel::Key);
            const QModelIndex trend = pane.statsModel()->index(r, StatsTableModel::Trend);
            const auto series = trend.data(StatsTableModel::SeriesRole).value<QList<qint64>>();
            QCOMPARE(series.size(), 28);
            qint64 sum = 0;
            int nonZero = 0;
            for (qint64 v : series) {
                sum += v;
                nonZero += v > 0;
            }
            const bool summary = key.data().toString() == QLatin1String("summary");
            QCOMPARE(sum, summary ? 220 : 110);
            QCOMPARE(nonZero, summary ? 2 : 1);
            // Two bars 48 hours (8 buckets) apart, spaces between.
            QCOMPARE(trend.data().toString().trimmed().size(), summary ? 9 : 1);
        }
        QVERIFY(pane.statsModel()
                    ->headerData(StatsTableModel::Trend, Qt::Horizontal)
                    .toString()
                    .contains(QStringLiteral("6 hours")));

        // The charts show the filtered calls over the same buckets.
        pane.tabs()->setCurrentIndex(2);
        const QList<TimeChart*> charts = pane.charts();
        QCOMPARE(charts.size(), 4);
        double callSum = 0;
        for (double v : charts[0]->values())
            callSum += v;
        QCOMPARE(callSum, 3.0);
        QVERIFY(!charts[0]->accessibleDescription().isEmpty());
        if (const QString shots = qEnvironmentVariable("HAKO_SCREENSHOT_DIR"); !shots.isEmpty())
            pane.grab().save(shots + QStringLiteral("/promptlogpane-charts.png"));
        pane.tabs()->setCurrentIndex(0);

        // The selected call's links say which call they are about.
        QVERIFY(!pane.showInTraceButton()->isEnabled());
        view->selectRow(0);
        QTRY_VERIFY(pane.showInTraceButton()->isEnabled());
        QTRY_VERIFY(pane.detailView()->toPlainText().contains(QStringLiteral("[system]")));
        QSignalSpy trace(&pane, &PromptLogPane::showInTraceRequested);
        QSignalSpy source(&pane, &PromptLogPane::showSourceRequested);
        QSignalSpy playground(&pane, &PromptLogPane::openInPlaygroundRequested);
        QTest::mouseClick(pane.showInTraceButton(), Qt::LeftButton);
        QTest::mouseClick(pane.showSourceButton(), Qt::LeftButton);
        QTest::mouseClick(pane.openInPlaygroundButton(), Qt::LeftButton);
        QCOMPARE(trace.size(), 1);
        QCOMPARE(trace.first().at(0).toString(), QStringLiteral("run-1"));
        QCOMPARE(trace.first().at(1).toString(), QStringLiteral("text.0.model"));
        QCOMPARE(source.size(), 1);
        QCOMPARE(source.first().at(0).toString(), QStringLiteral("/tmp/demo.pdl"));
        QCOMPARE(source.first().at(1).value<SourceSpan>().line, 4);
        QCOMPARE(playground.size(), 1);
    }

    // View › Prompt Log shows the dock with the window's log; a finished run refreshes it.
    // Docked along the bottom of a 1280×800 screen the pane is short and wide: the call's
    // detail goes beside the table, tall enough to read its messages; made tall, the pane
    // puts it below the table again.
    void detailBesideTheTableInAShortWidePane()
    {
        PromptLogPane pane;
        pane.resize(1150, 300);
        pane.show();
        QVERIFY(QTest::qWaitForWindowExposed(&pane));
        QTextBrowser* detail = nullptr;
        for (QTextBrowser* b : pane.findChildren<QTextBrowser*>())
            if (b->accessibleName() == QLatin1String("Call detail"))
                detail = b;
        QVERIFY(detail);
        // The table, or the empty log's message in its place.
        QWidget* table = pane.callsView()->parentWidget();
        auto placeOf = [&pane](QWidget* w) {
            return QRect(w->mapTo(&pane, QPoint()), w->size());
        };
        QTRY_VERIFY(placeOf(detail).left() >= placeOf(table).right());
        QVERIFY2(detail->height() >= 8 * detail->fontMetrics().lineSpacing(),
                 qPrintable(QString::number(detail->height())));
        QVERIFY(detail->width() >= pane.width() / 4);
        pane.resize(700, 800);
        QTRY_VERIFY(placeOf(detail).top() >= placeOf(table).bottom());
        QVERIFY(detail->width() >= pane.width() / 2);
        // Short but sharing the bottom with another pane: side by side each part would be too
        // narrow to read (the table's columns, the detail's buttons), so it stays stacked.
        pane.resize(900, 300);
        QTRY_COMPARE(pane.size(), QSize(900, 300));
        QTRY_VERIFY(placeOf(detail).top() >= placeOf(table).bottom());
        QVERIFY(table->width() >= pane.width() / 2);
        pane.resize(1150, 300);
        QTRY_VERIFY(placeOf(detail).left() >= placeOf(table).right());
        QVERIFY(table->width() >= pane.width() / 3);
    }

    void mainWindowDock()
    {
        QTemporaryDir dir;
        QString error;
        std::shared_ptr<PromptLog> log =
            PromptLog::open(dir.filePath(QStringLiteral("log.sqlite")), &error);
        QVERIFY2(log, qPrintable(error));
        QVERIFY(log->insertNow(
            {makeCall(QStringLiteral("w1"), QStringLiteral("summary"), QStringLiteral("gpt-a"),
                      QStringLiteral("Hi"), QStringLiteral("Hello"), 1, 2, 3, CallStatus::Ok,
                      1700000000000)}));
        MainWindow window;
        window.context()->setPromptLog(log);
        window.show();
        PromptLogPane* pane = window.promptLogPane();
        QVERIFY(pane);
        QVERIFY(!pane->isVisible());
        QAction* toggle = nullptr;
        for (QAction* menu : window.menuBar()->actions())
            if (menu->menu() && menu->text() == QLatin1String("&View"))
                for (QAction* a : menu->menu()->actions())
                    if (a->text() == QLatin1String("Prompt Log"))
                        toggle = a;
        QVERIFY(toggle);
        toggle->trigger();
        QTRY_VERIFY(pane->isVisible());
        QTRY_COMPARE(pane->callModel()->rowCount(), 1);

        QVERIFY(log->insertNow(
            {makeCall(QStringLiteral("w2"), QStringLiteral("summary"), QStringLiteral("gpt-a"),
                      QStringLiteral("Again"), QStringLiteral("Hello"), 1, 2, 3, CallStatus::Ok,
                      1700000001000)}));
        Q_EMIT window.runController()->finished(true, QString(), Diagnostic{});
        QTRY_COMPARE(pane->callModel()->rowCount(), 2);
    }

    // Add to Dataset: the selected call becomes an example of the Datasets pane's dataset
    // (its inputs, its reply as the reference); the pane comes forward; Save keeps it in the
    // evaluation store `hako eval` reads.
    void addToDatasetFromWindow()
    {
        QTemporaryDir dir;
        QString error;
        std::shared_ptr<PromptLog> log =
            PromptLog::open(dir.filePath(QStringLiteral("log.sqlite")), &error);
        QVERIFY2(log, qPrintable(error));
        CallRecord call =
            makeCall(QStringLiteral("d1"), QStringLiteral("translate"), QStringLiteral("gpt-a"),
                     QStringLiteral("猫が好き"), QStringLiteral("I like cats."), 5, 4, 30,
                     CallStatus::Ok, 1700000000000);
        call.inputs = QJsonObject{{QStringLiteral("sentence"), QStringLiteral("猫が好き")}};
        CallRecord second =
            makeCall(QStringLiteral("d2"), QStringLiteral("translate"), QStringLiteral("gpt-a"),
                     QStringLiteral("犬も好き"), QStringLiteral("I like dogs too."), 5, 5, 30,
                     CallStatus::Ok, 1700000001000);
        second.inputs = QJsonObject{{QStringLiteral("sentence"), QStringLiteral("犬も好き")}};
        QVERIFY(log->insertNow({call, second}));
        auto opened = eval::EvalStore::open(dir.filePath(QStringLiteral("eval.sqlite")));
        QVERIFY(opened);
        std::shared_ptr<eval::EvalStore> store(std::move(opened).value());
        MainWindow window;
        window.context()->setPromptLog(log);
        window.evalLinks()->setStore(store);
        window.resize(1280, 800);
        window.show();
        PromptLogPane* pane = window.promptLogPane();
        pane->parentWidget()->show();
        QTRY_COMPARE(pane->callModel()->rowCount(), 2);
        QVERIFY(!pane->addToDatasetButton()->isEnabled());
        // Both calls (newest first in the table): the dataset gets them oldest first.
        pane->callsView()->selectRow(0);
        QTRY_VERIFY(pane->addToDatasetButton()->isEnabled());
        pane->callsView()->selectAll();
        DatasetPane* datasets = window.datasetPane();
        QVERIFY(!datasets->isVisible());
        datasets->nameField()->setText(QStringLiteral("translations"));
        QTest::mouseClick(pane->addToDatasetButton(), Qt::LeftButton);
        QTRY_VERIFY(datasets->isVisible());
        QTRY_COMPARE(datasets->dataset().examples.size(), 2);
        const eval::Example& example = datasets->dataset().examples.first();
        QCOMPARE(example.inputs.value(QStringLiteral("sentence")).toString(),
                 QStringLiteral("猫が好き"));
        QCOMPARE(example.referenceText(), QStringLiteral("I like cats."));
        QCOMPARE(datasets->dataset().examples.at(1).referenceText(),
                 QStringLiteral("I like dogs too."));
        QCOMPARE(datasets->save(), 1);
        auto stored = store->dataset(QStringLiteral("translations"));
        QVERIFY(stored);
        QCOMPARE(stored->examples.size(), 2);
    }
};

QTEST_MAIN(TestPromptLogPane)
#include "tst_promptlogpane.moc"
