#include "core/otel/otlpdecode.h"
#include "core/otel/otlpfile.h"

#include <QDir>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QtTest>

using namespace hako;
using namespace hako::otel;

// Hand-written OTLP/protobuf decoding checked against python3-protobuf with a .proto compiled
// by protoc in the test: bytes made by that independent encoder are decoded here, and bytes
// encoded here are decoded there.
class TestOtlpProtobuf : public QObject {
    Q_OBJECT
private:
    QTemporaryDir m_dir;
    QString m_python;
    QString m_tool = QStringLiteral(HAKO_TEST_DATA_DIR "/otel/otlp_proto_tool.py");

    QByteArray runTool(const QStringList& args)
    {
        QProcess p;
        p.start(m_python, QStringList{m_tool, m_dir.path()} + args);
        if (!p.waitForFinished(60000) || p.exitCode() != 0) {
            qWarning() << p.readAllStandardError();
            return {};
        }
        return p.readAllStandardOutput();
    }

private Q_SLOTS:
    void initTestCase()
    {
        const QString protoc = QStandardPaths::findExecutable(QStringLiteral("protoc"));
        m_python = QFile::exists(QStringLiteral("/usr/bin/python3"))
                       ? QStringLiteral("/usr/bin/python3")
                       : QStandardPaths::findExecutable(QStringLiteral("python3"));
        if (protoc.isEmpty() || m_python.isEmpty())
            QSKIP("protoc or python3 missing (Debian: protobuf-compiler python3-protobuf)");
        QProcess check;
        check.start(m_python, {QStringLiteral("-c"), QStringLiteral("import google.protobuf")});
        if (!check.waitForFinished(30000) || check.exitCode() != 0)
            QSKIP("python3-protobuf missing");
        QVERIFY(m_dir.isValid());
        QProcess p;
        p.setWorkingDirectory(QStringLiteral(HAKO_TEST_DATA_DIR "/otel"));
        p.start(protoc, {QStringLiteral("--python_out=") + m_dir.path(),
                         QStringLiteral("otlp_trace.proto")});
        QVERIFY(p.waitForFinished(60000));
        QVERIFY2(p.exitCode() == 0, p.readAllStandardError().constData());
    }

    void decodesWhatAnIndependentEncoderWrote()
    {
        const QString bin = m_dir.filePath(QStringLiteral("req.bin"));
        runTool({QStringLiteral("encode"), bin});
        QFile f(bin);
        QVERIFY(f.open(QIODevice::ReadOnly));
        const QByteArray bytes = f.readAll();
        QVERIFY(!bytes.isEmpty());
        QVERIFY(looksLikeOtlp(bytes));
        auto spans = decodeOtlpProtobuf(std::string_view(bytes.constData(), size_t(bytes.size())));
        QVERIFY2(spans.ok(), spans.ok() ? "" : qPrintable(spans.error().message));
        QCOMPARE(spans->size(), size_t(2));
        const Span& root = (*spans)[0];
        QCOMPARE(root.traceId, std::string("4bf92f3577b34da6a3ce929d0e0e4736"));
        QCOMPARE(root.spanId, std::string("00f067aa0ba902b7"));
        QVERIFY(root.parentSpanId.empty());
        QCOMPARE(root.startNanos, int64_t(1700000000000000000));
        QCOMPARE(root.resource->attributes["service.name"], Attributes("proto-app"));
        QCOMPARE(root.resource->scopeName, std::string("proto-scope"));
        QCOMPARE(root.resource->scopeVersion, std::string("9.9"));
        const Span& llm = (*spans)[1];
        QCOMPARE(llm.parentSpanId, std::string("00f067aa0ba902b7"));
        QCOMPARE(llm.kind, 3);
        QCOMPARE(llm.endNanos, int64_t(1700000000500000000));
        const Attributes& a = llm.attributes;
        QCOMPARE(a["gen_ai.request.model"], Attributes("gpt-4o"));
        QCOMPARE(a["gen_ai.usage.input_tokens"].get<int64_t>(), int64_t(1234567890123));
        QCOMPARE(a["gen_ai.usage.output_tokens"].get<int64_t>(), int64_t(-5));
        QCOMPARE(a["gen_ai.request.temperature"].get<double>(), 0.25);
        QCOMPARE(a["flag"], Attributes(true));
        QCOMPARE(a["tags"].dump(), std::string(R"(["a",2,3.5])"));
        QCOMPARE(a["nested"]["x"].get<std::string>(), std::string("é✓"));
        QCOMPARE(a["nested"]["y"].dump(), std::string("[false]"));
        QCOMPARE(a["blob"].get<std::string>(), std::string("AP8=")); // base64 of 00 ff
        QCOMPARE(llm.events.size(), size_t(1));
        QCOMPARE(llm.events[0].name, std::string("gen_ai.user.message"));
        QCOMPARE(llm.events[0].attributes["content"].get<std::string>(), std::string("Bonjour ✓"));
        QCOMPARE(llm.statusCode, 2);
        QCOMPARE(llm.statusMessage, std::string("boom"));
    }

    void independentDecoderReadsWhatWeEncode()
    {
        const QString bin = m_dir.filePath(QStringLiteral("req.bin"));
        QFile in(bin);
        QVERIFY(in.open(QIODevice::ReadOnly));
        const QByteArray original = in.readAll();
        auto spans =
            decodeOtlpProtobuf(std::string_view(original.constData(), size_t(original.size())));
        QVERIFY(spans.ok());
        const std::string ours = encodeOtlpProtobuf(*spans);
        const QString out = m_dir.filePath(QStringLiteral("ours.bin"));
        QFile f(out);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write(ours.data(), qint64(ours.size()));
        f.close();
        const QJsonArray decoded =
            QJsonDocument::fromJson(runTool({QStringLiteral("decode"), out})).array();
        QCOMPARE(decoded.size(), 2);
        const QJsonObject llm = decoded[1].toObject();
        QCOMPARE(llm["traceId"].toString(), QStringLiteral("4bf92f3577b34da6a3ce929d0e0e4736"));
        QCOMPARE(llm["parentSpanId"].toString(), QStringLiteral("00f067aa0ba902b7"));
        QCOMPARE(llm["start"].toString(), QStringLiteral("1700000000100000000"));
        const QJsonObject attrs = llm["attributes"].toObject();
        QCOMPARE(attrs["gen_ai.usage.input_tokens"].toDouble(), 1234567890123.0);
        QCOMPARE(attrs["gen_ai.usage.output_tokens"].toInt(), -5);
        QCOMPARE(attrs["gen_ai.request.temperature"].toDouble(), 0.25);
        QCOMPARE(attrs["nested"].toObject()["x"].toString(), QStringLiteral("é✓"));
        QCOMPARE(llm["events"].toArray()[0].toObject()["name"].toString(),
                 QStringLiteral("gen_ai.user.message"));
        QCOMPARE(llm["status"].toArray()[0].toInt(), 2);
        QCOMPARE(llm["resource"].toObject()["service.name"].toString(),
                 QStringLiteral("proto-app"));
        QCOMPARE(llm["scope"].toString(), QStringLiteral("proto-scope"));
    }

    void rejectsDamagedBytes()
    {
        QFile in(m_dir.filePath(QStringLiteral("req.bin")));
        QVERIFY(in.open(QIODevice::ReadOnly));
        const QByteArray good = in.readAll();
        // Every truncation either fails or decodes fewer spans; none crashes.
        int failures = 0;
        for (qsizetype n = 1; n < good.size(); ++n) {
            auto r = decodeOtlpProtobuf(std::string_view(good.constData(), size_t(n)));
            if (!r.ok())
                ++failures;
            else
                QVERIFY(r->size() <= 2);
        }
        QVERIFY(failures > good.size() / 2);
        // Flipped bytes never crash either.
        for (qsizetype i = 0; i < good.size(); ++i) {
            QByteArray bad = good;
            bad[i] = char(bad[i] ^ 0xA5);
            (void)decodeOtlpProtobuf(std::string_view(bad.constData(), size_t(bad.size())));
        }
        // Ill-formed UTF-8 in a string field: span name "\xff".
        std::vector<Span> spans(1);
        spans[0].traceId = "4bf92f3577b34da6a3ce929d0e0e4736";
        spans[0].spanId = "00f067aa0ba902b7";
        spans[0].name = "\xff";
        const std::string bytes = encodeOtlpProtobuf(spans);
        QVERIFY(!decodeOtlpProtobuf(bytes).ok());
        // A length running past the end.
        QVERIFY(!decodeOtlpProtobuf(std::string("\x0a\x05\x0a\x03\x0a\x01", 6)).ok());
    }
};

QTEST_GUILESS_MAIN(TestOtlpProtobuf)
#include "tst_otlpprotobuf.moc"
