#pragma once

#include "core/promptlog/callrecord.h"
#include "core/util/diagnostic.h"

#include <QList>
#include <QString>
#include <QStringList>

namespace hako::promptlog {

/// What the prompt log keeps of a call's content, applied before anything is stored:
/// - redaction: built-in rules replace e-mail addresses (`[REDACTED:email]`), phone numbers
///   (`[REDACTED:phone]`) and API-key shapes — `sk-…`, `Bearer …`, AWS, GitHub, Slack and Google
///   keys (`[REDACTED:key]`) — and the user's regular expressions (`[REDACTED]`) in the messages
///   (every string inside them), the reply, tool calls, error text and input variables;
/// - metadata only: calls carrying a tag matching one of `metadataOnlyTags` (globs) or whose
///   program lies in one of `metadataOnlyFolders` keep no messages, reply, tool calls or inputs.
/// A plain value; apply() is pure and thread-safe.
struct PrivacyPolicy {
    bool builtinRedaction = true;
    QStringList userPatterns; ///< regular expressions (QRegularExpression syntax)
    QStringList metadataOnlyTags;
    QStringList metadataOnlyFolders;

    /// Every user pattern compiles; the error names the first that does not.
    Result<bool> validate() const;
    /// Whether `call` is stored without content.
    bool metadataOnly(const CallRecord& call) const;
    /// Redacts `text` (the rules a call's strings go through).
    QString redact(const QString& text) const;
    /// The call as it may be stored.
    void apply(CallRecord& call) const;

    bool operator==(const PrivacyPolicy&) const = default;
};

/// The prompt log's settings file (`promptlog.json` in the user's configuration folder):
///
///     {"redact_builtin": true,
///      "redact": ["ACME-[0-9]{6}"],
///      "metadata_only": {"tags": ["secret", "customer:*"], "folders": ["/home/me/legal"]},
///      "retention_days": 90,
///      "log": "postgresql://me@db.example:5432/hako"}
struct PromptLogSettings {
    PrivacyPolicy privacy;
    int retentionDays = 0; ///< 0 keeps every call
    QString log;           ///< a file or a postgresql:// URL; empty = the default file
    /// Tags every run of a program inside a folder gets (`"folder_tags": {"/home/me/summaries":
    /// ["project:summaries"]}`): kept in the user's settings, so programs stay plain PDL and a
    /// folder cannot tag itself.
    QList<QPair<QString, QStringList>> folderTags;

    /// The folder tags for a program at `programPath`: those of every folder that holds it.
    QStringList tagsFor(const QString& programPath) const;

    static QString defaultPath();
    /// Reads the settings; a missing file gives the defaults.
    static Result<PromptLogSettings> load(const QString& path);
    Result<bool> save(const QString& path) const;
};

} // namespace hako::promptlog
