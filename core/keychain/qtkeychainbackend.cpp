// libhako_keychain: the desktop keyring behind models::desktopKeyringBackend(), a module of its
// own so that only a process reading or writing a key loads QtKeychain, QtDBus and theirs.
#include "core/models/desktopkeyring.h"

#include <QCoreApplication>
#include <QThread>

#include <qt6keychain/keychain.h>

#include <type_traits>

namespace hako::models {

namespace {

class QtKeychainBackend : public ISecretBackend {
public:
    void read(const QString& account, std::function<void(SecretReply)> done) override;
    void write(const QString& account, const QString& secret,
               std::function<void(QString error)> done) override;

private:
    bool post(std::function<void()> job);
};

// One thread for every keyring job of the process. It is never deleted while a job may still
// be running inside it (a keyring that hangs on D-Bus), so it is stopped, not destroyed, when
// the application goes away.
struct KeyringThread {
    std::mutex mutex;
    QThread* thread = nullptr;
    QObject* anchor = nullptr;
};

KeyringThread& keyringThread()
{
    static KeyringThread* k = new KeyringThread;
    return *k;
}

void stopKeyringThread()
{
    KeyringThread& k = keyringThread();
    std::lock_guard lock(k.mutex);
    if (!k.thread)
        return;
    QMetaObject::invokeMethod(k.anchor, [anchor = k.anchor] { delete anchor; });
    k.thread->quit();
    if (k.thread->wait(1000))
        delete k.thread;
    k.thread = nullptr;
    k.anchor = nullptr;
}

// QtKeychain's own strings are often just "Unknown error" (no session bus, say).
QString describe(const QKeychain::Job* job)
{
    QString what;
    switch (job->error()) {
    case QKeychain::NoBackendAvailable:
        what = QStringLiteral("no keyring service is running");
        break;
    case QKeychain::AccessDeniedByUser:
    case QKeychain::AccessDenied:
        what = QStringLiteral("access to the keyring was denied");
        break;
    case QKeychain::NotImplemented:
        what = QStringLiteral("no keyring support on this platform");
        break;
    default:
        what = QStringLiteral("the keyring service failed");
        break;
    }
    const QString detail = job->errorString();
    if (!detail.isEmpty() && detail != QLatin1String("Unknown error"))
        what += QStringLiteral(": ") + detail;
    else if (qEnvironmentVariableIsEmpty("DBUS_SESSION_BUS_ADDRESS"))
        what += QStringLiteral(": no D-Bus session bus");
    return what;
}

bool QtKeychainBackend::post(std::function<void()> job)
{
    if (!QCoreApplication::instance())
        return false;
    KeyringThread& k = keyringThread();
    std::lock_guard lock(k.mutex);
    if (!k.thread) {
        k.thread = new QThread;
        k.thread->setObjectName(QStringLiteral("hako-keyring"));
        k.anchor = new QObject;
        k.anchor->moveToThread(k.thread);
        k.thread->start();
        qAddPostRoutine(stopKeyringThread);
    }
    return QMetaObject::invokeMethod(k.anchor, std::move(job), Qt::QueuedConnection);
}

void QtKeychainBackend::read(const QString& account, std::function<void(SecretReply)> done)
{
    const bool posted = post([account, done] {
        auto* job = new QKeychain::ReadPasswordJob(QString::fromLatin1(kKeyringService));
        job->setAutoDelete(true);
        job->setInsecureFallback(false);
        job->setKey(account);
        QObject::connect(job, &QKeychain::Job::finished, [done](QKeychain::Job* j) {
            auto* read = static_cast<QKeychain::ReadPasswordJob*>(j);
            SecretReply reply;
            if (j->error() == QKeychain::NoError) {
                reply.status = SecretReply::Status::Found;
                reply.secret = read->textData();
            } else if (j->error() == QKeychain::EntryNotFound) {
                reply.status = SecretReply::Status::NotFound;
            } else {
                reply.status = SecretReply::Status::Unavailable;
                reply.error = describe(j);
            }
            done(reply);
        });
        job->start();
    });
    if (!posted)
        done({SecretReply::Status::Unavailable, QString(),
              QStringLiteral("no application event loop to talk to the keyring")});
}

void QtKeychainBackend::write(const QString& account, const QString& secret,
                              std::function<void(QString)> done)
{
    const bool posted = post([account, secret, done] {
        QKeychain::Job* job = nullptr;
        if (secret.isEmpty()) {
            auto* del = new QKeychain::DeletePasswordJob(QString::fromLatin1(kKeyringService));
            job = del;
        } else {
            auto* write = new QKeychain::WritePasswordJob(QString::fromLatin1(kKeyringService));
            write->setTextData(secret);
            job = write;
        }
        job->setAutoDelete(true);
        job->setInsecureFallback(false);
        job->setKey(account);
        QObject::connect(job, &QKeychain::Job::finished, [done, secret](QKeychain::Job* j) {
            // Deleting a key that was never stored is not a failure.
            const bool ok = j->error() == QKeychain::NoError ||
                            (secret.isEmpty() && j->error() == QKeychain::EntryNotFound);
            done(ok ? QString() : describe(j));
        });
        job->start();
    });
    if (!posted)
        done(QStringLiteral("no application event loop to talk to the keyring"));
}

} // namespace

} // namespace hako::models

extern "C" __attribute__((visibility("default"))) hako::models::ISecretBackend*
hakoKeychainBackend()
{
    static_assert(std::is_same_v<decltype(&hakoKeychainBackend), hako::models::KeychainEntry>);
    return new hako::models::QtKeychainBackend;
}
