#pragma once

#include "core/models/apikeystore.h"

class QThread;

namespace hako::models {

/// ISecretBackend over QtKeychain (Secret Service/libsecret, KWallet, …): every job runs on a
/// thread of its own with an event loop, so callers on any thread (the GUI one included) are
/// never blocked. Never falls back to storing keys in plain text.
/// Threading: thread-safe; needs a QCoreApplication (without one every read is Unavailable).
class QtKeychainBackend : public ISecretBackend {
public:
    QtKeychainBackend();
    ~QtKeychainBackend() override;

    void read(const QString& account, std::function<void(SecretReply)> done) override;
    void write(const QString& account, const QString& secret,
               std::function<void(QString error)> done) override;

    /// The keyring service name the keys are stored under.
    static constexpr const char* kService = "hako";

private:
    bool post(std::function<void()> job);
};

} // namespace hako::models
