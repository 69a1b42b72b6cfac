#include "core/workbench/workbenchcontext.h"

#include "core/promptlog/promptlog.h"

#include "core/pdl/trace/tracemodel.h"

#include <QTimer>

namespace hako {

WorkbenchContext::WorkbenchContext(QObject* parent)
    : QObject(parent), m_commitCoalesce(new QTimer(this))
{
    // The log commits a batch many times a second while calls pour in (a big import, an
    // experiment, received spans): readers hear of them at most this often, never a storm.
    m_commitCoalesce->setSingleShot(true);
    m_commitCoalesce->setInterval(kPromptLogCommittedIntervalMs);
    connect(m_commitCoalesce, &QTimer::timeout, this, &WorkbenchContext::promptLogCommitted);
}

void WorkbenchContext::setCurrentProgram(const QString& path, QObject* origin)
{
    if (path == m_currentProgram)
        return;
    m_currentProgram = path;
    Q_EMIT currentProgramChanged(path, origin);
}

pdl::TraceModel* WorkbenchContext::traceModel() const
{
    return m_traceModel.data();
}

void WorkbenchContext::setTraceModel(pdl::TraceModel* model, QObject* origin)
{
    if (model == m_traceModel)
        return;
    m_traceModel = model;
    m_currentNode.clear();
    Q_EMIT traceModelChanged(model, origin);
    Q_EMIT currentNodeChanged(QString(), origin);
}

void WorkbenchContext::setCurrentNode(const QString& id, QObject* origin)
{
    if (id == m_currentNode)
        return;
    m_currentNode = id;
    Q_EMIT currentNodeChanged(id, origin);
}

void WorkbenchContext::revealSource(const SourceSpan& span, QObject* origin)
{
    Q_EMIT revealSourceRequested(span, origin);
}

void WorkbenchContext::setSourceCursor(const SourceSpan& position, QObject* origin)
{
    if (position == m_sourceCursor)
        return;
    m_sourceCursor = position;
    Q_EMIT sourceCursorChanged(position, origin);
}

void WorkbenchContext::setRunning(bool running)
{
    if (running == m_running)
        return;
    m_running = running;
    Q_EMIT runningChanged(running);
}

void WorkbenchContext::setPausedNode(const QString& id)
{
    if (id == m_pausedNode)
        return;
    m_pausedNode = id;
    Q_EMIT pausedNodeChanged(id);
}

void WorkbenchContext::setDocumentSession(std::shared_ptr<docs::DocumentSession> session,
                                          QObject* origin)
{
    if (session == m_documentSession)
        return;
    m_documentSession = std::move(session);
    Q_EMIT documentSessionChanged(origin);
}

void WorkbenchContext::setMemoryStore(std::shared_ptr<memory::MemoryStore> store, QObject* origin)
{
    if (store == m_memoryStore)
        return;
    m_memoryStore = std::move(store);
    Q_EMIT memoryStoreChanged(origin);
}

std::shared_ptr<promptlog::PromptLog> WorkbenchContext::promptLog(QString* error)
{
    if (!m_promptLog) {
        QString why;
        m_promptLog = promptlog::PromptLog::openDefault(&why, /*connectOnOpen=*/false);
        if (error)
            *error = why;
        watchPromptLog();
    }
    return m_promptLog;
}

void WorkbenchContext::setPromptLog(std::shared_ptr<promptlog::PromptLog> log)
{
    if (m_promptLog)
        m_promptLog->disconnect(this);
    m_promptLog = std::move(log);
    watchPromptLog();
}

void WorkbenchContext::watchPromptLog()
{
    if (!m_promptLog)
        return;
    // Emitted on the log's writer thread; queued here to the context's (GUI) thread.
    connect(m_promptLog.get(), &promptlog::PromptLog::problem, this,
            &WorkbenchContext::promptLogProblem, Qt::QueuedConnection);
    connect(m_promptLog.get(), &promptlog::PromptLog::recovered, this,
            &WorkbenchContext::promptLogRecovered, Qt::QueuedConnection);
    connect(
        m_promptLog.get(), &promptlog::PromptLog::committed, this,
        [this] {
            if (!m_commitCoalesce->isActive())
                m_commitCoalesce->start();
        },
        Qt::QueuedConnection);
}

} // namespace hako
