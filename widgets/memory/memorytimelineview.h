#pragma once

#include "core/memory/timeline.h"

#include <QWidget>

namespace hako {

/// Paints an agent's memory timeline: creations (dots), accesses (ticks) and reflections
/// (triangles) along time, with the importance accumulator as a step line against the
/// reflection threshold (dashed). Fed a finished event list; GUI thread only.
class MemoryTimelineView : public QWidget {
    Q_OBJECT
public:
    explicit MemoryTimelineView(QWidget* parent = nullptr);

    void setEvents(std::vector<memory::TimelineEvent> events, int64_t threshold);
    const std::vector<memory::TimelineEvent>& events() const { return m_events; }
    QSize sizeHint() const override { return {600, 220}; }

protected:
    void paintEvent(QPaintEvent* event) override;

private:
    std::vector<memory::TimelineEvent> m_events;
    int64_t m_threshold = 150;
};

} // namespace hako
