// The prompt log's table models: display text, sortable raw values (a missing number below
// every present one), and the stats header following the group.
#include "core/promptlog/calltablemodel.h"

#include <QAbstractItemModelTester>
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
