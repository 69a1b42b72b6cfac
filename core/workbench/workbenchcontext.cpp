#include "core/workbench/workbenchcontext.h"

namespace hako {

WorkbenchContext::WorkbenchContext(QObject* parent) : QObject(parent) {}

void WorkbenchContext::setCurrentProgram(const QString& path, QObject* origin)
{
    if (path == m_currentProgram)
        return;
    m_currentProgram = path;
    Q_EMIT currentProgramChanged(path, origin);
}

} // namespace hako
