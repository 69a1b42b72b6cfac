#pragma once

#include "core/util/cancel.h"

#include <sys/types.h>

#include <chrono>
#include <cstdint>
#include <functional>
#include <string>
#include <utility>
#include <vector>

namespace hako::pdl::code {

/// Resource limits set in the child before it runs its program (0: inherit).
struct ChildLimits {
    uint64_t addressSpaceBytes = 0; ///< RLIMIT_AS
    uint64_t processes = 0;         ///< RLIMIT_NPROC
};

/// What to start: the argv (argv[0] looked up in PATH when it has no '/'), the working folder
/// (empty: inherit), environment overrides (`NAME=VALUE`, added to the current environment),
/// and whether the child gets a writable stdin pipe and a private protocol channel (a Unix
/// stream socket on fd 3).
struct ChildSpec {
    std::vector<std::string> argv;
    std::string workingDirectory;
    std::vector<std::string> environment;
    bool pipeStdin = false;
    bool channel = false;
    ChildLimits limits;
};

/// Why ChildProcess::pump() returned.
enum class PumpStatus {
    Done,        ///< the caller's condition held
    Cancelled,   ///< the CancelToken was cancelled
    TimedOut,    ///< the deadline passed
    OutputLimit, ///< stdout or stderr grew beyond the limit
    Ended        ///< the child closed all its pipes (exited) before the condition held
};

/// A child process in its own process group that dies with Hako (PR_SET_PDEATHSIG: a killed
/// `hako run` leaves no Python session or sandbox behind), driven with POSIX pipes and poll() from
/// the calling thread: no event loop, no signal handlers. stdout and stderr are pipes read into
/// buffers; stdin is /dev/null unless ChildSpec::pipeStdin. Writing to a child that has gone
/// never raises SIGPIPE (the channel uses MSG_NOSIGNAL, stdin writes block SIGPIPE for the
/// calling thread only).
///
/// Not thread-safe: one thread drives a ChildProcess at a time. The destructor kills the whole
/// process group and reaps the child.
class ChildProcess {
public:
    ChildProcess() = default;
    ~ChildProcess();
    ChildProcess(const ChildProcess&) = delete;
    ChildProcess& operator=(const ChildProcess&) = delete;

    /// Starts the child; on failure returns false with a message such as
    /// "cannot run 'foo': No such file or directory".
    bool start(const ChildSpec& spec, std::string* error);
    bool isRunning() const { return m_pid > 0; }
    pid_t pid() const { return m_pid; }

    /// Queues bytes for the channel (or stdin when there is no channel); pump() writes them.
    void queueWrite(std::string bytes);
    /// Closes stdin once everything queued has been written (commands reading to EOF).
    void closeStdinWhenWritten() { m_closeStdinAfterWrite = true; }

    /// Moves data between the pipes until `done()` holds, the child ends, the token is
    /// cancelled, `deadline` passes or an output stream grows beyond `maxOutput` bytes.
    /// `done` is checked after every read; it sees what has arrived so far.
    PumpStatus pump(const std::function<bool()>& done, const CancelToken* cancel,
                    std::chrono::steady_clock::time_point deadline, size_t maxOutput);

    /// Reads whatever stdout/stderr data is already buffered in the pipes, without waiting.
    void drainAvailable();

    /// Bytes received so far. Callers take them (std::move) between requests.
    std::string& out() { return m_out; }
    std::string& err() { return m_err; }
    std::string& channelIn() { return m_channelIn; }

    /// Kills the process group (SIGKILL) and reaps the child. Safe to call twice.
    void kill();
    /// Waits for the child to exit (after its pipes closed) and returns a description:
    /// exit code >= 0, or -signal.
    int wait();
    /// Like wait(), but gives up (returning false, child still running) when the token is
    /// cancelled or the deadline passes: a child may close its pipes and keep running.
    bool waitFor(const CancelToken* cancel, std::chrono::steady_clock::time_point deadline,
                 int* status);
    /// "exit code N" or "killed by signal N (SIGSEGV)".
    static std::string describeStatus(int status);

private:
    bool readFrom(int& fd, std::string& into);
    void closeAll();

    pid_t m_pid = -1;
    pid_t m_watchdog = -1; ///< kills the group when Hako dies (see childprocess.cpp)
    int m_stdin = -1, m_stdout = -1, m_stderr = -1, m_channel = -1;
    std::string m_pending;
    size_t m_pendingOffset = 0;
    bool m_closeStdinAfterWrite = false;
    std::string m_out, m_err, m_channelIn;
    int m_exitStatus = 0;
};

/// The full path of `program` found in PATH (or the program itself when it contains '/' and is
/// executable); empty when not found.
std::string findExecutable(const std::string& program);

/// A timeout for messages: "2 s", "0.5 s".
std::string formatSeconds(std::chrono::milliseconds timeout);

} // namespace hako::pdl::code
