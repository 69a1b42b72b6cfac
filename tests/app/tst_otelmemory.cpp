// `hako run --otel` writes its spans as it makes them: its peak memory stays near that of
// `hako run --trace` for the same run (it was eight times as much, and a 435,000-block run
// aborted), and the file holds every span. Peak memory is the kernel's count for the child
// processes (getrusage), compared between the two runs, never against a clock.
#include "hakoprocess.h"

#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>
#include <QtTest>

#include <sys/resource.h>

namespace {

// The largest resident set of any child process waited for so far, in KiB.
long childrenPeakKiB()
{
    struct rusage usage {};
    getrusage(RUSAGE_CHILDREN, &usage);
    return usage.ru_maxrss;
}

} // namespace

class TestOtelMemory : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void otelFileCostsNoMoreThanATrace()
    {
        if (!QFile::exists(hakoBinary()))
            QSKIP("build the hako executable first");
        QTemporaryDir dir;
        const QString program = dir.filePath(QStringLiteral("many.pdl"));
        {
            QFile f(program);
            QVERIFY(f.open(QIODevice::WriteOnly));
            f.write("description: many blocks\n"
                    "for:\n  i: ${ range(20000) }\n"
                    "repeat:\n  text:\n  - data: ${ i }\n  - \"x\"\n"
                    "join:\n  as: array\n");
        }
        // The --trace run first: the peak after it is its own (this process has no other
        // children yet); after the --otel run, the larger of the two.
        const HakoOutcome traced = runHako({QStringLiteral("run"), QStringLiteral("--trace"),
                                            dir.filePath(QStringLiteral("t.json")), program});
        QCOMPARE(traced.exitCode, 0);
        const long tracePeak = childrenPeakKiB();
        const QString otel = dir.filePath(QStringLiteral("o.json"));
        const HakoOutcome exported =
            runHako({QStringLiteral("run"), QStringLiteral("--otel"), otel, program});
        QCOMPARE(exported.exitCode, 0);
        const long bothPeak = childrenPeakKiB();
        QVERIFY2(bothPeak <= tracePeak * 3 / 2,
                 qPrintable(QStringLiteral("--trace peaked at %1 KiB, --otel at %2 KiB")
                                .arg(tracePeak)
                                .arg(bothPeak)));
        // Every block is a span, in one request on one line.
        QFile f(otel);
        QVERIFY(f.open(QIODevice::ReadOnly));
        const QByteArray text = f.readAll();
        QCOMPARE(text.count('\n'), 1);
        const QJsonArray spans = QJsonDocument::fromJson(text)
                                     .object()[QStringLiteral("resourceSpans")]
                                     .toArray()
                                     .at(0)
                                     .toObject()[QStringLiteral("scopeSpans")]
                                     .toArray()
                                     .at(0)
                                     .toObject()[QStringLiteral("spans")]
                                     .toArray();
        QCOMPARE(spans.size(), 60001);
    }
};

QTEST_GUILESS_MAIN(TestOtelMemory)
#include "tst_otelmemory.moc"
