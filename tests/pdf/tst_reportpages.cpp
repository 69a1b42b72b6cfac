// Pages of PDF reports as images for a vision model (core/reports through the `pdf` library's
// poppler renderer): `report.pages` lists every page with its kept transcript, `report.image`
// gives the page as an OpenAI image_url part holding a PNG of the asked resolution, and
// `report.remember` keeps a transcript so the page is not sent again.
#include "core/reports/pagerenderer.h"
#include "core/reports/reportbindings.h"
#include "plugins/pdf/pdfrender.h"

#include <QFile>
#include <QImage>
#include <QPainter>
#include <QPdfWriter>
#include <QTemporaryDir>
#include <QTest>

using namespace hako;
using pdl::CallArgs;
using pdl::Value;

namespace {

void writePdf(const QString& path, int pages)
{
    QPdfWriter writer(path);
    writer.setPageSize(QPageSize(QPageSize::A4));
    writer.setResolution(72);
    QPainter painter(&writer);
    painter.setFont(QFont(QStringLiteral("DejaVu Sans"), 14));
    for (int p = 0; p < pages; ++p) {
        if (p > 0)
            writer.newPage();
        painter.drawText(60, 80, QStringLiteral("Page %1 of the report").arg(p + 1));
    }
    painter.end();
}

Value call(const Value& report, const char* name, pdl::List positional)
{
    CallArgs args;
    args.positional = std::move(positional);
    return report.asDict().find(name)->asCallable()->call(args);
}

} // namespace

class TestReportPages : public QObject {
    Q_OBJECT

    QTemporaryDir m_dir;
    pdf::PopplerPageRenderer m_renderer;
    Value m_report;

private Q_SLOTS:
    void initTestCase()
    {
        QVERIFY(m_dir.isValid());
        QDir().mkpath(m_dir.filePath(QStringLiteral("reports")));
        writePdf(m_dir.filePath(QStringLiteral("reports/b.pdf")), 3);
        writePdf(m_dir.filePath(QStringLiteral("reports/a.pdf")), 2);
        QFile notPdf(m_dir.filePath(QStringLiteral("broken.pdf")));
        QVERIFY(notPdf.open(QIODevice::WriteOnly));
        notPdf.write("not a pdf");
        notPdf.close();
        reports::setPdfPageRenderer(&m_renderer);
        reports::ReportBindingOptions options;
        options.baseDir = m_dir.path();
        m_report = reports::makeReportBindings(options);
    }
    void cleanupTestCase() { reports::setPdfPageRenderer(nullptr); }

    void everyPageOfAFolderIsListed()
    {
        const Value pages = call(m_report, "pages", {Value("reports"), Value("vision"), Value(72)});
        QCOMPARE(pages.asList().size(), size_t(5));
        // Files by name, pages in order.
        const pdl::Dict& first = pages.asList().front().asDict();
        QCOMPARE(first.find("name")->asString(), std::string("a.pdf"));
        QCOMPARE(first.find("page")->asInt(), int64_t(1));
        QCOMPARE(first.find("pages")->asInt(), int64_t(2));
        QCOMPARE(first.find("sha")->asString().size(), size_t(64));
        QVERIFY(first.find("cached")->isNull());
        const pdl::Dict& last = pages.asList().back().asDict();
        QCOMPARE(last.find("name")->asString(), std::string("b.pdf"));
        QCOMPARE(last.find("page")->asInt(), int64_t(3));
    }

    void aPageIsAnImagePartOfTheAskedResolution_data()
    {
        QTest::addColumn<int>("dpi");
        QTest::newRow("72 dpi") << 72;
        QTest::newRow("150 dpi") << 150;
        QTest::newRow("360 dpi") << 360;
    }
    void aPageIsAnImagePartOfTheAskedResolution()
    {
        QFETCH(int, dpi);
        const Value pages =
            call(m_report, "pages", {Value("reports/b.pdf"), Value("vision"), Value(dpi)});
        const Value part = call(m_report, "image", {pages.asList()[1]});
        const pdl::Dict& d = part.asDict();
        QCOMPARE(d.find("type")->asString(), std::string("image_url"));
        const std::string url = d.find("image_url")->asDict().find("url")->asString();
        const std::string prefix = "data:image/png;base64,";
        QVERIFY(url.rfind(prefix, 0) == 0);
        const QByteArray png =
            QByteArray::fromBase64(QByteArray::fromStdString(url.substr(prefix.size())));
        QVERIFY(png.startsWith("\x89PNG"));
        QImage image;
        QVERIFY(image.loadFromData(png, "PNG"));
        // A4 is 595 × 842 points.
        QVERIFY(qAbs(image.width() - qRound(595.0 / 72 * dpi)) <= 1);
        QVERIFY(qAbs(image.height() - qRound(842.0 / 72 * dpi)) <= 1);
        // Text was drawn: not a blank page.
        QVERIFY(image.pixelColor(image.width() / 2, image.height() / 2) == Qt::white);
        bool ink = false;
        for (int x = 0; x < image.width() && !ink; x += 2)
            for (int y = 0; y < image.height() / 8 && !ink; y += 2)
                ink = image.pixelColor(x, y).lightness() < 128;
        QVERIFY(ink);
    }

    void aRememberedPageIsCachedForThatModelOnly()
    {
        Value pages = call(m_report, "pages", {Value("reports/a.pdf"), Value("vision")});
        const Value kept =
            call(m_report, "remember",
                 {pages.asList()[1], Value("```markdown\n# 2ページ\n売上高 10\n```")});
        QCOMPARE(kept.asString(), std::string("# 2ページ\n売上高 10"));
        pages = call(m_report, "pages", {Value("reports/a.pdf"), Value("vision")});
        QVERIFY(pages.asList()[0].asDict().find("cached")->isNull());
        QCOMPARE(pages.asList()[1].asDict().find("cached")->asString(),
                 std::string("# 2ページ\n売上高 10"));
        QVERIFY(QFileInfo(m_dir.filePath(QStringLiteral(".hako/transcripts"))).isDir());
        const Value other = call(m_report, "pages", {Value("reports/a.pdf"), Value("other-model")});
        QVERIFY(other.asList()[1].asDict().find("cached")->isNull());
        // Indexing needs every page: page 1 is missing, and the error says so.
        try {
            call(m_report, "index", {Value("reports/a.pdf"), Value("vision")});
            QFAIL("indexing without every transcript must fail");
        } catch (const pdl::EvalError& e) {
            QVERIFY2(
                QString::fromUtf8(e.what()).contains(QLatin1String("page 1 has no transcript")),
                e.what());
        }
    }

    void badFilesAreErrorsNamingThem()
    {
        for (const char* path : {"broken.pdf", "missing.pdf", "empty-folder"}) {
            if (QLatin1String(path) == QLatin1String("empty-folder"))
                QDir().mkpath(m_dir.filePath(QString::fromLatin1(path)));
            try {
                call(m_report, "pages", {Value(path), Value("vision")});
                QFAIL(path);
            } catch (const pdl::EvalError& e) {
                const QString message = QString::fromUtf8(e.what());
                QVERIFY2(message.startsWith(QLatin1String("report.pages(): ")), e.what());
                QVERIFY2(message.contains(QLatin1String(path)), e.what());
            }
        }
    }
};

QTEST_MAIN(TestReportPages)
#include "tst_reportpages.moc"
