// The agent-memory store: records, the journal, the three retrieval modes and what-if.
#include "core/memory/annindex.h"
#include "core/memory/memorystore.h"

#include <QFile>
#include <QJsonArray>
#include <QTemporaryDir>
#include <QTest>

#include <cmath>
#include <random>
#include <set>

using namespace hako::memory;

namespace {

constexpr Millis kHour = 3600000;
constexpr Millis kNow = 1714557600000; // 2024-05-01T10:00:00Z

MemoryRecord rec(const QString& text, std::vector<float> v, int importance = 5,
                 Millis created = kNow - kHour, Millis accessed = 0)
{
    MemoryRecord r;
    r.text = text;
    r.embedding = std::move(v);
    r.embeddingModel = QStringLiteral("test");
    r.importance = importance;
    r.importanceSource = ImportanceSource::Manual;
    r.createdAt = created;
    r.lastAccessedAt = accessed ? accessed : created;
    return r;
}

// QVERIFY2 evaluates its message even when the check passes: only read error() on failure.
template <typename R> QByteArray why(const R& r)
{
    return r.ok() ? QByteArray() : r.error().message.toUtf8();
}

const ChangeContext kUser{Actor::User, QStringLiteral("test"), {}, {}};

} // namespace

class TestMemoryStore : public QObject {
    Q_OBJECT

    QTemporaryDir m_dir;
    int m_n = 0;
    QString freshPath() { return m_dir.filePath(QStringLiteral("m%1.hakomem").arg(++m_n)); }

    std::shared_ptr<MemoryStore> openFresh(StoreOptions o = {})
    {
        auto s = MemoryStore::open(freshPath(), o);
        if (!s)
            qWarning() << s.error().message;
        return s ? s.value() : nullptr;
    }

    // A (importance 2, accessed 10 h ago, relevant), B (8, just now, orthogonal),
    // C (5, 20 h ago, half relevant): numbers chosen so the scores can be checked by hand.
    std::vector<int64_t> addAbc(MemoryStore& s)
    {
        std::vector<MemoryRecord> batch;
        batch.push_back(rec(QStringLiteral("A"), {1, 0}, 2, kNow - 30 * kHour, kNow - 10 * kHour));
        batch.push_back(rec(QStringLiteral("B"), {0, 1}, 8, kNow - 35 * kHour, kNow));
        batch.push_back(rec(QStringLiteral("C"), {1, 1}, 5, kNow - 40 * kHour, kNow - 20 * kHour));
        return s.addBatch(std::move(batch), kUser).value();
    }

private Q_SLOTS:
    void initTestCase() { QVERIFY(m_dir.isValid()); }

    void addAndReadBack()
    {
        const QString path = freshPath();
        int64_t id = 0;
        {
            auto opened = MemoryStore::open(path);
            QVERIFY2(opened.ok(), why(opened).constData());
            auto s = opened.value();
            MemoryRecord r = rec(QStringLiteral("Klaus reads about gentrification"), {3, 4}, 7);
            r.agent = QStringLiteral("klaus");
            r.kind = Kind::Insight;
            r.evidence = {4, 9};
            r.source.threadId = QStringLiteral("cbddc");
            r.source.messageIds = {QStringLiteral("cbddc"), QStringLiteral("fa950")};
            r.source.runId = QStringLiteral("run-1");
            auto added = s->add(r, kUser);
            QVERIFY2(added.ok(), why(added).constData());
            id = *added;
            QVERIFY(id > 0);
        }
        // Reopened: everything the issue lists survives.
        auto s = MemoryStore::open(path).value();
        QCOMPARE(s->embeddingModel(), QStringLiteral("test"));
        QCOMPARE(s->embeddingDimension(), 2);
        const MemoryRecord r = s->get(id, true).value();
        QCOMPARE(r.text, QStringLiteral("Klaus reads about gentrification"));
        QCOMPARE(r.agent, QStringLiteral("klaus"));
        QCOMPARE(r.kind, Kind::Insight);
        QCOMPARE(r.importance, 7);
        QCOMPARE(r.importanceSource, ImportanceSource::Manual);
        QCOMPARE(r.createdAt, kNow - kHour);
        QCOMPARE(r.lastAccessedAt, kNow - kHour);
        QCOMPARE(r.accessCount, int64_t(0));
        QCOMPARE(r.embedding, (std::vector<float>{3, 4}));
        QCOMPARE(r.evidence, (std::vector<int64_t>{4, 9}));
        QCOMPARE(r.source.messageIds.size(), 2);
        QCOMPARE(r.source.runId, QStringLiteral("run-1"));
        QCOMPARE(r.state, State::Active);
        QCOMPARE(r.version, int64_t(1));
        QVERIFY(s->integrityCheck().ok());
    }

    void notAStoreIsReported()
    {
        const QString path = freshPath();
        QFile f(path);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write(QByteArray(8192, 'x'));
        f.close();
        auto s = MemoryStore::open(path);
        QVERIFY(!s.ok());
        QVERIFY2(s.error().message.contains(path), qPrintable(s.error().message));
        QVERIFY(!MemoryStore::open(m_dir.filePath(QStringLiteral("no/such/dir/x.hakomem"))).ok());
    }

    void foreignEmbeddingsRefused()
    {
        auto s = openFresh();
        QVERIFY(s->add(rec(QStringLiteral("first"), {1, 0, 0}), kUser).ok());
        auto wrongDim = s->add(rec(QStringLiteral("short"), {1, 0}), kUser);
        QVERIFY(!wrongDim.ok());
        QVERIFY2(wrongDim.error().message.contains(QLatin1String("dimension 2 refused")),
                 why(wrongDim).constData());
        MemoryRecord other = rec(QStringLiteral("other"), {1, 0, 0});
        other.embeddingModel = QStringLiteral("nomic-embed-text");
        auto wrongModel = s->add(other, kUser);
        QVERIFY(!wrongModel.ok());
        QVERIFY(wrongModel.error().message.contains(QLatin1String("'nomic-embed-text' refused")));
        // A batch is all or nothing.
        std::vector<MemoryRecord> batch{rec(QStringLiteral("ok"), {0, 1, 0}),
                                        rec(QStringLiteral("bad"), {0, 1})};
        QVERIFY(!s->addBatch(batch, kUser).ok());
        QCOMPARE(s->count(), int64_t(1));
        auto q = s->retrieve(QStringLiteral("q"), {1, 0}, QStringLiteral("test"), {}, kUser);
        QVERIFY(!q.ok());
        QVERIFY(q.error().message.contains(QLatin1String("dimension 2 refused")));
        MemoryRecord bad = rec(QStringLiteral("x"), {1, 0, 0}, 11);
        QVERIFY(!s->add(bad, kUser).ok());
    }

    void seedModeTopKThenOldestFirst()
    {
        auto s = openFresh();
        const auto ids = addAbc(*s);
        RetrievalParams p;
        p.k = 2;
        p.now = kNow;
        auto r = s->retrieve(QStringLiteral("q"), {1, 0}, QStringLiteral("test"), p, kUser);
        QVERIFY2(r.ok(), why(r).constData());
        const RetrievalResult& res = r->result;
        // By cosine A (1) and C (0.707) win; B (0) is cut. The prompt has C first: it is older.
        QCOMPARE(res.candidates.size(), size_t(3));
        QCOMPARE(res.candidates[0].input.id, ids[0]);
        QCOMPARE(res.candidates[1].input.id, ids[2]);
        QCOMPARE(res.candidates[2].input.id, ids[1]);
        QCOMPARE(res.candidates[2].cut, CutReason::BelowTopK);
        QCOMPARE(res.promptOrder, (std::vector<int64_t>{ids[2], ids[0]}));
        QCOMPARE(res.candidates[0].promptOrder, 2);
        QCOMPARE(res.candidates[1].promptOrder, 1);
        QVERIFY(std::abs(res.candidates[1].score - float(M_SQRT1_2)) < 1e-6);
    }

    void gaModeByHand_data()
    {
        QTest::addColumn<double>("w0");
        QTest::addColumn<double>("w1");
        QTest::addColumn<double>("w2");
        QTest::addColumn<QString>("order"); // the selected memories in prompt order
        QTest::newRow("equal weights") << 1.0 << 1.0 << 1.0 << "BC";
        QTest::newRow("relevance only") << 0.0 << 0.0 << 1.0 << "AC";
        QTest::newRow("importance only") << 0.0 << 1.0 << 0.0 << "BC";
        QTest::newRow("recency only") << 1.0 << 0.0 << 0.0 << "BA";
    }
    void gaModeByHand()
    {
        QFETCH(double, w0);
        QFETCH(double, w1);
        QFETCH(double, w2);
        QFETCH(QString, order);
        auto s = openFresh();
        const auto ids = addAbc(*s);
        RetrievalParams p;
        p.mode = RetrievalMode::Ga;
        p.k = 2;
        p.decay = 0.5;
        p.weights = {w0, w1, w2};
        p.now = kNow;
        auto r = s->retrieve(QStringLiteral("q"), {1, 0}, QStringLiteral("test"), p, kUser);
        QVERIFY(r.ok());
        QString got;
        for (int64_t id : r->result.promptOrder)
            got +=
                QChar(QLatin1Char('A' + int(std::find(ids.begin(), ids.end(), id) - ids.begin())));
        QCOMPARE(got, order);
        // Recency 0.5^10, 0.5^0, 0.5^20 normalised over [2^-20, 1]; importance 2, 8, 5 → 0, 1, .5.
        const Candidate* a = r->result.find(ids[0]);
        const Candidate* b = r->result.find(ids[1]);
        const Candidate* c = r->result.find(ids[2]);
        QVERIFY(std::abs(a->recency - float(std::pow(0.5, 10))) < 1e-7);
        QVERIFY(std::abs(a->recencyNorm - float((std::pow(0.5, 10) - std::pow(0.5, 20)) /
                                                (1 - std::pow(0.5, 20)))) < 1e-6);
        QCOMPARE(b->recencyNorm, 1.0f);
        QCOMPARE(c->recencyNorm, 0.0f);
        QCOMPARE(a->importanceNorm, 0.0f);
        QCOMPARE(b->importanceNorm, 1.0f);
        QCOMPARE(c->importanceNorm, 0.5f);
        QCOMPARE(a->relevanceNorm, 1.0f);
        QCOMPARE(b->relevanceNorm, 0.0f);
        const float expectC = float(w0 * 0 + w1 * 0.5 + w2 * M_SQRT1_2);
        QVERIFY(std::abs(c->score - expectC) < 1e-5);
    }

    void equalComponentsNormaliseToHalf()
    {
        std::vector<CandidateInput> in(3);
        for (int i = 0; i < 3; ++i) {
            in[size_t(i)].id = i + 1;
            in[size_t(i)].importance = 4;
            in[size_t(i)].hoursSinceAccess = 2;
            in[size_t(i)].relevance = 0.25f * float(i);
        }
        RetrievalParams p;
        p.mode = RetrievalMode::Ga;
        const RetrievalResult r = rankCandidates(in, p);
        for (const Candidate& c : r.candidates) {
            QCOMPARE(c.importanceNorm, 0.5f);
            QCOMPARE(c.recencyNorm, 0.5f);
        }
        QCOMPARE(r.candidates.front().input.id, int64_t(3));
        // Default decay 0.995 per hour.
        QVERIFY(std::abs(r.candidates.front().recency - float(0.995 * 0.995)) < 1e-7);
    }

    void recentModeNewestInTimeOrder()
    {
        auto s = openFresh();
        std::vector<MemoryRecord> batch;
        for (int i = 0; i < 25; ++i)
            batch.push_back(
                rec(QStringLiteral("m%1").arg(i), {1, float(i)}, 5, kNow - (25 - i) * kHour));
        const auto ids = s->addBatch(batch, kUser).value();
        RetrievalParams p;
        p.mode = RetrievalMode::Recent;
        p.k = RetrievalParams::defaultK(p.mode);
        p.now = kNow;
        auto r = s->retrieve(QString(), {}, QString(), p, kUser);
        QVERIFY2(r.ok(), why(r).constData());
        QCOMPARE(r->result.promptOrder.size(), size_t(20));
        QCOMPARE(r->result.promptOrder.front(), ids[5]); // the oldest of the newest 20
        QCOMPARE(r->result.promptOrder.back(), ids[24]);
        QCOMPARE(r->result.find(ids[4])->cut, CutReason::BelowTopK);
    }

    void retrievalUpdatesAccessAndJournalsEverything()
    {
        auto s = openFresh();
        const auto ids = addAbc(*s);
        RetrievalParams p;
        p.mode = RetrievalMode::Ga;
        p.k = 1;
        p.now = kNow + 5 * kHour;
        auto r = s->retrieve(QStringLiteral("who is relevant"), {1, 0}, QStringLiteral("test"), p,
                             kUser);
        QVERIFY(r.ok());
        QVERIFY(r->seq > 0);
        const int64_t winner = r->result.promptOrder.front();
        const MemoryRecord w = s->get(winner).value();
        QCOMPARE(w.accessCount, int64_t(1));
        QCOMPARE(w.lastAccessedAt, p.now);
        // The loser is untouched.
        for (int64_t id : ids) {
            if (id != winner)
                QCOMPARE(s->get(id)->accessCount, int64_t(0));
        }
        const auto history = s->journal(winner).value();
        QCOMPARE(history.back().op, QStringLiteral("access"));
        QCOMPARE(history.back().after.value(QStringLiteral("access_count")).toInt(), 1);
        // The journaled retrieval holds every candidate with its components and cut reasons.
        const RetrievalRecord back = s->retrieval(r->seq).value();
        QCOMPARE(back.query, QStringLiteral("who is relevant"));
        QCOMPARE(back.result.params.mode, RetrievalMode::Ga);
        QCOMPARE(back.result.candidates.size(), size_t(3));
        for (size_t i = 0; i < 3; ++i) {
            const Candidate& a = r->result.candidates[i];
            const Candidate& b = back.result.candidates[i];
            QCOMPARE(b.input.id, a.input.id);
            QCOMPARE(b.score, a.score);
            QCOMPARE(b.relevanceNorm, a.relevanceNorm);
            QCOMPARE(b.rank, a.rank);
            QCOMPARE(b.cut, a.cut);
            QCOMPARE(b.promptOrder, a.promptOrder);
        }
        QCOMPARE(back.result.promptOrder, r->result.promptOrder);
        QCOMPARE(s->retrievals().value().size(), size_t(1));
    }

    void whatIfLeavesTheStoreAlone()
    {
        auto s = openFresh();
        const auto ids = addAbc(*s);
        RetrievalParams p;
        p.mode = RetrievalMode::Ga;
        p.k = 2;
        p.decay = 0.5;
        p.now = kNow;
        const auto original =
            s->retrieve(QStringLiteral("q"), {1, 0}, QStringLiteral("test"), p, kUser).value();
        const auto journalBefore = s->journal().value().size();
        const auto accessBefore = s->get(ids[1])->accessCount;
        RetrievalParams other = p;
        other.weights = {0, 0, 1};
        const auto replay = s->whatIf(original.seq, other).value();
        QCOMPARE(replay.seq, int64_t(0));
        // Equal weights chose B, C; relevance alone chooses A, C: A added, B removed, C moved
        // from second to second? C is second in both: kept.
        const RetrievalDiff diff = diffRetrievals(original.result, replay.result);
        QCOMPARE(diff.added, std::vector<int64_t>{ids[0]});
        QCOMPARE(diff.removed, std::vector<int64_t>{ids[1]});
        QCOMPARE(diff.kept, std::vector<int64_t>{ids[2]});
        QVERIFY(diff.moved.empty());
        // k = 3 with recency only: B, A, C; C moves from rank 2 to 3.
        other.weights = {1, 0, 0};
        other.k = 3;
        const RetrievalDiff d2 =
            diffRetrievals(original.result, s->whatIf(original.seq, other)->result);
        QCOMPARE(d2.added, std::vector<int64_t>{ids[0]});
        QCOMPARE(d2.moved.size(), size_t(1));
        QCOMPARE(d2.moved[0].id, ids[2]);
        QCOMPARE(d2.moved[0].fromRank, 2);
        QCOMPARE(d2.moved[0].toRank, 3);
        // A live what-if retrieval also leaves no trace.
        p.whatIf = true;
        QVERIFY(s->retrieve(QStringLiteral("q"), {1, 0}, QStringLiteral("test"), p, kUser).ok());
        QCOMPARE(s->journal().value().size(), journalBefore);
        QCOMPARE(s->get(ids[1])->accessCount, accessBefore);
    }

    void archivedAreNotCandidatesAndStateIsJournaled()
    {
        auto s = openFresh();
        const auto ids = addAbc(*s);
        QCOMPARE(s->setState({ids[0], ids[1]}, State::Archived, kUser).value(), 2);
        QCOMPARE(s->setState({ids[1]}, State::Deleted, kUser).value(), 1);
        RetrievalParams p;
        p.now = kNow;
        auto r = s->retrieve(QStringLiteral("q"), {1, 0}, QStringLiteral("test"), p, kUser);
        QCOMPARE(r->result.candidates.size(), size_t(1));
        QCOMPARE(r->result.candidates[0].input.id, ids[2]);
        const auto h = s->journal(ids[1]).value();
        QCOMPARE(h.size(), size_t(3));
        QCOMPARE(h[1].op, QStringLiteral("state"));
        QCOMPARE(h[2].op, QStringLiteral("delete"));
        QCOMPARE(h[2].before.value(QStringLiteral("state")).toString(), QStringLiteral("archived"));
        QCOMPARE(s->list().value().size(), size_t(2)); // deleted hidden by default
        MemoryFilter f;
        f.state = State::Deleted;
        QCOMPARE(s->list(f).value().size(), size_t(1));
        // Reverting the delete restores the archived state.
        QVERIFY(s->revert(ids[1], h[2].seq, kUser).ok());
        QCOMPARE(s->get(ids[1])->state, State::Archived);
    }

    void updateKeepsHistoryAndRevertRestores()
    {
        auto s = openFresh();
        const auto ids = addAbc(*s);
        MemoryRecord r = s->get(ids[0], true).value();
        r.text = QStringLiteral("A, edited");
        r.embedding = {0, 1};
        r.importance = 9;
        auto updated = s->update(r, kUser);
        QVERIFY(updated.ok());
        QCOMPARE(updated->version, int64_t(2));
        const auto h = s->journal(ids[0]).value();
        QCOMPARE(h.size(), size_t(2));
        QCOMPARE(h[1].op, QStringLiteral("update"));
        QCOMPARE(h[1].before.value(QStringLiteral("text")).toString(), QStringLiteral("A"));
        QCOMPARE(h[1].after.value(QStringLiteral("text")).toString(), QStringLiteral("A, edited"));
        QCOMPARE(h[1].actor, Actor::User);
        auto reverted = s->revert(ids[0], h[1].seq, kUser);
        QVERIFY2(reverted.ok(), why(reverted).constData());
        QCOMPARE(reverted->text, QStringLiteral("A"));
        QCOMPARE(reverted->importance, 2);
        QCOMPARE(reverted->version, int64_t(3));
        QCOMPARE(s->get(ids[0], true)->embedding, (std::vector<float>{1, 0}));
        QVERIFY(s->journal(ids[0])->back().reason.contains(QLatin1String("test")));
        // The scoring columns follow: A is relevant to (1, 0) again.
        RetrievalParams p;
        p.k = 1;
        p.now = kNow;
        QCOMPARE(s->retrieve(QStringLiteral("q"), {1, 0}, QStringLiteral("test"), p, kUser)
                     ->result.promptOrder.front(),
                 ids[0]);
    }

    void mergeArchivesOriginals()
    {
        auto s = openFresh();
        const auto ids = addAbc(*s);
        MemoryRecord m = rec(QStringLiteral("A and C"), {1, 0.5f}, 6);
        m.kind = Kind::Summary;
        auto id = s->merge({ids[0], ids[2]}, m, kUser);
        QVERIFY(id.ok());
        QCOMPARE(s->get(*id)->evidence, (std::vector<int64_t>{ids[0], ids[2]}));
        QCOMPARE(s->get(ids[0])->state, State::Archived);
        QCOMPARE(s->get(ids[2])->state, State::Archived);
        QCOMPARE(s->count(State::Active), int64_t(2));
        const auto h = s->journal(*id).value();
        QCOMPARE(h.front().op, QStringLiteral("merge"));
    }

    void importanceAccumulatesUntilReflection()
    {
        auto s = openFresh();
        addAbc(*s);
        QCOMPARE(s->importanceSinceLastReflection(QStringLiteral("default")), int64_t(15));
        MemoryRecord refl = rec(QStringLiteral("a reflection"), {1, 1}, 7);
        refl.kind = Kind::Reflection;
        QVERIFY(s->add(refl, kUser).ok());
        QCOMPARE(s->importanceSinceLastReflection(QStringLiteral("default")), int64_t(0));
        QVERIFY(s->add(rec(QStringLiteral("later"), {1, 1}, 4), kUser).ok());
        QCOMPARE(s->importanceSinceLastReflection(QStringLiteral("default")), int64_t(4));
    }

    // Opening reads the vectors on another connection; whatever runs first after open()
    // (a retrieval, an add, a reload, closing) must see exactly the stored vectors.
    void vectorsLoadInTheBackground_data()
    {
        QTest::addColumn<QString>("first");
        QTest::newRow("retrieve") << "retrieve";
        QTest::newRow("add") << "add";
        QTest::newRow("archive") << "archive";
        QTest::newRow("reload") << "reload";
        QTest::newRow("close") << "close";
    }
    void vectorsLoadInTheBackground()
    {
        QFETCH(QString, first);
        const QString path = freshPath();
        std::mt19937 rng(3);
        std::normal_distribution<float> g;
        const int n = 3000, dim = 48;
        std::vector<std::vector<float>> data(n);
        {
            auto s = MemoryStore::open(path).value();
            std::vector<MemoryRecord> batch;
            for (int i = 0; i < n; ++i) {
                data[size_t(i)].resize(dim);
                for (float& f : data[size_t(i)])
                    f = g(rng);
                batch.push_back(rec(QStringLiteral("m%1").arg(i), data[size_t(i)], 5,
                                    kNow - Millis(n - i) * kHour));
            }
            QVERIFY(s->addBatch(std::move(batch), kUser).ok());
        }
        // The nearest memory to a query near memory 1234 must be 1234 itself (ids start at 1).
        std::vector<float> query = data[1233];
        for (float& f : query)
            f += 0.01f * g(rng);
        RetrievalParams p;
        p.mode = RetrievalMode::Ga;
        p.weights = {0, 0, 1};
        p.k = 1;
        p.now = kNow;
        p.whatIf = true;

        auto s = MemoryStore::open(path).value();
        QCOMPARE(s->count(), int64_t(n)); // the small columns are there at once
        QCOMPARE(s->embeddingDimension(), dim);
        if (first == QLatin1String("close")) {
            s.reset(); // cancels the load; nothing may crash or leak a connection
            s = MemoryStore::open(path).value();
        } else if (first == QLatin1String("add")) {
            auto id = s->add(rec(QStringLiteral("new"), query, 5, kNow), kUser);
            QVERIFY2(id.ok(), why(id).constData());
            QCOMPARE(*id, int64_t(n + 1));
            auto r = s->retrieve(QStringLiteral("q"), query, QStringLiteral("test"), p, kUser);
            QVERIFY2(r.ok(), why(r).constData());
            QCOMPARE(r->result.promptOrder, std::vector<int64_t>{n + 1});
            p.k = 2;
            r = s->retrieve(QStringLiteral("q"), query, QStringLiteral("test"), p, kUser);
            QCOMPARE(r->result.promptOrder, (std::vector<int64_t>{n + 1, 1234}));
            return;
        } else if (first == QLatin1String("archive")) {
            QCOMPARE(s->setState({1234}, State::Archived, kUser).value(), 1);
            auto r = s->retrieve(QStringLiteral("q"), query, QStringLiteral("test"), p, kUser);
            QVERIFY(r.ok());
            QVERIFY(r->result.promptOrder != std::vector<int64_t>{1234});
            QCOMPARE(r->result.candidates.size(), size_t(n - 1));
            return;
        } else if (first == QLatin1String("reload")) {
            QVERIFY(s->reload().ok());
        }
        auto r = s->retrieve(QStringLiteral("q"), query, QStringLiteral("test"), p, kUser);
        QVERIFY2(r.ok(), why(r).constData());
        QCOMPARE(r->result.candidates.size(), size_t(n));
        QCOMPARE(r->result.promptOrder, std::vector<int64_t>{1234});
        // Every candidate's relevance is the cosine with its stored vector.
        const std::vector<float> uq = normalized(query);
        for (const Candidate& c : r->result.candidates) {
            const std::vector<float> v = normalized(data[size_t(c.input.id - 1)]);
            QVERIFY(c.input.hasEmbedding);
            QVERIFY2(std::abs(c.input.relevance - dot(uq.data(), v.data(), dim)) < 1e-4f,
                     qPrintable(QString::number(c.input.id)));
        }
    }

    void approximateIndexRecall()
    {
        // Random unit vectors in 32 dimensions: HNSW's top 10 must find at least 90% of the
        // exact top 10 (measured over 50 queries).
        std::mt19937 rng(7);
        std::normal_distribution<float> g;
        const int n = 3000, dim = 32;
        std::vector<std::vector<float>> data(n);
        AnnIndex ann(dim, 256);
        for (int i = 0; i < n; ++i) {
            data[size_t(i)].resize(dim);
            for (float& f : data[size_t(i)])
                f = g(rng);
            data[size_t(i)] = normalized(data[size_t(i)]);
            ann.add(i + 1, data[size_t(i)].data());
        }
        QCOMPARE(ann.size(), size_t(n));
        int found = 0, total = 0;
        for (int q = 0; q < 50; ++q) {
            std::vector<float> query(dim);
            for (float& f : query)
                f = g(rng);
            query = normalized(query);
            std::vector<std::pair<float, int64_t>> exact;
            for (int i = 0; i < n; ++i)
                exact.push_back({-dot(query.data(), data[size_t(i)].data(), dim), i + 1});
            std::partial_sort(exact.begin(), exact.begin() + 10, exact.end());
            const auto approx = ann.nearest(query.data(), 10, 64);
            const std::set<int64_t> got(approx.begin(), approx.end());
            for (int i = 0; i < 10; ++i)
                found += got.count(exact[size_t(i)].second) ? 1 : 0;
            total += 10;
        }
        const double recall = double(found) / total;
        qInfo("HNSW recall@10 vs exact: %.3f", recall);
        QVERIFY2(recall >= 0.9, qPrintable(QString::number(recall)));
        ann.remove(1);
        QCOMPARE(ann.size(), size_t(n - 1));
        const auto self = ann.nearest(data[0].data(), 5, 64);
        QVERIFY(std::find(self.begin(), self.end(), 1) == self.end());
    }

    void storeUsesApproximateIndexAboveThreshold()
    {
        StoreOptions o;
        o.approximateThreshold = 100;
        o.approximateCandidates = 50;
        auto s = openFresh(o);
        std::mt19937 rng(3);
        std::normal_distribution<float> g;
        std::vector<MemoryRecord> batch;
        for (int i = 0; i < 400; ++i) {
            std::vector<float> v(16);
            for (float& f : v)
                f = g(rng);
            batch.push_back(rec(QStringLiteral("m%1").arg(i), v));
        }
        QVERIFY(s->addBatch(batch, kUser).ok());
        std::vector<float> q(16);
        for (float& f : q)
            f = g(rng);
        RetrievalParams p;
        p.k = 5;
        p.whatIf = true;
        const auto approx =
            s->retrieve(QStringLiteral("q"), q, QStringLiteral("test"), p, kUser).value();
        QVERIFY(approx.result.approximate);
        int notNearest = 0;
        for (const Candidate& c : approx.result.candidates)
            notNearest += c.cut == CutReason::NotNearest;
        QCOMPARE(notNearest, 400 - 50);
        // The exact search picks the same five here (50 candidates for k = 5 on 400 points).
        auto exactStore = MemoryStore::open(s->path(), StoreOptions{0, 200}).value();
        const auto exact =
            exactStore->retrieve(QStringLiteral("q"), q, QStringLiteral("test"), p, kUser).value();
        QVERIFY(!exact.result.approximate);
        QCOMPARE(approx.result.promptOrder, exact.result.promptOrder);
    }

    void candidateBlobRoundTrip()
    {
        Candidate c;
        c.input = {42, kNow, 1.5f, 0.25f, 7, false, true};
        c.recency = 0.9f;
        c.relevanceNorm = 0.1f;
        c.recencyNorm = 0.2f;
        c.importanceNorm = 0.3f;
        c.score = 0.6f;
        c.rank = 3;
        c.promptOrder = 0;
        c.cut = CutReason::NoEmbedding;
        const auto back = decodeCandidates(encodeCandidates({c, c}));
        QCOMPARE(back.size(), size_t(2));
        QCOMPARE(back[1].input.id, int64_t(42));
        QCOMPARE(back[1].input.createdAt, kNow);
        QCOMPARE(back[1].input.hasEmbedding, false);
        QCOMPARE(back[1].score, 0.6f);
        QCOMPARE(back[1].cut, CutReason::NoEmbedding);
        QCOMPARE(back[1].rank, 3);
    }

    void timesParse_data()
    {
        QTest::addColumn<QString>("text");
        QTest::addColumn<qint64>("ms");
        QTest::newRow("date") << "2024-05-01" << qint64(kNow - 10 * kHour);
        QTest::newRow("utc") << "2024-05-01T10:00:00Z" << qint64(kNow);
        QTest::newRow("no offset is utc") << "2024-05-01T10:00" << qint64(kNow);
        QTest::newRow("offset") << "2024-05-01T12:00:00+02:00" << qint64(kNow);
        QTest::newRow("ga style") << "2024-05-01 10:00:00" << qint64(kNow);
    }
    void timesParse()
    {
        QFETCH(QString, text);
        QFETCH(qint64, ms);
        QCOMPARE(parseTime(text).value_or(-1), ms);
        QCOMPARE(formatTime(kNow), QStringLiteral("2024-05-01T10:00:00Z"));
        QVERIFY(!parseTime(QStringLiteral("yesterday")));
    }
};

QTEST_GUILESS_MAIN(TestMemoryStore)
#include "tst_memorystore.moc"
