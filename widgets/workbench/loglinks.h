#pragma once

#include "core/util/diagnostic.h"

#include <QObject>
#include <QString>

namespace hako {

class ProgramTabs;
class FileController;
class RunController;
class TraceDocks;
class WorkbenchContext;

/// Where the Prompt Log's links lead: "Show in Trace" to the run's trace at the call's node
/// (the window's own latest run, else the trace the workbench kept of it in the RunArchive),
/// "Show Source" to the model block in the editor. GUI thread; wiring only.
class LogLinks : public QObject {
    Q_OBJECT
public:
    LogLinks(WorkbenchContext* context, ProgramTabs* tabs, TraceDocks* traces,
             FileController* files, QObject* parent = nullptr);

public Q_SLOTS:
    /// Shows the trace of `runId` and selects `nodeId` in it; says so in the status bar when
    /// that run's trace was not kept.
    void showInTrace(const QString& runId, const QString& nodeId, const QString& programPath);
    /// Opens `programPath` (offering to save the current one) and shows `span`.
    void showSource(const QString& programPath, const hako::SourceSpan& span);

Q_SIGNALS:
    void statusMessage(const QString& text, int timeout);

private:
    WorkbenchContext* m_context;
    TraceDocks* m_traces;
    FileController* m_files;
    ProgramTabs* m_tabs;
    QString m_pendingTrace; ///< the archived trace being loaded, and the node to select in it
    QString m_pendingNode;
};

} // namespace hako
