#include "core/pdl/code/sandbox.h"

#include "core/pdl/code/childprocess.h"

#include <QDir>
#include <QTemporaryDir>

#include <map>
#include <mutex>

namespace hako::pdl::code {

namespace {

std::vector<std::string> bwrapArguments(const std::string& bwrap, const SandboxOptions& options,
                                        const std::string& tempFolder,
                                        const std::string& workingDirectory)
{
    std::vector<std::string> args = {bwrap,
                                     "--ro-bind",
                                     "/",
                                     "/",
                                     "--dev",
                                     "/dev",
                                     "--proc",
                                     "/proc",
                                     "--bind",
                                     tempFolder,
                                     "/tmp",
                                     "--unshare-pid",
                                     "--unshare-ipc",
                                     "--unshare-uts",
                                     "--new-session",
                                     "--setenv",
                                     "TMPDIR",
                                     "/tmp"};
    if (!options.allowNetwork)
        args.push_back("--unshare-net");
    std::string cwd = workingDirectory.empty() ? std::string("/tmp") : workingDirectory;
    // The private /tmp hides whatever the host has there, the program's folder included.
    if (cwd.rfind("/tmp/", 0) == 0)
        args.insert(args.end(), {"--ro-bind", cwd, cwd});
    args.insert(args.end(), {"--chdir", cwd});
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
    auto dir = std::make_unique<QTemporaryDir>(QDir::tempPath() + "/hako-sandbox-XXXXXX");
    if (!dir->isValid())
        return makeError(QStringLiteral("cannot create the sandbox's temporary folder: %1")
                             .arg(dir->errorString()));
    return std::shared_ptr<const Sandbox>(
        new Sandbox(std::move(options), std::move(path), std::move(dir)));
}

std::vector<std::string> Sandbox::wrap(const std::vector<std::string>& argv,
                                       const std::string& workingDirectory) const
{
    std::vector<std::string> args =
        bwrapArguments(m_bwrapPath, m_options, temporaryFolder(), workingDirectory);
    args.push_back("--");
    args.insert(args.end(), argv.begin(), argv.end());
    return args;
}

std::vector<std::string> Sandbox::environment() const
{
    return {"TMPDIR=/tmp"};
}

std::string Sandbox::temporaryFolder() const
{
    return m_dir->path().toStdString();
}

} // namespace hako::pdl::code
