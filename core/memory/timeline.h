#pragma once

#include "core/memory/memoryrecord.h"
#include "core/memory/memorystore.h"

#include <vector>

namespace hako::memory {

/// One point of an agent's memory timeline.
struct TimelineEvent {
    enum class Type { Creation, Access, Reflection };
    Type type;
    Millis at = 0;
    int64_t memoryId = 0;
    /// Importance accumulated since the last reflection, after this event (what the reflection
    /// trigger compares with the threshold); a reflection resets it to 0.
    int64_t accumulated = 0;
};

/// Creations, accesses and reflections in time order with the running importance accumulator
/// (observations, chats and insights add their importance; reflections reset it). Pure.
std::vector<TimelineEvent> buildTimeline(const std::vector<MemoryRecord>& records,
                                         const std::vector<JournalEntry>& journal);

} // namespace hako::memory
