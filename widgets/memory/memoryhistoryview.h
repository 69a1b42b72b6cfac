#pragma once

#include "core/memory/memorystore.h"
#include "core/util/latestjob.h"

#include <QWidget>

#include <memory>

class QLabel;
class QPushButton;
class QTableWidget;
class QTextBrowser;
class QTreeWidget;

namespace hako {

/// One memory's history and provenance: every journal entry about it (time, operation,
/// actor, reason) with a word-level diff of the selected change and a Revert button; and the
/// evidence and source it was drawn from, broken links flagged. Store work runs on worker
/// threads. Reverting asks for confirmation through the confirm callback.
class MemoryHistoryView : public QWidget {
    Q_OBJECT
public:
    using Confirm = std::function<bool(const QString& question)>;

    explicit MemoryHistoryView(QWidget* parent = nullptr);

    void setStore(std::shared_ptr<memory::MemoryStore> store);
    void setConfirm(Confirm confirm) { m_confirm = std::move(confirm); }
    /// Shows memory `id` (0 clears).
    void showMemory(int64_t id);
    /// Reverts the shown memory to what it was before the selected journal entry.
    void revertSelected();

    QTableWidget* entries() const { return m_entries; }
    QTreeWidget* provenance() const { return m_provenance; }
    QString diffHtml() const;

Q_SIGNALS:
    void memoryActivated(qint64 id);
    void memoryChanged(qint64 id);
    void errorOccurred(const QString& message);
    void loaded();

private:
    void showEntry(int row);

    std::shared_ptr<memory::MemoryStore> m_store;
    Confirm m_confirm;
    int64_t m_id = 0;
    std::vector<memory::JournalEntry> m_journal;
    QLabel* m_title;
    QTableWidget* m_entries;
    QTextBrowser* m_diff;
    QPushButton* m_revert;
    QTreeWidget* m_provenance;
    LatestJob m_latest;
};

} // namespace hako
