#include "core/util/outputfile.h"

#include <QFile>
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

// Writes to a device or FIFO opened in place. O_NONBLOCK on open: a FIFO without a reader
// fails (ENXIO) instead of blocking the run forever.
bool writeInPlace(const QString& path, const QByteArray& data, bool append, QString* error)
{
    const QByteArray native = QFile::encodeName(path);
    int fd = ::open(native.constData(),
                    O_WRONLY | O_CLOEXEC | O_NOCTTY | O_NONBLOCK | (append ? O_APPEND : 0));
    if (fd < 0) {
        *error =
            errno == ENXIO ? QStringLiteral("no process reads from this FIFO") : errnoText(errno);
        return false;
    }
    ::fcntl(fd, F_SETFL, ::fcntl(fd, F_GETFL) & ~O_NONBLOCK);
    // A reader that goes away must give an error, not kill the process with SIGPIPE.
    sigset_t pipeSet, old;
    sigemptyset(&pipeSet);
    sigaddset(&pipeSet, SIGPIPE);
    pthread_sigmask(SIG_BLOCK, &pipeSet, &old);
    const char* p = data.constData();
    qsizetype left = data.size();
    int failure = 0;
    while (left > 0) {
        ssize_t n = ::write(fd, p, size_t(left));
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0) {
            failure = n < 0 ? errno : EIO;
            break;
        }
        p += n;
        left -= n;
    }
    if (failure == EPIPE) {
        timespec zero{0, 0};
        sigtimedwait(&pipeSet, nullptr, &zero);
    }
    pthread_sigmask(SIG_SETMASK, &old, nullptr);
    if (::close(fd) != 0 && !failure && errno != EINTR)
        failure = errno;
    if (failure) {
        *error = errnoText(failure);
        return false;
    }
    return true;
}

} // namespace

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

bool writeOutputFile(const QString& path, const QByteArray& data, QString* error)
{
    QString reason;
    switch (outputKind(path, &reason)) {
    case OutputKind::Refused:
        *error = reason;
        return false;
    case OutputKind::Stream:
        return writeInPlace(path, data, false, error);
    case OutputKind::Regular:
        break;
    }
    QSaveFile f(path);
    if (!f.open(QIODevice::WriteOnly) || f.write(data) != data.size() || !f.commit()) {
        *error = f.errorString();
        return false;
    }
    return true;
}

bool appendOutputFile(const QString& path, const QByteArray& data, QString* error)
{
    QString reason;
    if (outputKind(path, &reason) == OutputKind::Refused) {
        *error = reason;
        return false;
    }
    const QByteArray native = QFile::encodeName(path);
    // O_CREAT for a missing regular file; devices and FIFOs exist already.
    struct stat st {};
    if (::stat(native.constData(), &st) != 0) {
        int fd = ::open(native.constData(), O_WRONLY | O_CREAT | O_CLOEXEC, 0666);
        if (fd < 0) {
            *error = errnoText(errno);
            return false;
        }
        ::close(fd);
    }
    return writeInPlace(path, data, true, error);
}

} // namespace hako
