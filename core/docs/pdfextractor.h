#pragma once

#include "core/docs/document.h"
#include "core/util/diagnostic.h"

#include <QString>
#include <QStringList>
#include <QtPlugin>

namespace hako::docs {

/// Extracts the text of a PDF, one string per page. Implemented by the `pdf` plugin
/// (plugins/pdf, poppler-qt6), which core cannot link because poppler-qt6 pulls in QtGui.
/// Implementations must be callable from any thread (one call at a time per file).
class IPdfExtractor {
public:
    virtual ~IPdfExtractor() = default;
    /// The text of every page in page order (empty strings for pages without text), or why
    /// the file cannot be read (encrypted, damaged, …).
    virtual Result<QStringList> extractPages(const QString& path) = 0;
};

/// The extractor in use: the one set with setPdfExtractor(), else the `pdf` plugin found in the
/// plugin folders (HAKO_PLUGIN_PATH, `<app>/../lib/hako/plugins`), loaded once; null when there
/// is none. Thread-safe.
IPdfExtractor* pdfExtractor();
/// Uses `extractor` (not owned; must outlive its use; null to go back to the plugin).
void setPdfExtractor(IPdfExtractor* extractor);

/// Reads a PDF through pdfExtractor(): the pages' text joined in order, each page ending with a
/// line break so lines never span two pages; the Document records where each page starts
/// (Document::pageAt). Blocking.
Result<Document> loadPdfDocument(const QString& path);

} // namespace hako::docs

#define HAKO_PDF_EXTRACTOR_IID "io.github.hako.PdfExtractor/1.0"
Q_DECLARE_INTERFACE(hako::docs::IPdfExtractor, HAKO_PDF_EXTRACTOR_IID)
