#include "core/models/apikeystore.h"

#include "core/models/qtkeychainbackend.h"

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

} // namespace

ApiKeyStore::ApiKeyStore(std::shared_ptr<ISecretBackend> backend, int timeoutMs)
    : m_backend(std::move(backend)), m_timeoutMs(timeoutMs)
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
            backend = std::make_shared<QtKeychainBackend>();
        return std::make_shared<ApiKeyStore>(std::move(backend));
    }();
    return store;
}

bool ApiKeyStore::available() const
{
    std::lock_guard lock(m_mutex);
    return m_note.isEmpty();
}

QString ApiKeyStore::note() const
{
    std::lock_guard lock(m_mutex);
    return m_note;
}

void ApiKeyStore::markUnavailable(const QString& why)
{
    std::lock_guard lock(m_mutex);
    if (!m_note.isEmpty())
        return;
    m_note = QStringLiteral("The desktop keyring is not used (%1); API keys come from "
                            "environment variables.")
                 .arg(why);
    // Not logged: `hako run` output must not change with the machine's keyring. The note is
    // shown by `hako models`, the settings dialog and the errors of endpoints without a key.
}

std::optional<QString> ApiKeyStore::lookup(const QString& endpoint)
{
    {
        std::lock_guard lock(m_mutex);
        if (!m_note.isEmpty())
            return std::nullopt;
        if (auto it = m_cache.constFind(endpoint); it != m_cache.constEnd())
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
        markUnavailable(QStringLiteral("it did not answer within %1 s").arg(m_timeoutMs / 1000.0));
        return std::nullopt;
    }
    const SecretReply reply = future.get();
    if (reply.status == SecretReply::Status::Unavailable) {
        markUnavailable(reply.error.isEmpty() ? QStringLiteral("unreachable") : reply.error);
        return std::nullopt;
    }
    std::optional<QString> key;
    if (reply.status == SecretReply::Status::Found && !reply.secret.isEmpty())
        key = reply.secret;
    std::lock_guard lock(m_mutex);
    m_cache.insert(endpoint, key);
    return key;
}

void ApiKeyStore::lookupAsync(const QString& endpoint, QObject* context,
                              std::function<void(Result<QString>)> done)
{
    auto delivered = std::make_shared<std::atomic<bool>>(false);
    QPointer<QObject> guard(context);
    QTimer::singleShot(m_timeoutMs, context, [this, delivered, done] {
        if (delivered->exchange(true))
            return;
        markUnavailable(QStringLiteral("it did not answer within %1 s").arg(m_timeoutMs / 1000.0));
        done(makeError(note()));
    });
    m_backend->read(endpoint, [this, endpoint, delivered, guard, done](SecretReply reply) {
        if (reply.status == SecretReply::Status::Unavailable) {
            markUnavailable(reply.error);
        } else {
            std::lock_guard lock(m_mutex);
            m_cache.insert(endpoint, reply.status == SecretReply::Status::Found
                                         ? std::optional<QString>(reply.secret)
                                         : std::nullopt);
        }
        if (!guard)
            return;
        QMetaObject::invokeMethod(
            guard.data(),
            [this, delivered, done, reply] {
                if (delivered->exchange(true))
                    return;
                if (reply.status == SecretReply::Status::Unavailable)
                    done(makeError(note()));
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
    QTimer::singleShot(m_timeoutMs, context, [this, delivered, done] {
        if (!delivered->exchange(true))
            done(QStringLiteral("the desktop keyring did not answer within %1 s")
                     .arg(m_timeoutMs / 1000.0));
    });
    m_backend->write(endpoint, key, [this, endpoint, key, delivered, guard, done](QString error) {
        if (error.isEmpty()) {
            std::lock_guard lock(m_mutex);
            m_cache.insert(endpoint, key.isEmpty() ? std::nullopt : std::optional<QString>(key));
        }
        if (!guard)
            return;
        QMetaObject::invokeMethod(
            guard.data(),
            [delivered, done, error] {
                if (!delivered->exchange(true))
                    done(error);
            },
            Qt::QueuedConnection);
    });
}

} // namespace hako::models
