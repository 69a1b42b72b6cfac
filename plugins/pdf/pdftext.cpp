#include "plugins/pdf/pdftext.h"

#include <poppler-qt6.h>

#include <QFileInfo>

namespace hako::pdf {

Result<QStringList> extractPdfPages(const QString& path)
{
    if (!QFileInfo::exists(path))
        return makeError(QStringLiteral("%1: no such file").arg(path));
    std::unique_ptr<Poppler::Document> document = Poppler::Document::load(path);
    if (!document)
        return makeError(QStringLiteral("%1: not a readable PDF (damaged or not a PDF)").arg(path));
    if (document->isLocked())
        return makeError(QStringLiteral("%1: the PDF is encrypted; it was not opened").arg(path));
    QStringList pages;
    const int count = document->numPages();
    pages.reserve(count);
    for (int i = 0; i < count; ++i) {
        std::unique_ptr<Poppler::Page> page = document->page(i);
        // An empty rectangle asks for the whole page.
        pages.append(page ? page->text(QRectF()) : QString());
    }
    return pages;
}

Result<QStringList> PopplerPdfExtractor::extractPages(const QString& path)
{
    return extractPdfPages(path);
}

} // namespace hako::pdf
