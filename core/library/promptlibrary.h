#pragma once

#include "core/library/gitrepo.h"
#include "core/util/diagnostic.h"

#include <QJsonObject>
#include <QList>
#include <QMap>
#include <QString>

namespace hako::library {

/// A prompt of the library: a PDL program committed in it.
struct LibraryPrompt {
    /// The program's identity (its `# hako-prompt: ID` comment); "" for a program saved before
    /// it had one (then its path stands in).
    QString id;
    /// Its human name: the program's `description` (first line), else its file's base name.
    QString name;
    /// Where it is, relative to the library's root, at the commit it was read from.
    QString path;
    /// What labels and lookups key it by: the id, else the path.
    QString key() const { return id.isEmpty() ? path : id; }
};

/// One saved version of a prompt: a commit that changed its file.
struct PromptVersion {
    QString commit;
    int number = 0; ///< 1 for the first version, counting up
    QString author;
    qint64 time = 0; ///< seconds since the epoch
    QString message;
    QString path; ///< the file's path in that version (it may have moved since)
};

/// A label put on (or moved to) a version, as the label's history keeps it.
struct LabelEvent {
    QString label;
    QString commit;
    QString by;
    qint64 time = 0;
};

/// A prompt at one version, as `hako prompt get NAME@LABEL` and the serving endpoint give it.
struct ResolvedPrompt {
    LibraryPrompt prompt;
    PromptVersion version;
    QString label; ///< the label asked for, "" when a version (or the newest) was
    QByteArray text;
    QMap<QString, QString> labels; ///< every label of the prompt → its commit
};

/// The prompt library: a folder that is a git repository of PDL programs. Versions are git
/// commits of a program's file (renames followed), so history, review and sharing are git's;
/// labels (`production`, `staging`, any name) live in `.hako/labels.json`, committed, with every
/// move kept. Everything read here is committed: an unsaved or uncommitted edit is never given
/// out as a version.
///
/// Blocking (runs git): use it from a worker thread or the command line. A plain value.
class PromptLibrary {
public:
    static constexpr const char* kLabelsFile = ".hako/labels.json";

    /// The library whose folder contains `folder`.
    static Result<PromptLibrary> open(const QString& folder);
    /// Makes `folder` a library (a new git repository) or opens the one it is.
    static Result<PromptLibrary> create(const QString& folder);

    const QString& root() const { return m_git.root(); }
    const GitRepo& git() const { return m_git; }

    /// Every committed program (`*.pdl`) at the newest commit, by path.
    Result<QList<LibraryPrompt>> prompts() const;
    /// The prompt `key` names: its id, its name, its path or its file's base name. An error
    /// says when none does, or when a name is shared (use the path then).
    Result<LibraryPrompt> find(const QString& key) const;
    /// The prompt's versions, newest first.
    Result<QList<PromptVersion>> history(const LibraryPrompt& prompt) const;
    /// `NAME`, `NAME@LABEL`, `NAME@VERSION` (a number from history(), or a commit id or prefix).
    Result<ResolvedPrompt> get(const QString& spec) const;

    /// The prompt's labels, label → commit.
    QMap<QString, QString> labels(const LibraryPrompt& prompt) const;
    /// Every move of the prompt's labels, oldest first.
    QList<LabelEvent> labelHistory(const LibraryPrompt& prompt) const;
    /// Puts `label` on `version` (a number or commit, as in get()) and commits the move.
    Result<PromptVersion> setLabel(const LibraryPrompt& prompt, const QString& label,
                                   const QString& version) const;

    /// Records `file` (inside the library) as a new version with `message`; the commit id.
    /// Nothing changed: an error saying so.
    Result<QString> saveVersion(const QString& file, const QString& message) const;
    /// Whether `file` has changes not saved as a version (or was never saved as one).
    bool hasUnsavedVersion(const QString& file) const;

    /// The saved version `file` holds: a copy made by materialize() (`.hako/versions/<commit>/…`)
    /// is that commit's; the library's own file is its newest version when it has no unsaved
    /// changes. An error when the file is outside the library, was never saved as a version, or
    /// has changes since (then it is no version: its `prompt` is still described).
    Result<ResolvedPrompt> versionOfFile(const QString& file) const;

    /// A file to run `prompt` at its version from: the library's own file when it holds exactly
    /// that version, else the file in a copy of the whole library at that commit (so includes
    /// and reads see the same version), kept under `.hako/versions/` (ignored by git).
    Result<QString> materialize(const ResolvedPrompt& prompt) const;

    /// The file to run for `spec` (`NAME@LABEL`, `NAME@3`) of the library at `folder` (""
    /// : defaultFolder()): get() then materialize(); `commit` (when given) receives the
    /// version's commit. For the commands that take a prompt instead of a file.
    static Result<QString> fileFor(const QString& spec, const QString& folder = {},
                                   QString* commit = nullptr);

    /// The library a command works on when none is named: HAKO_LIBRARY, else the one the
    /// workbench opened last (settings key `library/last`), else (with `orCurrentFolder`) the
    /// current folder; "" when none.
    static QString defaultFolder(bool orCurrentFolder = true);

private:
    explicit PromptLibrary(GitRepo git) : m_git(std::move(git)) {}
    QJsonObject readLabels() const;
    Result<PromptVersion> versionOf(const LibraryPrompt& prompt, const QString& spec) const;
    QString relative(const QString& file) const;

    GitRepo m_git;
};

/// The identity and name a program's text declares: `# hako-prompt: ID` among its leading
/// comment lines, and its `description`'s first line. Pure.
LibraryPrompt describeProgram(const QByteArray& text, const QString& path);

} // namespace hako::library
