#include "core/otel/otlpdecode.h"
#include "core/otel/otlpwriter.h"
#include "core/otel/spanvalue_p.h"
#include "otlprunsfixture.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QProcess>
#include <QStandardPaths>

#include <QRandomGenerator>
#include <QtTest>

#include <cmath>
#include <limits>

using namespace hako;
using namespace hako::otel;

// encodeOtlpJson() writes its text directly; the oracle here builds the same request as a
// nlohmann document, the OTLP/JSON mapping spelled out member by member, and lets nlohmann
// write it. The two must agree byte for byte on every generated request.

namespace {

using json = Attributes;
using hako::test::otlpValue;

json keyValuesDoc(const json& object)
{
    json out = json::array();
    for (auto it = object.begin(); it != object.end(); ++it)
        out.push_back({{"key", it.key()}, {"value", otlpValue(it.value())}});
    return out;
}

json spanDoc(const Span& s)
{
    json j = json::object();
    j["traceId"] = s.traceId;
    j["spanId"] = s.spanId;
    if (!s.parentSpanId.empty())
        j["parentSpanId"] = s.parentSpanId;
    j["name"] = s.name;
    j["kind"] = s.kind;
    j["startTimeUnixNano"] = std::to_string(s.startNanos);
    j["endTimeUnixNano"] = std::to_string(s.endNanos);
    j["attributes"] = keyValuesDoc(s.attributes);
    if (!s.events.empty()) {
        json events = json::array();
        for (const SpanEvent& e : s.events) {
            json event = json::object();
            event["timeUnixNano"] = std::to_string(e.timeNanos);
            event["name"] = e.name;
            event["attributes"] = keyValuesDoc(e.attributes);
            events.push_back(event);
        }
        j["events"] = events;
    }
    json status = json::object();
    if (s.statusCode)
        status["code"] = s.statusCode;
    if (!s.statusMessage.empty())
        status["message"] = s.statusMessage;
    j["status"] = status;
    return j;
}

std::string oracle(const std::vector<Span>& spans)
{
    json resourceSpans = json::array();
    size_t i = 0;
    while (i < spans.size()) {
        const SpanResource* r = spans[i].resource.get();
        json scope = json::object();
        json resource = json::object();
        resource["attributes"] = r ? keyValuesDoc(r->attributes) : json::array();
        if (r) {
            scope["name"] = r->scopeName;
            if (!r->scopeVersion.empty())
                scope["version"] = r->scopeVersion;
        }
        json list = json::array();
        for (; i < spans.size() && spans[i].resource.get() == r; ++i)
            list.push_back(spanDoc(spans[i]));
        json scopeSpans = json::object();
        scopeSpans["scope"] = scope;
        scopeSpans["spans"] = list;
        json entry = json::object();
        entry["resource"] = resource;
        entry["scopeSpans"] = json::array({scopeSpans});
        resourceSpans.push_back(entry);
    }
    json request = json::object();
    request["resourceSpans"] = resourceSpans;
    return request.dump(-1, ' ', false, json::error_handler_t::replace);
}

class Generator {
public:
    explicit Generator(quint32 seed) : m_random(seed) {}

    int below(int n) { return int(m_random.bounded(n)); }

    // Text of every kind a span carries: ASCII, what JSON escapes, Japanese, emoji, and
    // (when `wellFormed` is false, now and then) bytes that are not UTF-8.
    std::string text(bool wellFormed = true)
    {
        static const char* const pieces[] = {
            "a",  "Z",     " ",       "\"",   "\\",     "/",      "\n", "\r", "\t",
            "\b", "\f",    "\x01",    "\x1f", "\x7f",   "日本語", "箱", "é",  "\xF0\x9F\x98\x80",
            "{}", "[1,2]", "\\u0041", "null", "０１２", "ｶﾅ"};
        constexpr int kPieces = int(sizeof pieces / sizeof *pieces);
        std::string out;
        const int n = below(12);
        for (int i = 0; i < n; ++i)
            out += pieces[below(kPieces)];
        if (!wellFormed && below(4) == 0) {
            static const char* const broken[] = {
                "\xff", "\xc3", "\xe6\x97", "\xed\xa0\x80", "\xc0\xaf", "\xf8\x88\x80\x80\x80"};
            out.insert(size_t(below(int(out.size()) + 1)), broken[below(6)]);
        }
        return out;
    }

    json value(int depth, bool wellFormed)
    {
        switch (below(depth > 2 ? 6 : 8)) {
        case 0:
            return text(wellFormed);
        case 1:
            return below(2) == 0;
        case 2: {
            static const int64_t ints[] = {0,
                                           1,
                                           -1,
                                           42,
                                           std::numeric_limits<int64_t>::max(),
                                           std::numeric_limits<int64_t>::min(),
                                           1700000000000};
            return ints[below(7)];
        }
        case 3: {
            static const double doubles[] = {
                0.0, -0.0, 0.1, 1.5, -2.25, 1e300, 3.0e-310, 123456789.125, std::nan(""), INFINITY};
            return doubles[below(10)];
        }
        case 4:
            return uint64_t(std::numeric_limits<int64_t>::max()) + uint64_t(below(1000) + 1);
        case 5:
            return nullptr;
        case 6: {
            json a = json::array();
            for (int i = below(4); i > 0; --i)
                a.push_back(value(depth + 1, wellFormed));
            return a;
        }
        default:
            return object(depth + 1, wellFormed);
        }
    }

    json object(int depth, bool wellFormed)
    {
        json o = json::object();
        for (int i = below(6); i > 0; --i)
            o[text(wellFormed) + std::to_string(i)] = value(depth, wellFormed);
        return o;
    }

    std::vector<Span> spans(bool wellFormed)
    {
        std::vector<std::shared_ptr<const SpanResource>> resources = {nullptr};
        for (int r = 0; r < 3; ++r) {
            auto res = std::make_shared<SpanResource>();
            res->attributes = object(1, wellFormed);
            res->scopeName = text(wellFormed);
            if (below(2))
                res->scopeVersion = text(wellFormed);
            resources.push_back(res);
        }
        std::vector<Span> out(size_t(below(8)));
        for (Span& s : out) {
            s.traceId = "0af7651916cd43dd8448eb211c80319c";
            s.spanId = id();
            if (below(3))
                s.parentSpanId = id();
            s.name = text(wellFormed);
            s.kind = below(6);
            s.startNanos = int64_t(below(1 << 30)) * 1000;
            s.endNanos = s.startNanos + below(1000);
            s.attributes = object(0, wellFormed);
            for (int e = below(3); e > 0; --e)
                s.events.push_back({text(wellFormed), int64_t(below(1000)), object(1, wellFormed)});
            s.statusCode = below(3);
            if (below(3) == 0)
                s.statusMessage = text(wellFormed);
            s.resource = resources[size_t(below(int(resources.size())))];
        }
        return out;
    }

private:
    std::string id()
    {
        char hex[17];
        std::snprintf(hex, sizeof hex, "%016x", unsigned(below(100000) + 1));
        return hex;
    }

    QRandomGenerator m_random;
};

} // namespace

class TestOtlpJsonWriter : public QObject {
    Q_OBJECT
private Q_SLOTS:
    // Requests as the receiver decodes them (well-formed UTF-8): the same text as the
    // document, and it reads back as the same spans.
    void sameAsTheDocument()
    {
        Generator g(20261128);
        for (int round = 0; round < 3000; ++round) {
            const std::vector<Span> spans = g.spans(true);
            const std::string written = encodeOtlpJson(spans);
            QCOMPARE(QString::fromStdString(written), QString::fromStdString(oracle(spans)));
            // Every string (NaN and infinity aside: JSON writes them as null) reads back.
            if (written.find("null") == std::string::npos) {
                auto back = decodeOtlpJson(written);
                QVERIFY2(back.ok(), qPrintable(back.ok() ? QString() : back.error().message));
                QCOMPARE(back->size(), spans.size());
                for (size_t i = 0; i < spans.size(); ++i)
                    QCOMPARE(back->at(i).name, spans[i].name);
            }
        }
    }

    // Text that is not UTF-8 (a span built by a program, not decoded): still the same text,
    // the bad bytes replaced, never invalid JSON.
    void illFormedTextIsReplacedAsTheDocumentDoes()
    {
        Generator g(7);
        int broken = 0;
        for (int round = 0; round < 3000; ++round) {
            const std::vector<Span> spans = g.spans(false);
            const std::string written = encodeOtlpJson(spans);
            QCOMPARE(QString::fromStdString(written), QString::fromStdString(oracle(spans)));
            QVERIFY(isValidUtf8(written));
            broken += written.find("\xEF\xBF\xBD") != std::string::npos;
        }
        QVERIFY(broken > 100); // the generator did make such text
    }

    // A span's JSON as Qt's (a logged call's messages and parameters): what QJsonDocument
    // reads of nlohmann's text of it, on generated values of every kind.
    void qtJsonIsWhatQtReadsOfTheText()
    {
        Generator g(5);
        for (int round = 0; round < 3000; ++round) {
            const json value = g.value(0, round % 2 == 0);
            const QByteArray text = QByteArray::fromStdString(
                "[" + value.dump(-1, ' ', false, json::error_handler_t::replace) + "]");
            const QJsonValue expected = QJsonDocument::fromJson(text).array().first();
            const QJsonValue got = spanQJson(value);
            QCOMPARE(got.type(), expected.type());
            // The same text when written again (an integer stays an integer), members compared
            // as a map: Qt's reader and QJsonObject::insert order keys differently when one has
            // a surrogate pair and another a character from U+E000 on — the same object.
            const QByteArray gotText =
                QJsonDocument(QJsonArray{got}).toJson(QJsonDocument::Compact);
            const QByteArray expectedText =
                QJsonDocument(QJsonArray{expected}).toJson(QJsonDocument::Compact);
            QVERIFY2(nlohmann::json::parse(gotText.toStdString()) ==
                         nlohmann::json::parse(expectedText.toStdString()),
                     qPrintable(QString::fromUtf8(gotText + " != " + expectedText)));
        }
    }

    // A request's spans given by pointer (the trace archive's grouping) write as the spans.
    void spansByPointerAreTheSameRequest()
    {
        Generator g(11);
        const std::vector<Span> spans = g.spans(true);
        std::vector<const Span*> each;
        for (const Span& s : spans)
            each.push_back(&s);
        QCOMPARE(encodeOtlpJson(each), encodeOtlpJson(spans));
        QCOMPARE(encodeOtlpJson(std::vector<Span>()), std::string("{\"resourceSpans\":[]}"));
    }

    // What counts as UTF-8 (the protobuf reader refuses a string that is not, the writers
    // escape it) is what Python's strict decoder says, on 20,000 generated byte strings made
    // of the edges: overlong forms, surrogates, past U+10FFFF, cut sequences, stray bytes.
    void utf8CheckAgreesWithPython()
    {
        const QString python = QStandardPaths::findExecutable(QStringLiteral("python3"));
        if (python.isEmpty())
            QSKIP("python3 missing");
        const QList<QByteArray> pieces = {"a",
                                          "\x7f",
                                          "\xc2\x80",
                                          "\xc1\xbf",
                                          "\xc0\x80",
                                          "\xdf\xbf",
                                          "\xe0\xa0\x80",
                                          "\xe0\x9f\xbf",
                                          "\xed\x9f\xbf",
                                          "\xed\xa0\x80",
                                          "\xef\xbf\xbf",
                                          "\xf0\x90\x80\x80",
                                          "\xf0\x8f\xbf\xbf",
                                          "\xf4\x8f\xbf\xbf",
                                          "\xf4\x90\x80\x80",
                                          "\xf5",
                                          "\xff",
                                          "\x80",
                                          "\xbf",
                                          "\xe3\x81",
                                          "\xe3\x81\x82",
                                          "\xf0\x9f\x98",
                                          QByteArray("\0", 1),
                                          "\xe6\xbc\xa2\xe5\xad\x97",
                                          "0123456789abcdef0123456789abcdef"};
        QRandomGenerator rng(20261129);
        QList<QByteArray> cases;
        QByteArray input;
        for (int i = 0; i < 20000; ++i) {
            QByteArray c;
            const int n = rng.bounded(1, 12);
            for (int k = 0; k < n; ++k)
                c += pieces.at(rng.bounded(int(pieces.size())));
            cases.append(c);
            input += c.toHex() + '\n';
        }
        QProcess p;
        p.start(python, {QStringLiteral("-c"), QStringLiteral("import sys\n"
                                                              "for l in sys.stdin:\n"
                                                              "  b = bytes.fromhex(l.strip())\n"
                                                              "  try:\n"
                                                              "    b.decode('utf-8'); print(1)\n"
                                                              "  except UnicodeDecodeError:\n"
                                                              "    print(0)\n")});
        QVERIFY(p.waitForStarted());
        p.write(input);
        p.closeWriteChannel();
        QVERIFY(p.waitForFinished(60000));
        const QList<QByteArray> answers = p.readAllStandardOutput().split('\n');
        QVERIFY(answers.size() >= cases.size());
        int valid = 0;
        for (qsizetype i = 0; i < cases.size(); ++i) {
            const bool expected = answers.at(i) == "1";
            valid += expected;
            const QByteArray& c = cases.at(i);
            if (isValidUtf8(std::string_view(c.constData(), size_t(c.size()))) != expected)
                QFAIL(qPrintable(QStringLiteral("%1: Python says %2")
                                     .arg(QString::fromLatin1(c.toHex()))
                                     .arg(expected)));
        }
        QVERIFY(valid > 1000);
        QVERIFY(valid < 19000);
    }
};

QTEST_GUILESS_MAIN(TestOtlpJsonWriter)
#include "tst_otlpjsonwriter.moc"
