// Images in model messages: the image_url() built-in reads an image next to the program into a
// data URL (with plain errors), the interpreter keeps a message's list of parts as a list, and
// every text a person sees shows an image as a short placeholder, never as base64.
#include "core/pdl/expr/expression.h"
#include "core/pdl/expr/filebase.h"
#include "core/pdl/imagecontent.h"
#include "core/pdl/interp/interpreter.h"
#include "core/pdl/lang/builtindocs.h"
#include "core/pdl/parser/programparser.h"

#include <QDir>
#include <QFile>
#include <QTemporaryDir>
#include <QTest>

using namespace hako;
using namespace hako::pdl;

namespace {

QByteArray dataFile(const QString& name)
{
    QFile f(QStringLiteral(HAKO_TEST_DATA_DIR "/images/") + name);
    return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray();
}

// A JPEG start: SOI, an APP0 segment, then a baseline SOF0 saying 640×480.
QByteArray jpegHead()
{
    QByteArray d("\xFF\xD8", 2);
    d += QByteArray("\xFF\xE0\x00\x10JFIF\x00\x01\x01\x00\x00\x01\x00\x01\x00\x00", 18);
    d += QByteArray("\xFF\xC0\x00\x11\x08\x01\xE0\x02\x80\x03", 10);
    d += QByteArray(64, '\0');
    return d;
}

QByteArray gifHead()
{
    return QByteArray("GIF89a\x20\x00\x10\x00", 10) + QByteArray(16, '\0');
}

// A lossless WebP header (VP8L) of 300×200: width-1 and height-1 in 14 bits each.
QByteArray webpHead()
{
    QByteArray d("RIFF\x00\x00\x00\x00WEBPVP8L\x00\x00\x00\x00\x2F", 21);
    const uint32_t bits = (300 - 1) | ((200 - 1) << 14);
    for (int i = 0; i < 4; ++i)
        d += char((bits >> (8 * i)) & 0xFF);
    return d + QByteArray(16, '\0');
}

Value imagePart(const std::string& url)
{
    Dict inner;
    inner.set("url", Value(url));
    Dict part;
    part.set("type", Value("image_url"));
    part.set("image_url", Value(std::move(inner)));
    return Value(std::move(part));
}

Value textPart(const std::string& text)
{
    Dict part;
    part.set("type", Value("text"));
    part.set("text", Value(text));
    return Value(std::move(part));
}

std::string pngUrl()
{
    return "data:image/png;base64," +
           dataFile(QStringLiteral("page1.png")).toBase64().toStdString();
}

RunResult runIn(const QString& dir, const QByteArray& text)
{
    const QString file = QDir(dir).filePath(QStringLiteral("prog.pdl"));
    ParseResult parsed = parseProgramText(text, file);
    if (!parsed.ok()) {
        RunResult r;
        r.error = makeError(parsed.diagnostics.empty() ? QStringLiteral("does not parse")
                                                       : parsed.diagnostics.front().message);
        return r;
    }
    RunOptions o;
    o.trace = true;
    Interpreter interp(o);
    return interp.run(parsed.program);
}

} // namespace

class TestImageContent : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void sniffsFormatAndSize_data()
    {
        QTest::addColumn<QByteArray>("bytes");
        QTest::addColumn<QString>("format");
        QTest::addColumn<int>("width");
        QTest::addColumn<int>("height");
        QTest::newRow("png") << dataFile(QStringLiteral("page1.png")) << "PNG" << 160 << 220;
        QTest::newRow("jpeg") << jpegHead() << "JPEG" << 640 << 480;
        QTest::newRow("gif") << gifHead() << "GIF" << 32 << 16;
        QTest::newRow("webp") << webpHead() << "WebP" << 300 << 200;
        QTest::newRow("text") << QByteArray("hello world, not an image at all") << "" << 0 << 0;
        QTest::newRow("truncated png") << QByteArray("\x89PNG\r\n\x1a\n", 8) << "" << 0 << 0;
    }

    void sniffsFormatAndSize()
    {
        QFETCH(QByteArray, bytes);
        QFETCH(QString, format);
        QFETCH(int, width);
        QFETCH(int, height);
        const ImageFacts f = sniffImage(bytes);
        QCOMPARE(f.format, format);
        QCOMPARE(f.width, width);
        QCOMPARE(f.height, height);
    }

    void imageUrlReadsAFileNextToTheProgram()
    {
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        QVERIFY(QFile::copy(QStringLiteral(HAKO_TEST_DATA_DIR "/images/page1.png"),
                            dir.filePath(QStringLiteral("page1.png"))));
        // The run's working folder is elsewhere: the path is the program's.
        const QString cwd = QDir::currentPath();
        QDir::setCurrent(QDir::tempPath());
        RunResult r = runIn(dir.path(), "data: ${ image_url('page1.png') }\n");
        QDir::setCurrent(cwd);
        QVERIFY2(r.ok, qPrintable(r.error.message));
        QVERIFY(r.result.isString());
        QCOMPARE(r.result.asString(), pngUrl());
        std::optional<DataUrl> decoded = decodeDataUrl(r.result.asString());
        QVERIFY(decoded);
        QCOMPARE(decoded->mimeType, QStringLiteral("image/png"));
        QCOMPARE(decoded->bytes, dataFile(QStringLiteral("page1.png")));
    }

    void imageUrlErrorsArePlainAndLocated_data()
    {
        QTest::addColumn<QByteArray>("program");
        QTest::addColumn<QString>("message");
        QTest::newRow("missing") << QByteArray("text:\n- ${ image_url('nope.png') }\n")
                                 << "no image file";
        QTest::newRow("not an image") << QByteArray("text:\n- ${ image_url('notanimage.png') }\n")
                                      << "notanimage.png is not a PNG, JPEG, WebP or GIF image";
        QTest::newRow("not a string") << QByteArray("text:\n- ${ image_url(3) }\n")
                                      << "image_url() needs the path of an image file";
        QTest::newRow("too large") << QByteArray("text:\n- ${ image_url('huge.png') }\n")
                                   << "huge.png is 20.0 MB; an image sent to a model may be at "
                                      "most 20.0 MB";
    }

    void imageUrlErrorsArePlainAndLocated()
    {
        QFETCH(QByteArray, program);
        QFETCH(QString, message);
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        QVERIFY(QFile::copy(QStringLiteral(HAKO_TEST_DATA_DIR "/images/notanimage.png"),
                            dir.filePath(QStringLiteral("notanimage.png"))));
        QFile huge(dir.filePath(QStringLiteral("huge.png")));
        QVERIFY(huge.open(QIODevice::WriteOnly));
        huge.write(dataFile(QStringLiteral("page1.png")));
        QVERIFY(huge.resize(kMaxImageBytes + 1));
        huge.close();
        RunResult r = runIn(dir.path(), program);
        QVERIFY(!r.ok);
        QVERIFY2(r.error.message.contains(message), qPrintable(r.error.message));
        QCOMPARE(r.error.span.line, 2);
    }

    void messageKeepsItsPartsInTheContext()
    {
        QTemporaryDir dir;
        QVERIFY(QFile::copy(QStringLiteral(HAKO_TEST_DATA_DIR "/images/page1.png"),
                            dir.filePath(QStringLiteral("page1.png"))));
        const QByteArray program = "text:\n"
                                   "- role: user\n"
                                   "  content:\n"
                                   "    data:\n"
                                   "    - {type: text, text: \"Transcribe this page.\"}\n"
                                   "    - {type: image_url, image_url: {url: \"${ "
                                   "image_url('page1.png') }\"}}\n"
                                   "- def: seen\n"
                                   "  data: ${ pdl_context }\n"
                                   "  contribute: []\n";
        RunResult r = runIn(dir.path(), program);
        QVERIFY2(r.ok, qPrintable(r.error.message));
        QCOMPARE(r.context.size(), size_t(1));
        const Value* content = r.context[0].asDict().find("content");
        QVERIFY(content && content->isList());
        QCOMPARE(content->asList().size(), size_t(2));
        QCOMPARE(content->asList()[0], textPart("Transcribe this page."));
        QCOMPARE(content->asList()[1], imagePart(pngUrl()));
        // pdl_context, as a program reads it, holds the same list.
        const Value* seen = r.scope.find("seen");
        QVERIFY(seen && seen->isList());
        QCOMPARE(*seen->asList()[0].asDict().find("content"), *content);
    }

    void displayTextHasPlaceholdersNotBase64()
    {
        const std::string url = pngUrl();
        const Value content(List{textPart("Transcribe this page."), imagePart(url)});
        const std::string shown = contentDisplayText(content);
        QCOMPARE(QString::fromStdString(shown),
                 QStringLiteral("Transcribe this page.\n[image: PNG 160×220, 664 B]"));
        QCOMPARE(dataUrlPlaceholder(url), QStringLiteral("[image: PNG 160×220, 664 B]"));
        QCOMPARE(dataUrlPlaceholder("https://example.com/a.png"),
                 QStringLiteral("[image: https://example.com/a.png]"));
        // A data URL anywhere in a value (a variable, a raw response) is replaced too.
        Dict nested;
        nested.set("pages", Value(List{Value(url), Value("plain")}));
        const Value replaced = withDataUrlPlaceholders(Value(nested));
        QVERIFY(holdsDataUrl(Value(nested)));
        QVERIFY(!holdsDataUrl(replaced));
        QCOMPARE(QString::fromStdString(replaced.toText()),
                 QStringLiteral("{\"pages\": [\"[image: PNG 160\\u00d7220, 664 B]\", \"plain\"]}"));
        QVERIFY(contentDisplayText(Value(nested)).find("base64") == std::string::npos);
        // Big images: the size in the placeholder comes from the URL's length, the pixel size
        // from the header alone.
        const std::string big =
            "data:image/jpeg;base64," +
            QByteArray(jpegHead() + QByteArray(812 * 1024, 'x')).toBase64().toStdString();
        QCOMPARE(dataUrlPlaceholder(big), QStringLiteral("[image: JPEG 640×480, 812 KB]"));
        QCOMPARE(dataUrlPlaceholder("data:application/pdf;base64,JVBERi0xLjQK"),
                 QStringLiteral("[data: application/pdf, 9 B]"));
        // Inside a longer text (a message printed as text) too.
        const std::string printed = "{'role': 'user', 'content': [{'url': '" + url + "'}]}";
        QCOMPARE(QString::fromStdString(contentDisplayText(Value(printed))),
                 QStringLiteral("{'role': 'user', 'content': [{'url': '[image: PNG 160×220, 664 "
                                "B]'}]}"));
        QVERIFY(holdsDataUrl(Value(printed)));
        QCOMPARE(withDataUrlPlaceholders(Value(printed)),
                 Value(contentDisplayText(Value(printed))));
        // Plain text is left alone.
        QCOMPARE(contentDisplayText(Value("data: not a url")), std::string("data: not a url"));
    }

    void streamedOutputHidesImagesAcrossPieces()
    {
        const std::string url = pngUrl();
        const std::string text = "before " + url + " after";
        // Cut anywhere inside the base64: the pieces together show one placeholder.
        for (size_t cut : {size_t(40), size_t(300), url.size() + 2}) {
            bool inside = false;
            std::string shown = streamedDisplayText(text.substr(0, cut), &inside);
            const size_t second = std::min(text.size(), cut + 100);
            shown += streamedDisplayText(text.substr(cut, second - cut), &inside);
            shown += streamedDisplayText(text.substr(second), &inside);
            QVERIFY2(shown.find("iVBOR") == std::string::npos &&
                         shown.find("AAAA") == std::string::npos,
                     shown.c_str());
            QVERIFY2(shown.rfind("before [", 0) == 0, shown.c_str()); // a cut header: [data: …]
            QVERIFY2(shown.size() > 6 && shown.substr(shown.size() - 6) == " after", shown.c_str());
        }
    }

    void imagesCountAsAFewTokens()
    {
        const std::string url = pngUrl() + std::string(400000, 'A');
        const Value content(List{textPart("12345678"), imagePart(url), imagePart(url)});
        QCOMPARE(estimateContentTokens(content), int64_t(2 + 2 * kImageTokenEstimate));
        QCOMPARE(estimateContentTokens(Value("12345678")), int64_t(2));
    }

    void imageUrlIsDocumentedForHoverAndCompletion()
    {
        registerBuiltinDocs();
        const BuiltinDoc* doc = BuiltinDocs::find(QStringLiteral("image_url"));
        QVERIFY(doc);
        QVERIFY(doc->signature.startsWith(QStringLiteral("image_url(path)")));
        QVERIFY(doc->summary.contains(QStringLiteral("PNG")));
        bool offered = false;
        for (const BuiltinDoc& d : BuiltinDocs::withPrefix(QStringLiteral("ima")))
            offered = offered || d.name == QStringLiteral("image_url");
        QVERIFY(offered);
    }
};

QTEST_GUILESS_MAIN(TestImageContent)
#include "tst_imagecontent.moc"
