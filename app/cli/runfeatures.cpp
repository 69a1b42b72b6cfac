// libhako_commands' part of `hako run`: the options that need floors a plain run does not load
// (see commandsmodule.h).
#include "cli/commandsmodule.h"
#include "core/docs/document.h"
#include "core/docs/documentindex.h"
#include "core/docs/documentsession.h"
#include "core/library/promptlibrary.h"
#include "core/memory/memorystore.h"
#include "core/otel/otlpwriter.h"

#include <QUrl>

#include <type_traits>

namespace hako {

namespace {

Result<QString> libraryFile(const QString& spec, const QString& library, QString* version)
{
    return library::PromptLibrary::fileFor(spec, library, version);
}

Result<std::shared_ptr<docs::DocumentSession>> openDocument(const QString& file,
                                                            QStringList* warnings)
{
    Result<docs::Document> document = docs::loadDocument(file);
    if (!document.ok())
        return document.error();
    for (const Diagnostic& w : document->warnings())
        warnings->append(w.toString());
    auto index =
        docs::DocumentIndex::build(std::make_shared<docs::Document>(std::move(document).value()));
    return std::make_shared<docs::DocumentSession>(index);
}

Result<std::shared_ptr<memory::MemoryStore>> openMemoryStore(const QString& path)
{
    return memory::MemoryStore::open(path);
}

QString otelHeaderProblem(const QString& header)
{
    auto headers = otel::otlpHeaders({header});
    return headers ? QString() : headers.error().message;
}

bool exportOtlp(const pdl::TraceNode& trace, const QString& endpoint, const QStringList& headers,
                const QString& file, bool content, const QString& programPath, QString* error)
{
    otel::OtlpWriteOptions otlp;
    otlp.includeContent = content;
    otlp.programPath = programPath.toStdString();
    if (!endpoint.isEmpty())
        return otel::postOtlp(trace, QUrl(endpoint), headers, otlp, error);
    return otel::writeOtlpFile(trace, file, otlp, error);
}

constexpr RunFeatures kFeatures{&libraryFile, &openDocument, &openMemoryStore, &otelHeaderProblem,
                                &exportOtlp};

} // namespace

} // namespace hako

extern "C" __attribute__((visibility("default"))) const hako::RunFeatures* hakoRunFeatures()
{
    static_assert(std::is_same_v<decltype(&hakoRunFeatures), hako::RunFeaturesEntry>);
    return &hako::kFeatures;
}
