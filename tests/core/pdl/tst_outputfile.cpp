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
