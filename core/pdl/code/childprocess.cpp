#include "core/pdl/code/childprocess.h"

#include <cerrno>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <dirent.h>
#include <fcntl.h>
#include <poll.h>
#include <pthread.h>
#include <spawn.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <thread>
#include <unistd.h>

extern char** environ;

namespace hako::pdl::code {

namespace {

// Child-side descriptors are moved above the standard numbers so that a dup2 in the spawn
// file actions never has source == target (which would leave FD_CLOEXEC set).
int lift(int fd)
{
    if (fd < 0)
        return fd;
    int high = fcntl(fd, F_DUPFD_CLOEXEC, 10);
    ::close(fd);
    return high;
}

void setNonBlocking(int fd)
{
    if (fd >= 0)
        fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK);
}

void closeFd(int& fd)
{
    if (fd >= 0)
        ::close(fd);
    fd = -1;
}

std::vector<std::string> mergedEnvironment(const std::vector<std::string>& overrides)
{
    std::vector<std::string> env;
    for (char** e = environ; e && *e; ++e) {
        std::string_view entry(*e);
        std::string_view name = entry.substr(0, entry.find('='));
        bool overridden = false;
        for (const std::string& o : overrides)
            if (std::string_view(o).substr(0, o.find('=')) == name)
                overridden = true;
        if (!overridden)
            env.emplace_back(entry);
    }
    env.insert(env.end(), overrides.begin(), overrides.end());
    return env;
}

// Every process below `root` (by parent pid, from /proc), so that a kill also reaches children
// that left the process group: bubblewrap's sandboxed processes run in a session of their own.
std::vector<pid_t> descendantsOf(pid_t root)
{
    std::vector<std::pair<pid_t, pid_t>> parentOf; // (pid, ppid)
    if (DIR* dir = ::opendir("/proc")) {
        while (dirent* entry = ::readdir(dir)) {
            char* end = nullptr;
            long pid = std::strtol(entry->d_name, &end, 10);
            if (pid <= 0 || *end)
                continue;
            std::string path = std::string("/proc/") + entry->d_name + "/stat";
            FILE* f = std::fopen(path.c_str(), "r");
            if (!f)
                continue;
            char buffer[512];
            size_t n = std::fread(buffer, 1, sizeof buffer - 1, f);
            std::fclose(f);
            buffer[n] = 0;
            // "pid (comm) state ppid ...": comm may hold spaces and parentheses.
            const char* close = std::strrchr(buffer, ')');
            char state = 0;
            long ppid = 0;
            if (close && std::sscanf(close + 1, " %c %ld", &state, &ppid) == 2)
                parentOf.emplace_back(pid_t(pid), pid_t(ppid));
        }
        ::closedir(dir);
    }
    std::vector<pid_t> found{root};
    for (size_t i = 0; i < found.size(); ++i)
        for (const auto& [pid, ppid] : parentOf)
            if (ppid == found[i])
                found.push_back(pid);
    found.erase(found.begin());
    return found;
}

} // namespace

std::string findExecutable(const std::string& program)
{
    auto executable = [](const std::string& path) {
        struct stat st {};
        return ::stat(path.c_str(), &st) == 0 && S_ISREG(st.st_mode) &&
               ::access(path.c_str(), X_OK) == 0;
    };
    if (program.empty())
        return {};
    if (program.find('/') != std::string::npos)
        return executable(program) ? program : std::string();
    const char* path = std::getenv("PATH");
    std::string_view dirs = path ? path : "/usr/local/bin:/usr/bin:/bin";
    while (true) {
        size_t colon = dirs.find(':');
        std::string dir(dirs.substr(0, colon));
        std::string candidate = (dir.empty() ? std::string(".") : dir) + "/" + program;
        if (executable(candidate))
            return candidate;
        if (colon == std::string_view::npos)
            break;
        dirs.remove_prefix(colon + 1);
    }
    return {};
}

ChildProcess::~ChildProcess()
{
    kill();
}

bool ChildProcess::start(const ChildSpec& spec, std::string* error)
{
    kill();
    m_out.clear();
    m_err.clear();
    m_channelIn.clear();
    m_pending.clear();
    m_pendingOffset = 0;
    m_closeStdinAfterWrite = false;
    if (spec.argv.empty()) {
        *error = "empty command";
        return false;
    }

    int outPipe[2] = {-1, -1}, errPipe[2] = {-1, -1}, inPipe[2] = {-1, -1};
    int sock[2] = {-1, -1};
    auto failWith = [&](const std::string& what) {
        *error = what + ": " + std::strerror(errno);
        for (int* fd : {&outPipe[0], &outPipe[1], &errPipe[0], &errPipe[1], &inPipe[0], &inPipe[1],
                        &sock[0], &sock[1]})
            closeFd(*fd);
        return false;
    };
    if (pipe2(outPipe, O_CLOEXEC) != 0 || pipe2(errPipe, O_CLOEXEC) != 0)
        return failWith("cannot create pipes");
    if (spec.pipeStdin && pipe2(inPipe, O_CLOEXEC) != 0)
        return failWith("cannot create pipes");
    if (spec.channel && socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sock) != 0)
        return failWith("cannot create the protocol channel");
    outPipe[1] = lift(outPipe[1]);
    errPipe[1] = lift(errPipe[1]);
    inPipe[0] = lift(inPipe[0]);
    sock[1] = lift(sock[1]);

    posix_spawn_file_actions_t actions;
    posix_spawn_file_actions_init(&actions);
    if (spec.pipeStdin)
        posix_spawn_file_actions_adddup2(&actions, inPipe[0], 0);
    else
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0);
    posix_spawn_file_actions_adddup2(&actions, outPipe[1], 1);
    posix_spawn_file_actions_adddup2(&actions, errPipe[1], 2);
    if (spec.channel)
        posix_spawn_file_actions_adddup2(&actions, sock[1], 3);
    if (!spec.workingDirectory.empty())
        posix_spawn_file_actions_addchdir_np(&actions, spec.workingDirectory.c_str());

    posix_spawnattr_t attr;
    posix_spawnattr_init(&attr);
    // Own process group, so that a timeout or cancel kills everything the code started.
    posix_spawnattr_setpgroup(&attr, 0);
    sigset_t none, defaults;
    sigemptyset(&none);
    sigemptyset(&defaults);
    sigaddset(&defaults, SIGPIPE);
    sigaddset(&defaults, SIGINT);
    posix_spawnattr_setsigmask(&attr, &none);
    posix_spawnattr_setsigdefault(&attr, &defaults);
    posix_spawnattr_setflags(&attr, POSIX_SPAWN_SETPGROUP | POSIX_SPAWN_SETSIGMASK |
                                        POSIX_SPAWN_SETSIGDEF);

    std::vector<std::string> env = mergedEnvironment(spec.environment);
    std::vector<char*> argv, envp;
    for (const std::string& a : spec.argv)
        argv.push_back(const_cast<char*>(a.c_str()));
    argv.push_back(nullptr);
    for (const std::string& e : env)
        envp.push_back(const_cast<char*>(e.c_str()));
    envp.push_back(nullptr);

    pid_t pid = -1;
    int rc = posix_spawnp(&pid, argv[0], &actions, &attr, argv.data(), envp.data());
    posix_spawn_file_actions_destroy(&actions);
    posix_spawnattr_destroy(&attr);
    closeFd(outPipe[1]);
    closeFd(errPipe[1]);
    closeFd(inPipe[0]);
    closeFd(sock[1]);
    if (rc != 0) {
        errno = rc;
        std::string what = "cannot run '" + spec.argv[0] + "'";
        if (rc == ENOENT && spec.argv[0].find('/') == std::string::npos)
            what = "program not found: '" + spec.argv[0] + "' is not in PATH";
        return failWith(what);
    }
    m_pid = pid;
    m_stdout = outPipe[0];
    m_stderr = errPipe[0];
    m_stdin = inPipe[1];
    m_channel = sock[0];
    for (int fd : {m_stdout, m_stderr, m_stdin, m_channel})
        setNonBlocking(fd);
    return true;
}

void ChildProcess::queueWrite(std::string bytes)
{
    if (m_pendingOffset == m_pending.size()) {
        m_pending = std::move(bytes);
        m_pendingOffset = 0;
    } else {
        m_pending += bytes;
    }
}

bool ChildProcess::readFrom(int& fd, std::string& into)
{
    char buffer[65536];
    while (fd >= 0) {
        ssize_t n = fd == m_channel ? ::recv(fd, buffer, sizeof buffer, MSG_DONTWAIT)
                                    : ::read(fd, buffer, sizeof buffer);
        if (n > 0) {
            into.append(buffer, size_t(n));
            if (size_t(n) < sizeof buffer)
                return true;
            continue;
        }
        if (n < 0 && errno == EINTR)
            continue;
        if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK))
            return true;
        closeFd(fd); // EOF or error
        return false;
    }
    return false;
}

void ChildProcess::drainAvailable()
{
    readFrom(m_stdout, m_out);
    readFrom(m_stderr, m_err);
}

PumpStatus ChildProcess::pump(const std::function<bool()>& done, const CancelToken* cancel,
                              std::chrono::steady_clock::time_point deadline, size_t maxOutput)
{
    using namespace std::chrono;
    while (true) {
        if (done && done())
            return PumpStatus::Done;
        if (m_out.size() > maxOutput || m_err.size() > maxOutput)
            return PumpStatus::OutputLimit;
        if (cancel && cancel->isCancelled())
            return PumpStatus::Cancelled;
        auto now = steady_clock::now();
        if (now >= deadline)
            return PumpStatus::TimedOut;

        bool writing = m_pendingOffset < m_pending.size();
        int writeFd = m_channel >= 0 ? m_channel : m_stdin;
        if (!writing && m_closeStdinAfterWrite && m_channel < 0)
            closeFd(m_stdin);

        pollfd fds[4];
        int n = 0;
        for (int fd : {m_stdout, m_stderr})
            if (fd >= 0)
                fds[n++] = {fd, POLLIN, 0};
        if (m_channel >= 0)
            fds[n++] = {m_channel, short(POLLIN | (writing ? POLLOUT : 0)), 0};
        else if (writing && m_stdin >= 0)
            fds[n++] = {m_stdin, POLLOUT, 0};
        if (m_stdout < 0 && m_stderr < 0 && m_channel < 0)
            return PumpStatus::Ended;

        // Wake up regularly to notice a cancel request.
        auto wait = std::min<milliseconds::rep>(
            50, duration_cast<milliseconds>(deadline - now).count() + 1);
        int ready = ::poll(fds, nfds_t(n), int(wait));
        if (ready < 0 && errno != EINTR)
            return PumpStatus::Ended;
        if (ready <= 0)
            continue;

        for (int i = 0; i < n; ++i) {
            const pollfd& p = fds[i];
            if (p.revents & POLLOUT && writing && p.fd == writeFd) {
                const char* data = m_pending.data() + m_pendingOffset;
                size_t size = m_pending.size() - m_pendingOffset;
                ssize_t written;
                if (p.fd == m_channel) {
                    written = ::send(p.fd, data, size, MSG_NOSIGNAL | MSG_DONTWAIT);
                } else {
                    // A command that exits without reading its input must not kill us with
                    // SIGPIPE: block it for this thread and discard the pending signal.
                    sigset_t pipeSet, old;
                    sigemptyset(&pipeSet);
                    sigaddset(&pipeSet, SIGPIPE);
                    pthread_sigmask(SIG_BLOCK, &pipeSet, &old);
                    written = ::write(p.fd, data, size);
                    int savedErrno = errno;
                    if (written < 0 && errno == EPIPE) {
                        timespec zero{0, 0};
                        sigtimedwait(&pipeSet, nullptr, &zero);
                    }
                    pthread_sigmask(SIG_SETMASK, &old, nullptr);
                    errno = savedErrno;
                }
                if (written > 0) {
                    m_pendingOffset += size_t(written);
                } else if (written < 0 && errno != EAGAIN && errno != EINTR) {
                    m_pending.clear();
                    m_pendingOffset = 0;
                    if (p.fd == m_stdin)
                        closeFd(m_stdin);
                }
            }
            if (p.revents & (POLLIN | POLLHUP | POLLERR)) {
                if (p.fd == m_stdout)
                    readFrom(m_stdout, m_out);
                else if (p.fd == m_stderr)
                    readFrom(m_stderr, m_err);
                else if (p.fd == m_channel)
                    readFrom(m_channel, m_channelIn);
                else if (p.fd == m_stdin && (p.revents & (POLLHUP | POLLERR))) {
                    m_pending.clear();
                    m_pendingOffset = 0;
                    closeFd(m_stdin);
                }
            }
        }
    }
}

void ChildProcess::closeAll()
{
    closeFd(m_stdin);
    closeFd(m_stdout);
    closeFd(m_stderr);
    closeFd(m_channel);
}

void ChildProcess::kill()
{
    if (m_pid > 0) {
        std::vector<pid_t> tree = descendantsOf(m_pid);
        ::kill(-m_pid, SIGKILL);
        ::kill(m_pid, SIGKILL);
        for (pid_t p : tree)
            ::kill(p, SIGKILL);
        int status = 0;
        while (::waitpid(m_pid, &status, 0) < 0 && errno == EINTR) {
        }
        m_pid = -1;
    }
    closeAll();
}

int ChildProcess::wait()
{
    closeAll();
    if (m_pid <= 0)
        return m_exitStatus;
    // Wait without reaping first, so that the process group id cannot be reused before the
    // leftovers of the group are killed.
    siginfo_t info{};
    while (::waitid(P_PID, id_t(m_pid), &info, WEXITED | WNOWAIT) < 0 && errno == EINTR) {
    }
    ::kill(-m_pid, SIGKILL);
    int status = 0;
    pid_t rc;
    while ((rc = ::waitpid(m_pid, &status, 0)) < 0 && errno == EINTR) {
    }
    m_pid = -1;
    if (rc < 0)
        m_exitStatus = -SIGKILL;
    else if (WIFEXITED(status))
        m_exitStatus = WEXITSTATUS(status);
    else if (WIFSIGNALED(status))
        m_exitStatus = -WTERMSIG(status);
    return m_exitStatus;
}

bool ChildProcess::waitFor(const CancelToken* cancel,
                           std::chrono::steady_clock::time_point deadline, int* status)
{
    closeAll();
    auto nap = std::chrono::milliseconds(1);
    while (m_pid > 0) {
        siginfo_t info{};
        if (::waitid(P_PID, id_t(m_pid), &info, WEXITED | WNOHANG | WNOWAIT) == 0 &&
            info.si_pid == m_pid)
            break;
        if ((cancel && cancel->isCancelled()) || std::chrono::steady_clock::now() >= deadline)
            return false;
        std::this_thread::sleep_for(nap);
        nap = std::min(nap * 2, std::chrono::milliseconds(20));
    }
    *status = wait();
    return true;
}

std::string ChildProcess::describeStatus(int status)
{
    if (status >= 0)
        return "exit code " + std::to_string(status);
    const char* name = sigabbrev_np(-status);
    return "killed by signal " + std::to_string(-status) +
           (name ? std::string(" (SIG") + name + ")" : std::string());
}

std::string formatSeconds(std::chrono::milliseconds timeout)
{
    char buf[32];
    if (timeout.count() % 1000 == 0)
        std::snprintf(buf, sizeof buf, "%lld s", static_cast<long long>(timeout.count() / 1000));
    else
        std::snprintf(buf, sizeof buf, "%g s", double(timeout.count()) / 1000.0);
    return buf;
}

} // namespace hako::pdl::code
