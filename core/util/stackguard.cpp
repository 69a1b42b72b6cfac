#include "core/util/stackguard.h"

#include <pthread.h>

#include <cstdint>
#include <limits>

namespace hako {

namespace {

// The lowest usable address of this thread's stack (stacks grow down on every platform Hako
// builds for), or 0 when the C library cannot tell.
uintptr_t stackLimit()
{
    thread_local const uintptr_t limit = [] {
        pthread_attr_t attr;
        if (pthread_getattr_np(pthread_self(), &attr) != 0)
            return uintptr_t(0);
        void* base = nullptr;
        size_t size = 0;
        uintptr_t low = 0;
        if (pthread_attr_getstack(&attr, &base, &size) == 0)
            low = reinterpret_cast<uintptr_t>(base);
        size_t guard = 0;
        if (pthread_attr_getguardsize(&attr, &guard) == 0)
            low += guard;
        pthread_attr_destroy(&attr);
        return low;
    }();
    return limit;
}

} // namespace

size_t stackRemaining()
{
    const uintptr_t low = stackLimit();
    // The frame address, not a local's: sanitizers may move locals to a heap "fake stack".
    const auto here = reinterpret_cast<uintptr_t>(__builtin_frame_address(0));
    if (low == 0 || here <= low)
        return low == 0 ? std::numeric_limits<size_t>::max() : 0;
    return size_t(here - low);
}

} // namespace hako
