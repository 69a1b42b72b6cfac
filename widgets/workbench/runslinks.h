#pragma once

#include <QObject>
#include <QString>

#include <memory>

namespace hako {
namespace pdl {
struct TraceNode;
class TraceModel;
} // namespace pdl

class DiffLinks;
class TraceDocks;

/// The Runs dock's Compare: the two selected runs' trees (from the OTLP file, the live
/// receiver or the prompt log they were listed from) compared in the Trace Comparison dock,
/// which comes to the front. And its Prompt log source: the runs of the window's prompt log
/// (read off the GUI thread), one row per run id with its calls' totals; picking one shows
/// its calls in the trace panes. GUI thread; wiring only.
///
/// MainWindow wiring (after DiffLinks is made):
/// \code
///   auto* runsLinks = new RunsLinks(m_traces, diffLinks, this);
///   connect(runsLinks, &RunsLinks::statusMessage, this, showStatus);
/// \endcode
class RunsLinks : public QObject {
    Q_OBJECT
public:
    RunsLinks(TraceDocks* traces, DiffLinks* diff, QObject* parent = nullptr);

    /// Compares listed runs `leftId` and `rightId`.
    void compare(const QString& leftId, const QString& rightId);
    /// Lists the prompt log's runs (the newest calls, up to kLogCalls) in the Runs dock.
    void listPromptLog();
    /// How many of the newest calls the Prompt log source reads.
    static constexpr int kLogCalls = 20000;

Q_SIGNALS:
    void statusMessage(const QString& text, int timeout);

private:
    void showComparison(const QString& leftId, const QString& rightId,
                        std::shared_ptr<pdl::TraceNode> left,
                        std::shared_ptr<pdl::TraceNode> right);
    QString runName(const QString& id, const QString& otherId) const;

    void openLogRun(const QString& id);

    TraceDocks* m_traces;
    DiffLinks* m_diff;
    pdl::TraceModel* m_logTrace; ///< the prompt-log run on show
};

} // namespace hako
