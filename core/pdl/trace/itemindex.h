#pragma once

#include <cstddef>
#include <vector>

namespace hako::pdl {

/// Items of a tree by the hash of their id, in one array (open addressing, linear probing): a
/// million-node trace's index is 16 MB in one allocation instead of a million map nodes, and
/// it is built on the GUI thread when the trace is shown. Several items may share a hash; the
/// caller tells them apart by their ids. Not thread-safe.
template <typename Item> class ItemIndex {
public:
    void clear()
    {
        m_slots.clear();
        m_size = 0;
    }
    size_t size() const { return m_size; }

    /// Room for `n` items without growing.
    void reserve(size_t n)
    {
        size_t capacity = 16;
        while (capacity < n * 2)
            capacity *= 2;
        if (capacity > m_slots.size())
            rehash(capacity);
    }

    /// The first item of hash `hash` that `matches`, or null.
    template <typename F> Item* find(size_t hash, F&& matches) const
    {
        if (m_slots.empty())
            return nullptr;
        const size_t mask = m_slots.size() - 1;
        for (size_t i = hash & mask; m_slots[i].item; i = (i + 1) & mask)
            if (m_slots[i].hash == hash && matches(m_slots[i].item))
                return m_slots[i].item;
        return nullptr;
    }

    void insert(size_t hash, Item* item)
    {
        if ((m_size + 1) * 2 > m_slots.size())
            rehash(m_slots.empty() ? 16 : m_slots.size() * 2);
        place(hash, item);
        ++m_size;
    }

    /// Removes `item` (indexed under `hash`) and returns it; null when it is not there.
    Item* erase(size_t hash, const Item* item)
    {
        if (m_slots.empty())
            return nullptr;
        const size_t mask = m_slots.size() - 1;
        size_t i = hash & mask;
        while (m_slots[i].item && m_slots[i].item != item)
            i = (i + 1) & mask;
        if (!m_slots[i].item)
            return nullptr;
        Item* removed = m_slots[i].item;
        // Close the gap: a later slot of the run moves back when its home is not between the
        // gap and itself (cyclically), so that every lookup still finds it.
        for (size_t j = (i + 1) & mask; m_slots[j].item; j = (j + 1) & mask) {
            const size_t home = m_slots[j].hash & mask;
            const bool between = i <= j ? (i < home && home <= j) : (i < home || home <= j);
            if (!between) {
                m_slots[i] = m_slots[j];
                i = j;
            }
        }
        m_slots[i] = Slot{};
        --m_size;
        return removed;
    }

private:
    struct Slot {
        size_t hash = 0;
        Item* item = nullptr;
    };

    void place(size_t hash, Item* item)
    {
        const size_t mask = m_slots.size() - 1;
        size_t i = hash & mask;
        while (m_slots[i].item)
            i = (i + 1) & mask;
        m_slots[i] = Slot{hash, item};
    }

    void rehash(size_t capacity)
    {
        std::vector<Slot> old = std::move(m_slots);
        m_slots.assign(capacity, Slot{});
        for (const Slot& s : old)
            if (s.item)
                place(s.hash, s.item);
    }

    std::vector<Slot> m_slots;
    size_t m_size = 0;
};

} // namespace hako::pdl
