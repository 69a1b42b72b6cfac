#include "core/util/latestjob.h"

#include <atomic>

namespace hako {

namespace {

// One serial for the whole process: a ticket can never be mistaken for another tracker's.
quint64 nextSerial()
{
    static std::atomic<quint64> serial{0};
    return serial.fetch_add(1, std::memory_order_relaxed) + 1;
}

} // namespace

LatestJob::LatestJob() : m_current(nextSerial()) {}

LatestJob::Ticket LatestJob::start()
{
    m_current = Ticket(nextSerial());
    return m_current;
}

} // namespace hako
