#include "core/reports/pagerenderer.h"

#include "core/util/pluginmanager.h"

#include <QMutex>
#include <QMutexLocker>

namespace hako::reports {

namespace {

QMutex g_mutex;
IPdfPageRenderer* g_override = nullptr;
IPdfPageRenderer* g_plugin = nullptr;
bool g_scanned = false;

// The `pdf` plugin's one object implements both the text extractor (the IID the plugin manager
// loads it by) and this renderer.
IPdfPageRenderer* findPlugin()
{
    for (QObject* root :
         PluginManager::instance().instances(QString::fromLatin1(kPdfExtractorPluginIid))) {
        if (auto* renderer = qobject_cast<IPdfPageRenderer*>(root))
            return renderer;
    }
    return nullptr;
}

} // namespace

IPdfPageRenderer* pdfPageRenderer()
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

void setPdfPageRenderer(IPdfPageRenderer* renderer)
{
    QMutexLocker lock(&g_mutex);
    g_override = renderer;
}

} // namespace hako::reports
