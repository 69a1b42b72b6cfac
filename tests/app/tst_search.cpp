// `hako search` as a person or another program drives it from a terminal.
#include "hakoprocess.h"

#include <QFileInfo>
#include <QTemporaryDir>
#include <QTest>

class TestSearch : public QObject {
    Q_OBJECT

    static QString fixture() { return QStringLiteral(HAKO_TEST_DATA_DIR "/docs/seed_small.txt"); }

private Q_SLOTS:
    void initTestCase()
    {
        if (!QFileInfo(hakoBinary()).isExecutable())
            QSKIP("bin/hako is not built");
    }

    void oneCommandPrintsSeedOutput()
    {
        const HakoOutcome o = runHako({QStringLiteral("search"), fixture(),
                                       QStringLiteral("search"), QStringLiteral("白鳥の停車場")});
        QCOMPARE(o.exitCode, 0);
        QCOMPARE(o.out, QStringLiteral("line1: **白鳥の停車場**……\n"
                                       "line3: もうじき**白鳥の停車場**だねえ。……\n[page1/1]\n"));
    }

    void stdinSessionPrintsBlocks()
    {
        const HakoOutcome o =
            runHako({QStringLiteral("search"), fixture()},
                    QStringLiteral("search 停車場\nshow 3 9\nfly\nanswer 十一時\n").toUtf8());
        QCOMPARE(o.exitCode, 0);
        QCOMPARE(o.out, QStringLiteral("Cost so far: 5\nInput: search 停車場\nOutput:\n"
                                       "line1: 白鳥の**停車場**……\n"
                                       "line3: もうじき白鳥の**停車場**だねえ。……\n[page1/1]\n\n"
                                       "Cost so far: 7\nInput: show 3 9\nOutput:\n"
                                       "line3: もうじき白鳥の停車場だねえ。\nline9: Not found.\n\n"
                                       "Cost so far: 7\nInput: fly\nOutput:\nUnknown command.\n\n"
                                       "Cost so far: 8\nInput: answer 十一時\nOutput:\n"
                                       "Answer recorded.\n\n"));
    }

    void contextModeAndSentences()
    {
        const HakoOutcome o =
            runHako({QStringLiteral("search"), QStringLiteral("--mode"), QStringLiteral("context"),
                     QStringLiteral("--units"), QStringLiteral("sentences"), fixture(),
                     QStringLiteral("search"), QStringLiteral("river")});
        QCOMPARE(o.exitCode, 0);
        QVERIFY2(o.out.startsWith(QStringLiteral("sentence2 (line 2): ")), qPrintable(o.out));
        QVERIFY(o.out.contains(QStringLiteral("**river**")));
        QVERIFY(o.out.contains(QStringLiteral("[page1/1] 1 hit")));
    }

    void badInput()
    {
        QTemporaryDir dir;
        const QString bin = dir.filePath(QStringLiteral("x.bin"));
        QFile f(bin);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write(QByteArray("\x01\x02\x00\x00\xff", 5).repeated(100));
        f.close();
        HakoOutcome o =
            runHako({QStringLiteral("search"), bin, QStringLiteral("search"), QStringLiteral("a")});
        QCOMPARE(o.exitCode, 1);
        QVERIFY(o.err.contains(QStringLiteral("binary")));
        o = runHako({QStringLiteral("search"), dir.filePath(QStringLiteral("missing.txt"))});
        QCOMPARE(o.exitCode, 1);
        o = runHako({QStringLiteral("search")});
        QCOMPARE(o.exitCode, 2);
        o = runHako({QStringLiteral("search"), QStringLiteral("--mode"), QStringLiteral("fancy"),
                     fixture()});
        QCOMPARE(o.exitCode, 2);
    }

    void realText()
    {
        const QString path =
            QStringLiteral(HAKO_SHARED_DIR "/data/aozora/ginga_tetsudo_no_yoru.txt");
        if (!QFileInfo::exists(path))
            QSKIP("shared Aozora texts not present (../shared/data/aozora)");
        const HakoOutcome o = runHako(
            {QStringLiteral("search"), path, QStringLiteral("show"), QStringLiteral("182")});
        QCOMPARE(o.out, QStringLiteral("line182: 「ああ、十一時かっきりには着くんだよ。」\n"));
    }
};

QTEST_GUILESS_MAIN(TestSearch)
#include "tst_search.moc"
