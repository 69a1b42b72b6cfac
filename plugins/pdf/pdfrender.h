#pragma once

#include "core/reports/pagerenderer.h"

namespace hako::pdf {

/// The number of pages of the PDF at `path`; refuses damaged and encrypted files with a message.
Result<int> pdfPageCount(const QString& path);

/// Page `page` (0-based) of the PDF at `path` rendered at `dpi` (white background, antialiased
/// text and lines) as PNG bytes. Blocking; safe on any thread (each call opens its own
/// document).
Result<QByteArray> renderPdfPagePng(const QString& path, int page, int dpi);

/// An IPdfPageRenderer over the two functions above, for setPdfPageRenderer() and the plugin.
class PopplerPageRenderer : public reports::IPdfPageRenderer {
public:
    Result<int> pageCount(const QString& path) override;
    Result<QByteArray> renderPng(const QString& path, int page, int dpi) override;
};

} // namespace hako::pdf
