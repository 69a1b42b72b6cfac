// PDF documents: text per page through poppler-qt6, page numbers kept, search hits report
// their page. The PDF is written here with QPdfWriter, so the expected text is known.
#include "core/docs/documentindex.h"
#include "core/docs/documentsession.h"
#include "core/docs/pdfextractor.h"
#include "plugins/pdf/pdftext.h"

#include <QFile>
#include <QPainter>
#include <QPdfWriter>
#include <QTemporaryDir>
#include <QTest>

using namespace hako;
using namespace hako::docs;

class TestPdfDocument : public QObject {
    Q_OBJECT

    QTemporaryDir m_dir;
    QString m_pdf;
    pdf::PopplerPdfExtractor m_extractor;

    // Each page: its lines, drawn one under the other.
    static QList<QStringList> pages()
    {
        return {
            {QStringLiteral("Chapter one"), QStringLiteral("Giovanni ran down the hill.")},
            {QStringLiteral("Chapter two"), QStringLiteral("The swan station came at eleven.")},
            {QStringLiteral("Chapter three"), QStringLiteral("Campanella waved; the swan flew.")}};
    }

private Q_SLOTS:
    void initTestCase()
    {
        QVERIFY(m_dir.isValid());
        m_pdf = m_dir.filePath(QStringLiteral("story.pdf"));
        QPdfWriter writer(m_pdf);
        writer.setResolution(72);
        QPainter painter(&writer);
        QFont font(QStringLiteral("DejaVu Sans"));
        font.setPointSize(12);
        painter.setFont(font);
        const QList<QStringList> all = pages();
        for (qsizetype p = 0; p < all.size(); ++p) {
            if (p > 0)
                writer.newPage();
            int y = 60;
            for (const QString& line : all[p]) {
                painter.drawText(40, y, line);
                y += 30;
            }
        }
        QVERIFY(painter.end());
        setPdfExtractor(&m_extractor);
    }

    void cleanupTestCase() { setPdfExtractor(nullptr); }

    void pagesExtracted()
    {
        const Result<QStringList> pagesText = pdf::extractPdfPages(m_pdf);
        QVERIFY2(pagesText.ok(), pagesText.ok() ? "" : qPrintable(pagesText.error().message));
        QCOMPARE(pagesText->size(), 3);
        const auto expected = pages(); // kept alive: ranging over pages()[p] would dangle
        for (qsizetype p = 0; p < 3; ++p) {
            // Fonts may turn "fl" into the ligature ﬂ, which NFKC (the search copy) undoes.
            const QString page = pagesText->at(p).normalized(QString::NormalizationForm_KC);
            for (const QString& line : expected[p])
                QVERIFY2(
                    page.contains(line),
                    qPrintable(QStringLiteral("page %1: %2").arg(p + 1).arg(pagesText->at(p))));
        }
    }

    void documentKeepsPages()
    {
        const Result<Document> doc = loadDocument(m_pdf);
        QVERIFY2(doc.ok(), doc.ok() ? "" : qPrintable(doc.error().message));
        QCOMPARE(doc->encoding(), QStringLiteral("PDF"));
        QCOMPARE(doc->pageCount(), 3);
        // Every page's lines are whole lines of the document, on that page.
        const auto expected = pages();
        for (qsizetype p = 0; p < 3; ++p) {
            for (const QString& line : expected[p]) {
                const qsizetype at = doc->text().indexOf(line.left(10));
                QVERIFY(at >= 0);
                QCOMPARE(doc->pageAt(at), p + 1);
                QVERIFY(doc->lineText(doc->lineAt(at)).contains(line.left(10)));
            }
        }
        // The quick first screen reads a PDF whole (there is no cheap head of a PDF).
        const Result<Document> head = loadDocumentHead(m_pdf);
        QVERIFY(head.ok());
        QCOMPARE(head->pageCount(), 3);
    }

    void searchReportsPages()
    {
        const Result<Document> doc = loadDocument(m_pdf);
        QVERIFY(doc.ok());
        auto index = DocumentIndex::build(std::make_shared<Document>(doc.value()));
        DocumentSession session(index);
        const CommandResult r = session.execute(QStringLiteral("search swan"));
        QCOMPARE(r.hits.size(), 2);
        QCOMPARE(r.hits[0].page, 2);
        QCOMPARE(r.hits[1].page, 3);
        QVERIFY2(r.output.contains(QStringLiteral("(p.2): The **swan**")), qPrintable(r.output));
        QVERIFY2(r.output.contains(QStringLiteral("(p.3): ")), qPrintable(r.output));
        // Found through the search copy even where the PDF has a ligature (ﬂew).
        const CommandResult flew = session.execute(QStringLiteral("search flew"));
        QCOMPARE(flew.hits.size(), 1);
        QCOMPARE(flew.hits[0].page, 3);
        const qsizetype line = r.hits[0].line;
        const CommandResult shown = session.execute(QStringLiteral("show %1").arg(line));
        QCOMPARE(shown.output,
                 QStringLiteral("line%1 (p.2): The swan station came at eleven.").arg(line));
    }

    void badPdfRefused()
    {
        const QString path = m_dir.filePath(QStringLiteral("broken.pdf"));
        QFile f(path);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write("%PDF-1.4\nthis is not really a PDF\n");
        f.close();
        const Result<Document> doc = loadDocument(path);
        QVERIFY(!doc.ok());
        QVERIFY2(doc.error().message.contains(QStringLiteral("PDF")),
                 qPrintable(doc.error().message));
    }

    void withoutExtractorSaysSo()
    {
        // No override and (in this test's folder) possibly no plugin: the message names it.
        setPdfExtractor(nullptr);
        qputenv("HAKO_PLUGIN_PATH", QByteArray());
        IPdfExtractor* found = pdfExtractor();
        const Result<Document> doc = loadDocument(m_pdf);
        if (found)
            QVERIFY(doc.ok()); // the built plugin was found next to the binaries
        else
            QVERIFY(!doc.ok() && doc.error().message.contains(QStringLiteral("poppler-qt6")));
        setPdfExtractor(&m_extractor);
    }
};

QTEST_MAIN(TestPdfDocument)
#include "tst_pdfdocument.moc"
