#pragma once

#include "core/util/pluginmanager.h"

#include <QDialog>

class QTreeWidget;

namespace hako {

/// Help → About plugins: every plugin file the plugin manager examined, with its metadata (name,
/// id, kind, version, description, file) and whether it was loaded or why not.
///
/// Usage from the main window (no exec()):
///   auto* d = new AboutPlugins(PluginManager::instance().plugins(), this);
///   d->setAttribute(Qt::WA_DeleteOnClose);
///   d->open();
/// Threading: GUI thread; the list is a snapshot taken by the caller.
class AboutPlugins : public QDialog {
    Q_OBJECT
public:
    explicit AboutPlugins(const QList<PluginInfo>& plugins, QWidget* parent = nullptr);

    /// The tree: one top-level item per plugin; columns name, kind, version, state.
    QTreeWidget* tree() const { return m_tree; }

private:
    QTreeWidget* m_tree;
};

} // namespace hako
