#pragma once

#include "core/util/diagnostic.h"

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
};

/// Runs code blocks under bubblewrap (`bwrap`, Debian package `bubblewrap`): no network
/// (--unshare-net), a read-only view of the whole file system (--ro-bind / /), fresh /dev and
/// /proc, separate pid/ipc/uts namespaces, a new session (no controlling terminal), and a
/// private writable temporary folder mounted as /tmp (TMPDIR=/tmp) that lives as long as the
/// Sandbox. The program's folder stays visible read-only even when it is under /tmp.
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
    /// private folder).
    std::vector<std::string> wrap(const std::vector<std::string>& argv,
                                  const std::string& workingDirectory) const;
    /// Environment overrides to pass with the wrapped argv (`NAME=VALUE`).
    std::vector<std::string> environment() const;
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
