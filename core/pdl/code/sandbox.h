#pragma once

#include "core/pdl/code/childprocess.h"
#include "core/util/diagnostic.h"

#include <cstdint>

#include <memory>
#include <string>
#include <vector>

class QTemporaryDir;

namespace hako::pdl::code {

/// What a Sandbox allows.
struct SandboxOptions {
    /// The bubblewrap executable, looked up in PATH.
    std::string bwrap = "bwrap";
    /// Keep the host network (default: a private network namespace with only loopback).
    bool allowNetwork = false;
    /// Address space limit for each sandboxed process (RLIMIT_AS), 0 for none.
    uint64_t memoryLimitBytes = uint64_t(4) << 30;
    /// Processes the sandboxed code's user may have (RLIMIT_NPROC), 0 for none. The kernel
    /// does not apply this limit to the host's root user; the pid namespace, the deadline and
    /// --die-with-parent still end every process of the sandbox with its block.
    uint64_t processLimit = 4096;
};

/// Runs code blocks under bubblewrap (`bwrap`, Debian package `bubblewrap`): a user namespace
/// with every capability dropped (root outside is an unprivileged user inside: no remount, no
/// writes to the host), no network (--unshare-net), separate pid/ipc/uts/cgroup namespaces, a
/// new session (no controlling terminal), --die-with-parent. The file system holds only the
/// system's programs and libraries (/usr and its links, a few harmless /etc files) read-only,
/// fresh /dev and /proc, the program's folder read-only, and a private writable folder mounted
/// as /tmp (also HOME and TMPDIR) that lives as long as the Sandbox: no /run (no host sockets),
/// no home folders, no /etc secrets. The environment is cleared (--clearenv) down to PATH, HOME,
/// LANG and TMPDIR, so API keys never reach the code. Memory and process limits apply to
/// everything inside (ChildSpec::limits).
///
/// A Sandbox's private folder is named after the process that owns it; create() removes the
/// folders of processes that no longer exist (a killed run leaves nothing behind for long).
///
/// Immutable after create(); wrap() may be called from any thread.
class Sandbox {
public:
    /// Checks that bubblewrap is installed and can create its namespaces here (by running it
    /// once; the answer is cached per executable) and creates the private folder. Errors say
    /// which of the two failed and why ("bwrap: No permissions to create new namespace…").
    static Result<std::shared_ptr<const Sandbox>> create(SandboxOptions options = {});

    ~Sandbox();

    /// The argv that runs `argv` inside the sandbox, in `workingDirectory` (empty: the
    /// private folder), with the sandbox's minimal environment plus `environment`
    /// (`NAME=VALUE`).
    std::vector<std::string> wrap(const std::vector<std::string>& argv,
                                  const std::string& workingDirectory,
                                  const std::vector<std::string>& environment = {}) const;
    /// Environment overrides to pass with the wrapped argv (`NAME=VALUE`); bwrap clears the
    /// environment of what it runs anyway.
    std::vector<std::string> environment() const;
    /// Resource limits to give the wrapped process (inherited by everything inside).
    ChildLimits limits() const;
    /// The private folder on the host (what the sandbox sees as /tmp).
    std::string temporaryFolder() const;
    const SandboxOptions& options() const { return m_options; }

private:
    Sandbox(SandboxOptions options, std::string bwrapPath, std::unique_ptr<QTemporaryDir> dir);

    SandboxOptions m_options;
    std::string m_bwrapPath;
    std::unique_ptr<QTemporaryDir> m_dir;
};

} // namespace hako::pdl::code
