#include "plugins/pdf/pdfrender.h"

#include <poppler-qt6.h>

#include <QBuffer>
#include <QFileInfo>
#include <QImage>

namespace hako::pdf {

namespace {

Result<std::unique_ptr<Poppler::Document>> openDocument(const QString& path)
{
    if (!QFileInfo::exists(path))
        return makeError(QStringLiteral("%1: no such file").arg(path));
    std::unique_ptr<Poppler::Document> document = Poppler::Document::load(path);
    if (!document)
        return makeError(QStringLiteral("%1: not a readable PDF (damaged or not a PDF)").arg(path));
    if (document->isLocked())
        return makeError(QStringLiteral("%1: the PDF is encrypted; it was not opened").arg(path));
    return document;
}

} // namespace

Result<int> pdfPageCount(const QString& path)
{
    Result<std::unique_ptr<Poppler::Document>> document = openDocument(path);
    if (!document.ok())
        return document.error();
    return (*document)->numPages();
}

Result<QByteArray> renderPdfPagePng(const QString& path, int page, int dpi)
{
    if (dpi < 10 || dpi > 1200)
        return makeError(
            QStringLiteral("%1: a resolution of %2 dpi is outside 10–1200").arg(path).arg(dpi));
    Result<std::unique_ptr<Poppler::Document>> document = openDocument(path);
    if (!document.ok())
        return document.error();
    Poppler::Document& doc = **document;
    if (page < 0 || page >= doc.numPages())
        return makeError(QStringLiteral("%1: there is no page %2 (the file has %3)")
                             .arg(path)
                             .arg(page + 1)
                             .arg(doc.numPages()));
    doc.setRenderHint(Poppler::Document::Antialiasing);
    doc.setRenderHint(Poppler::Document::TextAntialiasing);
    doc.setPaperColor(Qt::white);
    std::unique_ptr<Poppler::Page> p = doc.page(page);
    const QImage image = p ? p->renderToImage(dpi, dpi) : QImage();
    if (image.isNull())
        return makeError(
            QStringLiteral("%1: page %2 could not be rendered").arg(path).arg(page + 1));
    QByteArray png;
    QBuffer buffer(&png);
    buffer.open(QIODevice::WriteOnly);
    if (!image.save(&buffer, "PNG"))
        return makeError(
            QStringLiteral("%1: page %2 could not be encoded as PNG").arg(path).arg(page + 1));
    return png;
}

Result<int> PopplerPageRenderer::pageCount(const QString& path)
{
    return pdfPageCount(path);
}

Result<QByteArray> PopplerPageRenderer::renderPng(const QString& path, int page, int dpi)
{
    return renderPdfPagePng(path, page, dpi);
}

} // namespace hako::pdf
