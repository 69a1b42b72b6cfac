#pragma once

#include "core/util/diagnostic.h"

#include <QByteArray>
#include <QString>
#include <QStringList>

namespace hako::library {

/// The outcome of one git command.
struct GitOutput {
    int exitCode = -1;
    QByteArray out;
    QByteArray err;
    bool ok() const { return exitCode == 0; }
};

/// A git repository worked on through the `git` program (Debian's git): every call is one
/// process with a fixed environment (no pager, no terminal prompts, no user hooks' questions,
/// C locale for parsing, paths unquoted so that Japanese file names stay as they are), and an
/// author taken from the user's git settings, else from HAKO_GIT_NAME/HAKO_GIT_EMAIL, else
/// "Hako <hako@localhost>", so that saving a version never fails for want of an identity.
///
/// Blocking: call it from a worker thread or the command line, never the GUI thread. A plain
/// value; safe to copy and to use from several threads at once (each call is its own process).
class GitRepo {
public:
    GitRepo() = default;
    explicit GitRepo(QString workTree) : m_root(std::move(workTree)) {}

    /// The repository whose work tree contains `folder`; an error when it is none.
    static Result<GitRepo> open(const QString& folder);
    /// Makes `folder` a repository (creating the folder), or opens the one it is.
    static Result<GitRepo> init(const QString& folder);
    /// Whether the `git` program can be run.
    static bool available();

    /// The work tree's top folder (absolute, no trailing slash).
    const QString& root() const { return m_root; }

    /// Runs `git ARGS` in the work tree with `input` on its standard input.
    GitOutput run(const QStringList& args, const QByteArray& input = {},
                  int timeoutMs = 60000) const;
    /// run(), with a failure turned into an error naming the command and git's message.
    Result<QByteArray> call(const QStringList& args, const QByteArray& input = {}) const;

    /// The commit HEAD names ("" in a repository without commits).
    QString head() const;
    /// The full commit id that `rev` (a prefix, a tag, HEAD~1) names; an error when none.
    Result<QString> resolve(const QString& rev) const;
    /// The bytes of `path` (relative to the root) at `commit`.
    Result<QByteArray> show(const QString& commit, const QString& path) const;

private:
    QString m_root;
};

} // namespace hako::library
