// The OTLP receiver's cost per attribute: one request carrying one span with
// HAKO_BENCH_OTEL_ATTRIBUTES attributes (default 80,000; about 1.5 MB of OTLP/protobuf), handled
// as `hako serve` handles it (decoded, interpreted, made a prompt-log call) and as the window
// and `hako diff` do (made a trace node). Once with plain attributes, once as an LLM span whose
// attributes are the parts of one flattened message. Work linear in the attributes takes well
// under a second; a quadratic step takes half a minute and more.
#include "core/otel/otlpdecode.h"
#include "core/otel/otlpreceiver.h"
#include "core/otel/spanmapper.h"

#include <QCoreApplication>
#include <QElapsedTimer>

#include <cstdio>
#include <cstdlib>
#include <string>

using namespace hako;

namespace {

long long envInt(const char* name, long long fallback)
{
    const char* v = std::getenv(name);
    return v && *v ? std::atoll(v) : fallback;
}

// Appended to the object's storage directly: the benchmark's own set-up stays linear whatever
// the library under test does.
otel::Span spanWith(long long count, const std::string& prefix, const std::string& suffix, bool llm)
{
    otel::Span s;
    s.traceId = "0af7651916cd43dd8448eb211c80319c";
    s.spanId = "00f067aa0ba902b7";
    s.name = "wide";
    s.startNanos = 1700000000000000000LL;
    s.endNanos = s.startNanos + 1000;
    auto& items = s.attributes.get_ref<otel::Attributes::object_t&>();
    items.reserve(size_t(count) + 1);
    for (long long i = 0; i < count; ++i)
        items.emplace_back(prefix + std::to_string(i) + suffix, "v" + std::to_string(i));
    if (llm)
        items.emplace_back("openinference.span.kind", "LLM");
    return s;
}

double handle(const QByteArray& body)
{
    QElapsedTimer t;
    t.start();
    otel::ReceiverReply reply =
        otel::OtlpReceiver::process("application/x-protobuf", QByteArray(), body, {});
    if (reply.status != 200 || reply.spans.size() != 1) {
        std::fprintf(stderr, "the request was refused: %s\n", reply.message.constData());
        std::exit(1);
    }
    const otel::Span& span = reply.spans.front();
    const otel::SpanView view = otel::interpretSpan(span);
    (void)otel::toCallRecord(span, view);
    (void)otel::toTraceNode(span, view);
    return t.nsecsElapsed() / 1e9;
}

} // namespace

int main(int argc, char** argv)
{
    QCoreApplication app(argc, argv);
    const long long count = envInt("HAKO_BENCH_OTEL_ATTRIBUTES", 80000);
    const QByteArray plain =
        QByteArray::fromStdString(otel::encodeOtlpProtobuf({spanWith(count, "key.", "", false)}));
    const QByteArray parts = QByteArray::fromStdString(otel::encodeOtlpProtobuf({spanWith(
        count, "llm.input_messages.0.message.contents.", ".message_content.text", true)}));
    std::fprintf(stderr, "# %lld attributes: %.1f MB and %.1f MB of OTLP/protobuf\n", count,
                 plain.size() / 1048576.0, parts.size() / 1048576.0);
    const std::string tag = count == 80000 ? "80k" : std::to_string(count);
    std::printf("BENCH otlp_%s_attributes_s %.2f s\n", tag.c_str(), handle(plain));
    std::printf("BENCH otlp_%s_message_parts_s %.2f s\n", tag.c_str(), handle(parts));
    return 0;
}
