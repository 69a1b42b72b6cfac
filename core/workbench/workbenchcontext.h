#pragma once

#include "core/util/diagnostic.h"

#include <QObject>
#include <QPointer>
#include <QString>

#include <memory>

class QTimer;

namespace hako {

namespace docs {
class DocumentSession;
}
namespace memory {
class MemoryStore;
}
namespace promptlog {
class PromptLog;
}
namespace pdl {
class TraceModel;
}

/// The bus every workbench pane talks to: holds the current program, the trace being shown
/// (a live run or a loaded file) and the selected trace node, and broadcasts changes. Panes
/// talk only through it, never to each other. Lives on the GUI thread; every signal carries
/// the `origin` that caused it so a pane can ignore its own echo (origin may be null).
class WorkbenchContext : public QObject {
    Q_OBJECT
public:
    explicit WorkbenchContext(QObject* parent = nullptr);

    /// How often promptLogCommitted() is emitted at the most while calls keep arriving.
    static constexpr int kPromptLogCommittedIntervalMs = 500;

    /// Absolute path of the program being edited; empty for an unsaved new program.
    QString currentProgram() const { return m_currentProgram; }
    /// Sets the current program; emits currentProgramChanged only when the path changes.
    void setCurrentProgram(const QString& path, QObject* origin = nullptr);

    /// The trace every trace pane shows (not owned; null when there is none).
    pdl::TraceModel* traceModel() const;
    /// Makes `model` the shown trace and clears the current node.
    void setTraceModel(pdl::TraceModel* model, QObject* origin = nullptr);

    /// The selected trace node by `pdl__id` (empty: none).
    QString currentNode() const { return m_currentNode; }
    /// Selects a node; emits currentNodeChanged when it changes. Panes showing the trace follow
    /// it; the editor reveals the node's source.
    void setCurrentNode(const QString& id, QObject* origin = nullptr);

    /// Asks the editor to show and select `span` (e.g. a `pdl__defsite` link in the detail).
    void revealSource(const SourceSpan& span, QObject* origin = nullptr);

    /// The editor's cursor moved to `position` (file, line, column; 1-based code points): the
    /// trace views light up the boxes that source produced.
    SourceSpan sourceCursor() const { return m_sourceCursor; }
    void setSourceCursor(const SourceSpan& position, QObject* origin = nullptr);

    /// Whether a run is executing now (the Run/Stop actions and panes follow it).
    bool isRunning() const { return m_running; }
    void setRunning(bool running);

    /// The trace node (`pdl__id`) of the block a debugged run is paused at, empty while it
    /// runs: the trace panes say "paused" there instead of "running…".
    QString pausedNode() const { return m_pausedNode; }
    void setPausedNode(const QString& id);

    /// The document open in the Documents pane (null: none). Runs get it as `doc`, so what a
    /// program asks shows in the pane's transcript. Emits documentSessionChanged when it changes.
    std::shared_ptr<docs::DocumentSession> documentSession() const { return m_documentSession; }
    void setDocumentSession(std::shared_ptr<docs::DocumentSession> session,
                            QObject* origin = nullptr);

    /// The memory store open in the Memory pane (null: none). Runs get `memory` and `thread`
    /// over it. Emits memoryStoreChanged when it changes.
    std::shared_ptr<memory::MemoryStore> memoryStore() const { return m_memoryStore; }
    void setMemoryStore(std::shared_ptr<memory::MemoryStore> store, QObject* origin = nullptr);

    /// The prompt log every run of the window records its model calls in: the user's log,
    /// opened on first use without waiting for its store (a PostgreSQL server that cannot be
    /// reached never freezes the window: the writer and the first query connect on their own
    /// threads, and promptLogProblem() says what went wrong). `error` receives what opening
    /// found at once (a wrong settings file, an unusable location).
    std::shared_ptr<promptlog::PromptLog> promptLog(QString* error = nullptr);
    /// Uses `log` instead (tests; null: open the user's log on next use).
    void setPromptLog(std::shared_ptr<promptlog::PromptLog> log);

Q_SIGNALS:
    void currentProgramChanged(const QString& path, QObject* origin);
    void traceModelChanged(hako::pdl::TraceModel* model, QObject* origin);
    void currentNodeChanged(const QString& id, QObject* origin);
    void revealSourceRequested(const hako::SourceSpan& span, QObject* origin);
    void sourceCursorChanged(const hako::SourceSpan& position, QObject* origin);
    void runningChanged(bool running);
    void pausedNodeChanged(const QString& id);
    void documentSessionChanged(QObject* origin);
    void memoryStoreChanged(QObject* origin);
    /// The prompt log cannot be written (once until it recovers; its calls wait in memory).
    void promptLogProblem(const QString& message);
    /// The prompt log is written again after a problem.
    void promptLogRecovered();
    /// Calls were committed to the prompt log (by a run, the playground, an experiment, received
    /// spans): its readers list again. Coalesced: at most once per
    /// kPromptLogCommittedIntervalMs however many batches land.
    void promptLogCommitted();

private:
    void watchPromptLog();

    QString m_currentProgram;
    QPointer<pdl::TraceModel> m_traceModel;
    QString m_currentNode;
    SourceSpan m_sourceCursor;
    bool m_running = false;
    QString m_pausedNode;
    std::shared_ptr<docs::DocumentSession> m_documentSession;
    std::shared_ptr<memory::MemoryStore> m_memoryStore;
    std::shared_ptr<promptlog::PromptLog> m_promptLog;
    QTimer* m_commitCoalesce;
};

} // namespace hako
