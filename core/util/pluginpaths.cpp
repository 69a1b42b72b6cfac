#include "core/util/pluginpaths.h"

#include <QCoreApplication>
#include <QDir>

namespace hako {

QStringList pluginSearchPaths()
{
    QStringList dirs;
    const QString env = qEnvironmentVariable("HAKO_PLUGIN_PATH");
    if (!env.isEmpty())
        dirs += env.split(QLatin1Char(':'), Qt::SkipEmptyParts);
    const QString appDir =
        QCoreApplication::instance() ? QCoreApplication::applicationDirPath() : QString();
    if (!appDir.isEmpty()) {
        dirs.append(QDir::cleanPath(appDir + QStringLiteral("/../lib/hako/plugins")));
#ifdef HAKO_INSTALL_LIBDIR
        dirs.append(
            QDir::cleanPath(appDir + QStringLiteral("/../" HAKO_INSTALL_LIBDIR "/hako/plugins")));
#endif
    }
    dirs.removeDuplicates();
    return dirs;
}

} // namespace hako
