#pragma once

#include "core/docs/pdfextractor.h"

#include <QObject>

namespace hako::pdf {

/// Plugin wrapper of extractPdfPages(): core's document loader finds it by its IID.
class PdfExtractorPlugin : public QObject, public docs::IPdfExtractor {
    Q_OBJECT
    Q_PLUGIN_METADATA(IID HAKO_PDF_EXTRACTOR_IID FILE "pdf.json")
    Q_INTERFACES(hako::docs::IPdfExtractor)

public:
    Result<QStringList> extractPages(const QString& path) override;
};

} // namespace hako::pdf
