#include "core/util/pluginmanager.h"

#include "core/util/pluginpaths.h"

#include <QCoreApplication>
#include <QDir>
#include <QFileInfo>
#include <QJsonObject>
#include <QLibrary>
#include <QPluginLoader>

namespace hako {

namespace {

constexpr const char* kImplemented[] = {kModelProviderPluginIid, kPdfExtractorPluginIid};

/// `io.github.hako.PdfExtractor` of `io.github.hako.PdfExtractor/1.0`.
QString family(const QString& iid)
{
    return iid.section(QLatin1Char('/'), 0, 0);
}

} // namespace

PluginManager::PluginManager() = default;

// Plugin instances must outlive everything they made (providers may be held until exit).
// Destroying a QPluginLoader does not unload its library (only unload() does), so the loaders
// are deleted and the libraries and their instances stay for the life of the process.
PluginManager::~PluginManager() = default;

PluginManager& PluginManager::instance()
{
    static PluginManager* manager = [] {
        auto* m = new PluginManager;
        m->scan(defaultSearchPaths());
        return m;
    }();
    return *manager;
}

QStringList PluginManager::defaultSearchPaths()
{
    return pluginSearchPaths();
}

void PluginManager::scan(const QStringList& dirs)
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
            info.kind = data.value(QStringLiteral("providerKind")).toString();
            if (info.kind.isEmpty())
                info.kind = info.id;
            const QString iid = meta.value(QStringLiteral("IID")).toString();
            info.interfaceId = iid;
            bool implemented = false;
            QString sameFamily;
            for (const char* known : kImplemented) {
                const QString k = QString::fromLatin1(known);
                implemented |= iid == k;
                if (family(iid) == family(k))
                    sameFamily = k;
            }
            if (!implemented) {
                // Loading a plugin built against another version of an interface could crash:
                // it is listed with the reason instead. Other Qt plugins are none of ours.
                if (sameFamily.isEmpty())
                    continue;
                info.error = QStringLiteral("built for interface %1, this Hako needs %2")
                                 .arg(iid, sameFamily);
                m_plugins.append(info);
                continue;
            }
            if (!loader->instance()) {
                info.error = loader->errorString();
                m_plugins.append(info);
                continue;
            }
            info.loaded = true;
            m_plugins.append(info);
            m_loaders.push_back(std::move(loader));
        }
    }
}

QList<PluginInfo> PluginManager::plugins() const
{
    std::lock_guard lock(m_mutex);
    return m_plugins;
}

QList<QObject*> PluginManager::instances(const QString& iid) const
{
    std::lock_guard lock(m_mutex);
    QList<QObject*> out;
    for (const auto& loader : m_loaders) {
        if (loader->metaData().value(QStringLiteral("IID")).toString() == iid)
            out.append(loader->instance());
    }
    return out;
}

} // namespace hako
