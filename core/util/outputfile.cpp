#include "core/util/outputfile.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QSaveFile>

#include <cerrno>
#include <csignal>
#include <cstring>
#include <fcntl.h>
#include <pthread.h>
#include <sys/stat.h>
#include <unistd.h>

namespace hako {

namespace {

QString errnoText(int error)
{
    return QString::fromLocal8Bit(std::strerror(error));
}

// A file descriptor opened in place (a device, a FIFO, a regular file appended to) as a
// QIODevice that remembers its first failure: callers that stream many writes learn of it at
// commit.
class InPlaceDevice final : public QIODevice {
public:
    explicit InPlaceDevice(int fd) : m_fd(fd) { QIODevice::open(WriteOnly | Unbuffered); }
    ~InPlaceDevice() override { finish(); }

    bool isSequential() const override { return true; }
    int failure() const { return m_failure; }

    // Closes the descriptor; returns the first failure (an errno value) or 0.
    int finish()
    {
        if (m_fd >= 0) {
            if (::close(m_fd) != 0 && !m_failure && errno != EINTR)
                m_failure = errno;
            m_fd = -1;
            QIODevice::close();
        }
        return m_failure;
    }

protected:
    qint64 readData(char*, qint64) override { return -1; }
    qint64 writeData(const char* data, qint64 size) override
    {
        if (m_failure || m_fd < 0)
            return -1;
        qint64 done = 0;
        while (done < size) {
            const ssize_t n = ::write(m_fd, data + done, size_t(size - done));
            if (n < 0 && errno == EINTR)
                continue;
            if (n <= 0) {
                m_failure = n < 0 ? errno : EIO;
                setErrorString(errnoText(m_failure));
                return -1;
            }
            done += n;
        }
        return done;
    }

private:
    int m_fd;
    int m_failure = 0;
};

} // namespace

struct OutputFile::Private {
    QString path;
    Mode mode;
    NewFileAccess access;
    std::unique_ptr<QSaveFile> save;
    std::unique_ptr<InPlaceDevice> inPlace;
    bool pipeBlocked = false;
    sigset_t oldMask{};

    bool openSaveFile(QString* error);
    bool openInPlace(bool regular, QString* error);
    // Closes an in-place device; returns its first failure (an errno value) or 0.
    int finishInPlace();
};

bool OutputFile::Private::openSaveFile(QString* error)
{
    struct stat st {};
    const bool existed = ::stat(QFile::encodeName(path).constData(), &st) == 0;
    save = std::make_unique<QSaveFile>(path);
    if (!save->open(QIODevice::WriteOnly)) {
        *error = save->errorString();
        save.reset();
        return false;
    }
    // QSaveFile gives a new file 0666 less the umask, and an existing one its permissions. The
    // temporary file is still empty here (and, with O_TMPFILE, not even in the folder).
    if (!existed && access == NewFileAccess::Private &&
        !save->setPermissions(QFile::ReadOwner | QFile::WriteOwner)) {
        *error = save->errorString();
        save->cancelWriting();
        save.reset();
        return false;
    }
    return true;
}

bool OutputFile::Private::openInPlace(bool regular, QString* error)
{
    const QByteArray native = QFile::encodeName(path);
    // O_NONBLOCK on open: a FIFO without a reader fails (ENXIO) instead of blocking forever.
    int flags = O_WRONLY | O_CLOEXEC | O_NOCTTY | O_NONBLOCK;
    if (mode == Mode::Append)
        flags |= O_APPEND;
    if (regular)
        flags |= O_CREAT; // a device or FIFO exists already; O_CREAT leaves it as it is
    const int fd =
        ::open(native.constData(), flags, access == NewFileAccess::Private ? 0600 : 0666);
    if (fd < 0) {
        *error =
            errno == ENXIO ? QStringLiteral("no process reads from this FIFO") : errnoText(errno);
        return false;
    }
    ::fcntl(fd, F_SETFL, ::fcntl(fd, F_GETFL) & ~O_NONBLOCK);
    // A reader that goes away must give an error, not kill the process with SIGPIPE.
    sigset_t pipeSet;
    sigemptyset(&pipeSet);
    sigaddset(&pipeSet, SIGPIPE);
    pthread_sigmask(SIG_BLOCK, &pipeSet, &oldMask);
    pipeBlocked = true;
    inPlace = std::make_unique<InPlaceDevice>(fd);
    return true;
}

int OutputFile::Private::finishInPlace()
{
    if (!inPlace)
        return 0;
    const int failure = inPlace->finish();
    inPlace.reset();
    if (pipeBlocked) {
        if (failure == EPIPE) {
            sigset_t pipeSet;
            sigemptyset(&pipeSet);
            sigaddset(&pipeSet, SIGPIPE);
            timespec zero{0, 0};
            sigtimedwait(&pipeSet, nullptr, &zero);
        }
        pthread_sigmask(SIG_SETMASK, &oldMask, nullptr);
        pipeBlocked = false;
    }
    return failure;
}

OutputFile::OutputFile(const QString& path, Mode mode, NewFileAccess access)
    : d(std::make_unique<Private>())
{
    d->path = path;
    d->mode = mode;
    d->access = access;
}

OutputFile::~OutputFile()
{
    d->finishInPlace();
}

bool OutputFile::open(QString* error)
{
    if (d->save || d->inPlace) {
        *error = QStringLiteral("the file is open already");
        return false;
    }
    QString reason;
    switch (outputKind(d->path, &reason)) {
    case OutputKind::Refused:
        *error = reason;
        return false;
    case OutputKind::Stream:
        return d->openInPlace(false, error);
    case OutputKind::Regular:
        break;
    }
    return d->mode == Mode::Replace ? d->openSaveFile(error) : d->openInPlace(true, error);
}

QIODevice* OutputFile::device() const
{
    if (d->save)
        return d->save.get();
    return d->inPlace.get();
}

bool OutputFile::commit(QString* error)
{
    if (d->save) {
        const bool ok = d->save->commit();
        if (!ok)
            *error = d->save->errorString();
        d->save.reset();
        return ok;
    }
    if (!d->inPlace) {
        *error = QStringLiteral("the file is not open");
        return false;
    }
    if (const int failure = d->finishInPlace()) {
        *error = errnoText(failure);
        return false;
    }
    return true;
}

OutputKind outputKind(const QString& path, QString* reason)
{
    struct stat st {};
    if (::stat(QFile::encodeName(path).constData(), &st) != 0)
        return OutputKind::Regular; // missing (or unreachable: saving says why)
    if (S_ISREG(st.st_mode))
        return OutputKind::Regular;
    if (S_ISCHR(st.st_mode) || S_ISFIFO(st.st_mode))
        return OutputKind::Stream;
    if (reason)
        *reason = S_ISDIR(st.st_mode)    ? QStringLiteral("it is a folder")
                  : S_ISBLK(st.st_mode)  ? QStringLiteral("it is a block device")
                  : S_ISSOCK(st.st_mode) ? QStringLiteral("it is a socket")
                                         : QStringLiteral("it is not a regular file");
    return OutputKind::Refused;
}

namespace {

bool writeWhole(const QString& path, const QByteArray& data, QString* error, OutputFile::Mode mode,
                NewFileAccess access)
{
    OutputFile file(path, mode, access);
    if (!file.open(error))
        return false;
    if (file.device()->write(data) != data.size()) {
        // commit() reports the failure (a QSaveFile then keeps the old content).
        if (!file.commit(error))
            return false;
        *error = QStringLiteral("the file was not written whole");
        return false;
    }
    return file.commit(error);
}

} // namespace

bool writeOutputFile(const QString& path, const QByteArray& data, QString* error,
                     NewFileAccess access)
{
    return writeWhole(path, data, error, OutputFile::Mode::Replace, access);
}

bool appendOutputFile(const QString& path, const QByteArray& data, QString* error,
                      NewFileAccess access)
{
    return writeWhole(path, data, error, OutputFile::Mode::Append, access);
}

bool makeOutputFolder(const QString& path, QString* error, NewFileAccess access)
{
    const QString absolute = QDir::cleanPath(QFileInfo(path).absoluteFilePath());
    QStringList missing;
    for (QString at = absolute;;) {
        struct stat st {};
        if (::stat(QFile::encodeName(at).constData(), &st) == 0) {
            if (S_ISDIR(st.st_mode))
                break;
            *error = QStringLiteral("%1 is not a folder").arg(at);
            return false;
        }
        missing.prepend(at);
        const QString parent = QFileInfo(at).path();
        if (parent == at)
            break;
        at = parent;
    }
    for (const QString& folder : std::as_const(missing)) {
        if (::mkdir(QFile::encodeName(folder).constData(),
                    access == NewFileAccess::Private ? 0700 : 0777) != 0 &&
            errno != EEXIST) {
            *error =
                QStringLiteral("cannot create the folder %1: %2").arg(folder, errnoText(errno));
            return false;
        }
    }
    return true;
}

bool createPrivateFile(const QString& path, QString* error, bool makeFolders)
{
    if (makeFolders && !makeOutputFolder(QFileInfo(path).absolutePath(), error))
        return false;
    const int fd = ::open(QFile::encodeName(path).constData(),
                          O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC | O_NOCTTY, 0600);
    if (fd < 0) {
        if (errno == EEXIST)
            return true;
        *error = QStringLiteral("cannot create %1: %2").arg(path, errnoText(errno));
        return false;
    }
    ::close(fd);
    return true;
}

} // namespace hako
