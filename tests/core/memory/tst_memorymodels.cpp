// The inspector's models (memory table, filter proxy, candidates) and the timeline.
#include "core/memory/candidatemodel.h"
#include "core/memory/memorytablemodel.h"
#include "core/memory/timeline.h"

#include <QAbstractItemModelTester>
#include <QTest>

using namespace hako::memory;

namespace {

MemoryRecord make(int64_t id, Kind kind, State state, int importance, const QString& text,
                  Millis created, int64_t access = 0)
{
    MemoryRecord r;
    r.id = id;
    r.kind = kind;
    r.state = state;
    r.importance = importance;
    r.text = text;
    r.createdAt = created;
    r.lastAccessedAt = created;
    r.accessCount = access;
    return r;
}

std::vector<MemoryRecord> sample()
{
    return {make(1, Kind::Observation, State::Active, 3, QStringLiteral("Ramen at Hobbs Cafe"),
                 1000, 2),
            make(2, Kind::Insight, State::Active, 8, QStringLiteral("Jun likes ramen"), 2000, 0),
            make(3, Kind::Observation, State::Archived, 5, QStringLiteral("tax forms"), 3000, 5),
            make(4, Kind::Reflection, State::Active, 9,
                 QStringLiteral("Ramen brings people together"), 4000, 1)};
}

QList<qint64> ids(const QAbstractItemModel& m)
{
    QList<qint64> out;
    for (int r = 0; r < m.rowCount(); ++r)
        out.append(m.index(r, 0).data(MemoryTableModel::IdRole).toLongLong());
    return out;
}

} // namespace

class TestMemoryModels : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void tableAndFilters()
    {
        MemoryTableModel model;
        QAbstractItemModelTester tester(&model,
                                        QAbstractItemModelTester::FailureReportingMode::QtTest);
        MemoryFilterProxy proxy;
        proxy.setSourceModel(&model);
        QAbstractItemModelTester proxyTester(
            &proxy, QAbstractItemModelTester::FailureReportingMode::QtTest);
        model.setSnapshot(sample());
        QCOMPARE(model.rowCount(), 4);
        QCOMPARE(model.columnCount(), int(MemoryTableModel::ColumnCount));
        QCOMPARE(model.index(1, MemoryTableModel::Kind).data().toString(),
                 QStringLiteral("insight"));
        QCOMPARE(model.index(0, MemoryTableModel::Created).data().toString(),
                 QStringLiteral("1970-01-01T00:00:01Z"));
        QCOMPARE(model.rowOf(3), 2);
        QCOMPARE(model.rowOf(7), -1);

        proxy.setSearchText(QStringLiteral("RAMEN"));
        QCOMPARE(ids(proxy), (QList<qint64>{1, 2, 4}));
        proxy.setSearchText(QStringLiteral("ramen people"));
        QCOMPARE(ids(proxy), (QList<qint64>{4}));
        proxy.setSearchText({});
        proxy.setKind(Kind::Observation);
        QCOMPARE(ids(proxy), (QList<qint64>{1, 3}));
        proxy.setState(State::Active);
        QCOMPARE(ids(proxy), (QList<qint64>{1}));
        proxy.setKind(std::nullopt);
        proxy.setMinImportance(5);
        QCOMPARE(ids(proxy), (QList<qint64>{2, 4}));
        proxy.setState(std::nullopt);
        proxy.setMinImportance(1);
        proxy.setCreatedRange(1500, 3500);
        QCOMPARE(ids(proxy), (QList<qint64>{2, 3}));
        proxy.setCreatedRange(0, 0);
        proxy.setMinAccessCount(1);
        QCOMPARE(ids(proxy), (QList<qint64>{1, 3, 4}));
        proxy.setMinAccessCount(0);
        // Sorting uses raw values: importance descending.
        proxy.sort(MemoryTableModel::Importance, Qt::DescendingOrder);
        QCOMPARE(ids(proxy), (QList<qint64>{4, 2, 3, 1}));
        proxy.sort(MemoryTableModel::AccessCount, Qt::AscendingOrder);
        QCOMPARE(ids(proxy), (QList<qint64>{2, 4, 1, 3}));
        model.setSnapshot({});
        QCOMPARE(proxy.rowCount(), 0);
    }

    void candidatesShowComponentsAndChanges()
    {
        std::vector<CandidateInput> in(3);
        for (int i = 0; i < 3; ++i) {
            in[size_t(i)].id = i + 1;
            in[size_t(i)].importance = float(2 + 3 * i);
            in[size_t(i)].hoursSinceAccess = float(10 * i);
            in[size_t(i)].relevance = 0.9f - 0.4f * float(i);
        }
        RetrievalParams p;
        p.mode = RetrievalMode::Ga;
        p.k = 2;
        p.weights = {0.5, 1, 2};
        const RetrievalResult base = rankCandidates(in, p);
        CandidateModel model;
        QAbstractItemModelTester tester(&model,
                                        QAbstractItemModelTester::FailureReportingMode::QtTest);
        model.setResult(base, {{1, QStringLiteral("one")}});
        QCOMPARE(model.rowCount(), 3);
        const QVariantList comps = model.index(0, CandidateModel::Components)
                                       .data(CandidateModel::ComponentsRole)
                                       .toList();
        QCOMPARE(comps.size(), 3);
        const Candidate& top = base.candidates[0];
        QCOMPARE(comps[2].toDouble(), 2.0 * top.relevanceNorm);
        QCOMPARE(comps[0].toDouble(), 0.5 * top.recencyNorm);
        double sum = 0;
        for (const QVariant& v : comps)
            sum += v.toDouble();
        QVERIFY(std::abs(sum - top.score) < 1e-5);
        QCOMPARE(model.index(2, CandidateModel::Cut).data().toString(),
                 QStringLiteral("below top 2"));
        QCOMPARE(model.index(2, CandidateModel::PromptOrder).data().toString(),
                 QStringLiteral("–"));
        QCOMPARE(model.index(1, CandidateModel::Text).data().toString().isEmpty(), false);
        for (int c = 0; c < model.columnCount(); ++c)
            QVERIFY(!model.headerData(c, Qt::Horizontal).toString().isEmpty());
        QCOMPARE(model.headerData(CandidateModel::Components, Qt::Horizontal).toString(),
                 QStringLiteral("Recency | Importance | Relevance"));
        // Relevance rank: the top candidate by cosine (id 1, 0.9) is first whatever the score.
        for (int r = 0; r < 3; ++r) {
            if (model.index(r, CandidateModel::Id).data().toLongLong() == 1)
                QCOMPARE(model.index(r, CandidateModel::RelevanceRank).data().toInt(), 1);
        }

        RetrievalParams other = p;
        other.weights = {0, 1, 0};
        model.setResult(rankCandidates(in, other), {}, base);
        // Importance alone ranks 3, 2, 1: 3 is added, 1 removed, 2 kept at rank 2.
        QCOMPARE(model.diff().added, std::vector<int64_t>{3});
        QCOMPARE(model.diff().removed, std::vector<int64_t>{1});
        QCOMPARE(model.index(0, CandidateModel::Change).data().toString(), QStringLiteral("added"));
    }

    void timelineAccumulatesAndResets()
    {
        std::vector<MemoryRecord> records = sample(); // importance 3, 8, 5 (archived), 9
        records[3].kind = Kind::Reflection;
        records.push_back(make(5, Kind::Chat, State::Active, 6, QStringLiteral("later"), 5000));
        records.push_back(
            make(6, Kind::Observation, State::Deleted, 7, QStringLiteral("gone"), 5500));
        hako::memory::JournalEntry access;
        access.op = QStringLiteral("access");
        access.at = 2500;
        access.memoryId = 1;
        const auto t = buildTimeline(records, {access});
        QCOMPARE(t.size(), size_t(6)); // 5 memories (the deleted one left out) + 1 access
        QList<qint64> acc;
        QList<int> types;
        for (const TimelineEvent& e : t) {
            acc.append(e.accumulated);
            types.append(int(e.type));
        }
        // 3, +8, access (no change), +5 (archived memories still count), reflection resets, +6.
        QCOMPARE(acc, (QList<qint64>{3, 11, 11, 16, 0, 6}));
        QCOMPARE(types[2], int(TimelineEvent::Type::Access));
        QCOMPARE(types[4], int(TimelineEvent::Type::Reflection));
    }
};

QTEST_GUILESS_MAIN(TestMemoryModels)
#include "tst_memorymodels.moc"
