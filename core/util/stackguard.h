#pragma once

#include <cstddef>

namespace hako {

/// Bytes left on the calling thread's stack below the caller's frame (an estimate, from the
/// thread's stack bounds as the C library reports them; a large number when unknown).
/// Recursive code that input controls (nested blocks, calls, includes) checks this so that a
/// hostile program ends with an error instead of a stack overflow. Thread-safe: each thread
/// looks up its own bounds once.
size_t stackRemaining();

/// True when fewer than `reserve` bytes of stack are left: time to stop recursing.
inline bool stackExhausted(size_t reserve = 256 * 1024)
{
    return stackRemaining() < reserve;
}

} // namespace hako
