// Requests with tens of thousands of attributes: decoded and mapped with the meaning small ones
// have (order kept, a repeated key keeps its place and takes its last value, flattened message
// parts joined in index order). How long they take is measured by tests/bench/
// bench_otelattributes (BENCH otlp_80k_attributes_s), never asserted here.
#include "core/otel/otlpdecode.h"
#include "core/otel/otlpreceiver.h"
#include "core/otel/spanmapper.h"

#include <QRandomGenerator>

#include <QtTest>
#include <cctype>

using namespace hako;
using namespace hako::otel;

namespace {

constexpr int kCount = 80000;

std::string jsonAttr(const std::string& key, const std::string& value)
{
    return "{\"key\":\"" + key + "\",\"value\":{\"stringValue\":\"" + value + "\"}}";
}

// One span whose attributes are key.0 … key.N-1, then key.0 again with another value.
std::string wideJsonRequest()
{
    std::string attrs;
    for (int i = 0; i < kCount; ++i)
        attrs += jsonAttr("key." + std::to_string(i), "v" + std::to_string(i)) + ",";
    attrs += jsonAttr("key.0", "last");
    return "{\"resourceSpans\":[{\"resource\":{\"attributes\":[" + attrs +
           "]},\"scopeSpans\":[{\"spans\":[{\"traceId\":\"0af7651916cd43dd8448eb211c80319c\","
           "\"spanId\":\"00f067aa0ba902b7\",\"name\":\"wide\",\"startTimeUnixNano\":\"1\","
           "\"endTimeUnixNano\":\"2\",\"attributes\":[" +
           attrs + "],\"events\":[{\"name\":\"e\",\"attributes\":[" + attrs + "]}]}]}]}]}";
}

void checkWide(const Attributes& a)
{
    QCOMPARE(a.size(), size_t(kCount));
    auto it = a.begin();
    QCOMPARE(it.key(), std::string("key.0"));
    QCOMPARE(it.value().get<std::string>(), std::string("last"));
    ++it;
    QCOMPARE(it.key(), std::string("key.1"));
    QCOMPARE(attrString(a, "key.79999"), std::string("v79999"));
    QCOMPARE(a.get_ref<const Attributes::object_t&>().back().first, std::string("key.79999"));
}

} // namespace

class TestOtlpAttributes : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void wideRequestsKeepOrderAndLastValue()
    {
        auto json = decodeOtlpJson(wideJsonRequest());
        QVERIFY2(json.ok(), qPrintable(json.ok() ? QString() : json.error().message));
        QCOMPARE(json->size(), size_t(1));
        checkWide((*json)[0].attributes);
        checkWide((*json)[0].resource->attributes);
        checkWide((*json)[0].events.at(0).attributes);

        // The same through protobuf (what the encoder writes is what the decoder reads).
        const std::string bytes = encodeOtlpProtobuf(*json);
        auto proto = decodeOtlpProtobuf(bytes);
        QVERIFY(proto.ok());
        checkWide((*proto)[0].attributes);
        checkWide((*proto)[0].resource->attributes);
        checkWide((*proto)[0].events.at(0).attributes);
    }

    void wideLlmSpanMapsAsASmallOne()
    {
        Span s;
        s.traceId = "0af7651916cd43dd8448eb211c80319c";
        s.spanId = "00f067aa0ba902b7";
        s.name = "chat";
        AttributesBuilder b;
        b.set("openinference.span.kind", "LLM");
        b.set("llm.input_messages.0.message.role", "user");
        // Parts arrive out of order; they are joined by index.
        for (int i = kCount - 1; i >= 0; --i)
            b.set("llm.input_messages.0.message.contents." + std::to_string(i) +
                      ".message_content.text",
                  std::to_string(i % 10));
        for (int i = 0; i < kCount; ++i)
            b.set("llm.invocation_parameters.p" + std::to_string(i), i);
        for (int i = 0; i < kCount; ++i)
            b.set("unmapped." + std::to_string(i), i);
        s.attributes = b.take();
        const SpanView v = interpretSpan(s);
        QCOMPARE(v.inputMessages.size(), size_t(1));
        const std::string content = v.inputMessages[0]["content"].get<std::string>();
        QCOMPARE(content.size(), size_t(kCount));
        QCOMPARE(content.substr(0, 12), std::string("012345678901"));
        QCOMPARE(v.raw.size(), size_t(kCount + kCount));
        QCOMPARE(v.raw.begin().key(), std::string("llm.invocation_parameters.p0"));
        auto call = toCallRecord(s, v);
        QVERIFY(call.has_value());
        QCOMPARE(call->messages.size(), 1);
    }

    void deeplyNestedJsonAttributeIsNoAbort()
    {
        // A JSON text nested deeper than a trace value may be: the node says it is not shown.
        Span s;
        s.traceId = "0af7651916cd43dd8448eb211c80319c";
        s.spanId = "00f067aa0ba902b7";
        s.name = "chat";
        AttributesBuilder b;
        b.set("openinference.span.kind", "LLM");
        b.set("output.mime_type", "application/json");
        b.set("output.value", std::string(1100, '[') + "1" + std::string(1100, ']'));
        s.attributes = b.take();
        const SpanView v = interpretSpan(s);
        pdl::TracePtr node = toTraceNode(s, v);
        QVERIFY(node);
        QVERIFY2(node->error.rfind("a recorded value is not shown", 0) == 0, node->error.c_str());
    }

    void builderKeepsFirstPlaceAndLastValue()
    {
        AttributesBuilder b;
        b.set("a", 1);
        b.set("b", 2);
        b.set("a", 3);
        b.update(Attributes{{"c", 4}, {"b", 5}});
        QCOMPARE(b.size(), size_t(3));
        QVERIFY(b.find("c") && *b.find("c") == 4);
        const Attributes a = b.take();
        QCOMPARE(a.dump(), std::string("{\"a\":3,\"b\":5,\"c\":4}"));
        QVERIFY(b.empty());
    }

    // Scanned while small, indexed once large: either way, every key keeps its first place and
    // its last value, as a plain ordered object assigned key by key does (the oracle).
    void builderAgreesWithAnOrderedObjectAtEverySize()
    {
        QRandomGenerator random(31);
        for (int keys : {1, 5, 31, 32, 33, 34, 100, 1000}) {
            AttributesBuilder b;
            Attributes oracle = Attributes::object();
            for (int i = 0; i < keys * 3; ++i) {
                const std::string key = "gen_ai.attr." + std::to_string(random.bounded(keys));
                const int value = int(random.bounded(1000));
                b.set(key, value);
                oracle[key] = value;
                if (i % 7 == 0) {
                    const std::string probe = "gen_ai.attr." + std::to_string(random.bounded(keys));
                    const Attributes* found = b.find(probe);
                    QCOMPARE(found != nullptr, oracle.contains(probe));
                    if (found)
                        QCOMPARE(*found, oracle[probe]);
                }
            }
            QCOMPARE(b.size(), oracle.size());
            QCOMPARE(b.take().dump(), oracle.dump());
        }
    }

    // An id is exactly `digits` hex digits, not all zero (the OTLP rule), whatever the bytes:
    // every byte value at every place of a valid id, against the rule written out.
    void hexIdsAgreeWithTheRule()
    {
        const auto rule = [](std::string_view text, size_t digits) {
            if (text.size() != digits)
                return false;
            bool nonZero = false;
            for (char c : text) {
                if (!std::isxdigit(static_cast<unsigned char>(c)))
                    return false;
                nonZero = nonZero || c != '0';
            }
            return nonZero;
        };
        int checked = 0;
        for (size_t digits : {size_t(16), size_t(32)}) {
            for (const std::string& base :
                 {std::string(digits, '0'), std::string(digits, 'f'), std::string(digits, 'A')}) {
                QCOMPARE(isHexId(base, digits), rule(base, digits));
                QVERIFY(!isHexId(base.substr(1), digits));
                QVERIFY(!isHexId(base + "0", digits));
                for (size_t at = 0; at < digits; ++at) {
                    for (int b = 0; b < 256; ++b) {
                        std::string id = base;
                        id[at] = char(b);
                        QCOMPARE(isHexId(id, digits), rule(id, digits));
                        ++checked;
                    }
                }
            }
        }
        QVERIFY(checked > 30000);
    }
};

QTEST_GUILESS_MAIN(TestOtlpAttributes)
#include "tst_otlpattributes.moc"
