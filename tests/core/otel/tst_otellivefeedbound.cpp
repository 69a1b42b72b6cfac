// The window's live feed of received spans is bounded: however many spans arrive, it keeps at
// most maxSpans() (the traces that arrived first are dropped, never the followed one), and the
// shown trace's title says what is missing.
#include "core/otel/otellivefeed.h"
#include "core/pdl/trace/tracemodel.h"

#include <QAbstractItemModelTester>
#include <QtTest>

#include <cstdio>

using namespace hako;
using namespace hako::otel;

namespace {

std::string traceId(int t)
{
    char buf[33];
    std::snprintf(buf, sizeof buf, "%032x", t + 1);
    return buf;
}

// `count` spans of trace `t`: a root and children under it.
std::vector<Span> spansOf(int t, int count, int from = 0)
{
    std::vector<Span> out;
    for (int i = from; i < from + count; ++i) {
        Span s;
        s.traceId = traceId(t);
        char id[17];
        std::snprintf(id, sizeof id, "%016x", i + 1);
        s.spanId = id;
        if (i > 0)
            s.parentSpanId = "0000000000000001";
        s.name = "span";
        s.startNanos = 1700000000000000000LL + int64_t(t) * 1000000 + i;
        s.endNanos = s.startNanos + 10;
        out.push_back(std::move(s));
    }
    return out;
}

} // namespace

class TestOtelLiveFeedBound : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void manyTracesKeepTheNewest()
    {
        pdl::TraceModel model;
        QAbstractItemModelTester tester(&model);
        OtelLiveFeed feed(&model);
        QCOMPARE(feed.maxSpans(), OtelLiveFeed::kDefaultMaxSpans);
        feed.setMaxSpans(1000);
        for (int t = 0; t < 10; ++t) {
            feed.push(spansOf(t, 400));
            feed.flush();
            QVERIFY(feed.assembler().spanCount() <= 1000);
        }
        QVERIFY(feed.assembler().contains(traceId(9)));
        QVERIFY(!feed.assembler().contains(traceId(0)));
        QCOMPARE(feed.droppedSpans() + feed.assembler().spanCount(), size_t(4000));
        QVERIFY(!feed.notice().isEmpty());
        QVERIFY(model.source().contains(QStringLiteral("not shown")));
    }

    void followedTraceIsKeptAndOneHugeTraceStopsGrowing()
    {
        pdl::TraceModel model;
        OtelLiveFeed feed(&model);
        feed.setMaxSpans(1000);
        feed.push(spansOf(0, 300));
        feed.flush();
        feed.follow(traceId(0));
        for (int t = 1; t < 6; ++t) {
            feed.push(spansOf(t, 300));
            feed.flush();
        }
        QVERIFY(feed.assembler().contains(traceId(0)));
        QVERIFY(feed.assembler().spanCount() <= 1000);
        // One trace far over the bound, pushed faster than the window applies it.
        feed.follow({});
        for (int from = 0; from < 5000; from += 500)
            feed.push(spansOf(7, 500, from));
        feed.flush();
        QVERIFY(feed.assembler().spanCount() <= 1000);
        QVERIFY(feed.assembler().contains(traceId(7)));
    }
};

QTEST_GUILESS_MAIN(TestOtelLiveFeedBound)
#include "tst_otellivefeedbound.moc"
