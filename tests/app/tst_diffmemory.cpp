// `hako diff` under a memory limit too small for its two traces ends with an error that says
// so (exit 2), never an abort.
#include "hakoprocess.h"

#include <QFile>
#include <QTemporaryDir>
#include <QtTest>

#include <sys/resource.h>

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
};

QTEST_GUILESS_MAIN(TestDiffMemory)
#include "tst_diffmemory.moc"
