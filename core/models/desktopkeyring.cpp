#include "core/models/desktopkeyring.h"

#include "core/util/siblingmodule.h"

#include <QString>

#include <mutex>

namespace hako::models {

namespace {

/// The keyring module's backend, loaded on the first read or write (once per process; the
/// module stays loaded). Thread-safe.
class LazyKeyringBackend : public ISecretBackend {
public:
    void read(const QString& account, std::function<void(SecretReply)> done) override
    {
        if (ISecretBackend* backend = loaded())
            return backend->read(account, std::move(done));
        done({SecretReply::Status::Unavailable, QString(), m_error});
    }
    void write(const QString& account, const QString& secret,
               std::function<void(QString error)> done) override
    {
        if (ISecretBackend* backend = loaded())
            return backend->write(account, secret, std::move(done));
        done(m_error);
    }

private:
    ISecretBackend* loaded()
    {
        std::call_once(m_once, [this] { load(); });
        return m_backend.get();
    }
    void load()
    {
        auto entry = reinterpret_cast<KeychainEntry>(
            siblingModuleSymbol(reinterpret_cast<const void*>(&desktopKeyringBackend),
                                kKeychainModuleFile, kKeychainEntryName, &m_error));
        if (!entry) {
            m_error = QStringLiteral("the keyring module could not be loaded (%1)").arg(m_error);
            return;
        }
        m_backend.reset(entry());
    }

    std::once_flag m_once;
    std::unique_ptr<ISecretBackend> m_backend;
    QString m_error;
};

} // namespace

std::shared_ptr<ISecretBackend> desktopKeyringBackend()
{
    return std::make_shared<LazyKeyringBackend>();
}

} // namespace hako::models
