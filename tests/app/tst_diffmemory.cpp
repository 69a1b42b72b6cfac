// `hako diff` under a memory limit too small for its two traces ends with an error that says
// so (exit 2), never an abort; and two reference-style traces (every model block recording
// its context) compare in a few times the memory of one file.
#include "hakoprocess.h"

#include <QFile>
#include <QTemporaryDir>
#include <QtTest>

#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

namespace {

// About `bytes` of a reference-style trace: a chat loop whose model blocks record the last
// 20 messages as their context and as the messages sent. `variant` changes a few replies.
bool writeChatTrace(const QString& path, qint64 bytes, int variant)
{
    QFile f(path);
    if (!f.open(QIODevice::WriteOnly))
        return false;
    static const char* words[] = {"alpha", "brisk", "cedar", "delta", "ember", "fjord",
                                  "gamut", "haiku", "inlet", "jolly", "koala", "lemon"};
    auto sentence = [](int seed, int length) {
        QByteArray s;
        for (int w = 0; s.size() < length; ++w)
            s += QByteArray(words[(seed * 7 + w * 5 + w * w) % 12]) + ' ';
        return s;
    };
    QList<QByteArray> window;
    f.write("{\"kind\": \"repeat\", \"pdl__id\": \"repeat\", \"repeat\": [");
    for (int i = 0; f.size() < bytes; ++i) {
        window.append("{\"role\": \"user\", \"content\": \"Question " + QByteArray::number(i) +
                      ": " + sentence(i, 200) + "\"}");
        while (window.size() > 20)
            window.removeFirst();
        const QByteArray context = '[' + window.join(", ") + ']';
        const QByteArray reply = "Answer " + QByteArray::number(i) + ": " +
                                 sentence(i + 3 + (i % 50 == 7 ? variant : 0), 800);
        f.write((i ? ", " : "") + QByteArray("{\"kind\": \"model\", \"pdl__id\": \"repeat.") +
                QByteArray::number(i) + ".model\", \"pdl__context\": " + context +
                ", \"pdl__model_input\": " + context + ", \"pdl__result\": \"" + reply + "\"}");
        window.append("{\"role\": \"assistant\", \"content\": \"" + reply + "\"}");
    }
    f.write("]}");
    return true;
}

} // namespace

class TestDiffMemory : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void tooLittleMemoryIsAnError()
    {
#if defined(__SANITIZE_ADDRESS__)
        QSKIP("AddressSanitizer reserves more address space than the limit this test sets");
#endif
        if (!QFile::exists(hakoBinary()))
            QSKIP("build the hako executable first");
        QTemporaryDir dir;
        QStringList files;
        for (const char* name : {"a.json", "b.json"}) {
            files << dir.filePath(QLatin1String(name));
            QFile f(files.last());
            QVERIFY(f.open(QIODevice::WriteOnly));
            // 1.5 million small blocks (about 50 MB): a trace tree many times its file.
            f.write("{\"kind\":\"text\",\"text\":[");
            const QByteArray block = "{\"kind\":\"data\",\"pdl__result\":1},";
            QByteArray chunk;
            for (int i = 0; i < 10000; ++i)
                chunk += block;
            for (int i = 0; i < 150; ++i)
                f.write(chunk);
            f.write("{\"kind\":\"data\",\"pdl__result\":2}]}");
        }
        QProcess p;
        // 600 MB of address space: enough to start, not to hold two such traces.
        p.setChildProcessModifier([] {
            struct rlimit limit {};
            limit.rlim_cur = limit.rlim_max = 600ULL * 1024 * 1024;
            setrlimit(RLIMIT_AS, &limit);
        });
        p.start(hakoBinary(), {QStringLiteral("diff"), files[0], files[1]});
        QVERIFY(p.waitForFinished(120000));
        const QString err = QString::fromUtf8(p.readAllStandardError());
        QCOMPARE(p.exitStatus(), QProcess::NormalExit);
        QCOMPARE(p.exitCode(), 2);
        QVERIFY2(err.contains(QStringLiteral("memory")), qPrintable(err));
    }

    void referenceTracesCompareInAFewTimesTheirSize()
    {
#if defined(__SANITIZE_ADDRESS__)
        QSKIP("AddressSanitizer's own memory would be measured");
#endif
        if (!QFile::exists(hakoBinary()))
            QSKIP("build the hako executable first");
        QTemporaryDir dir;
        const QString a = dir.filePath(QStringLiteral("a.json"));
        const QString b = dir.filePath(QStringLiteral("b.json"));
        const qint64 size = 60LL << 20;
        QVERIFY(writeChatTrace(a, size, 0));
        QVERIFY(writeChatTrace(b, size, 1));
        const QByteArray hako = hakoBinary().toLocal8Bit();
        const QByteArray pa = a.toLocal8Bit();
        const QByteArray pb = b.toLocal8Bit();
        const pid_t pid = fork();
        if (pid == 0) {
            if (!std::freopen("/dev/null", "w", stdout))
                _exit(127);
            execl(hako.constData(), hako.constData(), "diff", pa.constData(), pb.constData(),
                  static_cast<char*>(nullptr));
            _exit(127);
        }
        QVERIFY(pid > 0);
        int status = 0;
        struct rusage usage {};
        QCOMPARE(wait4(pid, &status, 0, &usage), pid);
        QVERIFY(WIFEXITED(status));
        QCOMPARE(WEXITSTATUS(status), 1); // a few replies differ
        // Before, the JSON documents and their copies took about 9 times one file.
        const qint64 peak = qint64(usage.ru_maxrss) * 1024;
        QVERIFY2(peak < 5 * size, qPrintable(QStringLiteral("peak %1 MB for two files of %2 MB")
                                                 .arg(peak >> 20)
                                                 .arg(size >> 20)));
    }
};

QTEST_GUILESS_MAIN(TestDiffMemory)
#include "tst_diffmemory.moc"
