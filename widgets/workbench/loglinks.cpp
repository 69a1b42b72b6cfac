#include "widgets/workbench/loglinks.h"

#include "core/pdl/trace/tracemodel.h"
#include "core/workbench/runarchive.h"
#include "core/workbench/runcontroller.h"
#include "core/workbench/workbenchcontext.h"
#include "widgets/editor/editorpane.h"
#include "widgets/workbench/filecontroller.h"
#include "widgets/workbench/programtabs.h"
#include "widgets/workbench/tracedocks.h"

#include <QDir>
#include <QDockWidget>
#include <QFileInfo>

namespace hako {

LogLinks::LogLinks(WorkbenchContext* context, ProgramTabs* tabs, TraceDocks* traces,
                   FileController* files, QObject* parent)
    : QObject(parent), m_context(context), m_traces(traces), m_files(files), m_tabs(tabs)
{
    // An archived trace loads in the background; its node is selected once it is in.
    connect(m_traces, &TraceDocks::traceLoaded, this, [this](const QString& path) {
        if (m_pendingTrace.isEmpty() || QFileInfo(path) != QFileInfo(m_pendingTrace))
            return;
        const QString node = std::exchange(m_pendingNode, QString());
        m_pendingTrace.clear();
        if (!node.isEmpty())
            m_context->setCurrentNode(node, this);
    });
}

void LogLinks::showInTrace(const QString& runId, const QString& nodeId, const QString& program)
{
    Q_UNUSED(program)
    if (runId.isEmpty())
        return;
    // The latest run of an open program: its live trace is still in its model.
    for (EditorPane* editor : m_tabs->editors()) {
        RunController* run = m_tabs->runOf(editor);
        if (runId != run->lastRunId() || run->isRunning() || !run->traceModel() ||
            (!nodeId.isEmpty() && !run->traceModel()->findById(nodeId)))
            continue;
        m_tabs->setCurrentEditor(editor);
        m_traces->showRunTrace();
        m_traces->traceDock()->show();
        m_traces->traceDock()->raise();
        if (!nodeId.isEmpty())
            m_context->setCurrentNode(nodeId, this);
        return;
    }
    const RunArchive archive;
    if (!archive.contains(runId)) {
        Q_EMIT statusMessage(
            tr("The trace of this run was not kept (the workbench keeps its own runs' traces; "
               "`hako run --trace FILE` writes one)"),
            8000);
        return;
    }
    m_pendingTrace = archive.pathFor(runId);
    m_pendingNode = nodeId;
    m_traces->openTrace(m_pendingTrace);
}

void LogLinks::showSource(const QString& programPath, const SourceSpan& span)
{
    if (programPath.isEmpty())
        return;
    if (QFileInfo(m_tabs->currentEditor()->filePath()) != QFileInfo(programPath)) {
        QString error;
        if (!m_files->openFile(programPath, &error))
            return; // the editor's message bar says why (or the user kept the current one)
    }
    m_context->revealSource(span, this);
}

} // namespace hako
