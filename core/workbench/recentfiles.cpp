#include "core/workbench/recentfiles.h"

#include <QFileInfo>
#include <QSettings>

namespace hako {

static const char* const kKey = "recentFiles";

RecentFiles::RecentFiles(QSettings* settings) : m_settings(settings) {}

QStringList RecentFiles::files() const
{
    const QStringList stored = m_settings->value(QLatin1String(kKey)).toStringList();
    QStringList existing;
    for (const QString& f : stored) {
        if (QFileInfo(f).isFile() && !existing.contains(f))
            existing.append(f);
    }
    while (existing.size() > maximum())
        existing.removeLast();
    if (existing != stored)
        store(existing);
    return existing;
}

void RecentFiles::add(const QString& path)
{
    const QString absolute = QFileInfo(path).absoluteFilePath();
    QStringList list = m_settings->value(QLatin1String(kKey)).toStringList();
    list.removeAll(absolute);
    list.prepend(absolute);
    while (list.size() > maximum())
        list.removeLast();
    store(list);
}

void RecentFiles::remove(const QString& path)
{
    QStringList list = m_settings->value(QLatin1String(kKey)).toStringList();
    list.removeAll(QFileInfo(path).absoluteFilePath());
    store(list);
}

void RecentFiles::clear()
{
    store({});
}

void RecentFiles::store(const QStringList& files) const
{
    m_settings->setValue(QLatin1String(kKey), files);
}

} // namespace hako
