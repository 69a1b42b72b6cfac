#include "plugins/pdf/pdfextractorplugin.h"

#include "plugins/pdf/pdftext.h"

namespace hako::pdf {

Result<QStringList> PdfExtractorPlugin::extractPages(const QString& path)
{
    return extractPdfPages(path);
}

} // namespace hako::pdf
