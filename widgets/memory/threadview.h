#pragma once

#include "core/memory/threadindex.h"

#include <QWidget>

class QLabel;
class QTreeWidget;
class QTreeWidgetItem;

namespace hako {

/// A reply tree with the boundary of a context: selecting a message marks the chain from the
/// root to it (what thread_context gives a prompt) and dims everything outside, sibling
/// branches included. GUI thread only; loading a file is quick and happens on the caller.
class ThreadView : public QWidget {
    Q_OBJECT
public:
    explicit ThreadView(QWidget* parent = nullptr);

    /// Loads a thread file (see ThreadIndex::load); errors are emitted.
    void loadFile(const QString& path);
    void setThread(memory::ThreadIndex thread);
    /// Selects message `id` and marks its context.
    void selectMessage(const QString& id);
    /// The ids currently marked as inside the context, root first.
    QStringList contextIds() const { return m_context; }
    QTreeWidget* tree() const { return m_tree; }

Q_SIGNALS:
    void errorOccurred(const QString& message);

private:
    void markContext(const QString& id);

    memory::ThreadIndex m_thread;
    QHash<QString, QTreeWidgetItem*> m_items;
    QStringList m_context;
    QLabel* m_label;
    QTreeWidget* m_tree;
};

} // namespace hako
