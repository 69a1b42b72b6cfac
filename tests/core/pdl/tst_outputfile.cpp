#include "core/util/outputfile.h"

#include <QFile>
#include <QTemporaryDir>
#include <QTest>

#include <fcntl.h>
#include <sys/stat.h>
#include <thread>
#include <unistd.h>

using namespace hako;

namespace {

bool isCharacterDevice(const char* path)
{
    struct stat st {};
    return ::stat(path, &st) == 0 && S_ISCHR(st.st_mode);
}

QByteArray contents(const QString& path)
{
    QFile f(path);
    return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray();
}

// The permission bits of `path` (following links), in octal: "600".
QString modeOf(const QString& path)
{
    struct stat st {};
    if (::stat(QFile::encodeName(path).constData(), &st) != 0)
        return QStringLiteral("missing");
    return QString::number(st.st_mode & 07777, 8);
}

} // namespace

class TestOutputFile : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void regularFileIsReplacedWhole()
    {
        QTemporaryDir dir;
        const QString path = dir.filePath("out.json");
        QString error;
        QVERIFY2(writeOutputFile(path, "first", &error), qPrintable(error));
        QVERIFY2(writeOutputFile(path, "2nd", &error), qPrintable(error));
        QCOMPARE(contents(path), QByteArray("2nd"));
        QVERIFY2(appendOutputFile(path, "+more", &error), qPrintable(error));
        QCOMPARE(contents(path), QByteArray("2nd+more"));
        QCOMPARE(outputKind(path), OutputKind::Regular);
    }

    void devicesAreWrittenInPlace()
    {
        if (!isCharacterDevice("/dev/null") || !isCharacterDevice("/dev/full"))
            QSKIP("needs /dev/null and /dev/full");
        QString error;
        QCOMPARE(outputKind("/dev/null"), OutputKind::Stream);
        QVERIFY2(writeOutputFile("/dev/null", "discarded", &error), qPrintable(error));
        QVERIFY2(appendOutputFile("/dev/null", "discarded", &error), qPrintable(error));
        QVERIFY(isCharacterDevice("/dev/null"));
        // /dev/full fails every write: the error is reported and the node stays a device.
        QVERIFY(!writeOutputFile("/dev/full", "lost", &error));
        QVERIFY2(error.contains("No space left"), qPrintable(error));
        QVERIFY(isCharacterDevice("/dev/full"));
    }

    void fifoWithoutReaderIsAnErrorNotAWait()
    {
        QTemporaryDir dir;
        const QByteArray fifo = QFile::encodeName(dir.filePath("pipe"));
        QCOMPARE(::mkfifo(fifo.constData(), 0600), 0);
        QString error;
        QVERIFY(!writeOutputFile(QString::fromLocal8Bit(fifo), "x", &error));
        QVERIFY2(error.contains("no process reads"), qPrintable(error));

        // With a reader, the bytes arrive through the FIFO, which stays a FIFO.
        QByteArray received;
        int reader = ::open(fifo.constData(), O_RDONLY | O_NONBLOCK);
        QVERIFY(reader >= 0);
        QVERIFY2(writeOutputFile(QString::fromLocal8Bit(fifo), "through", &error),
                 qPrintable(error));
        char buffer[64];
        ssize_t n = ::read(reader, buffer, sizeof buffer);
        ::close(reader);
        QCOMPARE(QByteArray(buffer, int(std::max<ssize_t>(n, 0))), QByteArray("through"));
        struct stat st {};
        QVERIFY(::stat(fifo.constData(), &st) == 0 && S_ISFIFO(st.st_mode));
    }

    // New files are private unless asked otherwise; existing files keep their permissions.
    void newFilesArePrivateExistingOnesKeepTheirMode()
    {
        QTemporaryDir dir;
        QString error;
        const QString replaced = dir.filePath("replaced.json");
        QVERIFY2(writeOutputFile(replaced, "one", &error), qPrintable(error));
        QCOMPARE(modeOf(replaced), QStringLiteral("600"));
        QVERIFY(QFile::setPermissions(replaced, QFile::ReadOwner | QFile::WriteOwner |
                                                    QFile::ReadGroup | QFile::ReadOther));
        QVERIFY2(writeOutputFile(replaced, "two", &error), qPrintable(error));
        QCOMPARE(modeOf(replaced), QStringLiteral("644"));
        QCOMPARE(contents(replaced), QByteArray("two"));

        const QString appended = dir.filePath("appended.log");
        QVERIFY2(appendOutputFile(appended, "a", &error), qPrintable(error));
        QCOMPARE(modeOf(appended), QStringLiteral("600"));

        // Shared: what the umask allows, as for any file the user creates.
        const mode_t mask = ::umask(022);
        ::umask(mask);
        const QString shared = dir.filePath("program.pdl");
        QVERIFY2(writeOutputFile(shared, "text: hi\n", &error, NewFileAccess::Shared),
                 qPrintable(error));
        QCOMPARE(modeOf(shared), QString::number(0666 & ~mask, 8));
    }

    // A streamed regular file takes its new content at commit only; abandoned, the old one stays.
    void streamedFileIsReplacedOnCommit()
    {
        QTemporaryDir dir;
        const QString path = dir.filePath("export.jsonl");
        QString error;
        QVERIFY(writeOutputFile(path, "old", &error));
        {
            OutputFile out(path);
            QVERIFY2(out.open(&error), qPrintable(error));
            out.device()->write("line 1\n");
            out.device()->write("line 2\n");
            QCOMPARE(contents(path), QByteArray("old"));
        }
        QCOMPARE(contents(path), QByteArray("old"));
        OutputFile out(path);
        QVERIFY2(out.open(&error), qPrintable(error));
        out.device()->write("line 1\n");
        out.device()->write("line 2\n");
        QVERIFY2(out.commit(&error), qPrintable(error));
        QCOMPARE(contents(path), QByteArray("line 1\nline 2\n"));
    }

    // Through a symbolic link, a FIFO is written in place; neither the link nor the FIFO is
    // replaced. A failed write (here /dev/full) is reported at commit.
    void streamedThroughALinkToAFifo()
    {
        QTemporaryDir dir;
        const QByteArray fifo = QFile::encodeName(dir.filePath("pipe"));
        QCOMPARE(::mkfifo(fifo.constData(), 0600), 0);
        const QString link = dir.filePath("link");
        QVERIFY(QFile::link(QString::fromLocal8Bit(fifo), link));
        int reader = ::open(fifo.constData(), O_RDONLY | O_NONBLOCK);
        QVERIFY(reader >= 0);
        QString error;
        OutputFile out(link);
        QVERIFY2(out.open(&error), qPrintable(error));
        out.device()->write("a,");
        out.device()->write("b");
        QVERIFY2(out.commit(&error), qPrintable(error));
        char buffer[64];
        const ssize_t n = ::read(reader, buffer, sizeof buffer);
        ::close(reader);
        QCOMPARE(QByteArray(buffer, int(std::max<ssize_t>(n, 0))), QByteArray("a,b"));
        struct stat st {};
        QVERIFY(::lstat(link.toLocal8Bit().constData(), &st) == 0 && S_ISLNK(st.st_mode));
        QVERIFY(::lstat(fifo.constData(), &st) == 0 && S_ISFIFO(st.st_mode));

        if (isCharacterDevice("/dev/full")) {
            OutputFile full(QStringLiteral("/dev/full"));
            QVERIFY2(full.open(&error), qPrintable(error));
            full.device()->write("lost");
            QVERIFY(!full.commit(&error));
            QVERIFY2(error.contains("No space left"), qPrintable(error));
            QVERIFY(isCharacterDevice("/dev/full"));
        }
    }

    // Folders Hako creates for its files are private; existing ones are left alone.
    void foldersAndDatabaseFilesArePrivate()
    {
        QTemporaryDir dir;
        QVERIFY(QFile::setPermissions(dir.path(), QFile::ReadOwner | QFile::WriteOwner |
                                                      QFile::ExeOwner | QFile::ReadGroup |
                                                      QFile::ExeGroup));
        QString error;
        const QString deep = dir.filePath("a/b/c");
        QVERIFY2(makeOutputFolder(deep, &error), qPrintable(error));
        for (const char* folder : {"a", "a/b", "a/b/c"})
            QCOMPARE(modeOf(dir.filePath(folder)), QStringLiteral("700"));
        QCOMPARE(modeOf(dir.path()), QStringLiteral("750"));
        QVERIFY2(makeOutputFolder(deep, &error), qPrintable(error));
        QVERIFY(writeOutputFile(dir.filePath("a/file"), "x", &error));
        QVERIFY(!makeOutputFolder(dir.filePath("a/file/sub"), &error));
        QVERIFY2(error.contains("not a folder"), qPrintable(error));

        const QString db = dir.filePath("d/e/log.sqlite");
        QVERIFY2(createPrivateFile(db, &error), qPrintable(error));
        QCOMPARE(modeOf(db), QStringLiteral("600"));
        QCOMPARE(modeOf(dir.filePath("d")), QStringLiteral("700"));
        QCOMPARE(contents(db), QByteArray());
        // An existing database is left as it is.
        QVERIFY(writeOutputFile(db, "SQLite format 3", &error));
        QVERIFY(QFile::setPermissions(db, QFile::ReadOwner | QFile::WriteOwner | QFile::ReadGroup));
        QVERIFY2(createPrivateFile(db, &error), qPrintable(error));
        QCOMPARE(modeOf(db), QStringLiteral("640"));
        QCOMPARE(contents(db), QByteArray("SQLite format 3"));
    }

    void foldersAreRefused()
    {
        QTemporaryDir dir;
        QString error;
        QCOMPARE(outputKind(dir.path()), OutputKind::Refused);
        QVERIFY(!writeOutputFile(dir.path(), "x", &error));
        QCOMPARE(error, QStringLiteral("it is a folder"));
        QVERIFY(!appendOutputFile(dir.path(), "x", &error));
        QVERIFY(!writeOutputFile(dir.filePath("missing/out"), "x", &error));
        QVERIFY(!error.isEmpty());
    }
};

QTEST_GUILESS_MAIN(TestOutputFile)
#include "tst_outputfile.moc"
