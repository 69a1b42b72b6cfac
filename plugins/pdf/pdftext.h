#pragma once

#include "core/docs/pdfextractor.h"

namespace hako::pdf {

/// The text of every page of the PDF at `path`, in page order, in poppler's reading order
/// (lines end with `\n`). Refuses encrypted files it cannot open and damaged files with a
/// message. Blocking; safe on any thread (each call opens its own poppler document).
Result<QStringList> extractPdfPages(const QString& path);

/// An IPdfExtractor over extractPdfPages(), for setPdfExtractor() and the plugin.
class PopplerPdfExtractor : public docs::IPdfExtractor {
public:
    Result<QStringList> extractPages(const QString& path) override;
};

} // namespace hako::pdf
