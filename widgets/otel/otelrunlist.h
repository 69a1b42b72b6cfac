#pragma once

#include "core/otel/traceassembler.h"

#include <QString>
#include <QWidget>

#include <vector>

class QLabel;
class QTreeWidget;

namespace hako {

/// The runs (traces) of an OTLP file or of the live receiver, one row each: root span's name,
/// start (local time), duration, spans and errors, newest last. Clicking or activating a row asks
/// for that run (runRequested); the row of the run on show is marked current. A line above
/// the list says where the runs come from (the file, or the address the receiver listens on)
/// and, while there are none, that it is waiting for them. GUI thread.
class OtelRunList : public QWidget {
    Q_OBJECT
public:
    explicit OtelRunList(QWidget* parent = nullptr);

    /// Lists `runs` (a TraceAssembler's traces()) with `shown` as the current row; `heading`
    /// says where they come from. Keeps the scroll position when only rows were added.
    void setRuns(const QString& heading, const std::vector<otel::TraceSummary>& runs,
                 const std::string& shown);
    /// Empties the list.
    void clear();

    QTreeWidget* list() const { return m_list; }
    QLabel* heading() const { return m_heading; }
    /// The trace id of row `row` (empty when out of range).
    QString traceIdAt(int row) const;

Q_SIGNALS:
    /// The user picked a run.
    void runRequested(const QString& traceId);

private:
    QLabel* m_heading;
    QTreeWidget* m_list;
    bool m_filling = false;
};

} // namespace hako
