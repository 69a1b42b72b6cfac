#include "core/run/runenvironment.h"

#include "core/models/apikeystore.h"
#include "core/models/modelconfig.h"
#include "core/models/modelrouter.h"
#include "core/pdl/interp/interpreter.h"
#include "core/pdl/model/forwardingprovider.h"
#include "core/pdl/valuejson.h"
#include "core/promptlog/privacypolicy.h"
#include "core/run/featurebindings_p.h"
#include "core/util/boundedfile.h"
#include "core/util/chars.h"
#include "core/util/pluginmanager.h"
#include "core/util/siblingmodule.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QProcessEnvironment>
#include <QUuid>

#include <nlohmann/json.hpp>

#include <cctype>
#include <mutex>

namespace hako {

namespace {

/// The configured ModelRouter, whose provider plugins are registered on the first call that
/// needs a provider rather than when the run is composed: finding them loads every Hako plugin
/// (the PDF extractor brings poppler and QtGui), which a run calling no model never needs.
/// Thread-safe.
class PluginsOnFirstCallRouter : public models::IModelProvider {
public:
    explicit PluginsOnFirstCallRouter(std::shared_ptr<models::ModelRouter> router)
        : m_router(std::move(router))
    {}
    const std::shared_ptr<models::ModelRouter>& router() const { return m_router; }

    QString id() const override { return m_router->id(); }
    Result<models::ChatResponse> chat(const models::ChatRequest& request,
                                      const models::DeltaCallback& onDelta,
                                      const CancelToken& cancel) override
    {
        return withPlugins().chat(request, onDelta, cancel);
    }
    Result<std::vector<std::vector<float>>> embed(const std::string& model,
                                                  const std::vector<std::string>& texts,
                                                  const CancelToken& cancel) override
    {
        return withPlugins().embed(model, texts, cancel);
    }
    Result<QStringList> listModels(const CancelToken& cancel) override
    {
        return withPlugins().listModels(cancel);
    }

private:
    models::ModelRouter& withPlugins()
    {
        std::call_once(m_registered, [this] {
            models::registerPluginProviders(*m_router, PluginManager::instance());
        });
        return *m_router;
    }

    std::shared_ptr<models::ModelRouter> m_router;
    std::once_flag m_registered;
};

/// What models::createDefaultProvider() gives for `baseFolder`, its configuration read now (a
/// broken file is reported before the run) and its plugin providers found on the first call.
Result<std::shared_ptr<models::IModelProvider>> configuredProvider(const QString& baseFolder)
{
    Result<models::ModelConfig> config =
        models::ModelConfig::load(baseFolder, QProcessEnvironment::systemEnvironment(),
                                  models::ApiKeyStore::system(), models::ModelConfig::userFile());
    if (!config)
        return config.error();
    return std::shared_ptr<models::IModelProvider>(std::make_shared<PluginsOnFirstCallRouter>(
        std::make_shared<models::ModelRouter>(std::move(config.value()))));
}

/// `provider` recording its calls in `log` for `run`: the run's id and program hash filled in,
/// the user's folder tags first, then the run's own (HAKO_TAGS, --tag), then `extraTags`.
std::shared_ptr<models::IModelProvider>
recordingProvider(std::shared_ptr<models::IModelProvider> provider,
                  std::shared_ptr<promptlog::PromptLog> log, RunLogInfo run,
                  const QStringList& extraTags)
{
    if (run.runId.isEmpty())
        run.runId = QUuid::createUuid().toString(QUuid::WithoutBraces);
    if (run.programHash.isEmpty() && !run.programPath.isEmpty())
        run.programHash = programContentHash(run.programPath);
    if (!run.programPath.isEmpty()) {
        Result<promptlog::PromptLogSettings> settings =
            promptlog::PromptLogSettings::load(promptlog::PromptLogSettings::defaultPath());
        if (settings.ok()) {
            QStringList tags = settings->tagsFor(run.programPath);
            for (const QString& t : run.tags)
                if (!tags.contains(t))
                    tags.append(t);
            run.tags = tags;
        }
    }
    for (const QString& t : extraTags)
        if (!run.tags.contains(t))
            run.tags.append(t);
    std::function<QString(const std::string&)> endpointOf;
    std::shared_ptr<models::ModelRouter> router =
        std::dynamic_pointer_cast<models::ModelRouter>(provider);
    if (auto deferred = std::dynamic_pointer_cast<PluginsOnFirstCallRouter>(provider))
        router = deferred->router();
    if (router) {
        endpointOf = [router](const std::string& model) {
            Result<models::ResolvedModel> where = router->config().resolve(model);
            return where.ok() ? where->endpoint.name : QString();
        };
    }
    return std::make_shared<LoggingModelProvider>(std::move(provider), std::move(log),
                                                  std::move(run), endpointOf);
}

/// Passes every call to `inner`; the first chat opens the prompt log and from then on chats
/// go through a LoggingModelProvider over it. The run id, program hash and folder tags are
/// settled then too, so a run calling no model reads none of them. Thread-safe.
class LazyLoggingProvider : public models::ForwardingModelProvider {
public:
    using Opener = std::function<std::shared_ptr<promptlog::PromptLog>()>;
    LazyLoggingProvider(std::shared_ptr<models::IModelProvider> inner, Opener open, RunLogInfo run,
                        QStringList extraTags)
        : ForwardingModelProvider(std::move(inner)), m_open(std::move(open)), m_run(std::move(run)),
          m_extraTags(std::move(extraTags))
    {}

    Result<models::ChatResponse> chat(const models::ChatRequest& request,
                                      const models::DeltaCallback& onDelta,
                                      const CancelToken& cancel) override
    {
        std::call_once(m_opened, [this] {
            if (std::shared_ptr<promptlog::PromptLog> log = m_open())
                m_logged = recordingProvider(inner(), std::move(log), m_run, m_extraTags);
        });
        return (m_logged ? m_logged : inner())->chat(request, onDelta, cancel);
    }

private:
    Opener m_open;
    RunLogInfo m_run;
    QStringList m_extraTags;
    std::once_flag m_opened;
    std::shared_ptr<models::IModelProvider> m_logged;
};

} // namespace

/// The `doc`, `memory`/`thread` and `report` bindings, from the module that links their floors
/// (loaded on the first call); null with `*error` saying why when it cannot be loaded.
static const RunFeatureBindings* featureBindings(QString* error)
{
    static QString loadError;
    static const RunFeatureBindings* const bindings = [] {
        auto entry = reinterpret_cast<RunFeatureBindingsEntry>(
            siblingModuleSymbol(reinterpret_cast<const void*>(&programContentHash),
                                kRunBindingsModuleFile, kRunBindingsEntry, &loadError));
        return entry ? entry() : nullptr;
    }();
    if (!bindings)
        *error = QStringLiteral("cannot load the document, memory and report bindings (Hako's "
                                "installation is incomplete: reinstall it): %1")
                     .arg(loadError);
    return bindings;
}

/// Whether the program at `path` calls the report object: `report` as a word (no letter, digit,
/// `_` or other non-ASCII character before it), then a dot after any white space.
static bool namesReportBindings(const QString& path)
{
    if (path.isEmpty())
        return false;
    const Result<QByteArray> text = readBoundedFile(path);
    if (!text)
        return false;
    const QByteArray& t = *text;
    constexpr qsizetype kWord = 6; // "report"
    for (qsizetype at = t.indexOf("report"); at >= 0; at = t.indexOf("report", at + 1)) {
        const unsigned char before = at > 0 ? static_cast<unsigned char>(t[at - 1]) : ' ';
        if (std::isalnum(before) || before == '_' || before >= 0x80)
            continue;
        qsizetype after = at + kWord;
        while (after < t.size() && isAsciiSpace(t[after]))
            ++after;
        if (after < t.size() && t[after] == '.')
            return true;
    }
    return false;
}

Result<std::shared_ptr<models::IModelProvider>>
RunEnvironment::composeProvider(const QStringList& extraTags) const
{
    std::shared_ptr<models::IModelProvider> provider = modelProvider;
    if (!provider) {
        Result<std::shared_ptr<models::IModelProvider>> made = configuredProvider(baseFolder);
        if (!made.ok())
            return made.error();
        provider = *made;
    }
    return loggedProvider(std::move(provider), extraTags);
}

std::shared_ptr<models::IModelProvider>
RunEnvironment::loggedProvider(std::shared_ptr<models::IModelProvider> provider,
                               const QStringList& extraTags) const
{
    if (!provider)
        return provider;
    if (promptLog)
        return recordingProvider(std::move(provider), promptLog, runLog, extraTags);
    if (openPromptLog)
        return std::make_shared<LazyLoggingProvider>(std::move(provider), openPromptLog, runLog,
                                                     extraTags);
    return provider;
}

std::optional<Diagnostic> RunEnvironment::compose(pdl::RunOptions& options) const
{
    std::optional<Diagnostic> providerError;
    if (modelProvider) {
        options.models = modelProvider;
    } else if (!options.replay || options.replayCheck) {
        // A re-run from a node (replayCheck set) replays only the blocks before it.
        Result<std::shared_ptr<models::IModelProvider>> provider = configuredProvider(baseFolder);
        if (provider.ok())
            options.models = *provider;
        else
            providerError = provider.error();
    }
    options.models = loggedProvider(options.models);
    options.sandbox = options.sandbox || sandbox;
    // The run's inputs (the workbench's inputs form, an experiment's example) are variables of
    // the program, unless the caller gave that name already.
    for (auto it = runLog.inputs.constBegin(); it != runLog.inputs.constEnd(); ++it) {
        const std::string name = it.key().toStdString();
        if (options.initialScope.contains(pdl::Value(name)))
            continue;
        options.initialScope.set(name, pdl::fromQJsonValue(it.value()));
    }
    // Questions over PDF reports: a program that names `report.` gets the report object. Only
    // those: any other program's scope stays exactly the reference's (pdl_scope lists every
    // variable).
    const bool report = !options.initialScope.contains(pdl::Value("report")) &&
                        namesReportBindings(runLog.programPath);
    if (documentSession || memoryStore || report) {
        QString error;
        if (const RunFeatureBindings* features = featureBindings(&error))
            features->bind(*this, options, report);
        else if (!providerError)
            providerError = makeError(error);
    }
    return providerError;
}

void RunEnvironment::registerBindingDocs()
{
    static std::once_flag once;
    std::call_once(once, [] {
        QString error;
        if (const RunFeatureBindings* features = featureBindings(&error))
            features->registerDocs();
        else
            qWarning("%s", qPrintable(error));
    });
}

} // namespace hako
