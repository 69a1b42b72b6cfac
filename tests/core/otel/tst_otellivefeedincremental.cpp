// Received spans reach the trace model incrementally: spans of a generated agent trace arrive
// shuffled, in batches of random size; after every batch the live model shows exactly what a
// model built from the spans received so far shows (placeholders, start-time order, a synthetic
// root while there are several roots), without a reset after the first batch, and every row a
// view holds (a persistent index) still points at the same span.
#include "core/otel/otellivefeed.h"
#include "core/otel/traceassembler.h"
#include "core/pdl/trace/tracemodel.h"

#include <QAbstractItemModelTester>
#include <QRandomGenerator>
#include <QSignalSpy>
#include <QtTest>

#include <algorithm>
#include <cstdio>
#include <map>

using namespace hako;
using namespace hako::otel;

namespace {

const std::string kTrace = "4bf92f3577b34da6a3ce929d0e0e4736";

std::string spanId(int i)
{
    char buf[17];
    std::snprintf(buf, sizeof buf, "%016x", i + 1);
    return buf;
}

// A trace of `count` spans: span 0 the root, every other span under an earlier one, children
// starting after their parent and in no particular order of index; a few with errors, a few
// LLM spans with output.
std::vector<Span> generateTrace(int count, QRandomGenerator& rng)
{
    std::vector<Span> spans;
    std::vector<int64_t> start(static_cast<size_t>(count));
    for (int i = 0; i < count; ++i) {
        Span s;
        s.traceId = kTrace;
        s.spanId = spanId(i);
        const int parent = i == 0 ? -1 : int(rng.bounded(i));
        if (parent >= 0)
            s.parentSpanId = spanId(parent);
        start[size_t(i)] =
            parent < 0 ? 1700000000000000000LL : start[size_t(parent)] + 1 + rng.bounded(1000000);
        s.startNanos = start[size_t(i)];
        s.endNanos = s.startNanos + 1000 + rng.bounded(5000000);
        s.name = "step " + std::to_string(i);
        if (i % 7 == 3) {
            s.attributes["openinference.span.kind"] = "LLM";
            s.attributes["output.value"] = "reply " + std::to_string(i);
        }
        if (i % 11 == 5) {
            s.statusCode = 2;
            s.statusMessage = "failed " + std::to_string(i);
        }
        spans.push_back(std::move(s));
    }
    return spans;
}

// Every row, depth first: what the tree shows (label, kind, result, duration) and the field.
void dump(const pdl::TraceModel& model, const QModelIndex& parent, int depth, QStringList& out)
{
    for (int r = 0; r < model.rowCount(parent); ++r) {
        const QModelIndex i = model.index(r, 0, parent);
        QStringList cells;
        for (int c = 0; c < pdl::TraceModel::ColumnCount; ++c)
            cells << model.data(model.index(r, c, parent)).toString();
        cells << model.data(i, pdl::TraceModel::IdRole).toString()
              << QString::fromStdString(model.itemAt(i)->field);
        out << QString(depth * 2, QLatin1Char(' ')) + cells.join(QLatin1Char('|'));
        dump(model, i, depth + 1, out);
    }
}

QStringList dump(const pdl::TraceModel& model)
{
    QStringList out;
    dump(model, {}, 0, out);
    return out;
}

void collect(const pdl::TraceModel& model, const QModelIndex& parent,
             std::vector<std::pair<QPersistentModelIndex, QString>>& out)
{
    for (int r = 0; r < model.rowCount(parent); ++r) {
        const QModelIndex i = model.index(r, 0, parent);
        out.emplace_back(QPersistentModelIndex(i),
                         model.data(i, pdl::TraceModel::IdRole).toString());
        collect(model, i, out);
    }
}

} // namespace

class TestOtelLiveFeedIncremental : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void batchesMatchTheWholeTrace_data()
    {
        QTest::addColumn<quint32>("seed");
        QTest::addColumn<int>("spans");
        for (quint32 seed : {1u, 7u, 42u, 1234u, 99991u})
            QTest::addRow("seed %u", seed) << seed << int(20 + seed % 60);
    }

    void batchesMatchTheWholeTrace()
    {
        QFETCH(quint32, seed);
        QFETCH(int, spans);
        QRandomGenerator rng(seed);
        std::vector<Span> trace = generateTrace(spans, rng);
        std::shuffle(trace.begin(), trace.end(), rng);

        pdl::TraceModel model;
        QAbstractItemModelTester tester(&model);
        QSignalSpy resets(&model, &QAbstractItemModel::modelReset);
        OtelLiveFeed feed(&model);
        TraceAssembler reference;
        reference.setLive(true);
        std::vector<std::pair<QPersistentModelIndex, QString>> held;
        int batches = 0;
        bool sawPlaceholder = false;
        for (size_t at = 0; at < trace.size(); ++batches) {
            const size_t n = std::min(trace.size() - at, size_t(1 + rng.bounded(6)));
            std::vector<Span> batch(trace.begin() + qsizetype(at),
                                    trace.begin() + qsizetype(at + n));
            at += n;
            reference.add(batch);
            feed.push(std::move(batch));
            feed.flush();

            pdl::TraceModel expected;
            expected.setTrace(reference.build(kTrace));
            const QStringList shown = dump(model);
            QCOMPARE(shown, dump(expected));
            QCOMPARE(model.itemCount(), expected.itemCount());
            QCOMPARE(resets.count(), 1); // the first batch only: the trace appeared
            sawPlaceholder |= shown.join('\n').contains(QStringLiteral("waiting for span"));

            // Rows held since the last batch still point at their span (a placeholder's row now
            // shows the span it waited for: same id); only a synthetic root may have gone.
            for (const auto& [index, id] : held) {
                if (!index.isValid()) {
                    QVERIFY2(id.startsWith(QStringLiteral("trace:")), qPrintable(id));
                    continue;
                }
                QCOMPARE(model.data(index, pdl::TraceModel::IdRole).toString(), id);
            }
            held.clear();
            collect(model, {}, held);
        }
        QVERIFY(batches > 3);
        QVERIFY(sawPlaceholder);
        // Complete: the root span at the top, nothing waiting.
        QCOMPARE(model.rowCount(), 1);
        QCOMPARE(model.data(model.index(0, 0)).toString(), QStringLiteral("step 0"));
        QVERIFY(!dump(model).join('\n').contains(QStringLiteral("waiting for span")));
    }

    void severalRootsGetOneTopRowAndLoseItWhenTheyJoin()
    {
        // C under B under A; D under A. C and D first: two placeholders, so a synthetic root.
        auto span = [](int i, int parent, int64_t start) {
            Span s;
            s.traceId = kTrace;
            s.spanId = spanId(i);
            if (parent >= 0)
                s.parentSpanId = spanId(parent);
            s.name = std::string(1, char('A' + i));
            s.startNanos = start;
            s.endNanos = start + 100;
            return s;
        };
        pdl::TraceModel model;
        QAbstractItemModelTester tester(&model);
        QSignalSpy resets(&model, &QAbstractItemModel::modelReset);
        QSignalSpy moves(&model, &QAbstractItemModel::rowsMoved);
        // Views hearing of a new top row (the detail pane's "select a block") read root().
        int topChanges = 0, staleRoot = 0;
        auto checkRoot = [&] {
            ++topChanges;
            if (model.root() != model.itemAt(model.index(0, 0)))
                ++staleRoot;
        };
        connect(&model, &QAbstractItemModel::rowsInserted, this,
                [&](const QModelIndex& parent) { parent.isValid() ? void() : checkRoot(); });
        connect(&model, &QAbstractItemModel::rowsMoved, this, checkRoot);
        connect(&model, &QAbstractItemModel::rowsRemoved, this,
                [&](const QModelIndex& parent) { parent.isValid() ? void() : checkRoot(); });
        OtelLiveFeed feed(&model);
        feed.push({span(2, 1, 30), span(3, 0, 20)});
        feed.flush();
        QCOMPARE(model.rowCount(), 1);
        const QModelIndex top = model.index(0, 0);
        QVERIFY(model.data(top, pdl::TraceModel::IdRole).toString().startsWith("trace:"));
        QCOMPARE(model.rowCount(top), 2);
        const QPersistentModelIndex c = model.index(0, 0, model.index(1, 0, top));
        QCOMPARE(model.data(c).toString(), QStringLiteral("C"));

        feed.push({span(1, 0, 10)}); // B: C's placeholder becomes B, under A's placeholder
        feed.flush();
        QCOMPARE(model.rowCount(), 1);
        const QModelIndex waitingA = model.index(0, 0);
        QCOMPARE(model.data(waitingA).toString(),
                 "waiting for span " + QString::fromStdString(spanId(0)));
        QCOMPARE(model.rowCount(waitingA), 2);
        QCOMPARE(model.data(model.index(0, 0, waitingA)).toString(),
                 QStringLiteral("B")); // 10 < 20
        QCOMPARE(model.data(model.index(1, 0, waitingA)).toString(), QStringLiteral("D"));
        QVERIFY(c.isValid());
        QCOMPARE(c.parent(), model.index(0, 0, waitingA));
        const QPersistentModelIndex rootRow = waitingA;

        feed.push({span(0, -1, 0)});
        feed.flush();
        QCOMPARE(model.data(rootRow).toString(), QStringLiteral("A")); // replaced in place
        QCOMPARE(model.data(c).toString(), QStringLiteral("C"));
        QCOMPARE(resets.count(), 1);
        QVERIFY(moves.count() > 0);
        QVERIFY(topChanges > 0);
        QCOMPARE(staleRoot, 0);
    }

    void anotherTraceStartingDoesNotTakeTheViewBack()
    {
        // Following nothing, the view moves to a trace when it starts, and stays there while
        // the earlier trace goes on sending spans.
        pdl::TraceModel model;
        OtelLiveFeed feed(&model);
        Span a;
        a.traceId = kTrace;
        a.spanId = spanId(1);
        a.name = "first";
        a.startNanos = 10;
        a.endNanos = 20;
        feed.push({a});
        feed.flush();
        Span b = a;
        b.traceId = "5b8efff798038103d269b633813fc60c";
        b.name = "second";
        b.startNanos = 30;
        feed.push({b});
        feed.flush();
        QCOMPARE(feed.shownTrace(), b.traceId);
        QSignalSpy resets(&model, &QAbstractItemModel::modelReset);
        Span a2 = a;
        a2.spanId = spanId(2);
        a2.parentSpanId = a.spanId;
        feed.push({a2});
        feed.flush();
        QCOMPARE(feed.shownTrace(), b.traceId);
        QCOMPARE(resets.count(), 0);
        feed.follow(a.traceId);
        QCOMPARE(model.data(model.index(0, 0)).toString(), QStringLiteral("first"));
        QCOMPARE(model.rowCount(model.index(0, 0)), 1);
    }
};

QTEST_GUILESS_MAIN(TestOtelLiveFeedIncremental)
#include "tst_otellivefeedincremental.moc"
