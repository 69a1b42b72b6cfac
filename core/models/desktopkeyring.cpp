#include "core/models/desktopkeyring.h"

#include <QString>

#include <dlfcn.h>
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
        // Next to this library (build/lib, or the installed library folder).
        Dl_info self{};
        std::string path = kKeychainModuleFile;
        if (dladdr(reinterpret_cast<const void*>(&desktopKeyringBackend), &self) &&
            self.dli_fname) {
            const std::string file = self.dli_fname;
            const size_t slash = file.rfind('/');
            if (slash != std::string::npos)
                path = file.substr(0, slash + 1) + kKeychainModuleFile;
        }
        void* handle = dlopen(path.c_str(), RTLD_NOW | RTLD_LOCAL);
        const char* why = handle ? nullptr : dlerror();
        auto entry =
            handle ? reinterpret_cast<KeychainEntry>(dlsym(handle, kKeychainEntryName)) : nullptr;
        if (!entry) {
            m_error = QStringLiteral("the keyring module could not be loaded (%1)")
                          .arg(why ? QString::fromLocal8Bit(why) : QString::fromStdString(path));
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
