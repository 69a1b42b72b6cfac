#pragma once

#include <QList>
#include <QString>
#include <QStringList>

#include <memory>
#include <mutex>
#include <vector>

class QPluginLoader;

namespace hako::models {

class ModelRouter;
class IModelProviderPlugin;

/// What the plugin list ("About plugins") shows for one file.
struct PluginInfo {
    QString file;
    QString id;
    QString name;
    QString description;
    QString version;
    QString providerKind;
    bool loaded = false;
    /// Why it was not loaded (wrong interface version, missing symbol, …).
    QString error;
};

/// Finds model-provider plugins, reads their metadata before loading, loads those with the
/// current interface IID and keeps them (it is the only owner of the plugin instances, which
/// live until the process ends). Thread-safe.
class ProviderPluginManager {
public:
    ProviderPluginManager();
    ~ProviderPluginManager();

    /// The process-wide manager; scans defaultSearchPaths() on first use.
    static ProviderPluginManager& instance();

    /// HAKO_PLUGIN_PATH (colon-separated), then `<app dir>/../lib/hako/plugins` (the build tree)
    /// and `<app dir>/../<libdir>/hako/plugins` (an installation).
    static QStringList defaultSearchPaths();

    /// Examines every shared library in `dirs` (missing folders are skipped).
    void scan(const QStringList& dirs);
    QList<PluginInfo> plugins() const;
    /// The loaded plugin providing `kind`, or nullptr.
    IModelProviderPlugin* pluginFor(const QString& kind) const;
    /// Offers every loaded plugin's kind to `router` (built-in kinds stay built in).
    void registerFactories(ModelRouter& router) const;

private:
    mutable std::mutex m_mutex;
    QList<PluginInfo> m_plugins;
    std::vector<std::unique_ptr<QPluginLoader>> m_loaders;
    QStringList m_seenFiles;
};

} // namespace hako::models
