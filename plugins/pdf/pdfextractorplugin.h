#pragma once

#include "core/docs/pdfextractor.h"
#include "core/reports/pagerenderer.h"

#include <QObject>

namespace hako::pdf {

/// Plugin wrapper of extractPdfPages() and renderPdfPagePng(): core's document loader finds it
/// by its IID, the report pipeline (core/reports) casts the same object to its page renderer.
class PdfExtractorPlugin : public QObject,
                           public docs::IPdfExtractor,
                           public reports::IPdfPageRenderer {
    Q_OBJECT
    Q_PLUGIN_METADATA(IID HAKO_PDF_EXTRACTOR_IID FILE "pdf.json")
    Q_INTERFACES(hako::docs::IPdfExtractor hako::reports::IPdfPageRenderer)

public:
    Result<QStringList> extractPages(const QString& path) override;
    Result<int> pageCount(const QString& path) override;
    Result<QByteArray> renderPng(const QString& path, int page, int dpi) override;
};

} // namespace hako::pdf
