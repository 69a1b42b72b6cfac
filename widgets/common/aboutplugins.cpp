#include "widgets/common/aboutplugins.h"

#include <QDialogButtonBox>
#include <QFileInfo>
#include <QHeaderView>
#include <QLabel>
#include <QStyle>
#include <QTreeWidget>
#include <QVBoxLayout>

namespace hako {

AboutPlugins::AboutPlugins(const QList<PluginInfo>& plugins, QWidget* parent)
    : QDialog(parent), m_tree(new QTreeWidget(this))
{
    setWindowTitle(tr("About plugins"));
    auto* layout = new QVBoxLayout(this);
    int loaded = 0;
    for (const PluginInfo& p : plugins)
        loaded += p.loaded ? 1 : 0;
    auto* summary = new QLabel(
        plugins.isEmpty()
            ? tr("No plugins were found. Hako looks in HAKO_PLUGIN_PATH and in lib/hako/plugins "
                 "beside the program.")
            : tr("%1 of %n plugin(s) loaded.", nullptr, int(plugins.size())).arg(loaded),
        this);
    summary->setObjectName(QStringLiteral("summary"));
    layout->addWidget(summary);

    m_tree->setObjectName(QStringLiteral("pluginTree"));
    m_tree->setColumnCount(4);
    m_tree->setHeaderLabels({tr("Plugin"), tr("Kind"), tr("Version"), tr("State")});
    m_tree->setRootIsDecorated(true);
    m_tree->setAlternatingRowColors(true);
    for (const PluginInfo& p : plugins) {
        const QString title = !p.name.isEmpty() ? p.name
                              : !p.id.isEmpty() ? p.id
                                                : QFileInfo(p.file).fileName();
        auto* item = new QTreeWidgetItem(
            m_tree, {title, p.kind, p.version, p.loaded ? tr("loaded") : tr("not loaded")});
        if (!p.loaded) {
            item->setForeground(3, palette().brush(QPalette::Disabled, QPalette::Text));
            item->setIcon(3, style()->standardIcon(QStyle::SP_MessageBoxWarning));
        }
        auto detail = [item](const QString& label, const QString& value) {
            if (value.isEmpty())
                return;
            auto* child = new QTreeWidgetItem(item, {label, value});
            child->setFirstColumnSpanned(false);
            child->setToolTip(1, value);
        };
        detail(tr("Id"), p.id);
        detail(tr("Description"), p.description);
        detail(tr("File"), p.file);
        if (!p.loaded)
            detail(tr("Load error"), p.error);
        item->setToolTip(0, p.description.isEmpty() ? p.file : p.description);
        item->setToolTip(3, p.loaded ? tr("loaded") : p.error);
        // A failure is what the user opened this view for: show its reason at once.
        item->setExpanded(!p.loaded);
    }
    m_tree->header()->setSectionResizeMode(0, QHeaderView::ResizeToContents);
    m_tree->header()->setStretchLastSection(true);
    layout->addWidget(m_tree, 1);

    auto* box = new QDialogButtonBox(QDialogButtonBox::Close, this);
    connect(box, &QDialogButtonBox::rejected, this, &QDialog::reject);
    layout->addWidget(box);
    resize(720, 380);
}

} // namespace hako
