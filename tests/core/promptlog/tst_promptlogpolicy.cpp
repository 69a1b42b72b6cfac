// The prompt log's pure rules: prompt names, redaction, metadata-only, prices, the settings
// file, ages, percentiles and the monitor's sort order.
#include "core/promptlog/callquery.h"
#include "core/promptlog/pricetable.h"
#include "core/promptlog/privacypolicy.h"

#include <QFile>
#include <QJsonDocument>
#include <QTemporaryDir>
#include <QTest>

using namespace hako::promptlog;

class TestPromptLogPolicy : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void promptNames()
    {
        QCOMPARE(promptNameFor(QStringLiteral("react"), QStringLiteral("Decide"),
                               QStringLiteral("/a/agent.pdl"), 12),
                 QStringLiteral("react"));
        QCOMPARE(promptNameFor({}, QStringLiteral("  Decide whether to answer\nmore text"),
                               QStringLiteral("/a/agent.pdl"), 12),
                 QStringLiteral("Decide whether to answer"));
        QCOMPARE(promptNameFor({}, {}, QStringLiteral("/a/agent.pdl"), 12),
                 QStringLiteral("agent.pdl:12"));
    }

    void builtinRedaction_data()
    {
        QTest::addColumn<QString>("text");
        QTest::addColumn<QString>("stored");
        QTest::newRow("email") << "mail a.b+c@mail.example.co.jp now"
                               << "mail [REDACTED:email] now";
        QTest::newRow("openai key") << "key=sk-proj-AbCdEfGhIjKlMnOpQrSt_uv-12"
                                    << "key=[REDACTED:key]";
        QTest::newRow("anthropic key") << "sk-ant-api03-abcdefghijklmnopqrstu"
                                       << "[REDACTED:key]";
        QTest::newRow("bearer") << "Authorization: Bearer abc.DEF-123_456"
                                << "Authorization: Bearer [REDACTED:key]";
        QTest::newRow("aws") << "AKIAIOSFODNN7EXAMPLE here"
                             << "[REDACTED:key] here";
        QTest::newRow("github") << "ghp_abcdefghijklmnopqrstuvwxyz0123456789"
                                << "[REDACTED:key]";
        QTest::newRow("jp phone") << "電話 03-1234-5678 まで"
                                  << "電話 [REDACTED:phone] まで";
        QTest::newRow("mobile") << "090-1234-5678"
                                << "[REDACTED:phone]";
        QTest::newRow("international") << "call +81 90 1234 5678."
                                       << "call [REDACTED:phone].";
        QTest::newRow("us") << "(555) 123-4567"
                            << "[REDACTED:phone]";
        QTest::newRow("date stays") << "on 2024-05-01 at 10:30"
                                    << "on 2024-05-01 at 10:30";
        QTest::newRow("numbers stay") << "tokens 12345 and 3.14159 and v1.2.3"
                                      << "tokens 12345 and 3.14159 and v1.2.3";
        QTest::newRow("short sk stays") << "a task-list and sk-1"
                                        << "a task-list and sk-1";
        QTest::newRow("plain bearer stays") << "the Bearer of news"
                                            << "the Bearer of news";
    }
    void builtinRedaction()
    {
        QFETCH(QString, text);
        QFETCH(QString, stored);
        PrivacyPolicy p;
        QCOMPARE(p.redact(text), stored);
        p.builtinRedaction = false;
        // An Authorization value is a credential: it goes even without the built-in rules.
        QCOMPARE(p.redact(text), QTest::currentDataTag() == QByteArray("bearer") ? stored : text);
    }

    void credentialsGoEvenWithoutBuiltinRules_data()
    {
        QTest::addColumn<QString>("text");
        QTest::addColumn<QString>("stored");
        QTest::newRow("url password") << "http://hako:s3cret@collector:4318/v1"
                                      << "http://hako:[REDACTED:key]@collector:4318/v1";
        QTest::newRow("assignment") << "retry with api_key=abc123 and password: hunter2;"
                                    << "retry with api_key=[REDACTED:key] and password: "
                                       "[REDACTED:key];";
        QTest::newRow("quoted") << R"({"client_secret": "xyz", "n": 1})"
                                << R"({"client_secret": "[REDACTED:key]", "n": 1})";
        QTest::newRow("basic auth") << "Proxy-Authorization: Basic dXNlcjpwYXNz"
                                    << "Proxy-Authorization: Basic [REDACTED:key]";
        QTest::newRow("prose stays") << "a password policy and the key to it"
                                     << "a password policy and the key to it";
        QTest::newRow("url without password stays") << "https://example.com/a?b=c"
                                                    << "https://example.com/a?b=c";
    }
    void credentialsGoEvenWithoutBuiltinRules()
    {
        QFETCH(QString, text);
        QFETCH(QString, stored);
        PrivacyPolicy p;
        p.builtinRedaction = false;
        QCOMPARE(p.redact(text), stored);
        QCOMPARE(p.redact(stored), stored); // twice changes nothing (export redacts again)
    }

    void userPatterns()
    {
        PrivacyPolicy p;
        p.userPatterns = {QStringLiteral("社員番号\\d+"), QStringLiteral("(?i)project\\s+falcon")};
        QCOMPARE(p.redact(QStringLiteral("社員番号123 on Project  Falcon")),
                 QStringLiteral("[REDACTED] on [REDACTED]"));
        QVERIFY(p.validate());
        p.userPatterns.append(QStringLiteral("(unclosed"));
        QVERIFY(!p.validate());
        QVERIFY(p.validate().error().message.contains(QLatin1String("(unclosed")));
    }

    // Policies with other patterns one after another on one thread (the compiled patterns are
    // kept per thread): each redacts with its own, none with the one before.
    void patternsChangeBetweenPolicies()
    {
        PrivacyPolicy a;
        a.userPatterns = {QStringLiteral("alpha\\d")};
        PrivacyPolicy b;
        b.userPatterns = {QStringLiteral("beta\\d")};
        const PrivacyPolicy none;
        const QString text = QStringLiteral("alpha1 beta2");
        for (int round = 0; round < 2; ++round) {
            QCOMPARE(a.redact(text), QStringLiteral("[REDACTED] beta2"));
            QCOMPARE(b.redact(text), QStringLiteral("alpha1 [REDACTED]"));
            QCOMPARE(none.redact(text), text);
        }
        a.userPatterns.append(QStringLiteral("beta\\d"));
        QCOMPARE(a.redact(text), QStringLiteral("[REDACTED] [REDACTED]"));
    }

    void applyReachesNestedContent()
    {
        PrivacyPolicy p;
        CallRecord c;
        c.messages = QJsonArray{QJsonObject{
            {QStringLiteral("role"), QStringLiteral("user")},
            {QStringLiteral("content"),
             QJsonArray{QJsonObject{{QStringLiteral("type"), QStringLiteral("text")},
                                    {QStringLiteral("text"), QStringLiteral("me@x.org")}}}}}};
        c.toolCalls = QJsonArray{
            QJsonObject{{QStringLiteral("arguments"), QStringLiteral("{\"to\": \"me@x.org\"}")}}};
        c.parameters = QJsonObject{{QStringLiteral("user"), QStringLiteral("me@x.org")}};
        p.apply(c);
        const QString text = QString::fromUtf8(QJsonDocument(c.messages).toJson());
        QVERIFY(!text.contains(QLatin1String("me@x.org")));
        QVERIFY(!QJsonDocument(c.toolCalls).toJson().contains("me@x.org"));
        // Parameters are stored too, so they go through the same rules.
        QCOMPARE(c.parameters.value(QLatin1String("user")).toString(),
                 QStringLiteral("[REDACTED:email]"));
        QVERIFY(!c.contentOmitted);
    }

    void metadataOnlyRules()
    {
        PrivacyPolicy p;
        p.metadataOnlyTags = {QStringLiteral("secret"), QStringLiteral("customer:*")};
        p.metadataOnlyFolders = {QStringLiteral("/srv/legal/")};
        CallRecord c;
        c.reply = QStringLiteral("text");
        QVERIFY(!p.metadataOnly(c));
        c.tags = {QStringLiteral("env:x"), QStringLiteral("customer:acme")};
        QVERIFY(p.metadataOnly(c));
        c.tags = {QStringLiteral("secretive")};
        QVERIFY(!p.metadataOnly(c));
        c.programPath = QStringLiteral("/srv/legal/a/b.pdl");
        QVERIFY(p.metadataOnly(c));
        c.programPath = QStringLiteral("/srv/legal-team/b.pdl");
        QVERIFY(!p.metadataOnly(c));
    }

    void prices()
    {
        PriceTable t;
        QCOMPARE(t.cost(QStringLiteral("gpt-4o"), 100, 100, std::nullopt), std::nullopt);
        t.entries = {{QStringLiteral("openai/gpt-4o-mini*"), 0.15, 0.6, std::nullopt},
                     {QStringLiteral("*"), 1, 2, 0.5}};
        QCOMPARE(*t.cost(QStringLiteral("openai/gpt-4o-mini"), 1'000'000, 0, std::nullopt), 0.15);
        // First match wins; cached prompt tokens priced as cached.
        QCOMPARE(*t.cost(QStringLiteral("x"), 1'000'000, 1'000'000, 500'000), 0.5 + 0.25 + 2.0);
        QCOMPARE(t.cost(QStringLiteral("x"), std::nullopt, std::nullopt, std::nullopt),
                 std::nullopt);

        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("prices.json"));
        auto empty = PriceTable::load(path);
        QVERIFY(empty);
        QVERIFY(empty->entries.isEmpty());
        QVERIFY(t.save(path));
        auto back = PriceTable::load(path);
        QVERIFY(back);
        QCOMPARE(*back, t);
        QFile f(path);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write(R"({"models": [{"match": "gpt*", "input": "cheap"}]})");
        f.close();
        auto bad = PriceTable::load(path);
        QVERIFY(!bad);
        QVERIFY(bad.error().message.contains(QLatin1String("entry 1")));
    }

    void settingsFile()
    {
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("promptlog.json"));
        auto defaults = PromptLogSettings::load(path);
        QVERIFY(defaults);
        QVERIFY(defaults->privacy.builtinRedaction);
        QCOMPARE(defaults->retentionDays, 0);
        PromptLogSettings s;
        s.privacy.userPatterns = {QStringLiteral("x+")};
        s.privacy.metadataOnlyTags = {QStringLiteral("secret")};
        s.privacy.metadataOnlyFolders = {QStringLiteral("/srv")};
        s.retentionDays = 30;
        s.log = QStringLiteral("postgresql://me@db/hako");
        QVERIFY(s.save(path));
        auto back = PromptLogSettings::load(path);
        QVERIFY(back);
        QCOMPARE(back->privacy, s.privacy);
        QCOMPARE(back->retentionDays, 30);
        QCOMPARE(back->log, s.log);
    }

    void ages()
    {
        QCOMPARE(parseAge(QStringLiteral("2d")), std::optional<int64_t>(2 * 86400000LL));
        QCOMPARE(parseAge(QStringLiteral("12h")), std::optional<int64_t>(12 * 3600000LL));
        QCOMPARE(parseAge(QStringLiteral("30m")), std::optional<int64_t>(30 * 60000LL));
        QCOMPARE(parseAge(QStringLiteral("1w")), std::optional<int64_t>(7 * 86400000LL));
        QCOMPARE(parseAge(QStringLiteral("d")), std::nullopt);
        QCOMPARE(parseAge(QStringLiteral("5y")), std::nullopt);
        QCOMPARE(parseAge(QStringLiteral("-1d")), std::nullopt);
    }

    void percentiles()
    {
        std::vector<double> none;
        QCOMPARE(percentileDisc(none, 0.5), std::nullopt);
        std::vector<double> v = {5, 1, 4, 2, 3};
        QCOMPARE(percentileDisc(v, 0.5), std::optional<double>(3));
        QCOMPARE(percentileDisc(v, 0.95), std::optional<double>(5));
        std::vector<double> w = {10, 20, 30, 40};
        QCOMPARE(percentileDisc(w, 0.5), std::optional<double>(20));
        QCOMPARE(percentileDisc(w, 0.95), std::optional<double>(40));
    }

    void searchWords()
    {
        QCOMPARE(searchTerms(QStringLiteral("  銀河 \"rate limit\" 銀河 x")),
                 (QStringList{QStringLiteral("銀河"), QStringLiteral("rate limit"),
                              QStringLiteral("x")}));
    }

    void sortOrders()
    {
        QList<StatsRow> rows(3);
        rows[0].key = QStringLiteral("b");
        rows[0].tokensIn = 10;
        rows[0].cost = 1.0;
        rows[1].key = QStringLiteral("a");
        rows[1].tokensIn = 30;
        rows[2].key = QStringLiteral("c");
        rows[2].tokensIn = 10;
        rows[2].cost = 2.0;
        auto keys = [](const QList<StatsRow>& r) {
            QStringList k;
            for (const StatsRow& x : r)
                k.append(x.key);
            return k.join(QString());
        };
        sortStats(rows, StatsColumn::TokensIn);
        QCOMPARE(keys(rows), QStringLiteral("abc"));
        sortStats(rows, StatsColumn::Cost);
        QCOMPARE(keys(rows), QStringLiteral("cba")); // no cost goes last
        sortStats(rows, StatsColumn::Cost, true);
        QCOMPARE(keys(rows), QStringLiteral("bca"));
        sortStats(rows, StatsColumn::Key);
        QCOMPARE(keys(rows), QStringLiteral("abc"));
        QCOMPARE(statsColumnFromName(QStringLiteral("p95")), std::optional(StatsColumn::P95));
        QCOMPARE(statsColumnFromName(QStringLiteral("bogus")), std::nullopt);
    }
};

QTEST_GUILESS_MAIN(TestPromptLogPolicy)
#include "tst_promptlogpolicy.moc"
