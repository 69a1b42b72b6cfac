// Word-level diff: both sides rebuild exactly from the segments, the equal tokens are a longest
// common subsequence (checked against an independent dynamic programme), and Japanese text is
// compared character by character.
#include "core/playground/worddiff.h"

#include <QRandomGenerator>
#include <QTest>

using namespace hako::playground;

namespace {

int lcsLength(const QStringList& a, const QStringList& b)
{
    std::vector<std::vector<int>> t(size_t(a.size() + 1), std::vector<int>(size_t(b.size() + 1)));
    for (qsizetype i = 1; i <= a.size(); ++i) {
        for (qsizetype j = 1; j <= b.size(); ++j) {
            t[size_t(i)][size_t(j)] = a[i - 1] == b[j - 1] ? t[size_t(i - 1)][size_t(j - 1)] + 1
                                                           : std::max(t[size_t(i - 1)][size_t(j)],
                                                                      t[size_t(i)][size_t(j - 1)]);
        }
    }
    return t[size_t(a.size())][size_t(b.size())];
}

QString randomText(QRandomGenerator& rng)
{
    static const QStringList pieces = {
        QStringLiteral("the"), QStringLiteral("cat"),   QStringLiteral("sat"),
        QStringLiteral("on"),  QStringLiteral("mat"),   QStringLiteral(" "),
        QStringLiteral("  "),  QStringLiteral("\n"),    QStringLiteral(","),
        QStringLiteral("."),   QStringLiteral("!"),     QStringLiteral("今日"),
        QStringLiteral("は"),  QStringLiteral("晴れ"),  QStringLiteral("です"),
        QStringLiteral("。"),  QStringLiteral("雨"),    QStringLiteral("カタカナ"),
        QStringLiteral("42"),  QStringLiteral("é"),     QStringLiteral("\U0001F600"),
        QStringLiteral("𠀋"),  QStringLiteral("don't"), QStringLiteral("\t")};
    QString s;
    const int n = int(rng.bounded(25));
    for (int i = 0; i < n; ++i)
        s += pieces.at(rng.bounded(int(pieces.size())));
    return s;
}

QString side(const std::vector<DiffSegment>& diff, DiffSegment::Op skip)
{
    QString s;
    for (const DiffSegment& d : diff) {
        if (d.op != skip)
            s += d.text;
    }
    return s;
}

} // namespace

class TestWordDiff : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void tokens_data()
    {
        QTest::addColumn<QString>("text");
        QTest::addColumn<QStringList>("tokens");
        QTest::newRow("words") << QStringLiteral("Hello,  world!\n")
                               << QStringList{QStringLiteral("Hello"), QStringLiteral(","),
                                              QStringLiteral("  "),    QStringLiteral("world"),
                                              QStringLiteral("!"),     QStringLiteral("\n")};
        QTest::newRow("japanese") << QStringLiteral("今日は晴れ。OK")
                                  << QStringList{QStringLiteral("今"), QStringLiteral("日"),
                                                 QStringLiteral("は"), QStringLiteral("晴"),
                                                 QStringLiteral("れ"), QStringLiteral("。"),
                                                 QStringLiteral("OK")};
        QTest::newRow("surrogates")
            << QStringLiteral("a\U0001F600𠀋b")
            << QStringList{QStringLiteral("a"), QStringLiteral("\U0001F600"), QStringLiteral("𠀋"),
                           QStringLiteral("b")};
        QTest::newRow("empty") << QString() << QStringList{};
    }

    void tokens()
    {
        QFETCH(QString, text);
        QFETCH(QStringList, tokens);
        QCOMPARE(diffTokens(text), tokens);
        QCOMPARE(diffTokens(text).join(QString()), text);
    }

    void japaneseDiffIsPerCharacter()
    {
        const auto d = wordDiff(QStringLiteral("今日は晴れです"), QStringLiteral("今日は雨です"));
        QCOMPARE(int(d.size()), 4);
        QCOMPARE(d[0], (DiffSegment{DiffSegment::Op::Equal, QStringLiteral("今日は"), 3}));
        QCOMPARE(d[1], (DiffSegment{DiffSegment::Op::Delete, QStringLiteral("晴れ"), 2}));
        QCOMPARE(d[2], (DiffSegment{DiffSegment::Op::Insert, QStringLiteral("雨"), 1}));
        QCOMPARE(d[3], (DiffSegment{DiffSegment::Op::Equal, QStringLiteral("です"), 2}));
    }

    void wordsDiff()
    {
        const auto d =
            wordDiff(QStringLiteral("The quick brown fox"), QStringLiteral("The slow brown fox!"));
        QCOMPARE(int(d.size()), 5);
        QCOMPARE(d[1].text, QStringLiteral("quick"));
        QCOMPARE(d[1].op, DiffSegment::Op::Delete);
        QCOMPARE(d[2].text, QStringLiteral("slow"));
        QCOMPARE(d[4].text, QStringLiteral("!"));
        QCOMPARE(d[4].op, DiffSegment::Op::Insert);
    }

    void randomAgainstLcs()
    {
        QRandomGenerator rng(20261124);
        for (int round = 0; round < 2000; ++round) {
            const QString a = randomText(rng);
            const QString b = rng.bounded(4) == 0 ? a : randomText(rng);
            const auto diff = wordDiff(a, b);
            QCOMPARE(side(diff, DiffSegment::Op::Insert), a);
            QCOMPARE(side(diff, DiffSegment::Op::Delete), b);
            int equal = 0;
            for (size_t i = 0; i < diff.size(); ++i) {
                const DiffSegment& s = diff[i];
                QCOMPARE(s.tokens, int(diffTokens(s.text).size()));
                QVERIFY(!s.text.isEmpty());
                if (i > 0)
                    QVERIFY(diff[i - 1].op != s.op);
                if (s.op == DiffSegment::Op::Equal)
                    equal += s.tokens;
            }
            QCOMPARE(equal, lcsLength(diffTokens(a), diffTokens(b)));
        }
    }
};

QTEST_GUILESS_MAIN(TestWordDiff)
#include "tst_worddiff.moc"
