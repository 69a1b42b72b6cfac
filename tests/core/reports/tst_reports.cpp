// The report pipeline's core (core/reports): rounding as the question names it against Python's
// decimal ROUND_HALF_UP (tests/tools/gen_rounding_cases.py), the rule read from Japanese
// questions, chunking with overlap, company detection, the transcript cache, and retrieval over
// the three vector stores with the built-in hash embeddings (company filter, BM25 order, the
// threshold, embeddings kept on disk so a second index embeds nothing).
#include "core/memory/hashembedding.h"
#include "core/reports/answerrounding.h"
#include "core/reports/companyname.h"
#include "core/reports/reportindex.h"
#include "core/reports/transcriptcache.h"

#include <QFile>
#include <QTemporaryDir>
#include <QtTest>

#include <atomic>

using namespace hako;
using namespace hako::reports;

namespace {

struct RoundingCase {
    const char* number;
    int decimals;
    const char* expected;
};

const RoundingCase kRoundingCases[] = {
#include "rounding_cases.inc"
};

// The hash embeddings, counting the texts it is asked to embed.
class CountingProvider : public memory::HashEmbeddingProvider {
public:
    std::atomic<int> texts{0};
    Result<std::vector<std::vector<float>>> embed(const std::string& model,
                                                  const std::vector<std::string>& t,
                                                  const CancelToken& cancel) override
    {
        texts += int(t.size());
        return HashEmbeddingProvider::embed(model, t, cancel);
    }
};

// An endpoint without the embedding model, or one giving vectors of changing sizes.
class BrokenProvider : public memory::HashEmbeddingProvider {
public:
    bool ragged = false;
    size_t calls = 0;
    Result<std::vector<std::vector<float>>>
    embed(const std::string& model, const std::vector<std::string>& t, const CancelToken&) override
    {
        if (!ragged)
            return makeError(
                QStringLiteral("model '%1' is not served here").arg(QString::fromStdString(model)));
        std::vector<std::vector<float>> out;
        ++calls;
        for (size_t i = 0; i < t.size(); ++i)
            out.push_back(std::vector<float>(8 + i + calls, 1.0f));
        return out;
    }
};

const std::vector<docs::ChunkPreset> kPresets(std::begin(docs::kChunkPresets),
                                              std::end(docs::kChunkPresets));

std::vector<ReportFile> twoReports()
{
    ReportFile hako{QStringLiteral("/r/hako.pdf"),
                    QStringLiteral("a"),
                    QStringLiteral("ハコ食品株式会社"),
                    {QStringLiteral("ハコ食品株式会社 統合報告書"),
                     QStringLiteral("売上高 12,345.6 百万円。営業利益 1,234.5 百万円。"),
                     QStringLiteral("研究開発費は 456.75 百万円でした。")}};
    ReportFile kumo{QStringLiteral("/r/kumo.pdf"),
                    QStringLiteral("b"),
                    QStringLiteral("クモ電機株式会社"),
                    {QStringLiteral("クモ電機株式会社 有価証券報告書"),
                     QStringLiteral("売上高 99,999.9 百万円。営業利益 8,888.8 百万円。"),
                     QStringLiteral("従業員数は 4,321 人です。")}};
    return {hako, kumo};
}

} // namespace

class TestReports : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void roundHalfUpMatchesPythonDecimal()
    {
        QVERIFY(std::size(kRoundingCases) > 500);
        for (const RoundingCase& c : kRoundingCases) {
            const std::optional<QString> got =
                roundHalfUp(QString::fromLatin1(c.number), c.decimals);
            QVERIFY2(got, c.number);
            QVERIFY2(*got == QLatin1String(c.expected),
                     qPrintable(QStringLiteral("%1 to %2 decimals: %3, Python says %4")
                                    .arg(QLatin1String(c.number))
                                    .arg(c.decimals)
                                    .arg(*got, QLatin1String(c.expected))));
        }
        QVERIFY(!roundHalfUp(QStringLiteral("1.2.3"), 0));
        QVERIFY(!roundHalfUp(QStringLiteral(""), 0));
        QVERIFY(!roundHalfUp(QStringLiteral("12a"), 0));
    }

    void ruleFromQuestion_data()
    {
        QTest::addColumn<QString>("question");
        QTest::addColumn<bool>("found");
        QTest::addColumn<int>("decimals");
        QTest::addColumn<int>("unit"); // -1: none named
        QTest::newRow("第一位を四捨五入 is an integer")
            << "売上高は何百万円ですか。小数第一位を四捨五入してください。" << true << 0 << 6;
        QTest::newRow("第二位を四捨五入") << "比率は？小数第二位を四捨五入" << true << 1 << -1;
        QTest::newRow("full-width digit") << "小数第２位を四捨五入して答えて" << true << 1 << -1;
        QTest::newRow("小数点以下") << "小数点以下第3位を四捨五入" << true << 2 << -1;
        QTest::newRow("まで") << "何億円ですか。小数第二位まで答えてください。" << true << 2 << 8;
        QTest::newRow("整数で") << "従業員数を整数で答えてください" << true << 0 << -1;
        QTest::newRow("一の位") << "一の位を四捨五入してください" << true << -1 << -1;
        QTest::newRow("百の位") << "百の位を四捨五入" << true << -3 << -1;
        QTest::newRow("百万円単位") << "百万円単位で、小数第一位を四捨五入" << true << 0 << 6;
        QTest::newRow("単位：千円") << "単位：千円で答えてください" << true << 0 << 3;
        QTest::newRow("円単位") << "円単位で答えてください" << true << 0 << 0;
        QTest::newRow("no rule") << "社長の名前は何ですか。" << false << 0 << -1;
    }
    void ruleFromQuestion()
    {
        QFETCH(QString, question);
        QFETCH(bool, found);
        QFETCH(int, decimals);
        QFETCH(int, unit);
        const std::optional<RoundingRule> rule = roundingRuleFor(question);
        QCOMPARE(bool(rule), found);
        if (!rule)
            return;
        QCOMPARE(rule->decimals, decimals);
        QCOMPARE(rule->unitExponent.value_or(-1), unit);
    }

    void answerRounded_data()
    {
        QTest::addColumn<QString>("answer");
        QTest::addColumn<QString>("question");
        QTest::addColumn<QString>("expected");
        const QString toInt = QStringLiteral("小数第一位を四捨五入してください。");
        QTest::newRow("commas and unit") << "12,345.6百万円"
                                         << "何百万円ですか。" + toInt << "12346";
        QTest::newRow("bare number is in the asked unit") << "12,345.6"
                                                          << "何百万円ですか。" + toInt << "12346";
        QTest::newRow("tie goes up") << "845.25百万円"
                                     << "小数第二位を四捨五入"
                                     << "845.3";
        QTest::newRow("億 asked, 百万 given") << "456.75百万円"
                                              << "何億円ですか。小数第二位まで答えてください。"
                                              << "4.57";
        QTest::newRow("百万 asked, 億 given") << "1.5億円"
                                              << "百万円単位で" + toInt << "150";
        QTest::newRow("full-width") << "１２．５％" << toInt << "13";
        QTest::newRow("triangle is minus") << "▲2.5百万円" << toInt << "-3";
        QTest::newRow("minus tie away from zero") << "-0.45"
                                                  << "小数第二位を四捨五入"
                                                  << "-0.5";
        QTest::newRow("unknown stays") << "分かりません" << toInt << "分かりません";
        QTest::newRow("no rule: unchanged") << " 箱田 太郎 "
                                            << "社長は誰ですか"
                                            << "箱田 太郎";
        QTest::newRow("no rule, number unchanged") << "12,345.6百万円"
                                                   << "売上高は？"
                                                   << "12,345.6百万円";
    }
    void answerRounded()
    {
        QFETCH(QString, answer);
        QFETCH(QString, question);
        QFETCH(QString, expected);
        QCOMPARE(roundAnswer(answer, question), expected);
    }

    void chunksOverlapAndCoverTheText()
    {
        QString text;
        for (int i = 0; i < 1234; ++i)
            text += QChar(u'あ' + (i % 80));
        for (const docs::ChunkPreset p : kPresets) {
            const auto ranges = chunkRanges(text, p.size, p.overlap);
            QVERIFY(!ranges.empty());
            QCOMPARE(ranges.front().first, qsizetype(0));
            QCOMPARE(ranges.back().second, text.size());
            for (size_t i = 0; i < ranges.size(); ++i) {
                QVERIFY(ranges[i].second - ranges[i].first <= qsizetype(p.size));
                if (i > 0) {
                    QCOMPARE(ranges[i].first - ranges[i - 1].first, qsizetype(p.size - p.overlap));
                    QCOMPARE(ranges[i - 1].second - ranges[i].first, qsizetype(p.overlap));
                }
            }
        }
        QVERIFY(chunkRanges(QString(), 500, 100).empty());
        // A character outside the BMP is never cut in two.
        const QString emoji =
            QString(499, QLatin1Char('a')) + QStringLiteral("😀") + QStringLiteral("b");
        for (const auto& [s, e] : chunkRanges(emoji, 500, 100)) {
            QVERIFY(!emoji.at(s).isLowSurrogate());
            QVERIFY(e == emoji.size() || !emoji.at(e).isLowSurrogate());
        }
    }

    void chunksKnowTheirPage()
    {
        ReportFile r{QStringLiteral("x.pdf"),
                     QStringLiteral("s"),
                     QStringLiteral("X社"),
                     {QString(400, QLatin1Char('a')), QString(400, QLatin1Char('b')),
                      QString(400, QLatin1Char('c'))}};
        const std::vector<ReportChunk> chunks = chunkReport(r, {330, 50});
        QVERIFY(chunks.size() >= 4);
        QCOMPARE(chunks.front().page, 1);
        QCOMPARE(chunks.back().page, 3);
        for (const ReportChunk& c : chunks) {
            QCOMPARE(c.company, QStringLiteral("X社"));
            // A chunk starting with b's starts on page 2.
            if (c.text.startsWith(QLatin1Char('b')))
                QCOMPARE(c.page, 2);
        }
    }

    void companyDetected_data()
    {
        QTest::addColumn<QStringList>("pages");
        QTest::addColumn<QString>("expected");
        QTest::newRow("suffix") << QStringList{"ハコ食品株式会社\n統合報告書",
                                               "当社はハコ食品株式会社の…"}
                                << "ハコ食品株式会社";
        QTest::newRow("prefix") << QStringList{"株式会社クモ電機 有価証券報告書"}
                                << "株式会社クモ電機";
        QTest::newRow("particle ends it")
            << QStringList{"当社はハコ株式会社です"} << "ハコ株式会社";
        QTest::newRow("English") << QStringList{"Hako Foods Co., Ltd. Annual Report"}
                                 << "Hako Foods Co., Ltd.";
        QTest::newRow("most often wins")
            << QStringList{"取引先 株式会社ソト", "ハコ食品株式会社", "ハコ食品株式会社の事業"}
            << "ハコ食品株式会社";
        QTest::newRow("none") << QStringList{"売上高 100"} << "";
    }
    void companyDetected()
    {
        QFETCH(QStringList, pages);
        QFETCH(QString, expected);
        QCOMPARE(detectCompany(pages), expected);
    }

    void companiesCompared()
    {
        QVERIFY(sameCompany(QStringLiteral("ハコ食品株式会社"), QStringLiteral("ハコ食品")));
        QVERIFY(sameCompany(QStringLiteral("株式会社クモ電機"), QStringLiteral("クモ電機(株)")));
        QVERIFY(sameCompany(QStringLiteral("Hako Foods Co., Ltd."), QStringLiteral("hako foods")));
        QVERIFY(!sameCompany(QStringLiteral("ハコ食品株式会社"), QStringLiteral("クモ電機")));
        QVERIFY(!sameCompany(QStringLiteral("株式会社"), QStringLiteral("株式会社")));
    }

    void transcriptsAreKeptByContentPageAndModel()
    {
        QTemporaryDir dir;
        const QString pdf = dir.filePath(QStringLiteral("r.pdf"));
        QFile f(pdf);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write("%PDF-1.4 not really");
        f.close();
        Result<QString> sha = TranscriptCache::fileHash(pdf);
        QVERIFY(sha.ok());
        QCOMPARE(sha->size(), 64);
        TranscriptCache cache(dir.filePath(QStringLiteral("cache")));
        QVERIFY(!cache.find(*sha, 1, QStringLiteral("openai/gpt-4o")));
        QVERIFY(cache.store(*sha, 1, QStringLiteral("openai/gpt-4o"), QStringLiteral("# 一")).ok());
        QCOMPARE(cache.find(*sha, 1, QStringLiteral("openai/gpt-4o")).value_or(QString()),
                 QStringLiteral("# 一"));
        QVERIFY(!cache.find(*sha, 2, QStringLiteral("openai/gpt-4o")));
        QVERIFY(!cache.find(*sha, 1, QStringLiteral("other")));
        // A model name cannot leave the cache folder.
        QVERIFY(cache.pathFor(*sha, 1, QStringLiteral("../../x"))
                    .startsWith(dir.filePath(QStringLiteral("cache/"))));
        QVERIFY(!cache.pathFor(*sha, 1, QStringLiteral("../../x")).contains(QLatin1String("..")));
        QVERIFY(!TranscriptCache::fileHash(dir.filePath(QStringLiteral("missing.pdf"))).ok());
    }

    void embeddingFailuresAreErrorsNamingTheModel()
    {
        QTemporaryDir dir;
        auto provider = std::make_shared<BrokenProvider>();
        auto failed = ReportIndex::build(twoReports(), provider, QStringLiteral("openai/embed"),
                                         dir.path(), kPresets);
        QVERIFY(!failed.ok());
        QVERIFY2(failed.error().message.contains(QLatin1String("openai/embed")),
                 qPrintable(failed.error().message));
        provider->ragged = true;
        auto ragged =
            ReportIndex::build(twoReports(), provider, QStringLiteral("odd"), dir.path(), kPresets);
        QVERIFY(!ragged.ok());
        QVERIFY2(ragged.error().message.contains(QLatin1String("different sizes")),
                 qPrintable(ragged.error().message));
    }

    void contextIsFilteredByCompanyAndRankedByBm25()
    {
        QTemporaryDir dir;
        auto provider = std::make_shared<CountingProvider>();
        auto index = ReportIndex::build(twoReports(), provider, QStringLiteral("hash"), dir.path(),
                                        kPresets);
        QVERIFY2(index.ok(), qPrintable(index ? QString() : index.error().message));
        QCOMPARE((*index)->companies(), (QStringList{QStringLiteral("ハコ食品株式会社"),
                                                     QStringLiteral("クモ電機株式会社")}));
        QCOMPARE((*index)->chunkCounts().size(), size_t(3));
        QVERIFY((*index)->embeddedChunks() > 0);
        const QStringList queries{QStringLiteral("研究開発費は何百万円ですか"),
                                  QStringLiteral("研究開発費")};
        auto context = (*index)->context(queries, {QStringLiteral("ハコ食品")}, 30, 0.3);
        QVERIFY(context.ok());
        QVERIFY(!context->empty());
        QVERIFY(context->front().chunk.text.contains(QStringLiteral("456.75")));
        QCOMPARE(context->front().score, 1.0);
        for (size_t i = 0; i < context->size(); ++i) {
            QCOMPARE((*context)[i].chunk.company, QStringLiteral("ハコ食品株式会社"));
            QVERIFY((*context)[i].score >= 0.3);
            if (i > 0)
                QVERIFY((*context)[i - 1].score >= (*context)[i].score);
        }
        // The other company's figures come only for that company.
        auto kumo =
            (*index)->context({QStringLiteral("従業員数")}, {QStringLiteral("クモ電機")}, 30, 0.3);
        QVERIFY(kumo.ok() && !kumo->empty());
        QVERIFY(kumo->front().chunk.text.contains(QStringLiteral("4,321")));
        // No duplicates.
        QSet<QString> texts;
        for (const ContextChunk& c : *context)
            texts.insert(c.chunk.text);
        QCOMPARE(qsizetype(texts.size()), qsizetype(context->size()));
        // An unknown company means all of them.
        auto any =
            (*index)->context({QStringLiteral("従業員数")}, {QStringLiteral("ソト商事")}, 30, 0.3);
        QVERIFY(any.ok() && !any->empty());
        QVERIFY(any->front().chunk.text.contains(QStringLiteral("4,321")));
        // A higher threshold keeps fewer.
        auto strict = (*index)->context(queries, {}, 30, 0.99);
        QVERIFY(strict.ok());
        QVERIFY(strict->size() < context->size() || context->size() == 1);

        // The same transcripts again: the embeddings are read back, none is asked for.
        const int asked = provider->texts;
        auto again = ReportIndex::build(twoReports(), provider, QStringLiteral("hash"), dir.path(),
                                        kPresets);
        QVERIFY(again.ok());
        QCOMPARE((*again)->embeddedChunks(), 0);
        QCOMPARE(provider->texts.load(), asked);
        auto same = (*again)->context(queries, {QStringLiteral("ハコ食品")}, 30, 0.3);
        QVERIFY(same.ok());
        QCOMPARE(same->front().chunk.text, context->front().chunk.text);
    }
};

QTEST_GUILESS_MAIN(TestReports)
#include "tst_reports.moc"
