#pragma once

#include "core/pdl/check/scopeanalysis.h"
#include "core/util/latestjob.h"

#include <QObject>
#include <QTimer>

#include <memory>

namespace hako {

namespace pdl {
struct ProgramReport;
}

/// Runs the program check and scope analysis for the editor off the GUI thread: request()
/// (re)starts a short debounce; when it fires, the text is analysed on the global thread pool
/// and reportReady delivers the result on the GUI thread. A newer request supersedes older
/// ones: stale results are dropped ("latest wins"). GUI thread only.
class EditorAnalysis : public QObject {
    Q_OBJECT
public:
    explicit EditorAnalysis(QObject* parent = nullptr);

    /// Schedules an analysis of `text` (the file name goes into spans and locates includes).
    void request(const QString& text, const QString& fileName);
    /// Analyses without the debounce (e.g. after loading a file).
    void requestNow(const QString& text, const QString& fileName);
    /// Names the program may use without defining them (`doc`, `memory`, -d data).
    void setExternalNames(const QStringList& names);
    /// Debounce in milliseconds (default 40).
    void setDelay(int ms) { m_timer.setInterval(ms); }

    /// The latest delivered report (null before the first).
    std::shared_ptr<const pdl::ProgramReport> report() const { return m_report; }
    bool isPending() const { return m_timer.isActive() || m_running > 0; }

Q_SIGNALS:
    void reportReady(std::shared_ptr<const hako::pdl::ProgramReport> report);

private:
    void start();

    QTimer m_timer;
    QString m_text;
    QString m_fileName;
    pdl::ScopeOptions m_options;
    LatestJob m_latest;
    int m_running = 0;
    std::shared_ptr<const pdl::ProgramReport> m_report;
};

} // namespace hako
