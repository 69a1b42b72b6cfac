// CallInsert, the prompt log's insert of calls still being made (`hako serve`'s received spans),
// against both stores: it stores what insertNow() stores, in one transaction, skipping the
// calls the log has, and a store that refuses it keeps nothing of it.
#include "promptlogstores.h"

#include "core/promptlog/logbackend_p.h"
#include "core/promptlog/promptlog.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTest>

#include <algorithm>
#include <vector>

using namespace hako::promptlog;
using namespace promptlogtest;
using hako::Result;

namespace {

// A policy and prices that change what is stored: an API key redacted, a cost computed.
PromptLogOptions shapingOptions()
{
    PromptLogOptions o;
    o.privacy.userPatterns = {QStringLiteral("ACME-[0-9]{6}")};
    o.prices.entries = {{QStringLiteral("gpt-*"), 1, 2, std::nullopt}};
    return o;
}

// Call `i` of a stream: tags, tool calls and inputs on some, a secret in some, a cost already
// known on some, no uid on every seventh (the log gives it one).
CallRecord streamCall(int i)
{
    CallRecord c = simpleCall(QStringLiteral("p%1").arg(i % 4),
                              i % 2 ? QStringLiteral("gpt-4o") : QStringLiteral("local"), kNow + i);
    if (i % 7 != 0)
        c.uid = QStringLiteral("stream-%1").arg(i, 4, 10, QLatin1Char('0'));
    c.messages = chat(QStringLiteral("sys %1").arg(i),
                      i % 3 ? QStringLiteral("ticket ACME-%1 for 日本語 %2").arg(100000 + i).arg(i)
                            : QStringLiteral("key sk-abcdefghijklmnopqrstuvwx%1").arg(i));
    c.reply = QStringLiteral("reply %1").arg(i);
    if (i % 5 == 0)
        c.tags = {QStringLiteral("t%1").arg(i % 3), QStringLiteral("stream")};
    if (i % 4 == 0)
        c.toolCalls = QJsonArray{QJsonObject{{QStringLiteral("name"), QStringLiteral("f")}}};
    if (i % 6 == 0)
        c.inputs = QJsonObject{{QStringLiteral("n"), i}};
    if (i % 9 == 0)
        c.cost = 0.5;
    c.parameters = QJsonObject{{QStringLiteral("temperature"), 0.1 * (i % 10)},
                               {QStringLiteral("api_key"), QStringLiteral("secret%1").arg(i)}};
    return c;
}

std::vector<CallRecord> streamCalls(int n)
{
    std::vector<CallRecord> calls;
    for (int i = 0; i < n; ++i)
        calls.push_back(streamCall(i));
    return calls;
}

// The log's calls, oldest first, with their content; a uid the log made is blanked (it is
// random), after checking it is there.
QList<CallRecord> storedCalls(PromptLog& log)
{
    CallFilter all;
    all.limit = 100000;
    Result<QList<CallRecord>> listed = log.list(all, true);
    if (!listed)
        qFatal("%s", qPrintable(listed.error().message));
    QList<CallRecord> calls = *listed;
    std::sort(calls.begin(), calls.end(),
              [](const CallRecord& a, const CallRecord& b) { return a.startedAt < b.startedAt; });
    for (CallRecord& c : calls) {
        if (!c.uid.startsWith(QLatin1String("stream-"))) {
            if (c.uid.size() < 32)
                qFatal("a call without a uid was stored with %s", qPrintable(c.uid));
            c.uid.clear();
        }
        c.id = 0;
    }
    return calls;
}

} // namespace

class TestCallInsert : public QObject, public PromptLogStores {
    Q_OBJECT

private Q_SLOTS:
    void initTestCase() { startStores(); }

    void storesWhatInsertNowStores_data() { addBackends(); }
    // Batches of every size from 1 to 40 (and one of the rest) against one insertNow() of the
    // same calls into a second log: the same calls, redacted and priced alike.
    void storesWhatInsertNowStores()
    {
        FRESH_LOG(streamed, shapingOptions());
        auto whole = freshLog(backend, shapingOptions());
        QVERIFY2(whole, qPrintable(m_lastError));
        const std::vector<CallRecord> calls = streamCalls(300);
        Result<int64_t> direct = whole->insertNow(calls);
        QVERIFY2(direct, qPrintable(direct ? QString() : direct.error().message));
        QCOMPARE(*direct, int64_t(300));

        CallInsert insert = streamed->beginInsert();
        size_t at = 0;
        for (size_t size = 1; at < calls.size(); size = size % 40 + 1) {
            const size_t end = std::min(calls.size(), at + size);
            insert.add(
                std::vector<CallRecord>(calls.begin() + long(at), calls.begin() + long(end)));
            at = end;
        }
        Result<int64_t> added = insert.finish();
        QVERIFY2(added, qPrintable(added ? QString() : added.error().message));
        QCOMPARE(*added, int64_t(300));

        const QList<CallRecord> expected = storedCalls(*whole);
        const QList<CallRecord> got = storedCalls(*streamed);
        QCOMPARE(got.size(), 300);
        for (int i = 0; i < 300; ++i)
            QVERIFY2(got[i] == expected[i], qPrintable(QStringLiteral("call %1 differs").arg(i)));
        // The rules did apply: nothing to compare would pass as well if neither had.
        QVERIFY(!got[1].messages.toVariantList().isEmpty());
        const QString text = QString::fromUtf8(QJsonDocument(got[1].messages).toJson());
        QVERIFY2(!text.contains(QLatin1String("ACME-100001")), qPrintable(text));
        QVERIFY(got[1].cost.has_value());
        QVERIFY(!got[2].cost.has_value()); // "local" has no price
    }

    void skipsCallsTheLogHas_data() { addBackends(); }
    // A retried request: the calls already logged are not added again, the others are, and
    // finish() says how many were new.
    void skipsCallsTheLogHas()
    {
        FRESH_LOG(log);
        std::vector<CallRecord> calls = streamCalls(60);
        calls.erase(std::remove_if(calls.begin(), calls.end(),
                                   [](const CallRecord& c) { return c.uid.isEmpty(); }),
                    calls.end());
        const int64_t n = int64_t(calls.size());
        QVERIFY(log->insertNow(std::vector<CallRecord>(calls.begin(), calls.begin() + 20)));
        CallInsert insert = log->beginInsert();
        for (size_t i = 0; i < calls.size(); i += 16)
            insert.add(std::vector<CallRecord>(
                calls.begin() + long(i), calls.begin() + long(std::min(calls.size(), i + 16))));
        Result<int64_t> added = insert.finish();
        QVERIFY(added);
        QCOMPARE(*added, n - 20);
        QCOMPARE(*log->count({}), n);
        // Sent a third time, whole: nothing new.
        CallInsert again = log->beginInsert();
        again.add(calls);
        QCOMPARE(*again.finish(), int64_t(0));
        QCOMPARE(*log->count({}), n);
    }

    void nothingAddedTouchesNothing_data() { addBackends(); }
    // A request without model calls: finish() gives 0 at once; a dropped CallInsert commits
    // what it was given.
    void nothingAddedTouchesNothing()
    {
        FRESH_LOG(log);
        {
            CallInsert empty = log->beginInsert();
            empty.add({});
            Result<int64_t> none = empty.finish();
            QVERIFY(none);
            QCOMPARE(*none, int64_t(0));
        }
        {
            CallInsert dropped = log->beginInsert();
            dropped.add(streamCalls(5));
        }
        QCOMPARE(*log->count({}), int64_t(5));
    }

    // A store that refuses a call half-way through a stream (a trigger stands in for a full
    // disk): finish() says why, and the calls committed before are all that is there (the
    // stream's transaction left nothing); the log takes the calls once it can.
    void aRefusedStreamStoresNothingOfIt()
    {
        const QString path = m_dir.filePath(QStringLiteral("refusing.sqlite"));
        auto log = PromptLog::open(path);
        QVERIFY(log);
        QVERIFY(log->insertNow(streamCalls(3)));
        std::unique_ptr<LogBackend> raw = makeSqliteBackend(path, 0);
        QVERIFY(raw->execute(QStringLiteral("CREATE TRIGGER refuse AFTER INSERT ON calls "
                                            "WHEN NEW.uid = 'late-150' BEGIN "
                                            "SELECT RAISE(ABORT, 'refused by the test'); END"),
                             {}));
        std::vector<CallRecord> late = streamCalls(200);
        for (size_t i = 0; i < late.size(); ++i)
            late[i].uid = QStringLiteral("late-%1").arg(i);
        CallInsert insert = log->beginInsert();
        for (size_t i = 0; i < late.size(); i += 10)
            insert.add(
                std::vector<CallRecord>(late.begin() + long(i), late.begin() + long(i + 10)));
        Result<int64_t> refused = insert.finish();
        QVERIFY(!refused);
        QVERIFY2(refused.error().message.contains(QLatin1String("refused by the test")),
                 qPrintable(refused.error().message));
        QCOMPARE(*log->count({}), int64_t(3));
        QCOMPARE(*log->integrityCheck(), QStringLiteral("ok"));

        QVERIFY(raw->execute(QStringLiteral("DROP TRIGGER refuse"), {}));
        CallInsert again = log->beginInsert();
        for (size_t i = 0; i < late.size(); i += 10)
            again.add(std::vector<CallRecord>(late.begin() + long(i), late.begin() + long(i + 10)));
        QCOMPARE(*again.finish(), int64_t(200));
        QCOMPARE(*log->count({}), int64_t(203));
    }
};

QTEST_GUILESS_MAIN(TestCallInsert)
#include "tst_callinsert.moc"
