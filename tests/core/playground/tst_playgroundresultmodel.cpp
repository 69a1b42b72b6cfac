// The results grid on its own: shape, headers, display and roles of single and repeated cells,
// streamed deltas announced (coalesced) through dataChanged, a reset while cells stream.
#include "core/playground/playgroundresultmodel.h"

#include <QAbstractItemModelTester>
#include <QSignalSpy>
#include <QTest>

using namespace hako::playground;

namespace {

CellResult done(const QString& reply, qint64 in, qint64 out, double ms)
{
    CellResult r;
    r.state = CellResult::State::Done;
    r.reply = reply;
    r.promptTokens = in;
    r.completionTokens = out;
    r.latencyMs = ms;
    return r;
}

} // namespace

class TestPlaygroundResultModel : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void singleCells()
    {
        PlaygroundResultModel model;
        QAbstractItemModelTester tester(&model);
        model.reset(2, {QStringLiteral("1: a"), QStringLiteral("2: b")}, 1,
                    {QStringLiteral("first")});
        QCOMPARE(model.rowCount(), 2);
        QCOMPARE(model.columnCount(), 2);
        QCOMPARE(model.headerData(1, Qt::Horizontal).toString(), QStringLiteral("2: b"));
        QCOMPARE(model.headerData(0, Qt::Vertical).toString(), QStringLiteral("first"));
        QCOMPARE(model.headerData(1, Qt::Vertical).toString(), QStringLiteral("Row 2"));
        QCOMPARE(model.index(0, 0).data().toString(), QStringLiteral("Waiting…"));

        QSignalSpy changed(&model, &QAbstractItemModel::dataChanged);
        model.markStarted({0, 1, 0});
        model.appendDelta({0, 1, 0}, QStringLiteral("Hel"));
        model.appendDelta({0, 1, 0}, QStringLiteral("lo"));
        QCOMPARE(model.index(0, 1).data().toString(), QStringLiteral("Hello"));
        QTRY_VERIFY(changed.count() >= 1);
        QVERIFY(changed.count() <= 2); // coalesced, not one per delta
        QCOMPARE(changed.last().at(0).toModelIndex(), model.index(0, 1));

        model.setCell({0, 1, 0}, done(QStringLiteral("Hello!"), 7, 2, 120));
        QCOMPARE(model.index(0, 1).data().toString(), QStringLiteral("Hello!"));
        QCOMPARE(model.index(0, 1).data(PlaygroundResultModel::PromptTokensRole).toLongLong(), 7);
        QCOMPARE(model.index(0, 1).data(PlaygroundResultModel::LatencyRole).toDouble(), 120.0);
        QCOMPARE(model.index(0, 1).data(Qt::ToolTipRole).toString(),
                 QStringLiteral("Tokens: 7 in, 2 out\nLatency: 120 ms"));
        // Deltas arriving after the end change nothing.
        model.appendDelta({0, 1, 0}, QStringLiteral("late"));
        QCOMPARE(model.index(0, 1).data().toString(), QStringLiteral("Hello!"));

        CellResult failed;
        failed.state = CellResult::State::Failed;
        failed.error = QStringLiteral("HTTP 500");
        model.setCell({1, 0, 0}, failed);
        QCOMPARE(model.index(1, 0).data().toString(), QStringLiteral("Error: HTTP 500"));
        QCOMPARE(model.index(1, 0).data(PlaygroundResultModel::ErrorRole).toString(),
                 QStringLiteral("HTTP 500"));
        QVERIFY(!model.index(1, 0).data(PlaygroundResultModel::PromptTokensRole).isValid());
        // Keys outside the grid are ignored.
        model.setCell({5, 0, 0}, failed);
        model.appendDelta({0, 9, 0}, QStringLiteral("x"));
    }

    void repeatedCells()
    {
        PlaygroundResultModel model;
        QAbstractItemModelTester tester(&model);
        model.reset(1, {QStringLiteral("v")}, 4);
        model.setCell({0, 0, 0}, done(QStringLiteral("yes"), 5, 1, 10));
        model.setCell({0, 0, 1}, done(QStringLiteral("no"), 5, 1, 30));
        QCOMPARE(model.index(0, 0).data().toString(), QStringLiteral("2 of 4 done"));
        model.setCell({0, 0, 2}, done(QStringLiteral("yes"), 5, 1, 20));
        CellResult cancelled;
        cancelled.state = CellResult::State::Cancelled;
        model.setCell({0, 0, 3}, cancelled);
        QCOMPARE(model.index(0, 0).data().toString(), QStringLiteral("2 distinct of 4 (1 failed)"));
        QCOMPARE(model.index(0, 0).data(PlaygroundResultModel::DistinctRole).toInt(), 2);
        QCOMPARE(model.index(0, 0).data(PlaygroundResultModel::PromptTokensRole).toLongLong(), 15);
        QCOMPARE(model.index(0, 0).data(PlaygroundResultModel::LatencyRole).toDouble(), 20.0);
        QCOMPARE(model.headerData(0, Qt::Horizontal, Qt::ToolTipRole).toString(),
                 QStringLiteral("v\n3 calls: 15 tokens in, 3 out; mean latency 20 ms"));
        QCOMPARE(model.index(0, 0).data(PlaygroundResultModel::RepliesRole).toStringList(),
                 (QStringList{QStringLiteral("yes"), QStringLiteral("no"), QStringLiteral("yes"),
                              QString()}));
    }

    void resetWhileStreaming()
    {
        PlaygroundResultModel model;
        QAbstractItemModelTester tester(&model);
        model.reset(3, {QStringLiteral("a"), QStringLiteral("b")}, 1);
        model.appendDelta({2, 1, 0}, QStringLiteral("partial"));
        model.reset(1, {QStringLiteral("a")}, 1);
        QSignalSpy changed(&model, &QAbstractItemModel::dataChanged);
        model.appendDelta({0, 0, 0}, QStringLiteral("x"));
        QTRY_COMPARE(changed.count(), 1);
        QCOMPARE(model.index(0, 0).data().toString(), QStringLiteral("x"));
    }
};

QTEST_GUILESS_MAIN(TestPlaygroundResultModel)
#include "tst_playgroundresultmodel.moc"
