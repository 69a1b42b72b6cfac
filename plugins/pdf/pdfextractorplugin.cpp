#include "plugins/pdf/pdfextractorplugin.h"

#include "plugins/pdf/pdfrender.h"
#include "plugins/pdf/pdftext.h"

namespace hako::pdf {

Result<QStringList> PdfExtractorPlugin::extractPages(const QString& path)
{
    return extractPdfPages(path);
}

Result<int> PdfExtractorPlugin::pageCount(const QString& path)
{
    return pdfPageCount(path);
}

Result<QByteArray> PdfExtractorPlugin::renderPng(const QString& path, int page, int dpi)
{
    return renderPdfPagePng(path, page, dpi);
}

} // namespace hako::pdf
