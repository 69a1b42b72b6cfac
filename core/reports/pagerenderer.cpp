#include "core/reports/pagerenderer.h"

#include "core/util/pluginslot.h"

namespace hako::reports {

namespace {

// The `pdf` plugin's one object implements both the text extractor (the IID the plugin manager
// loads it by) and this renderer.
PluginSlot<IPdfPageRenderer> g_renderer(kPdfExtractorPluginIid);

} // namespace

IPdfPageRenderer* pdfPageRenderer()
{
    return g_renderer.get();
}

void setPdfPageRenderer(IPdfPageRenderer* renderer)
{
    g_renderer.setOverride(renderer);
}

} // namespace hako::reports
