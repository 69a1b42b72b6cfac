// The memory agent example (resources/examples/memory_agent.pdl) end to end: `hako run
// --memory STORE` against the local OpenAI-compatible test server with scripted replies. Checks
// what a user relies on: the replies it prints, where it stops, the memories it writes (with
// evidence and merges), the retrievals it journals (linked to the blocks that made them) and
// the prompts the model received (thread chain only, relevant memories oldest first).
#include "hakoprocess.h"
#include "openaitestserver.h"

#include "core/memory/memorystore.h"

#include <QDir>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>
#include <QtTest>

using hako::testing::OpenAiTestServer;
using hako::testing::ScriptedReply;
using namespace hako::memory;

namespace {

const QString kExample = QStringLiteral(HAKO_SOURCE_DIR "/resources/examples/memory_agent.pdl");

QString json(const QJsonObject& o)
{
    return QString::fromUtf8(QJsonDocument(o).toJson(QJsonDocument::Compact));
}
QString json(const QJsonArray& a)
{
    return QString::fromUtf8(QJsonDocument(a).toJson(QJsonDocument::Compact));
}

QString react(const char* reaction, const char* why, const char* id)
{
    return json(QJsonObject{
        {"reaction", reaction}, {"thought_process", why}, {"action", "reply"}, {"message_id", id}});
}

QString facts(const char* fact, int importance)
{
    return json(QJsonArray{QJsonObject{{"fact", fact}, {"importance", importance}}});
}

// The text of the last message of a recorded chat request.
QString prompt(const hako::testing::RecordedRequest& r)
{
    const QJsonArray messages =
        QJsonDocument::fromJson(r.body).object().value(QStringLiteral("messages")).toArray();
    return messages.isEmpty()
               ? QString()
               : messages.last().toObject().value(QStringLiteral("content")).toString();
}

} // namespace

class TestMemoryExample : public QObject {
    Q_OBJECT

    std::unique_ptr<OpenAiTestServer> m_server;
    QTemporaryDir m_dir;

    QList<hako::testing::RecordedRequest> chats() const
    {
        QList<hako::testing::RecordedRequest> out;
        for (const auto& r : m_server->requests())
            if (r.path.endsWith("/chat/completions"))
                out.append(r);
        return out;
    }

private Q_SLOTS:
    void init()
    {
        if (!QFileInfo::exists(kExample))
            QSKIP("resources/examples/memory_agent.pdl is missing");
        m_server = std::make_unique<OpenAiTestServer>();
        QVERIFY(m_server->start());
        // The example's default model is ollama_chat/granite3.2:2b: point Ollama at the server.
        qputenv("OLLAMA_API_BASE",
                QStringLiteral("http://127.0.0.1:%1").arg(m_server->port()).toUtf8());
        qunsetenv("LITELLM_PROXY_API_BASE");
        QVERIFY(QDir::setCurrent(m_dir.path()));
    }
    void cleanup() { m_server.reset(); }

    void fullLoop()
    {
        // fa950 (ken): react; 8938b (ken): react, then the importance stored since the start
        // (3 + 4 + 6, then 3 + 4 + 8 = 28) passes the threshold 25: reflection merges;
        // d4e5f (spam): ignore; a1b2c (yui): react, the third reply: stop before e7f80.
        const QList<QString> replies{
            QStringLiteral("Ken plans to watch the Perseids."),
            react("react", "Ken shares his plans", "fa950"),
            QStringLiteral("Enjoy Kawaguchi, Ken! Look north-east after midnight."),
            facts("Ken watches the Perseids from Lake Kawaguchi", 6),
            QStringLiteral("Ken went to Kawaguchi."),
            react("react", "Ken reports back", "8938b"),
            QStringLiteral("Forty an hour is a superb count, and a fireball too!"),
            facts("Ken counted 40 meteors in one hour and saw a green fireball", 8),
            json(QJsonObject{{"summary", "Ken observed the Perseids at Lake Kawaguchi: 40 "
                                         "meteors an hour and a green fireball."},
                             {"importance", 8}}),
            QStringLiteral("Ken's Perseids trip."),
            react("ignore", "This is spam.", "d4e5f"),
            QStringLiteral("Ken's Perseids trip; spam arrived."),
            react("react", "Yui asks for tips", "a1b2c"),
            QStringLiteral("Use your 14mm wide open and 15-second exposures, Yui."),
            facts("Yui photographs meteors with a 14mm lens", 5),
        };
        for (const QString& r : replies)
            m_server->enqueueChat(ScriptedReply::chat(r));

        const QString store = m_dir.filePath(QStringLiteral("agent.hakomem"));
        const HakoOutcome run = runHako({QStringLiteral("run"), QStringLiteral("--memory"), store,
                                         QStringLiteral("--trace"),
                                         m_dir.filePath(QStringLiteral("trace.json")), kExample});
        QVERIFY2(run.exitCode == 0, qPrintable(run.err + run.out));
        QCOMPARE(run.out,
                 QStringLiteral(
                     "[react] fa950 ken: Enjoy Kawaguchi, Ken! Look north-east after midnight.\n"
                     "[react] 8938b ken: Forty an hour is a superb count, and a fireball too!\n"
                     "[reflect] merged 6 memories into memory 7\n"
                     "[ignore] d4e5f followers4u: This is spam.\n"
                     "[react] a1b2c yui: Use your 14mm wide open and 15-second exposures, Yui.\n"
                     "replies: 3\n\n"));

        // Every scripted reply was used, and nothing was asked after the stop.
        const auto requests = chats();
        QCOMPARE(requests.size(), replies.size());
        for (const auto& r : requests) {
            QVERIFY(!prompt(r).contains(QLatin1String("first telescope")));
            QCOMPARE(QJsonDocument::fromJson(r.body).object().value("model").toString(),
                     QStringLiteral("granite3.2:2b"));
        }
        // React sees the summary of recent memories and the thread.
        const QString react2 = prompt(requests[5]);
        QVERIFY2(react2.contains(QLatin1String("Ken went to Kawaguchi.")), qPrintable(react2));
        // The Action prompt for 8938b: the chain root → fa950 → 32411 → 8938b, no sibling
        // branch (d4e5f, a1b2c) ...
        const QString action2 = prompt(requests[6]);
        int at = -1;
        for (const char* id : {"[cbddc] hoshi", "[fa950] ken", "[32411] hoshi", "[8938b] ken"}) {
            const int next = action2.indexOf(QLatin1String(id));
            QVERIFY2(next > at, id);
            at = next;
        }
        QVERIFY(!action2.contains(QLatin1String("14mm")));
        QVERIFY(!action2.contains(QLatin1String("followers")));
        // ... and the relevant memories, oldest first: observation 1, reply 2, insight 3,
        // observation 4 (all four are the top 5).
        at = -1;
        for (const char* text : {"ken wrote: Yes! I'm driving", "I (hoshi) replied to ken: Enjoy",
                                 "Ken watches the Perseids", "ken wrote: Back home"}) {
            const int next = action2.indexOf(QLatin1String(text));
            QVERIFY2(next > at, text);
            at = next;
        }
        // The reflection prompt lists the six memories it merges.
        QVERIFY(prompt(requests[8]).contains(QLatin1String("Ken counted 40 meteors")));

        auto opened = MemoryStore::open(store);
        QVERIFY(opened.ok());
        auto s = opened.value();
        QCOMPARE(s->count(std::nullopt), int64_t(11));
        QCOMPARE(s->count(State::Archived), int64_t(6));
        const MemoryRecord reflection = s->get(7).value();
        QCOMPARE(reflection.kind, Kind::Reflection);
        QCOMPARE(reflection.evidence, (std::vector<int64_t>{1, 2, 3, 4, 5, 6}));
        QCOMPARE(reflection.importance, 8);
        const MemoryRecord insight = s->get(6).value();
        QCOMPARE(insight.kind, Kind::Insight);
        QCOMPARE(insight.importance, 8);
        QCOMPARE(insight.evidence, std::vector<int64_t>{4}); // the observation of 8938b
        QCOMPARE(insight.source.messageIds, QStringList{"8938b"});
        QCOMPARE(insight.source.threadId, QStringLiteral("cbddc"));
        QCOMPARE(s->get(8)->kind, Kind::Observation);
        QVERIFY(s->get(8)->text.contains(QLatin1String("followers4u")));
        QCOMPARE(s->get(10)->kind, Kind::Chat);
        QCOMPARE(s->get(10)->source.messageIds, QStringList{"a1b2c"});
        QCOMPARE(s->embeddingModel(), QStringLiteral("hash"));

        // Retrievals: recent(20) per event, recent(50) for the reflection, seed top 5 per
        // reply; each names its run and the block that made it.
        const auto retrievals = s->retrievals().value(); // newest first
        QCOMPARE(retrievals.size(), size_t(8));
        int seed = 0;
        const QString runId = retrievals.front().runId;
        QVERIFY(!runId.isEmpty());
        for (const RetrievalRecord& r : retrievals) {
            QCOMPARE(r.runId, runId);
            QVERIFY2(r.nodeId.startsWith(QLatin1String("text.0.repeat.")), qPrintable(r.nodeId));
            if (r.result.params.mode == RetrievalMode::Seed) {
                ++seed;
                QCOMPARE(r.result.params.k, 5);
            }
        }
        QCOMPARE(seed, 3);
        // The last seed retrieval (for a1b2c): the reflection and the two observations since,
        // in created order.
        const RetrievalRecord last = s->retrieval(retrievals.front().seq).value();
        QCOMPARE(last.result.params.mode, RetrievalMode::Seed);
        QCOMPARE(last.result.promptOrder, (std::vector<int64_t>{7, 8, 9}));
        QVERIFY(last.query.contains(QLatin1String("[a1b2c] yui")));
        QVERIFY(!last.query.contains(QLatin1String("[fa950]")));

        // The retrieval's node is a block of the run's trace.
        QFile trace(m_dir.filePath(QStringLiteral("trace.json")));
        QVERIFY(trace.open(QIODevice::ReadOnly));
        const QByteArray traceText = trace.readAll();
        QVERIFY2(traceText.contains(("\"" + last.nodeId + "\"").toUtf8()), qPrintable(last.nodeId));
    }

    void stopsAtTheEndOfTheFeed()
    {
        // Everyone ignored: six events (every message not by hoshi), two calls each.
        const char* events[] = {"fa950", "8938b", "d4e5f", "a1b2c", "e7f80", "0c1d2"};
        for (const char* id : events) {
            m_server->enqueueChat(ScriptedReply::chat(QStringLiteral("Nothing much.")));
            m_server->enqueueChat(ScriptedReply::chat(react("ignore", "Not for me.", id)));
        }
        const QString store = m_dir.filePath(QStringLiteral("quiet.hakomem"));
        const HakoOutcome run =
            runHako({QStringLiteral("run"), QStringLiteral("--memory"), store, QStringLiteral("-d"),
                     QStringLiteral("{max_replies: 2}"), kExample});
        QVERIFY2(run.exitCode == 0, qPrintable(run.err + run.out));
        const QStringList lines = run.out.trimmed().split(u'\n');
        QCOMPARE(lines.size(), 7);
        for (int i = 0; i < 6; ++i)
            QVERIFY2(
                lines[i].startsWith(QStringLiteral("[ignore] %1 ").arg(QLatin1String(events[i]))),
                qPrintable(lines[i]));
        QCOMPARE(lines[6], QStringLiteral("replies: 0"));
        QCOMPARE(chats().size(), 12);
        auto s = MemoryStore::open(store).value();
        QCOMPARE(s->count(), int64_t(6)); // one observation each, nothing else
        for (const auto& r : s->retrievals().value())
            QCOMPARE(r.result.params.mode, RetrievalMode::Recent);
    }

    void refusesABadStore()
    {
        const QString notAStore = m_dir.filePath(QStringLiteral("junk.hakomem"));
        QFile f(notAStore);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write("this is not SQLite at all, just text that is long enough to look like a file");
        f.close();
        const HakoOutcome run =
            runHako({QStringLiteral("run"), QStringLiteral("--memory"), notAStore, kExample});
        QCOMPARE(run.exitCode, 1);
        QVERIFY2(run.err.contains(QLatin1String("junk.hakomem")), qPrintable(run.err));
        QCOMPARE(m_server->requestCount(), 0);
    }
};

QTEST_GUILESS_MAIN(TestMemoryExample)
#include "tst_memoryexample.moc"
