#include "core/models/pluginmanager.h"

#include "core/models/modelrouter.h"
#include "core/models/providerplugin.h"
#include "core/util/pluginpaths.h"

#include <QCoreApplication>
#include <QDir>
#include <QFileInfo>
#include <QJsonObject>
#include <QLibrary>
#include <QPluginLoader>

namespace hako::models {

ProviderPluginManager::ProviderPluginManager() = default;

// Plugin instances must outlive every provider they made, which may be held until exit, so the
// loaders are released without unloading the libraries.
ProviderPluginManager::~ProviderPluginManager()
{
    for (auto& loader : m_loaders)
        (void)loader.release();
}

ProviderPluginManager& ProviderPluginManager::instance()
{
    static ProviderPluginManager* manager = [] {
        auto* m = new ProviderPluginManager;
        m->scan(defaultSearchPaths());
        return m;
    }();
    return *manager;
}

QStringList ProviderPluginManager::defaultSearchPaths()
{
    return pluginSearchPaths();
}

void ProviderPluginManager::scan(const QStringList& dirs)
{
    std::lock_guard lock(m_mutex);
    for (const QString& dir : dirs) {
        const QFileInfoList files =
            QDir(dir).entryInfoList(QDir::Files | QDir::NoDotAndDotDot, QDir::Name);
        for (const QFileInfo& fi : files) {
            if (!QLibrary::isLibrary(fi.fileName()))
                continue;
            const QString path = fi.canonicalFilePath();
            if (m_seenFiles.contains(path))
                continue;
            m_seenFiles.append(path);
            auto loader = std::make_unique<QPluginLoader>(path);
            PluginInfo info;
            info.file = path;
            const QJsonObject meta = loader->metaData();
            if (meta.isEmpty()) {
                info.error = QStringLiteral("not a Qt plugin: %1").arg(loader->errorString());
                m_plugins.append(info);
                continue;
            }
            const QJsonObject data = meta.value(QStringLiteral("MetaData")).toObject();
            info.id = data.value(QStringLiteral("id")).toString();
            info.name = data.value(QStringLiteral("name")).toString();
            info.description = data.value(QStringLiteral("description")).toString();
            info.version = data.value(QStringLiteral("version")).toString();
            info.providerKind = data.value(QStringLiteral("providerKind")).toString();
            const QString iid = meta.value(QStringLiteral("IID")).toString();
            if (iid != QLatin1String(HAKO_MODEL_PROVIDER_PLUGIN_IID)) {
                // Another kind of plugin (a code runner) or another interface version.
                if (iid.startsWith(QLatin1String("io.github.hako.ModelProviderPlugin/")))
                    info.error = QStringLiteral("built for interface %1, this Hako needs %2")
                                     .arg(iid, QLatin1String(HAKO_MODEL_PROVIDER_PLUGIN_IID));
                else
                    continue;
                m_plugins.append(info);
                continue;
            }
            QObject* root = loader->instance();
            auto* plugin = qobject_cast<IModelProviderPlugin*>(root);
            if (!plugin) {
                info.error = root ? QStringLiteral("does not implement the provider interface")
                                  : loader->errorString();
                m_plugins.append(info);
                continue;
            }
            info.loaded = true;
            if (info.providerKind.isEmpty())
                info.providerKind = plugin->providerKind();
            m_plugins.append(info);
            m_loaders.push_back(std::move(loader));
        }
    }
}

QList<PluginInfo> ProviderPluginManager::plugins() const
{
    std::lock_guard lock(m_mutex);
    return m_plugins;
}

IModelProviderPlugin* ProviderPluginManager::pluginFor(const QString& kind) const
{
    std::lock_guard lock(m_mutex);
    for (const auto& loader : m_loaders) {
        auto* plugin = qobject_cast<IModelProviderPlugin*>(loader->instance());
        if (plugin && plugin->providerKind() == kind)
            return plugin;
    }
    return nullptr;
}

void ProviderPluginManager::registerFactories(ModelRouter& router) const
{
    std::lock_guard lock(m_mutex);
    for (const auto& loader : m_loaders) {
        auto* plugin = qobject_cast<IModelProviderPlugin*>(loader->instance());
        if (!plugin)
            continue;
        const QString kind = plugin->providerKind();
        if (kind == QLatin1String("openai") || kind == QLatin1String("replay"))
            continue;
        router.addFactory(kind,
                          [plugin](const ResolvedModel& where) { return plugin->create(where); });
    }
}

} // namespace hako::models
