#pragma once

#include "core/util/cancel.h"
#include "core/util/diagnostic.h"

#include <chrono>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace hako::pdl::code {

class Sandbox;

/// Splits a command line into argv with POSIX shell quoting, as Python's `shlex.split`:
/// whitespace separates words; '…' is literal; in "…" a backslash escapes only `"` and `\`;
/// outside quotes a backslash escapes any character; adjacent parts join (`a'b'"c"` → `abc`);
/// `''` is an empty word. No expansion of any kind (no $VAR, globs, ~, or `#` comments).
/// Errors: "No closing quotation", "No escaped character" (trailing backslash).
Result<std::vector<std::string>> splitCommandLine(std::string_view line);

/// `shlex.join`: argv as one line a shell would split back into the same words.
std::string joinCommandLine(const std::vector<std::string>& argv);

/// Where and how a command runs.
struct CommandOptions {
    /// The folder the command runs in (the program's folder); empty: the current one.
    std::string workingDirectory;
    /// When set, the command runs inside this bubblewrap sandbox.
    std::shared_ptr<const Sandbox> sandbox;
    /// stdout or stderr beyond this is an error (the command is killed).
    size_t maxOutputBytes = size_t(256) << 20;
};

/// The outcome of a command: exit code and captured output. A plain value.
struct CommandOutcome {
    enum class Status {
        Ok,        ///< exit code 0
        Exited,    ///< non-zero exit or killed by a signal (exitCode < 0: -signal)
        TimedOut,  ///< killed after the timeout
        Cancelled, ///< killed because the run was cancelled
        Failed     ///< could not start (program not found…) or produced too much output
    };
    Status status = Status::Ok;
    int exitCode = -1;
    std::string out, err;
    /// For every status but Ok: what happened, naming the command, e.g.
    /// "command 'ls /nope' failed with exit code 2: ls: cannot access '/nope': No such file…".
    std::string errorMessage;

    bool ok() const { return status == Status::Ok; }
};

/// Runs argv (argv[0] looked up in PATH; a relative path with '/' is relative to the working
/// folder) without a shell, feeding `input` on stdin (none: /dev/null), and captures stdout and
/// stderr. A zero `timeout` means none. Blocks the calling thread (never a GUI thread); polls
/// `cancel`. Timeout and cancel kill the command's whole process tree. Thread-safe.
CommandOutcome runCommand(const std::vector<std::string>& argv,
                          const std::optional<std::string>& input = std::nullopt,
                          const CancelToken& cancel = {},
                          std::chrono::milliseconds timeout = std::chrono::milliseconds(0),
                          const CommandOptions& options = {});

} // namespace hako::pdl::code
