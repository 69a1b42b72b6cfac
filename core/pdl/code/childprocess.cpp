#include "core/pdl/code/childprocess.h"

#include <cerrno>
#include <condition_variable>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <dirent.h>
#include <fcntl.h>
#include <mutex>
#include <poll.h>
#include <pthread.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <thread>
#include <unistd.h>

extern char** environ;

namespace hako::pdl::code {

namespace {

// Child-side descriptors are moved above the standard numbers so that a dup2 in the child
// never has source == target (which would leave FD_CLOEXEC set).
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

// Everything the forked child needs, prepared before fork(): the child only makes system calls.
struct ForkPlan {
    const char* path = nullptr;
    char** argv = nullptr;
    char** envp = nullptr;
    const char* directory = nullptr;
    int stdinFd = -1, stdoutFd = -1, stderrFd = -1, channelFd = -1;
    ChildLimits limits;
    /// > 0: not a program but the watchdog of this child's process group (see watchdog()).
    pid_t watchdogFor = 0;
    int lifelineFd = -1;
};

// The watchdog of a child's process group, forked from Hako (never exec'd: system calls only).
// It joins the group and waits on Hako's lifeline pipe, whose write end only Hako holds: when
// Hako dies, even by SIGKILL, the read returns and the watchdog kills the whole group — the
// grandchildren a program started, which PR_SET_PDEATHSIG (the child's alone) leaves running.
// It holds no other descriptor, so it never keeps a pipe of the child open; Hako kills and
// reaps it with the group.
[[noreturn]] void watchdogAfterFork(pid_t leader, int lifeline)
{
    if (::setpgid(0, leader) != 0)
        ::_exit(0);
    if (lifeline > 0)
        ::close_range(0, unsigned(lifeline - 1), 0);
    ::close_range(unsigned(lifeline + 1), ~0U, 0);
    char c;
    while (::read(lifeline, &c, 1) < 0 && errno == EINTR) {
    }
    ::kill(-leader, SIGKILL);
    ::_exit(0);
}

// Runs in the child between fork() and exec: async-signal-safe calls only. Reports a failure
// as an errno on `statusFd` (close-on-exec, so a successful exec reports nothing).
[[noreturn]] void childAfterFork(const ForkPlan& plan, pid_t parent, int statusFd)
{
    auto fail = [statusFd](int error) {
        ssize_t ignored = ::write(statusFd, &error, sizeof error);
        (void)ignored;
        ::_exit(127);
    };
    // Own process group, so that a timeout or cancel kills everything the code started.
    ::setpgid(0, 0);
    // Die with Hako: a killed run must not leave its Python session or sandbox running.
    if (::prctl(PR_SET_PDEATHSIG, SIGKILL) != 0)
        fail(errno);
    if (::getppid() != parent)
        ::_exit(127);
    struct sigaction dfl {};
    dfl.sa_handler = SIG_DFL;
    for (int sig = 1; sig < NSIG; ++sig)
        if (sig != SIGKILL && sig != SIGSTOP)
            ::sigaction(sig, &dfl, nullptr);
    sigset_t none;
    sigemptyset(&none);
    ::sigprocmask(SIG_SETMASK, &none, nullptr);

    if (plan.stdinFd >= 0) {
        if (::dup2(plan.stdinFd, 0) < 0)
            fail(errno);
    } else {
        int null = ::open("/dev/null", O_RDONLY | O_CLOEXEC);
        if (null < 0 || ::dup2(null, 0) < 0)
            fail(errno);
    }
    if (::dup2(plan.stdoutFd, 1) < 0 || ::dup2(plan.stderrFd, 2) < 0)
        fail(errno);
    if (plan.channelFd >= 0 && ::dup2(plan.channelFd, 3) < 0)
        fail(errno);
    if (plan.directory && ::chdir(plan.directory) != 0)
        fail(errno);
    // Lower a limit, never raise it above what this process may have.
    auto limit = [&](int resource, uint64_t value) {
        if (!value)
            return;
        rlimit current{};
        if (::getrlimit(resource, &current) != 0)
            fail(errno);
        rlim_t v = rlim_t(value);
        if (current.rlim_max != RLIM_INFINITY && v > current.rlim_max)
            v = current.rlim_max;
        rlimit l{v, v};
        if (::setrlimit(resource, &l) != 0)
            fail(errno);
    };
    limit(RLIMIT_AS, plan.limits.addressSpaceBytes);
    limit(RLIMIT_NPROC, plan.limits.processes);
    ::execve(plan.path, plan.argv, plan.envp);
    fail(errno);
}

pid_t forkChild(const ForkPlan& plan, int* error)
{
    int status[2];
    if (pipe2(status, O_CLOEXEC) != 0) {
        *error = errno;
        return -1;
    }
    // Keep signal handlers from running in the child before it resets them.
    sigset_t all, old;
    sigfillset(&all);
    pthread_sigmask(SIG_SETMASK, &all, &old);
    pid_t parent = ::getpid();
    pid_t pid = ::fork();
    if (pid == 0) {
        ::close(status[0]);
        if (plan.watchdogFor > 0)
            watchdogAfterFork(plan.watchdogFor, plan.lifelineFd);
        childAfterFork(plan, parent, status[1]);
    }
    int forkErrno = errno;
    pthread_sigmask(SIG_SETMASK, &old, nullptr);
    ::close(status[1]);
    if (pid < 0) {
        ::close(status[0]);
        *error = forkErrno;
        return -1;
    }
    int childErrno = 0;
    ssize_t n;
    while ((n = ::read(status[0], &childErrno, sizeof childErrno)) < 0 && errno == EINTR) {
    }
    ::close(status[0]);
    if (n == ssize_t(sizeof childErrno)) {
        int ignored = 0;
        while (::waitpid(pid, &ignored, 0) < 0 && errno == EINTR) {
        }
        *error = childErrno;
        return -1;
    }
    *error = 0;
    return pid;
}

// PR_SET_PDEATHSIG fires when the *thread* that forked ends, not the process: a Python session
// started from a worker of a parallel `map` would die with that worker. So every child is forked
// by one thread that lives as long as the process.
class Spawner {
public:
    static Spawner& instance()
    {
        // Never destroyed: the thread may still wait on it while the process exits.
        static Spawner* spawner = new Spawner;
        return *spawner;
    }

    /// The read end of the pipe whose write end lives as long as this process (-1: none).
    int lifelineReadFd() const { return m_lifeline[0]; }

    pid_t spawn(const ForkPlan& plan, int* error)
    {
        std::unique_lock lock(m_mutex);
        m_idle.wait(lock, [&] { return !m_job; });
        Job job{&plan};
        m_job = &job;
        m_work.notify_one();
        m_finished.wait(lock, [&] { return job.done; });
        *error = job.error;
        return job.pid;
    }

private:
    struct Job {
        const ForkPlan* plan;
        pid_t pid = -1;
        int error = 0;
        bool done = false;
    };

    Spawner()
    {
        // Both ends close-on-exec: no program inherits them; the watchdogs (forked, never
        // exec'd) close all but the read end.
        if (::pipe2(m_lifeline, O_CLOEXEC) != 0)
            m_lifeline[0] = m_lifeline[1] = -1;
        std::thread([this] { loop(); }).detach();
    }

    void loop()
    {
        std::unique_lock lock(m_mutex);
        while (true) {
            m_work.wait(lock, [&] { return m_job != nullptr; });
            Job* job = m_job;
            job->pid = forkChild(*job->plan, &job->error);
            job->done = true;
            m_job = nullptr;
            m_finished.notify_all();
            m_idle.notify_one();
        }
    }

    std::mutex m_mutex;
    std::condition_variable m_work, m_finished, m_idle;
    Job* m_job = nullptr;
    int m_lifeline[2] = {-1, -1};
};

pid_t spawnOnSpawnerThread(const ForkPlan& plan, int* error)
{
    return Spawner::instance().spawn(plan, error);
}

// Starts the watchdog of `leader`'s process group; -1 when it cannot be (the child runs
// without: killing Hako then leaves its grandchildren, as before).
pid_t spawnWatchdog(pid_t leader)
{
    ForkPlan plan;
    plan.watchdogFor = leader;
    plan.lifelineFd = Spawner::instance().lifelineReadFd();
    if (plan.lifelineFd < 0)
        return -1;
    int error = 0;
    return spawnOnSpawnerThread(plan, &error);
}

void reap(pid_t& pid)
{
    if (pid <= 0)
        return;
    ::kill(pid, SIGKILL);
    int status = 0;
    while (::waitpid(pid, &status, 0) < 0 && errno == EINTR) {
    }
    pid = -1;
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

    // A relative path with a '/' names a file in the child's working folder.
    std::string program = spec.argv[0];
    if (program.find('/') != std::string::npos && program[0] != '/' &&
        !spec.workingDirectory.empty())
        program = spec.workingDirectory + "/" + program;
    std::string executable = findExecutable(program);
    if (executable.empty()) {
        errno = ENOENT;
        return failWith(spec.argv[0].find('/') == std::string::npos
                            ? "program not found: '" + spec.argv[0] + "' is not in PATH"
                            : "cannot run '" + spec.argv[0] + "'");
    }

    std::vector<std::string> env = mergedEnvironment(spec.environment);
    std::vector<char*> argv, envp;
    for (const std::string& a : spec.argv)
        argv.push_back(const_cast<char*>(a.c_str()));
    argv.push_back(nullptr);
    for (const std::string& e : env)
        envp.push_back(const_cast<char*>(e.c_str()));
    envp.push_back(nullptr);

    ForkPlan plan;
    plan.path = executable.c_str();
    plan.argv = argv.data();
    plan.envp = envp.data();
    plan.directory = spec.workingDirectory.empty() ? nullptr : spec.workingDirectory.c_str();
    plan.stdinFd = spec.pipeStdin ? inPipe[0] : -1;
    plan.stdoutFd = outPipe[1];
    plan.stderrFd = errPipe[1];
    plan.channelFd = spec.channel ? sock[1] : -1;
    plan.limits = spec.limits;
    int rc = 0;
    pid_t pid = spawnOnSpawnerThread(plan, &rc);
    closeFd(outPipe[1]);
    closeFd(errPipe[1]);
    closeFd(inPipe[0]);
    closeFd(sock[1]);
    if (pid <= 0) {
        errno = rc;
        return failWith("cannot run '" + spec.argv[0] + "'");
    }
    m_pid = pid;
    m_watchdog = spawnWatchdog(pid);
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
    reap(m_watchdog);
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
    reap(m_watchdog);
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
