#pragma once

#include "core/util/diagnostic.h"

#include <QByteArray>
#include <QString>
#include <QtPlugin>

namespace hako::reports {

/// Renders the pages of a PDF as PNG images. Implemented by the `pdf` plugin (plugins/pdf,
/// poppler-qt6 needs QtGui, which core cannot link), next to its text extractor.
/// Implementations must be callable from any thread (each call opens its own document).
class IPdfPageRenderer {
public:
    virtual ~IPdfPageRenderer() = default;
    /// The number of pages, or why the file cannot be read (encrypted, damaged, …).
    virtual Result<int> pageCount(const QString& path) = 0;
    /// Page `page` (0-based) rendered at `dpi` dots per inch, as the bytes of a PNG file.
    virtual Result<QByteArray> renderPng(const QString& path, int page, int dpi) = 0;
};

/// The renderer in use: the one set with setPdfPageRenderer(), else the `pdf` plugin found by
/// the plugin manager (loaded once); null when there is none. Thread-safe.
IPdfPageRenderer* pdfPageRenderer();
/// Uses `renderer` (not owned; must outlive its use; null to go back to the plugin).
void setPdfPageRenderer(IPdfPageRenderer* renderer);

} // namespace hako::reports

#define HAKO_PDF_PAGE_RENDERER_IID "io.github.hako.PdfPageRenderer/1.0"
Q_DECLARE_INTERFACE(hako::reports::IPdfPageRenderer, HAKO_PDF_PAGE_RENDERER_IID)
