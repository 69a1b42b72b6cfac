#pragma once

#include <QObject>
#include <QString>

#include <memory>

namespace hako {
namespace pdl {
struct TraceNode;
}

class DiffLinks;
class TraceDocks;

/// The Runs dock's Compare: the two selected runs' trees (from the OTLP file or the live
/// receiver they were listed from) compared in the Trace Comparison dock, which comes to the
/// front. GUI thread; wiring only.
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

Q_SIGNALS:
    void statusMessage(const QString& text, int timeout);

private:
    void showComparison(const QString& leftId, const QString& rightId,
                        std::shared_ptr<pdl::TraceNode> left,
                        std::shared_ptr<pdl::TraceNode> right);
    QString runName(const QString& id, const QString& otherId) const;

    TraceDocks* m_traces;
    DiffLinks* m_diff;
};

} // namespace hako
