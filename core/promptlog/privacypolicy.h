#pragma once

#include "core/promptlog/callrecord.h"
#include "core/util/diagnostic.h"

#include <QList>
#include <QString>
#include <QStringList>

namespace hako::promptlog {

/// What the prompt log keeps of a call, applied before anything is stored (and again on export),
/// to every text a call carries: parameters, messages, reply, tool calls and inputs (every
/// string inside them, JSON text included), error, prompt and program names, source file,
/// tags, model, endpoint and finish reason. Only the identities (uid, run, trace node, program
/// hash) are left alone.
/// - credentials, always: a value under a credential's name (`api_key`, `apiKey`, `x-api-key`,
///   `Authorization`, `password`, `token`, `client_secret`, `cookie`…; see isCredentialName())
///   anywhere in the JSON fields becomes `[REDACTED:key]` (numbers and flags stay), and so do
///   the password of a URL (`http://user:[REDACTED:key]@host`) and the value of a
///   `password=…`, `api_key: …` or `Authorization: Basic …` written in any text;
/// - redaction (`builtinRedaction`): built-in rules replace e-mail addresses
///   (`[REDACTED:email]`), phone numbers (`[REDACTED:phone]`) and API-key shapes — `sk-…`,
///   `Bearer …`, AWS, GitHub, Slack and Google keys (`[REDACTED:key]`); the user's regular
///   expressions (`[REDACTED]`) apply too;
/// - metadata only: calls carrying a tag matching one of `metadataOnlyTags` (globs) or whose
///   program lies in one of `metadataOnlyFolders` keep no messages, reply, tool calls or inputs,
///   and of their parameters only the numbers and flags that shape a call (temperature, top_p,
///   top_k, min_p, max_tokens, max_completion_tokens, max_new_tokens, n, seed, the penalties,
///   stream, logprobs, top_logprobs, parallel_tool_calls, timeout) and the short names model,
///   reasoning_effort and service_tier. Stop sequences, tools, schemas, headers, URLs and any
///   other extra may carry content or a secret and are dropped. Names, tags and the error stay
///   (the monitor needs them), redacted as above.
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

/// Whether a JSON key names a credential: one of its words (split at `_`, `-`, `.` and
/// camelCase) is authorization, auth, password, passwd, pwd, passphrase, secret, token, apikey,
/// bearer, cookie or credential(s), or it has `api key`, `access key`, `private key`,
/// `secret key`, `signing key` or `session key`. `max_tokens` (the word is "tokens") is not one.
bool isCredentialName(const QString& key);

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
