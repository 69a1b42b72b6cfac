#pragma once

#include "core/pdl/value.h"

#include <QString>

#include <memory>

namespace hako::models {
class IModelProvider;
}

namespace hako::reports {

/// What the `report` object of a run works with.
struct ReportBindingOptions {
    /// Relative report paths resolve against it (the program's folder).
    QString baseDir;
    /// Transcripts (`transcripts/`) and embeddings (`vectors/`) are kept here; empty:
    /// `<baseDir>/.hako`, or the user's cache folder when there is no baseDir.
    QString cacheDir;
    /// Embeds chunks and queries (the run's provider, with the `hash` model built in).
    std::shared_ptr<models::IModelProvider> provider;
};

/// The `report` object PDL programs call for questions over PDF reports (seeds.md §3), a Dict
/// of Callables sharing one index:
/// `pages(path, model, dpi=360)` (a PDF or a folder of them → one dict per page:
/// {file, name, page, pages, sha, model, dpi, cached: the kept transcript or None}),
/// `image(page, dpi=None)` (the page rendered as an OpenAI `image_url` message part with a PNG
/// data URL), `remember(page, markdown)` (keeps a transcript; returns it without code fences),
/// `index(path, model, embedding_model='hash')` (the three chunkings into vector stores over
/// the kept transcripts; → {files: [{file, company, pages}], companies, chunks}),
/// `companies()`, `context(queries, companies=[], k=30, threshold=0.3)` (→ list of {text,
/// file, page, company, score, chunking}), `format(context)` (numbered passages as text),
/// `company(texts)` (the company a report's pages name) and `round(answer, question)`.
/// Errors are EvalErrors naming the call. Calls block (rendering, embedding requests); they
/// are made on the run's worker thread.
pdl::Value makeReportBindings(const ReportBindingOptions& options);

} // namespace hako::reports
