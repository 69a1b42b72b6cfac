#pragma once

#include "core/util/pluginmanager.h"

#include <QMutex>
#include <QMutexLocker>
#include <QString>

namespace hako {

/// The object of a loaded plugin that implements `Interface` (a Q_DECLARE_INTERFACE), found
/// once among the instances the one PluginManager loads by `iid`, or one set in its place
/// (tests, a host program). Thread-safe; the objects are not owned.
template <class Interface> class PluginSlot {
public:
    explicit PluginSlot(const char* iid) : m_iid(iid) {}

    Interface* get()
    {
        QMutexLocker lock(&m_mutex);
        if (m_override)
            return m_override;
        if (!m_scanned) {
            m_scanned = true;
            for (QObject* root : PluginManager::instance().instances(QString::fromLatin1(m_iid)))
                if (auto* found = qobject_cast<Interface*>(root)) {
                    m_plugin = found;
                    break;
                }
        }
        return m_plugin;
    }

    /// Uses `object` instead of the plugin's (nullptr: the plugin's again).
    void setOverride(Interface* object)
    {
        QMutexLocker lock(&m_mutex);
        m_override = object;
    }

private:
    QMutex m_mutex;
    const char* m_iid;
    Interface* m_override = nullptr;
    Interface* m_plugin = nullptr;
    bool m_scanned = false;
};

} // namespace hako
