// libhako_runbindings: the `doc`, `memory`/`thread` and `report` objects RunEnvironment::compose()
// gives a run, loaded only when a run is given a document or a memory store, or names `report.`
// (see core/run/featurebindings_p.h).
#include "core/docs/docbindings.h"
#include "core/docs/documentbuiltindocs.h"
#include "core/memory/hashembedding.h"
#include "core/memory/memorybindings.h"
#include "core/memory/memorydocs.h"
#include "core/memory/memorystore.h"
#include "core/pdl/interp/interpreter.h"
#include "core/pdl/lang/builtindocs.h"
#include "core/reports/reportbindings.h"
#include "core/reports/reportdocs.h"
#include "core/run/featurebindings_p.h"
#include "core/run/runenvironment.h"

#include <QUuid>

namespace hako {

namespace {

void bindFeatures(const RunEnvironment& environment, pdl::RunOptions& options, bool report)
{
    if (environment.documentSession)
        options.initialScope.set("doc", docs::makeDocumentBindings(environment.documentSession));
    // Every change and retrieval `memory`/`thread` make is journaled with this run's id and the
    // calling block's pdl__id.
    if (const std::shared_ptr<memory::MemoryStore>& store = environment.memoryStore) {
        memory::MemoryBindingOptions mo;
        mo.agent = environment.memoryAgent;
        mo.embeddingModel = !environment.embeddingModel.isEmpty() ? environment.embeddingModel
                            : !store->embeddingModel().isEmpty()  ? store->embeddingModel()
                                                                  : QStringLiteral("hash");
        mo.runId = QUuid::createUuid().toString(QUuid::WithoutBraces);
        mo.baseDir = environment.baseFolder;
        memory::AgentBindings agent = memory::makeAgentBindings(
            store, std::make_shared<memory::HashFallbackProvider>(options.models), mo);
        options.initialScope.set("memory", agent.memory);
        options.initialScope.set("thread", agent.thread);
    }
    // Questions over PDF reports: the transcripts and embeddings are kept in the program
    // folder's .hako.
    if (report) {
        reports::ReportBindingOptions ro;
        ro.baseDir = environment.baseFolder;
        ro.provider = std::make_shared<memory::HashFallbackProvider>(options.models);
        options.initialScope.set("report", reports::makeReportBindings(ro));
    }
}

void registerDocs()
{
    pdl::registerBuiltinDocs();
    pdl::BuiltinDocs::add(docs::documentBuiltinDocs());
    pdl::BuiltinDocs::add(memory::memoryBuiltinDocs());
    pdl::BuiltinDocs::add(reports::reportBuiltinDocs());
}

constexpr RunFeatureBindings kBindings{&bindFeatures, &registerDocs};

} // namespace

} // namespace hako

extern "C" __attribute__((visibility("default"))) const hako::RunFeatureBindings*
hakoRunFeatureBindings()
{
    static_assert(std::is_same_v<decltype(&hakoRunFeatureBindings), hako::RunFeatureBindingsEntry>);
    return &hako::kBindings;
}
