#pragma once

#include <QList>
#include <QString>
#include <QStringList>

#include <memory>
#include <mutex>
#include <vector>

class QObject;
class QPluginLoader;

namespace hako {

/// The plugin interfaces this Hako implements, as their plugins declare them in
/// Q_PLUGIN_METADATA (the headers of the interfaces check that they agree).
inline constexpr char kModelProviderPluginIid[] = "io.github.hako.ModelProviderPlugin/1.0";
inline constexpr char kPdfExtractorPluginIid[] = "io.github.hako.PdfExtractor/1.0";

/// What Help › About Plugins shows for one file.
struct PluginInfo {
    QString file;
    QString id;
    QString name;
    QString description;
    QString version;
    /// What it adds: the provider kind of a model provider (`provider:` in hako-models.yaml),
    /// `pdf` for the PDF extractor.
    QString kind;
    /// The interface it implements (its IID).
    QString interfaceId;
    bool loaded = false;
    /// Why it was not loaded (wrong interface version, missing symbol, …).
    QString error;
};

/// The one place plugins are found and loaded, whatever they implement (model providers, the
/// PDF extractor): reads each library's metadata before loading it, loads those with an
/// interface this Hako implements in its current version, and keeps them (it is the only owner
/// of the plugin instances, which live until the process ends). Consumers ask for the loaded
/// instances of their interface. Thread-safe.
class PluginManager {
public:
    PluginManager();
    ~PluginManager();
    PluginManager(const PluginManager&) = delete;
    PluginManager& operator=(const PluginManager&) = delete;

    /// The process-wide manager; scans defaultSearchPaths() on first use.
    static PluginManager& instance();

    /// HAKO_PLUGIN_PATH (colon-separated), then `<app dir>/../lib/hako/plugins` (the build tree)
    /// and `<app dir>/../<libdir>/hako/plugins` (an installation).
    static QStringList defaultSearchPaths();

    /// Examines every shared library in `dirs` (missing folders are skipped; a file already
    /// examined is skipped).
    void scan(const QStringList& dirs);
    /// Every Hako plugin examined, loaded or not, in the order found.
    QList<PluginInfo> plugins() const;
    /// The root objects of the loaded plugins implementing `iid`.
    QList<QObject*> instances(const QString& iid) const;

private:
    mutable std::mutex m_mutex;
    QList<PluginInfo> m_plugins;
    std::vector<std::unique_ptr<QPluginLoader>> m_loaders;
    QStringList m_seenFiles;
};

} // namespace hako
