#include "core/models/apikeystore.h"

#include "core/models/desktopkeyring.h"
#include "core/util/outputfile.h"

#include <QCoreApplication>
#include <QFile>
#include <QFileInfo>
#include <QJsonDocument>
#include <QJsonObject>
#include <QStandardPaths>
#include <QTimer>

#include <atomic>
#include <future>

namespace hako::models {

namespace {

// Answers every read with "unavailable" (HAKO_KEYRING=0).
class DisabledBackend : public ISecretBackend {
public:
    void read(const QString&, std::function<void(SecretReply)> done) override
    {
        done({SecretReply::Status::Unavailable, QString(),
              QStringLiteral("disabled by HAKO_KEYRING=0")});
    }
    void write(const QString&, const QString&, std::function<void(QString)> done) override
    {
        done(QStringLiteral("the desktop keyring is disabled by HAKO_KEYRING=0"));
    }
};

// The keys of the file a user chose to keep them in (endpoint → key); empty when it is absent
// or unreadable.
QJsonObject readKeyFile(const QString& path)
{
    QFile file(path);
    if (path.isEmpty() || !file.open(QIODevice::ReadOnly))
        return {};
    return QJsonDocument::fromJson(file.read(1 << 20)).object();
}

} // namespace

struct ApiKeyStore::State {
    std::mutex mutex;
    QHash<QString, std::optional<QString>> cache;
    QString note;
    /// Keys given for this session only: memory, never written.
    QHash<QString, QString> session;
    QString keyFile;

    QString currentNote()
    {
        std::lock_guard lock(mutex);
        return note;
    }
    void markUnavailable(const QString& why)
    {
        std::lock_guard lock(mutex);
        if (!note.isEmpty())
            return;
        note = QStringLiteral("The desktop keyring is not used (%1); API keys come from "
                              "environment variables.")
                   .arg(why);
    }
    void remember(const QString& endpoint, std::optional<QString> key)
    {
        std::lock_guard lock(mutex);
        cache.insert(endpoint, std::move(key));
    }
};

ApiKeyStore::ApiKeyStore(std::shared_ptr<ISecretBackend> backend, int timeoutMs)
    : m_backend(std::move(backend)), m_timeoutMs(timeoutMs), m_state(std::make_shared<State>())
{}

std::shared_ptr<ApiKeyStore> ApiKeyStore::system()
{
    static std::shared_ptr<ApiKeyStore> store = [] {
        const QString flag = qEnvironmentVariable("HAKO_KEYRING").trimmed().toLower();
        const bool off = flag == QLatin1String("0") || flag == QLatin1String("off") ||
                         flag == QLatin1String("false") || flag == QLatin1String("no");
        std::shared_ptr<ISecretBackend> backend;
        if (off)
            backend = std::make_shared<DisabledBackend>();
        else
            backend = desktopKeyringBackend();
        auto keys = std::make_shared<ApiKeyStore>(std::move(backend));
        keys->setKeyFile(defaultKeyFile());
        return keys;
    }();
    return store;
}

bool ApiKeyStore::available() const
{
    return m_state->currentNote().isEmpty();
}

QString ApiKeyStore::note() const
{
    return m_state->currentNote();
}

QString ApiKeyStore::defaultKeyFile()
{
    const QString dir = QStandardPaths::writableLocation(QStandardPaths::AppConfigLocation);
    return dir.isEmpty() ? QString() : dir + QStringLiteral("/api-keys.json");
}

QString ApiKeyStore::keyFile() const
{
    std::lock_guard lock(m_state->mutex);
    return m_state->keyFile;
}

void ApiKeyStore::setKeyFile(const QString& path)
{
    std::lock_guard lock(m_state->mutex);
    m_state->keyFile = path;
}

void ApiKeyStore::setSessionKey(const QString& endpoint, const QString& key)
{
    std::lock_guard lock(m_state->mutex);
    if (key.isEmpty())
        m_state->session.remove(endpoint);
    else
        m_state->session.insert(endpoint, key);
}

Result<bool> ApiKeyStore::storeInFile(const QString& endpoint, const QString& key)
{
    const QString path = keyFile();
    if (path.isEmpty())
        return makeError(QStringLiteral("there is no configuration folder for the key file"));
    QJsonObject keys = readKeyFile(path);
    if (key.isEmpty())
        keys.remove(endpoint);
    else
        keys.insert(endpoint, key);
    if (keys.isEmpty()) {
        if (QFile::exists(path) && !QFile::remove(path))
            return makeError(QStringLiteral("cannot remove %1").arg(path));
        return true;
    }
    QString error;
    if (!makeOutputFolder(QFileInfo(path).absolutePath(), &error))
        return makeError(error);
    // A file that exists keeps its permissions when replaced: make sure they are the owner's.
    const auto others = QFile::ReadGroup | QFile::WriteGroup | QFile::ExeGroup | QFile::ReadOther |
                        QFile::WriteOther | QFile::ExeOther;
    if (QFile::exists(path) && (QFile::permissions(path) & others) &&
        !QFile::setPermissions(path, QFile::ReadOwner | QFile::WriteOwner))
        return makeError(QStringLiteral("cannot make %1 readable only by you").arg(path));
    if (!writeOutputFile(path, QJsonDocument(keys).toJson(QJsonDocument::Indented), &error,
                         NewFileAccess::Private))
        return makeError(error);
    return true;
}

ApiKeyStore::Place ApiKeyStore::placeOf(const QString& endpoint) const
{
    std::lock_guard lock(m_state->mutex);
    if (m_state->session.contains(endpoint))
        return Place::Session;
    if (readKeyFile(m_state->keyFile).contains(endpoint))
        return Place::File;
    if (auto it = m_state->cache.constFind(endpoint);
        it != m_state->cache.constEnd() && it->has_value())
        return Place::Keyring;
    return Place::None;
}

std::optional<QString> ApiKeyStore::lookup(const QString& endpoint)
{
    {
        std::lock_guard lock(m_state->mutex);
        if (auto it = m_state->session.constFind(endpoint); it != m_state->session.constEnd())
            return *it;
        if (const QString key = readKeyFile(m_state->keyFile).value(endpoint).toString();
            !key.isEmpty())
            return key;
        if (!m_state->note.isEmpty())
            return std::nullopt;
        if (auto it = m_state->cache.constFind(endpoint); it != m_state->cache.constEnd())
            return *it;
    }
    // The promise is shared with the backend's callback, which may come after we gave up.
    auto promise = std::make_shared<std::promise<SecretReply>>();
    auto answered = std::make_shared<std::atomic<bool>>(false);
    std::future<SecretReply> future = promise->get_future();
    m_backend->read(endpoint, [promise, answered](SecretReply reply) {
        if (!answered->exchange(true))
            promise->set_value(std::move(reply));
    });
    if (future.wait_for(std::chrono::milliseconds(m_timeoutMs)) != std::future_status::ready) {
        m_state->markUnavailable(
            QStringLiteral("it did not answer within %1 s").arg(m_timeoutMs / 1000.0));
        return std::nullopt;
    }
    const SecretReply reply = future.get();
    if (reply.status == SecretReply::Status::Unavailable) {
        m_state->markUnavailable(reply.error.isEmpty() ? QStringLiteral("unreachable")
                                                       : reply.error);
        return std::nullopt;
    }
    std::optional<QString> key;
    if (reply.status == SecretReply::Status::Found && !reply.secret.isEmpty())
        key = reply.secret;
    m_state->remember(endpoint, key);
    return key;
}

void ApiKeyStore::lookupAsync(const QString& endpoint, QObject* context,
                              std::function<void(Result<QString>)> done)
{
    // A key given in the window (session or file) answers without the keyring.
    if (const Place place = placeOf(endpoint); place == Place::Session || place == Place::File) {
        const QString key = lookup(endpoint).value_or(QString());
        QMetaObject::invokeMethod(
            context, [done, key] { done(key); }, Qt::QueuedConnection);
        return;
    }
    auto delivered = std::make_shared<std::atomic<bool>>(false);
    QPointer<QObject> guard(context);
    const std::shared_ptr<State> state = m_state;
    const int timeoutMs = m_timeoutMs;
    QTimer::singleShot(timeoutMs, context, [state, timeoutMs, delivered, done] {
        if (delivered->exchange(true))
            return;
        state->markUnavailable(
            QStringLiteral("it did not answer within %1 s").arg(timeoutMs / 1000.0));
        done(makeError(state->currentNote()));
    });
    m_backend->read(endpoint, [state, endpoint, delivered, guard, done](SecretReply reply) {
        if (reply.status == SecretReply::Status::Unavailable)
            state->markUnavailable(reply.error);
        else
            state->remember(endpoint, reply.status == SecretReply::Status::Found
                                          ? std::optional<QString>(reply.secret)
                                          : std::nullopt);
        // Posted to the application object (GUI thread), where `guard` can be checked safely.
        QMetaObject::invokeMethod(
            QCoreApplication::instance(),
            [guard, state, delivered, done, reply] {
                if (!guard || delivered->exchange(true))
                    return;
                if (reply.status == SecretReply::Status::Unavailable)
                    done(makeError(state->currentNote()));
                else
                    done(reply.secret);
            },
            Qt::QueuedConnection);
    });
}

void ApiKeyStore::storeAsync(const QString& endpoint, const QString& key, QObject* context,
                             std::function<void(QString)> done)
{
    auto delivered = std::make_shared<std::atomic<bool>>(false);
    QPointer<QObject> guard(context);
    const std::shared_ptr<State> state = m_state;
    const int timeoutMs = m_timeoutMs;
    QTimer::singleShot(timeoutMs, context, [timeoutMs, delivered, done] {
        if (!delivered->exchange(true))
            done(QStringLiteral("the desktop keyring did not answer within %1 s")
                     .arg(timeoutMs / 1000.0));
    });
    m_backend->write(endpoint, key, [state, endpoint, key, delivered, guard, done](QString error) {
        if (error.isEmpty())
            state->remember(endpoint, key.isEmpty() ? std::nullopt : std::optional<QString>(key));
        QMetaObject::invokeMethod(
            QCoreApplication::instance(),
            [guard, delivered, done, error] {
                if (guard && !delivered->exchange(true))
                    done(error);
            },
            Qt::QueuedConnection);
    });
}

} // namespace hako::models
