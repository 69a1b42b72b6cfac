#pragma once

#include "core/pdl/value.h"

#include <string>
#include <vector>

namespace hako::pdl::code {

/// The outcome of running a python code block (or calling a Python object): its result or its
/// exception, plus what it printed. A plain value, safe to copy between threads.
struct CodeOutcome {
    enum class Status {
        Ok,        ///< `result` holds the value
        Exception, ///< the code raised: errorType, errorTypes, errorMessage, traceback, errorLine
        TimedOut,  ///< killed after the timeout; errorType "TimeoutError"
        Cancelled, ///< killed because the run was cancelled
        Failed     ///< python could not start, crashed or broke the protocol; errorMessage says
    };
    Status status = Status::Ok;
    Value result;
    /// stdout and stderr written while the block ran (also on failure: what came before it).
    std::string out, err;
    /// The exception class name, e.g. "ConnectionError".
    std::string errorType;
    /// The class and its bases, most derived first, without `object`:
    /// {"ConnectionError", "OSError", "Exception", "BaseException"}.
    std::vector<std::string> errorTypes;
    std::string errorMessage;
    /// Python's formatted traceback, limited to frames of the code block(s).
    std::string traceback;
    /// Line (1-based) inside the code block where the error was raised; 0 when unknown.
    int errorLine = 0;
    /// Conversions worth telling the user about (a big int that became a float).
    std::vector<std::string> notes;

    bool ok() const { return status == Status::Ok; }
    /// Whether a `retry: {exceptions: [name]}` filter naming `name` matches this error (the
    /// class itself or one of its bases). Cancellation matches nothing.
    bool matchesException(const std::string& name) const;
    /// "ConnectionError: attempt 1: service unavailable", "timed out after 2 s", "cancelled".
    std::string describe() const;
};

} // namespace hako::pdl::code
