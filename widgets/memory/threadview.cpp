#include "widgets/memory/threadview.h"

#include <QFileDialog>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QPushButton>
#include <QTreeWidget>
#include <QVBoxLayout>

namespace hako {

ThreadView::ThreadView(QWidget* parent)
    : QWidget(parent), m_thread(memory::ThreadIndex::fromJson({}).value())
{
    auto* open = new QPushButton(tr("Open thread…"), this);
    m_label = new QLabel(tr("Open a reply-tree file (JSON) to see a context's boundary."), this);
    m_tree = new QTreeWidget(this);
    m_tree->setAccessibleName(tr("Thread messages"));
    m_tree->setHeaderLabels({tr("Message"), tr("Author"), tr("Text")});
    m_tree->header()->setStretchLastSection(true);
    auto* top = new QHBoxLayout;
    top->addWidget(open);
    top->addWidget(m_label, 1);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addLayout(top);
    layout->addWidget(m_tree, 1);
    connect(open, &QPushButton::clicked, this, [this] {
        const QString path = QFileDialog::getOpenFileName(this, tr("Open thread"), QString(),
                                                          tr("Threads (*.json);;All files (*)"));
        if (!path.isEmpty())
            loadFile(path);
    });
    connect(m_tree, &QTreeWidget::currentItemChanged, this, [this](QTreeWidgetItem* item) {
        if (item)
            markContext(item->text(0));
    });
}

void ThreadView::loadFile(const QString& path)
{
    auto t = memory::ThreadIndex::load(path);
    if (!t) {
        Q_EMIT errorOccurred(t.error().message);
        return;
    }
    setThread(std::move(*t));
}

void ThreadView::setThread(memory::ThreadIndex thread)
{
    m_thread = std::move(thread);
    m_tree->clear();
    m_items.clear();
    m_context.clear();
    // Parents come before their replies in a well-formed file; any that do not attach at the
    // top level rather than disappear.
    for (const memory::ThreadMessage& m : m_thread.messages()) {
        QTreeWidgetItem* parent =
            m.path.size() > 1 ? m_items.value(m.path.at(m.path.size() - 2)) : nullptr;
        auto* item = parent ? new QTreeWidgetItem(parent) : new QTreeWidgetItem(m_tree);
        item->setText(0, m.id);
        item->setText(1, m.author);
        item->setText(2, m.text);
        m_items.insert(m.id, item);
    }
    m_tree->expandAll();
    m_tree->resizeColumnToContents(0);
    m_label->setText(tr("%1 messages. Select one to see the context a reply to it gets.")
                         .arg(m_thread.messages().size()));
}

void ThreadView::selectMessage(const QString& id)
{
    if (QTreeWidgetItem* item = m_items.value(id))
        m_tree->setCurrentItem(item);
}

void ThreadView::markContext(const QString& id)
{
    auto chain = m_thread.context(id);
    if (!chain) {
        Q_EMIT errorOccurred(chain.error().message);
        return;
    }
    m_context.clear();
    for (const auto& m : *chain)
        m_context.append(m.id);
    const QColor inside = palette().color(QPalette::Text);
    const QColor outside = palette().color(QPalette::Disabled, QPalette::Text);
    for (auto it = m_items.begin(); it != m_items.end(); ++it) {
        const bool in = m_context.contains(it.key());
        for (int c = 0; c < 3; ++c) {
            QFont f = it.value()->font(c);
            f.setBold(in);
            it.value()->setFont(c, f);
            it.value()->setForeground(c, in ? inside : outside);
            it.value()->setBackground(c, in ? QColor(0xe8, 0xf0, 0xfa) : QColor(Qt::transparent));
        }
    }
    // Bold ids are wider: keep the deepest one readable.
    m_tree->resizeColumnToContents(0);
    m_label->setText(tr("Context of %1: %2 of %3 messages (%4); the rest, sibling branches "
                        "included, stays out of the prompt.")
                         .arg(id)
                         .arg(m_context.size())
                         .arg(m_thread.messages().size())
                         .arg(m_context.join(QStringLiteral(" → "))));
}

} // namespace hako
