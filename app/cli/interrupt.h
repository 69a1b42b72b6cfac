#pragma once

#include "core/util/cancel.h"

namespace hako {

/// While alive, SIGINT (Ctrl+C), SIGTERM (`kill`, a service manager, a CI timeout) and SIGHUP
/// (the terminal closed) all cancel `token` instead of ending the process: the command stops
/// at its next cancellation point and still writes what it did (trace, log, results), then
/// exits with its usual "interrupted" status. A second signal while that is under way ends the
/// process at once (default action of that signal), for a person who does not want to wait.
///
/// The handler only stores into the token's atomic flag and write(2)s one fixed line to
/// stderr: both async-signal-safe. The destructor restores the handlers that were installed
/// before (an outer guard, or the defaults).
///
/// Threading: construct and destroy on the command's main thread; one guard alive at a time is
/// the intended use (a nested guard takes over and gives back on destruction).
class InterruptGuard {
public:
    /// `restartSystemCalls` false: a blocking read of the main thread (the debugger's prompt)
    /// fails with EINTR at the signal, so that the command notices it at once.
    explicit InterruptGuard(CancelToken token, bool restartSystemCalls = true);
    ~InterruptGuard();
    InterruptGuard(const InterruptGuard&) = delete;
    InterruptGuard& operator=(const InterruptGuard&) = delete;

    /// The signal that cancelled the token (SIGINT, SIGTERM, SIGHUP), or 0 when none came.
    int receivedSignal() const;

private:
    struct Saved;
    CancelToken m_token;
    Saved* m_saved;
};

} // namespace hako
