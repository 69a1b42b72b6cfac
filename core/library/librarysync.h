#pragma once

#include "core/library/promptlibrary.h"

#include <QJsonObject>
#include <QString>
#include <QStringList>

namespace hako::library {

/// What to do with a prompt that was changed both here and on the team's server since the
/// last sync. Whatever is chosen, neither side's version is lost: both stay in the history.
enum class ConflictChoice {
    Stop,       ///< change nothing and say which prompts clash
    KeepMine,   ///< the merged library keeps this side's text of those prompts
    TakeTheirs, ///< it takes the server's text of those prompts
};

/// What a sync did, in numbers and words.
struct SyncOutcome {
    int received = 0; ///< versions (commits) brought from the server
    int sent = 0;     ///< versions sent to it
    /// Files changed on both sides; with ConflictChoice::Stop nothing was merged.
    QStringList conflicts;
    bool labelsMerged = false; ///< both sides moved labels: their histories were joined
    bool stopped() const { return !conflicts.isEmpty() && !merged; }
    bool merged = true;
};

/// Sharing a prompt library through the team's git server ("origin"): sync() fetches the
/// team's versions, merges them with this library's (never rewriting history, never
/// discarding a version), joins the label histories of both sides, and sends this side's
/// versions. A clash on a prompt's text is reported (ConflictChoice::Stop) or settled as the
/// author chooses; an uncommitted edit is never overwritten (sync refuses and says to save a
/// version first).
///
/// Blocking (runs git, which may reach the network): a worker thread or the command line.
class LibrarySync {
public:
    explicit LibrarySync(PromptLibrary library) : m_library(std::move(library)) {}

    /// The team's server the library syncs with ("" when none is set).
    QString remote() const;
    /// Sets (or changes) the team's server: a URL or path git understands.
    Result<bool> setRemote(const QString& url) const;
    /// Fetches, merges and sends; see the class comment.
    Result<SyncOutcome> sync(ConflictChoice choice = ConflictChoice::Stop) const;

    /// Both sides' labels files joined: every label move of either, in time order, each label
    /// on the version its newest move put it. Pure.
    static QJsonObject mergeLabels(const QJsonObject& mine, const QJsonObject& theirs);

private:
    Result<bool> resolve(const QStringList& conflicts, ConflictChoice choice,
                         SyncOutcome& outcome) const;

    PromptLibrary m_library;
};

} // namespace hako::library
