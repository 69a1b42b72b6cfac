#include "core/memory/timeline.h"

#include <algorithm>

namespace hako::memory {

std::vector<TimelineEvent> buildTimeline(const std::vector<MemoryRecord>& records,
                                         const std::vector<JournalEntry>& journal)
{
    struct Item {
        TimelineEvent e;
        int importance;
        int order; // creations before accesses at the same instant
    };
    std::vector<Item> items;
    for (const MemoryRecord& r : records) {
        if (r.state == State::Deleted)
            continue;
        const bool reflection = r.kind == Kind::Reflection;
        const bool counts =
            r.kind == Kind::Observation || r.kind == Kind::Chat || r.kind == Kind::Insight;
        items.push_back(
            {{reflection ? TimelineEvent::Type::Reflection : TimelineEvent::Type::Creation,
              r.createdAt, r.id, 0},
             counts ? r.importance : 0,
             0});
    }
    for (const JournalEntry& j : journal) {
        if (j.op == QLatin1String("access"))
            items.push_back({{TimelineEvent::Type::Access, j.at, j.memoryId, 0}, 0, 1});
    }
    std::stable_sort(items.begin(), items.end(), [](const Item& a, const Item& b) {
        if (a.e.at != b.e.at)
            return a.e.at < b.e.at;
        if (a.order != b.order)
            return a.order < b.order;
        return a.e.memoryId < b.e.memoryId;
    });
    std::vector<TimelineEvent> out;
    out.reserve(items.size());
    int64_t acc = 0;
    for (Item& i : items) {
        if (i.e.type == TimelineEvent::Type::Reflection)
            acc = 0;
        else
            acc += i.importance;
        i.e.accumulated = acc;
        out.push_back(i.e);
    }
    return out;
}

} // namespace hako::memory
