#include "core/docs/pdfextractor.h"

#include "core/util/pluginslot.h"

#include <string_view>

namespace hako::docs {

namespace {

static_assert(std::string_view(HAKO_PDF_EXTRACTOR_IID) == std::string_view(kPdfExtractorPluginIid),
              "the plugin manager loads this interface version");

/// The `pdf` plugin, found and loaded by the one plugin manager (so it shows in About Plugins).
PluginSlot<IPdfExtractor> g_extractor(kPdfExtractorPluginIid);

} // namespace

IPdfExtractor* pdfExtractor()
{
    return g_extractor.get();
}

void setPdfExtractor(IPdfExtractor* extractor)
{
    g_extractor.setOverride(extractor);
}

Result<Document> loadPdfDocument(const QString& path)
{
    IPdfExtractor* extractor = pdfExtractor();
    if (!extractor)
        return makeError(QStringLiteral("%1: PDF support is not installed (the `pdf` plugin, "
                                        "built with poppler-qt6, was not found)")
                             .arg(path));
    Result<QStringList> pages = extractor->extractPages(path);
    if (!pages.ok())
        return pages.error();
    QString text;
    std::vector<qsizetype> starts;
    starts.reserve(size_t(pages->size()));
    for (const QString& page : *pages) {
        starts.push_back(text.size());
        QString p = page;
        // Poppler ends lines with \n; a lone \r (some generators) would not split them here.
        p.replace(QLatin1String("\r\n"), QLatin1String("\n"));
        text += p;
        if (!p.isEmpty() && !p.endsWith(QLatin1Char('\n')))
            text += QLatin1Char('\n');
    }
    Document doc(std::move(text), path, QStringLiteral("PDF"));
    doc.setPageStarts(std::move(starts));
    return doc;
}

} // namespace hako::docs
