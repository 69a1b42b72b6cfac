// The prompt log's table models: display text, sortable raw values (a missing number below
// every present one), and the stats header following the group.
#include "core/promptlog/calltablemodel.h"

#include <QAbstractItemModelTester>
#include <QSignalSpy>
#include <QSortFilterProxyModel>
#include <QTest>

using namespace hako::promptlog;

class TestCallTableModel : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void callsSortWithMissingValuesLast()
    {
        CallTableModel model;
        QAbstractItemModelTester tester(&model);
        CallRecord a;
        a.id = 1;
        a.promptName = QStringLiteral("a");
        a.promptTokens = 10;
        a.cost = 0.5;
        a.latencyMs = 1500;
        a.status = CallStatus::Failed;
        a.error = QStringLiteral("timeout");
        CallRecord b;
        b.id = 2;
        b.promptName = QStringLiteral("b");
        model.setCalls({a, b});
        QCOMPARE(model.rowCount(), 2);
        QCOMPARE(model.rowOf(2), 1);
        QCOMPARE(model.rowOf(9), -1);
        QCOMPARE(model.index(0, CallTableModel::Status).data().toString(),
                 QStringLiteral("failed"));
        QCOMPARE(model.index(0, CallTableModel::Status).data(Qt::ToolTipRole).toString(),
                 QStringLiteral("timeout"));
        QVERIFY(model.index(1, CallTableModel::TokensIn).data().toString().isEmpty());

        QSortFilterProxyModel proxy;
        proxy.setSourceModel(&model);
        proxy.setSortRole(CallTableModel::SortRole);
        for (int column : {int(CallTableModel::TokensIn), int(CallTableModel::Cost),
                           int(CallTableModel::Latency)}) {
            proxy.sort(column, Qt::DescendingOrder);
            QCOMPARE(proxy.index(0, CallTableModel::Prompt).data().toString(), QStringLiteral("a"));
            proxy.sort(column, Qt::AscendingOrder);
            QCOMPARE(proxy.index(0, CallTableModel::Prompt).data().toString(), QStringLiteral("b"));
        }
    }

    // Virtual rows: a page not loaded asks for itself once; late pages of an old generation
    // are ignored; pages beyond the bound are dropped farthest first.
    void pagesLoadOnDemand()
    {
        CallTableModel model;
        QAbstractItemModelTester tester(&model);
        auto page = [](int p, int size) {
            QList<CallRecord> rows;
            for (int i = 0; i < size; ++i) {
                CallRecord c;
                c.id = p * CallTableModel::kPageSize + i + 1;
                c.promptName = QStringLiteral("r%1").arg(c.id - 1);
                rows.append(c);
            }
            return rows;
        };
        const int pages = CallTableModel::kMaxPages + 5;
        const int total = pages * CallTableModel::kPageSize - 3;
        model.reset(total, page(0, CallTableModel::kPageSize));
        QCOMPARE(model.rowCount(), total);
        QCOMPARE(model.index(5, CallTableModel::Prompt).data().toString(), QStringLiteral("r5"));
        QSignalSpy needed(&model, &CallTableModel::pageNeeded);
        const int row = 3 * CallTableModel::kPageSize + 4;
        QVERIFY(model.index(row, CallTableModel::Prompt).data().isNull());
        QVERIFY(model.index(row + 1, CallTableModel::Prompt).data().isNull());
        QTRY_COMPARE(needed.size(), 1);
        QCOMPARE(needed.first().at(0).toInt(), 3);
        const auto generation = needed.first().at(1).value<hako::LatestJob::Ticket>();
        model.setPage(3, page(3, CallTableModel::kPageSize),
                      hako::LatestJob::Ticket()); // stale: ignored
        QVERIFY(model.index(row, CallTableModel::Prompt).data().isNull());
        model.setPage(3, page(3, CallTableModel::kPageSize), generation);
        QCOMPARE(model.index(row, CallTableModel::Prompt).data().toString(),
                 QStringLiteral("r%1").arg(row));
        QCOMPARE(model.rowOf(row + 1), row);
        // The last page is short; more rows than it holds are not shown.
        model.setPage(pages - 1, page(pages - 1, CallTableModel::kPageSize), generation);
        QCOMPARE(model.index(total - 1, CallTableModel::Prompt).data().toString(),
                 QStringLiteral("r%1").arg(total - 1));
        for (int p = 0; p < pages; ++p)
            model.setPage(p, page(p, CallTableModel::kPageSize), generation);
        QCOMPARE(model.loadedCalls().size(), qsizetype(total - (pages - CallTableModel::kMaxPages) *
                                                                   CallTableModel::kPageSize));
        // The pages near the last one set stay; the first ones went.
        QVERIFY(model.index(0, CallTableModel::Prompt).data().isNull());
        QVERIFY(!model.index(total - 1, CallTableModel::Prompt).data().isNull());
        // Sorting asks for a new listing.
        QSignalSpy sorted(&model, &CallTableModel::sortRequested);
        model.sort(CallTableModel::TokensIn, Qt::DescendingOrder);
        QCOMPARE(sorted.size(), 1);
        QCOMPARE(model.order(), CallFilter::Order::TokensIn);
        model.sort(CallTableModel::TokensIn, Qt::DescendingOrder);
        QCOMPARE(sorted.size(), 1);
    }

    void statsRowsAndHeader()
    {
        StatsTableModel model;
        QAbstractItemModelTester tester(&model);
        StatsRow row;
        row.key = QStringLiteral("summary");
        row.calls = 4;
        row.okCalls = 3;
        row.tokensIn = 100;
        row.tokensOut = 40;
        row.p50LatencyMs = 200;
        row.p95LatencyMs = 2500;
        model.setRows({row}, StatsGroup::Model);
        QCOMPARE(model.headerData(StatsTableModel::Key, Qt::Horizontal).toString(),
                 QStringLiteral("Model"));
        QCOMPARE(
            model.index(0, StatsTableModel::SuccessRate).data(StatsTableModel::SortRole).toDouble(),
            0.75);
        QVERIFY(model.index(0, StatsTableModel::SuccessRate)
                    .data()
                    .toString()
                    .startsWith(QStringLiteral("75")));
        QVERIFY(model.index(0, StatsTableModel::Cost).data().toString().isEmpty());
        QCOMPARE(model.index(0, StatsTableModel::Cost).data(StatsTableModel::SortRole).toDouble(),
                 -1.0);
        QCOMPARE(model.index(0, StatsTableModel::P50).data().toString(), QStringLiteral("200 ms"));
        model.setRows({}, StatsGroup::Tag);
        QCOMPARE(model.rowCount(), 0);
        QCOMPARE(model.headerData(StatsTableModel::Key, Qt::Horizontal).toString(),
                 QStringLiteral("Tag"));
    }
};

QTEST_GUILESS_MAIN(TestCallTableModel)
#include "tst_calltablemodel.moc"
