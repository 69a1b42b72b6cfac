#pragma once

#include <atomic>
#include <memory>

namespace hako {

/// A cancellation flag shared between whoever starts long work (a run, a model call, an index
/// build) and the code doing it. Copies share one flag; cancel() from any thread, poll
/// isCancelled() at convenient boundaries. A default-constructed token can be cancelled too.
class CancelToken {
public:
    CancelToken() : m_flag(std::make_shared<std::atomic<bool>>(false)) {}
    void cancel() const { m_flag->store(true, std::memory_order_relaxed); }
    bool isCancelled() const { return m_flag->load(std::memory_order_relaxed); }

private:
    std::shared_ptr<std::atomic<bool>> m_flag;
};

} // namespace hako
