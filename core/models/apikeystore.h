#pragma once

#include "core/util/diagnostic.h"

#include <QHash>
#include <QObject>
#include <QPointer>
#include <QString>

#include <functional>
#include <memory>
#include <mutex>
#include <optional>

namespace hako::models {

/// What a secret store answered for one account.
struct SecretReply {
    enum class Status {
        Found,
        NotFound,
        /// The store could not be asked (no keyring service, access denied, …); `error` says why.
        Unavailable
    };
    Status status = Status::NotFound;
    QString secret;
    QString error;
};

/// A place API keys are kept: the desktop keyring (desktopKeyringBackend()) or, in tests, memory.
/// Threading: the functions may be called from any thread and return at once; `done` is called
/// exactly once, from any thread, possibly never when the store hangs (callers time out).
class ISecretBackend {
public:
    virtual ~ISecretBackend() = default;
    virtual void read(const QString& account, std::function<void(SecretReply)> done) = 0;
    /// Stores `secret`; an empty `secret` deletes the entry. `done` gets "" or an error.
    virtual void write(const QString& account, const QString& secret,
                       std::function<void(QString error)> done) = 0;
};

/// API keys of model endpoints, kept in the desktop keyring under service `hako` with the
/// endpoint's name as account (`openai`, `ollama`, `azure`, `litellm`, or an endpoint of
/// hako-models.yaml). Keys are only ever stored here: never in a project file or QSettings.
///
/// Without a keyring a key can still be given: kept for the session (in this process's memory,
/// setSessionKey(), never written anywhere) or, only when the user explicitly chose it, stored in
/// a file only the user can read (storeInFile(), keyFile(), mode 0600). lookup() asks the
/// session first, then the file, then the keyring.
///
/// A keyring that does not answer within the timeout, or cannot be reached at all (no session
/// bus, no secret service — the usual case on CI), marks the store unavailable for the rest of
/// the process: lookups then return nothing at once and note() says why, so keys come from the
/// environment instead. Nothing ever waits longer than the timeout.
///
/// Threading: thread-safe. lookup() blocks (at most the timeout) and is for worker threads and
/// the command line; the *Async functions are for the GUI thread (`context` must live there)
/// and call back on it, never after `context` is destroyed.
class ApiKeyStore {
public:
    explicit ApiKeyStore(std::shared_ptr<ISecretBackend> backend, int timeoutMs = 3000);

    /// The process-wide store over the desktop keyring; HAKO_KEYRING=0 (or `off`) disables it
    /// (then every lookup is empty and note() says so).
    static std::shared_ptr<ApiKeyStore> system();

    /// The key given for `endpoint` (session, file, keyring), or nothing (none given, or only in
    /// a keyring that is unavailable). Keyring answers are cached for the process.
    std::optional<QString> lookup(const QString& endpoint);

    /// Reads the key for `endpoint` without blocking; `done` runs on `context`'s thread (not at
    /// all when `context` is gone) with the key ("" when none is stored) or an error.
    void lookupAsync(const QString& endpoint, QObject* context,
                     std::function<void(Result<QString>)> done);
    /// Stores (or, with an empty key, deletes) the key for `endpoint`; `done` gets "" or an error.
    void storeAsync(const QString& endpoint, const QString& key, QObject* context,
                    std::function<void(QString error)> done);

    /// Where a key given in the window went.
    enum class Place { None, Session, File, Keyring };

    /// Keeps `key` for `endpoint` in this process's memory only (an empty key forgets it).
    /// Lookups find it before any other; it is never written to disk.
    void setSessionKey(const QString& endpoint, const QString& key);
    /// Writes `key` for `endpoint` into keyFile() (created with mode 0600 through QSaveFile;
    /// an empty key removes the entry, and the file with its last entry). Only call this when the
    /// user explicitly chose it. GUI thread or any thread; blocks on the file only.
    Result<bool> storeInFile(const QString& endpoint, const QString& key);
    /// Where the key of `endpoint` is, without waiting: session, file, the keyring's cached
    /// answer, or None (also when the keyring was not asked yet).
    Place placeOf(const QString& endpoint) const;
    /// The file storeInFile() writes ("" = none: storeInFile fails).
    QString keyFile() const;
    void setKeyFile(const QString& path);
    /// `api-keys.json` in the application's configuration folder (beside hako-models.yaml).
    static QString defaultKeyFile();

    /// Whether the keyring answered (false after a failure or a timeout).
    bool available() const;
    /// "" while the keyring works; otherwise a sentence saying it is not used and why.
    QString note() const;
    int timeoutMs() const { return m_timeoutMs; }

    // The cache and the note, shared with backend callbacks that may outlive the store.
    struct State;

private:
    std::shared_ptr<ISecretBackend> m_backend;
    int m_timeoutMs;
    std::shared_ptr<State> m_state;
};

} // namespace hako::models
