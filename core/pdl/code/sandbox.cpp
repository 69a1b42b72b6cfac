#include "core/pdl/code/sandbox.h"

#include "core/pdl/code/childprocess.h"

#include <QCoreApplication>
#include <QDir>
#include <QFileInfo>
#include <QRegularExpression>
#include <QTemporaryDir>

#include <climits>
#include <cstdlib>
#include <sys/stat.h>
#include <unistd.h>

#include <map>
#include <mutex>

namespace hako::pdl::code {

namespace {

// Everything the sandboxed code sees of the environment: no API keys, no tokens.
std::vector<std::string> sandboxEnvironment(const std::string& lang)
{
    return {"PATH=/usr/local/bin:/usr/bin:/bin", "HOME=/tmp", "TMPDIR=/tmp", "LANG=" + lang};
}

// Host folders the sandbox shows: the system's programs and libraries. A link (merged /usr:
// /bin -> usr/bin) is recreated as a link, a folder is bound read-only.
const char* const systemPaths[] = {"/usr", "/bin", "/sbin", "/lib", "/lib32", "/lib64", "/libx32"};

// /etc files programs need to start, resolve names and verify TLS; none holds a secret.
const char* const etcPaths[] = {"/etc/alternatives",    "/etc/ld.so.cache", "/etc/ld.so.conf",
                                "/etc/ld.so.conf.d",    "/etc/localtime",   "/etc/timezone",
                                "/etc/passwd",          "/etc/group",       "/etc/nsswitch.conf",
                                "/etc/hosts",           "/etc/resolv.conf", "/etc/ssl",
                                "/etc/ca-certificates", "/etc/mime.types",  "/etc/os-release"};

void addSystemView(std::vector<std::string>& args)
{
    for (const char* path : systemPaths) {
        struct stat st {};
        if (::lstat(path, &st) != 0)
            continue;
        if (S_ISLNK(st.st_mode)) {
            char target[PATH_MAX];
            ssize_t n = ::readlink(path, target, sizeof target - 1);
            if (n > 0)
                args.insert(args.end(), {"--symlink", std::string(target, size_t(n)), path});
        } else if (S_ISDIR(st.st_mode)) {
            args.insert(args.end(), {"--ro-bind", path, path});
        }
    }
    for (const char* path : etcPaths)
        args.insert(args.end(), {"--ro-bind-try", path, path});
    // Debian's Python reads its site configuration from /etc/python3.X.
    const QStringList pythons =
        QDir("/etc").entryList({QStringLiteral("python3*")}, QDir::Dirs | QDir::NoDotAndDotDot);
    for (const QString& name : pythons) {
        std::string path = "/etc/" + name.toStdString();
        args.insert(args.end(), {"--ro-bind", path, path});
    }
}

std::vector<std::string> bwrapArguments(const std::string& bwrap, const SandboxOptions& options,
                                        const std::string& tempFolder,
                                        const std::string& workingDirectory)
{
    std::vector<std::string> args = {bwrap,
                                     // Root outside is an unprivileged user inside: without
                                     // capabilities it cannot remount or write host files.
                                     "--unshare-user", "--cap-drop", "ALL", "--unshare-pid",
                                     "--unshare-ipc", "--unshare-uts", "--unshare-cgroup-try",
                                     "--new-session", "--die-with-parent"};
    if (!options.allowNetwork)
        args.push_back("--unshare-net");
    addSystemView(args);
    args.insert(args.end(), {"--dev", "/dev", "--proc", "/proc", "--bind", tempFolder, "/tmp"});
    // The folder as the kernel sees it (relative paths and links resolved), so that it has the
    // same path inside. A program at the root would show the whole file system: it gets the
    // private folder.
    std::string cwd = workingDirectory.empty()
                          ? std::string()
                          : QFileInfo(QString::fromStdString(workingDirectory))
                                .canonicalFilePath()
                                .toStdString();
    if (cwd.empty() || cwd == "/")
        cwd = "/tmp";
    // The program's folder, read-only (also when it is under /tmp, which the private /tmp hides).
    if (cwd != "/tmp")
        args.insert(args.end(), {"--ro-bind", cwd, cwd});
    args.insert(args.end(), {"--chdir", cwd, "--clearenv"});
    const char* lang = std::getenv("LANG");
    for (const std::string& entry : sandboxEnvironment(lang ? lang : "C.UTF-8")) {
        size_t eq = entry.find('=');
        args.insert(args.end(), {"--setenv", entry.substr(0, eq), entry.substr(eq + 1)});
    }
    return args;
}

// Whether bwrap can build its namespaces here, by executable path: "" or the reason it cannot.
std::string probe(const std::string& bwrapPath, const SandboxOptions& options)
{
    static std::mutex mutex;
    static std::map<std::pair<std::string, bool>, std::string> cache;
    std::lock_guard<std::mutex> lock(mutex);
    auto key = std::make_pair(bwrapPath, options.allowNetwork);
    if (auto it = cache.find(key); it != cache.end())
        return it->second;

    QTemporaryDir scratch;
    ChildSpec spec;
    spec.argv = bwrapArguments(bwrapPath, options, scratch.path().toStdString(), {});
    spec.argv.push_back("--");
    spec.argv.push_back("true");
    ChildProcess process;
    std::string error;
    std::string reason;
    if (!process.start(spec, &error)) {
        reason = error;
    } else {
        PumpStatus st =
            process.pump({}, nullptr, std::chrono::steady_clock::now() + std::chrono::seconds(20),
                         size_t(1) << 20);
        if (st == PumpStatus::TimedOut) {
            process.kill();
            reason = "bubblewrap did not finish a trial run within 20 s";
        } else {
            int status = process.wait();
            if (status != 0) {
                std::string err = process.err();
                while (!err.empty() && (err.back() == '\n' || err.back() == '\r'))
                    err.pop_back();
                reason = "bubblewrap cannot create its sandbox here (" +
                         ChildProcess::describeStatus(status) + ")" +
                         (err.empty() ? std::string() : ": " + err);
            }
        }
    }
    cache[key] = reason;
    return reason;
}

// Private folders of sandboxes whose process is gone (killed before it could clean up).
void removeAbandonedFolders()
{
    static const QRegularExpression pattern(QStringLiteral("^hako-sandbox-(\\d+)-.{6}$"));
    const QFileInfoList entries =
        QDir(QDir::tempPath())
            .entryInfoList({QStringLiteral("hako-sandbox-*")}, QDir::Dirs | QDir::NoSymLinks);
    for (const QFileInfo& entry : entries) {
        QRegularExpressionMatch m = pattern.match(entry.fileName());
        if (!m.hasMatch() || !entry.isWritable())
            continue;
        if (QFileInfo::exists(QStringLiteral("/proc/") + m.captured(1)))
            continue;
        QDir(entry.filePath()).removeRecursively();
    }
}

} // namespace

Sandbox::Sandbox(SandboxOptions options, std::string bwrapPath, std::unique_ptr<QTemporaryDir> dir)
    : m_options(std::move(options)), m_bwrapPath(std::move(bwrapPath)), m_dir(std::move(dir))
{}

Sandbox::~Sandbox() = default;

Result<std::shared_ptr<const Sandbox>> Sandbox::create(SandboxOptions options)
{
    std::string path = findExecutable(options.bwrap);
    if (path.empty())
        return makeError(QStringLiteral("--sandbox needs bubblewrap ('%1' is not installed or "
                                        "not in PATH; on Debian: apt install bubblewrap)")
                             .arg(QString::fromStdString(options.bwrap)));
    std::string reason = probe(path, options);
    if (!reason.empty())
        return makeError(QString::fromStdString(reason));
    removeAbandonedFolders();
    auto dir = std::make_unique<QTemporaryDir>(
        QDir::tempPath() +
        QStringLiteral("/hako-sandbox-%1-XXXXXX").arg(QCoreApplication::applicationPid()));
    if (!dir->isValid())
        return makeError(QStringLiteral("cannot create the sandbox's temporary folder: %1")
                             .arg(dir->errorString()));
    return std::shared_ptr<const Sandbox>(
        new Sandbox(std::move(options), std::move(path), std::move(dir)));
}

std::vector<std::string> Sandbox::wrap(const std::vector<std::string>& argv,
                                       const std::string& workingDirectory,
                                       const std::vector<std::string>& environment) const
{
    std::vector<std::string> args =
        bwrapArguments(m_bwrapPath, m_options, temporaryFolder(), workingDirectory);
    for (const std::string& entry : environment) {
        size_t eq = entry.find('=');
        if (eq != std::string::npos && eq > 0)
            args.insert(args.end(), {"--setenv", entry.substr(0, eq), entry.substr(eq + 1)});
    }
    args.push_back("--");
    args.insert(args.end(), argv.begin(), argv.end());
    return args;
}

std::vector<std::string> Sandbox::environment() const
{
    const char* lang = std::getenv("LANG");
    return sandboxEnvironment(lang ? lang : "C.UTF-8");
}

ChildLimits Sandbox::limits() const
{
    ChildLimits l;
    l.addressSpaceBytes = m_options.memoryLimitBytes;
    l.processes = m_options.processLimit;
    return l;
}

std::string Sandbox::temporaryFolder() const
{
    return m_dir->path().toStdString();
}

} // namespace hako::pdl::code
