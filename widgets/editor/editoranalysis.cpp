#include "widgets/editor/editoranalysis.h"

#include "core/pdl/programcheck.h"
#include "core/util/whenready.h"

#include <QtConcurrent/QtConcurrentRun>

namespace hako {

EditorAnalysis::EditorAnalysis(QObject* parent) : QObject(parent)
{
    m_timer.setSingleShot(true);
    m_timer.setInterval(40);
    connect(&m_timer, &QTimer::timeout, this, &EditorAnalysis::start);
}

void EditorAnalysis::setExternalNames(const QStringList& names)
{
    m_options.externalNames = names;
}

void EditorAnalysis::request(const QString& text, const QString& fileName)
{
    m_text = text;
    m_fileName = fileName;
    m_latest.invalidate(); // results of analyses already running are stale now
    m_timer.start();
}

void EditorAnalysis::requestNow(const QString& text, const QString& fileName)
{
    m_text = text;
    m_fileName = fileName;
    m_timer.stop();
    start();
}

void EditorAnalysis::start()
{
    const LatestJob::Ticket ticket = m_latest.start();
    const QByteArray bytes = m_text.toUtf8();
    const QString file = m_fileName;
    const pdl::ScopeOptions options = m_options;
    ++m_running;
    whenReady(this, QtConcurrent::run([bytes, file, options] {
                  return std::make_shared<const pdl::ProgramReport>(
                      pdl::analyzeProgramText(bytes, file, options));
              }),
              [this, ticket](std::shared_ptr<const pdl::ProgramReport> report) {
                  --m_running;
                  if (!m_latest.isCurrent(ticket))
                      return; // a newer text is being analysed
                  m_report = std::move(report);
                  Q_EMIT reportReady(m_report);
              });
}

} // namespace hako
