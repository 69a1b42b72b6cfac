#include "core/docs/pdfextractor.h"

#include "core/util/pluginmanager.h"

#include <QMutex>
#include <QMutexLocker>

#include <string_view>

namespace hako::docs {

namespace {

QMutex g_mutex;
IPdfExtractor* g_override = nullptr;
IPdfExtractor* g_plugin = nullptr;
bool g_scanned = false;

static_assert(std::string_view(HAKO_PDF_EXTRACTOR_IID) == std::string_view(kPdfExtractorPluginIid),
              "the plugin manager loads this interface version");

/// The `pdf` plugin, found and loaded by the one plugin manager (so it shows in About Plugins).
IPdfExtractor* findPlugin()
{
    for (QObject* root :
         PluginManager::instance().instances(QString::fromLatin1(kPdfExtractorPluginIid))) {
        if (auto* extractor = qobject_cast<IPdfExtractor*>(root))
            return extractor;
    }
    return nullptr;
}

} // namespace

IPdfExtractor* pdfExtractor()
{
    QMutexLocker lock(&g_mutex);
    if (g_override)
        return g_override;
    if (!g_scanned) {
        g_scanned = true;
        g_plugin = findPlugin();
    }
    return g_plugin;
}

void setPdfExtractor(IPdfExtractor* extractor)
{
    QMutexLocker lock(&g_mutex);
    g_override = extractor;
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
