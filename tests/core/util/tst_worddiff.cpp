// The one word diff (core/util/worddiff): its tokens (words, katakana runs, a kanji or kana at a
// time, emoji whole), the segments for English and Japanese edits, empty sides, the fallback
// for two huge different texts, and on random texts that both sides rebuild from the segments
// and that the equal tokens are a longest common subsequence.
#include "core/util/worddiff.h"

#include <QRandomGenerator>
#include <QTest>

using namespace hako;
using Op = WordDiffSegment::Op;

namespace {

int lcsLength(const QStringList& a, const QStringList& b)
{
    std::vector<std::vector<int>> t(size_t(a.size() + 1), std::vector<int>(size_t(b.size() + 1)));
    for (qsizetype i = 1; i <= a.size(); ++i)
        for (qsizetype j = 1; j <= b.size(); ++j)
            t[size_t(i)][size_t(j)] = a[i - 1] == b[j - 1] ? t[size_t(i - 1)][size_t(j - 1)] + 1
                                                           : std::max(t[size_t(i - 1)][size_t(j)],
                                                                      t[size_t(i)][size_t(j - 1)]);
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
        QStringLiteral("𠀋"),  QStringLiteral("don't"), QStringLiteral("\t"),
        QStringLiteral("한"),  QStringLiteral("パン")};
    QString s;
    const int n = int(rng.bounded(25));
    for (int i = 0; i < n; ++i)
        s += pieces.at(rng.bounded(int(pieces.size())));
    return s;
}

// The text of every segment but those of kind `skip`: `a` without Inserts, `b` without Deletes.
QString side(const std::vector<WordDiffSegment>& diff, Op skip)
{
    QString s;
    for (const WordDiffSegment& d : diff)
        if (d.op != skip)
            s += d.text;
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
        QTest::newRow("kanji and hiragana one at a time")
            << QStringLiteral("今日は晴れ。OK")
            << QStringList{QStringLiteral("今"), QStringLiteral("日"), QStringLiteral("は"),
                           QStringLiteral("晴"), QStringLiteral("れ"), QStringLiteral("。"),
                           QStringLiteral("OK")};
        QTest::newRow("katakana loanword is one")
            << QStringLiteral("コンピューターを使う")
            << QStringList{QStringLiteral("コンピューター"), QStringLiteral("を"),
                           QStringLiteral("使"), QStringLiteral("う")};
        QTest::newRow("half-width katakana")
            << QStringLiteral("ﾃｰﾌﾞﾙ") << QStringList{QStringLiteral("ﾃｰﾌﾞﾙ")};
        QTest::newRow("hangul") << QStringLiteral("한국")
                                << QStringList{QStringLiteral("한"), QStringLiteral("국")};
        QTest::newRow("surrogates")
            << QStringLiteral("a\U0001F600𠀋b")
            << QStringList{QStringLiteral("a"), QStringLiteral("\U0001F600"), QStringLiteral("𠀋"),
                           QStringLiteral("b")};
        QTest::newRow("combining marks stay in the word")
            << QStringLiteral("cafe\u0301 ok")
            << QStringList{QStringLiteral("cafe\u0301"), QStringLiteral(" "), QStringLiteral("ok")};
        QTest::newRow("empty") << QString() << QStringList{};
    }

    void tokens()
    {
        QFETCH(QString, text);
        QFETCH(QStringList, tokens);
        QCOMPARE(wordDiffTokens(text), tokens);
        QCOMPARE(wordDiffTokens(text).join(QString()), text);
    }

    void diff_data()
    {
        QTest::addColumn<QString>("a");
        QTest::addColumn<QString>("b");
        QTest::addColumn<QString>("expected");
        QTest::newRow("same") << QStringLiteral("Hello world") << QStringLiteral("Hello world")
                              << QStringLiteral("Hello world");
        QTest::newRow("one word") << QStringLiteral("Hello brave world")
                                  << QStringLiteral("Hello new world")
                                  << QStringLiteral("Hello [-brave-]{+new+} world");
        QTest::newRow("added") << QStringLiteral("a b") << QStringLiteral("a b c")
                               << QStringLiteral("a b{+ c+}");
        QTest::newRow("removed") << QStringLiteral("a, b") << QStringLiteral("a")
                                 << QStringLiteral("a[-, b-]");
        QTest::newRow("from empty")
            << QString() << QStringLiteral("new") << QStringLiteral("{+new+}");
        QTest::newRow("to empty") << QStringLiteral("old text") << QString()
                                  << QStringLiteral("[-old text-]");
        QTest::newRow("both empty") << QString() << QString() << QString();
        QTest::newRow("punctuation")
            << QStringLiteral("Yes.") << QStringLiteral("Yes!") << QStringLiteral("Yes[-.-]{+!+}");
        QTest::newRow("two words apart stay two changes")
            << QStringLiteral("one line") << QStringLiteral("two lines")
            << QStringLiteral("[-one-]{+two+} [-line-]{+lines+}");
        QTest::newRow("japanese sentence, one word changed")
            << QStringLiteral("今日は晴れです") << QStringLiteral("今日は雨です")
            << QStringLiteral("今日は[-晴れ-]{+雨+}です");
        QTest::newRow("japanese katakana loanword")
            << QStringLiteral("コンピュータを使う") << QStringLiteral("パソコンを使う")
            << QStringLiteral("[-コンピュータ-]{+パソコン+}を使う");
        QTest::newRow("katakana inside kanji")
            << QStringLiteral("東京のホテルに泊まる") << QStringLiteral("東京のホステルに泊まる")
            << QStringLiteral("東京の[-ホテル-]{+ホステル+}に泊まる");
        QTest::newRow("mixed") << QStringLiteral("答えは 42 です。")
                               << QStringLiteral("答えは 43 です。")
                               << QStringLiteral("答えは [-42-]{+43+} です。");
        QTest::newRow("emoji") << QStringLiteral("ok \U0001F600 done")
                               << QStringLiteral("ok \U0001F622 done")
                               << QStringLiteral("ok [-\U0001F600-]{+\U0001F622+} done");
    }

    void diff()
    {
        QFETCH(QString, a);
        QFETCH(QString, b);
        QFETCH(QString, expected);
        const std::vector<WordDiffSegment> d = wordDiff(a, b);
        QCOMPARE(formatWordDiff(d), expected);
        QCOMPARE(side(d, Op::Insert), a);
        QCOMPARE(side(d, Op::Delete), b);
    }

    void segmentsCountTheirTokens()
    {
        const auto d = wordDiff(QStringLiteral("今日は晴れです"), QStringLiteral("今日は雨です"));
        QCOMPARE(int(d.size()), 4);
        QCOMPARE(d[0], (WordDiffSegment{Op::Equal, QStringLiteral("今日は"), 3}));
        QCOMPARE(d[1], (WordDiffSegment{Op::Delete, QStringLiteral("晴れ"), 2}));
        QCOMPARE(d[2], (WordDiffSegment{Op::Insert, QStringLiteral("雨"), 1}));
        QCOMPARE(d[3], (WordDiffSegment{Op::Equal, QStringLiteral("です"), 2}));
    }

    void joiningAcrossSpaces()
    {
        const auto d = joinChangesAcrossSpaces(
            wordDiff(QStringLiteral("one line"), QStringLiteral("two lines")));
        QCOMPARE(formatWordDiff(d), QStringLiteral("[-one line-]{+two lines+}"));
        QCOMPARE(d[0].tokens, 3);
        // A line break is kept as it is.
        QCOMPARE(formatWordDiff(joinChangesAcrossSpaces(
                     wordDiff(QStringLiteral("one\nline"), QStringLiteral("two\nlines")))),
                 QStringLiteral("[-one-]{+two+}\n[-line-]{+lines+}"));
    }

    void longTextsWithFewChanges()
    {
        QString a, b;
        for (int i = 0; i < 20000; ++i) {
            a += QStringLiteral("word%1 ").arg(i);
            b += QStringLiteral("word%1 ").arg(i % 997 == 0 ? -i : i);
        }
        const std::vector<WordDiffSegment> d = wordDiff(a, b);
        int deletes = 0;
        for (const WordDiffSegment& c : d)
            deletes += c.op == Op::Delete;
        QCOMPARE(deletes, 20); // i = 997, 1994, …, 19940
    }

    void hugeDifferentTextsFallBackToOneChange()
    {
        // Past the edit budget the middle between the common head and tail is one deletion and
        // one insertion, and both sides still rebuild.
        QString a = QStringLiteral("Start "), b = QStringLiteral("Start ");
        for (int i = 0; i < 30000; ++i) {
            a += QStringLiteral("a%1 ").arg(i);
            b += QStringLiteral("b%1 ").arg(i);
        }
        a += QStringLiteral("end");
        b += QStringLiteral("end");
        const std::vector<WordDiffSegment> d = wordDiff(a, b);
        QCOMPARE(int(d.size()), 4);
        QCOMPARE(d[0], (WordDiffSegment{Op::Equal, QStringLiteral("Start "), 2}));
        QCOMPARE(d[1].op, Op::Delete);
        QCOMPARE(d[2].op, Op::Insert);
        QCOMPARE(d[3].text, QStringLiteral(" end"));
        QCOMPARE(side(d, Op::Insert), a);
        QCOMPARE(side(d, Op::Delete), b);
    }

    void randomTextsRebuildAndShareALongestSubsequence()
    {
        QRandomGenerator rng(20261127);
        for (int round = 0; round < 2000; ++round) {
            const QString a = randomText(rng);
            const QString b = rng.bounded(4) == 0 ? a : randomText(rng);
            const auto diff = wordDiff(a, b);
            QCOMPARE(side(diff, Op::Insert), a);
            QCOMPARE(side(diff, Op::Delete), b);
            int equal = 0;
            for (size_t i = 0; i < diff.size(); ++i) {
                const WordDiffSegment& s = diff[i];
                QCOMPARE(s.tokens, int(wordDiffTokens(s.text).size()));
                QVERIFY(!s.text.isEmpty());
                if (i > 0) {
                    QVERIFY(diff[i - 1].op != s.op);
                    QVERIFY(!(diff[i - 1].op == Op::Insert && s.op == Op::Delete));
                }
                if (s.op == Op::Equal)
                    equal += s.tokens;
            }
            QCOMPARE(equal, lcsLength(wordDiffTokens(a), wordDiffTokens(b)));
            const auto joined = joinChangesAcrossSpaces(diff);
            QCOMPARE(side(joined, Op::Insert), a);
            QCOMPARE(side(joined, Op::Delete), b);
        }
    }
};

QTEST_GUILESS_MAIN(TestWordDiff)
#include "tst_worddiff.moc"
