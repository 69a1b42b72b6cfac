// `hako memory` as a user runs it from a terminal: no display, a store file, plain output.
#include "hakoprocess.h"
#include "openaitestserver.h"

#include "core/memory/memorystore.h"

#include <QDir>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>
#include <QTest>

#include <functional>
#include <unistd.h>

class TestMemoryCli : public QObject {
    Q_OBJECT

    QTemporaryDir m_dir;
    int m_n = 0;
    QString freshStore() { return m_dir.filePath(QStringLiteral("s%1.hakomem").arg(++m_n)); }

    static HakoOutcome mem(const QString& store, QStringList args)
    {
        args.prepend(store);
        args.prepend(QStringLiteral("--store"));
        args.prepend(QStringLiteral("memory"));
        return runHako(args);
    }
    static QString add(const QString& store, const QString& text, const QString& created,
                       int importance = 5)
    {
        const HakoOutcome o =
            mem(store,
                {QStringLiteral("add"), QStringLiteral("--text"), text, QStringLiteral("--created"),
                 created, QStringLiteral("--importance"), QString::number(importance)});
        return o.exitCode == 0 ? o.out.trimmed() : QStringLiteral("error: ") + o.err;
    }

private Q_SLOTS:
    void initTestCase()
    {
        if (!QFileInfo(hakoBinary()).isExecutable())
            QSKIP("bin/hako is not built");
        QVERIFY(m_dir.isValid());
    }

    void helpAndUsage()
    {
        const HakoOutcome help = runHako({QStringLiteral("memory"), QStringLiteral("--help")});
        QCOMPARE(help.exitCode, 0);
        QVERIFY(help.out.contains(QLatin1String("import-ga DIR")));
        QVERIFY(help.out.contains(QLatin1String("'hash' is a built-in")));
        QCOMPARE(runHako({QStringLiteral("memory"), QStringLiteral("list")}).exitCode, 2);
        const HakoOutcome bad = mem(freshStore(), {QStringLiteral("frobnicate")});
        QCOMPARE(bad.exitCode, 2);
        QVERIFY(bad.err.contains(QLatin1String("unknown command 'frobnicate'")));
    }

    void addListRetrieveInPromptOrder()
    {
        const QString s = freshStore();
        const QString a = add(s, QStringLiteral("The ramen broth was rich"),
                              QStringLiteral("2024-05-01T10:00:00Z"));
        const QString b =
            add(s, QStringLiteral("Tax forms are due in April"), QStringLiteral("2024-04-01"), 9);
        const QString c = add(s, QStringLiteral("The ramen queue was long"),
                              QStringLiteral("2024-03-01T08:00:00Z"));
        QCOMPARE(a, QStringLiteral("1"));
        QCOMPARE(b, QStringLiteral("2"));
        QCOMPARE(c, QStringLiteral("3"));

        const HakoOutcome list = mem(s, {QStringLiteral("list")});
        QCOMPARE(list.exitCode, 0);
        QCOMPARE(list.out.split(QLatin1Char('\n'), Qt::SkipEmptyParts).size(), 3);
        QVERIFY(list.out.contains(QLatin1String(
            "2\tobservation\tactive\t9\t2024-04-01T00:00:00Z\tTax forms are due in April\n")));

        // Seed mode: the two ramen memories by cosine, then oldest first.
        const HakoOutcome r =
            mem(s, {QStringLiteral("retrieve"), QStringLiteral("--query"), QStringLiteral("ramen"),
                    QStringLiteral("-k"), QStringLiteral("2")});
        QCOMPARE(r.exitCode, 0);
        const QStringList lines = r.out.split(QLatin1Char('\n'), Qt::SkipEmptyParts);
        QCOMPARE(lines.size(), 2);
        const QStringList first = lines[0].split(QLatin1Char('\t'));
        QCOMPARE(first.size(), 4);
        QCOMPARE(first[0], QStringLiteral("3"));
        QCOMPARE(first[1], QStringLiteral("2024-03-01T08:00:00Z"));
        QVERIFY(first[2].toDouble() > 0);
        QCOMPARE(first[3], QStringLiteral("The ramen queue was long"));
        QVERIFY(lines[1].startsWith(QLatin1String("1\t2024-05-01T10:00:00Z\t")));
    }

    void jsonListsEveryCandidate()
    {
        const QString s = freshStore();
        add(s, QStringLiteral("alpha beta"), QStringLiteral("2024-01-01"), 2);
        add(s, QStringLiteral("gamma delta"), QStringLiteral("2024-01-02"), 8);
        add(s, QStringLiteral("alpha gamma"), QStringLiteral("2024-01-03"), 5);
        const HakoOutcome r =
            mem(s, {QStringLiteral("retrieve"), QStringLiteral("--query"), QStringLiteral("alpha"),
                    QStringLiteral("--mode"), QStringLiteral("ga"), QStringLiteral("-k"),
                    QStringLiteral("1"), QStringLiteral("--weights"), QStringLiteral("0,1,0"),
                    QStringLiteral("--json")});
        QCOMPARE(r.exitCode, 0);
        const QJsonObject o = QJsonDocument::fromJson(r.out.toUtf8()).object();
        const QJsonArray cands = o.value(QStringLiteral("candidates")).toArray();
        QCOMPARE(cands.size(), 3);
        // Importance alone: the memory of importance 8 wins; the others are cut with a reason.
        QCOMPARE(cands[0].toObject().value(QStringLiteral("id")).toInt(), 2);
        QCOMPARE(cands[0]
                     .toObject()
                     .value(QStringLiteral("normalised"))
                     .toObject()
                     .value(QStringLiteral("importance"))
                     .toDouble(),
                 1.0);
        QCOMPARE(cands[2]
                     .toObject()
                     .value(QStringLiteral("normalised"))
                     .toObject()
                     .value(QStringLiteral("importance"))
                     .toDouble(),
                 0.0);
        QCOMPARE(cands[1].toObject().value(QStringLiteral("cut")).toString(),
                 QStringLiteral("below top 1"));
        QCOMPARE(cands[1].toObject().value(QStringLiteral("rank")).toInt(), 2);
        QVERIFY(cands[1]
                    .toObject()
                    .value(QStringLiteral("raw"))
                    .toObject()
                    .contains(QStringLiteral("relevance")));
        QCOMPARE(o.value(QStringLiteral("prompt_order")).toArray(), QJsonArray{2});
        QVERIFY(o.value(QStringLiteral("retrieval")).toInt() > 0);
    }

    void whatIfChangesNothing()
    {
        const QString s = freshStore();
        add(s, QStringLiteral("alpha"), QStringLiteral("2024-01-01"));
        const QString before = mem(s, {QStringLiteral("export")}).out;
        const HakoOutcome r = mem(s, {QStringLiteral("retrieve"), QStringLiteral("--query"),
                                      QStringLiteral("alpha"), QStringLiteral("--what-if")});
        QCOMPARE(r.exitCode, 0);
        QVERIFY(r.out.startsWith(QLatin1String("1\t")));
        QCOMPARE(mem(s, {QStringLiteral("export")}).out, before);
        // A real retrieval is journaled and counts as an access.
        mem(s, {QStringLiteral("retrieve"), QStringLiteral("--query"), QStringLiteral("alpha")});
        const QJsonObject doc =
            QJsonDocument::fromJson(mem(s, {QStringLiteral("export")}).out.toUtf8()).object();
        QCOMPARE(doc.value(QStringLiteral("memories"))
                     .toArray()[0]
                     .toObject()
                     .value(QStringLiteral("access_count"))
                     .toInt(),
                 1);
        QStringList ops;
        for (const QJsonValue e : doc.value(QStringLiteral("journal")).toArray())
            ops.append(e.toObject().value(QStringLiteral("op")).toString());
        QCOMPARE(ops, (QStringList{QStringLiteral("add"), QStringLiteral("retrieve"),
                                   QStringLiteral("access")}));
    }

    void foreignModelRefused()
    {
        const QString s = freshStore();
        add(s, QStringLiteral("alpha"), QStringLiteral("2024-01-01"));
        const HakoOutcome o =
            mem(s, {QStringLiteral("add"), QStringLiteral("--text"), QStringLiteral("x"),
                    QStringLiteral("--embedding-model"), QStringLiteral("nomic-embed-text")});
        QCOMPARE(o.exitCode, 1);
        QVERIFY2(o.err.contains(QLatin1String("nomic-embed-text")), qPrintable(o.err));
    }

    // A configured embedding model (here the OpenAI-compatible test server, whose vectors are
    // 4-dimensional) embeds both the memories and the query.
    void embeddingsFromAConfiguredModel()
    {
        hako::testing::OpenAiTestServer server;
        QVERIFY(server.start());
        qputenv("OPENAI_BASE_URL", server.baseUrl().toUtf8());
        qputenv("OPENAI_API_KEY", "sk-test");
        const QString s = freshStore();
        const QStringList model{QStringLiteral("--embedding-model"),
                                QStringLiteral("text-embedding-3-small")};
        for (const char* text : {"the ramen queue was long", "tax forms are due"}) {
            const HakoOutcome o =
                mem(s, QStringList{QStringLiteral("add"), QStringLiteral("--text"),
                                   QString::fromUtf8(text)} +
                           model);
            QVERIFY2(o.exitCode == 0, qPrintable(o.err));
        }
        // Later commands use the store's model without being told.
        const HakoOutcome q = mem(s, {QStringLiteral("retrieve"), QStringLiteral("--query"),
                                      QStringLiteral("ramen"), QStringLiteral("--json")});
        QVERIFY2(q.exitCode == 0, qPrintable(q.err));
        int embeddings = 0;
        for (const auto& r : server.requests()) {
            if (r.path.endsWith("/embeddings")) {
                ++embeddings;
                QVERIFY(r.body.contains("text-embedding-3-small"));
            }
        }
        QCOMPARE(embeddings, 3);
        const QJsonArray list =
            QJsonDocument::fromJson(
                mem(s, {QStringLiteral("list"), QStringLiteral("--json")}).out.toUtf8())
                .array();
        QCOMPARE(list.size(), 2);
        {
            auto store = hako::memory::MemoryStore::open(s).value();
            QCOMPARE(store->embeddingModel(), QStringLiteral("text-embedding-3-small"));
            QCOMPARE(store->embeddingDimension(), 4);
        }
        // The hash model is refused now, before anything is asked.
        const int before = server.requestCount();
        const HakoOutcome h =
            mem(s, {QStringLiteral("add"), QStringLiteral("--text"), QStringLiteral("x"),
                    QStringLiteral("--embedding-model"), QStringLiteral("hash")});
        QCOMPARE(h.exitCode, 1);
        QVERIFY2(h.err.contains(QLatin1String("text-embedding-3-small")), qPrintable(h.err));
        QCOMPARE(server.requestCount(), before);
    }

    void importGaThenExportImportRoundTrip()
    {
        const QString s = freshStore();
        const HakoOutcome o =
            mem(s, {QStringLiteral("import-ga"), QStringLiteral(HAKO_TEST_DATA_DIR "/memory/ga"),
                    QStringLiteral("--agent"), QStringLiteral("isabella")});
        QVERIFY2(o.exitCode == 0, qPrintable(o.err));
        QVERIFY2(o.out.contains(QLatin1String("imported 4 memories (2 observations, 1 chats, 1 "
                                              "reflections; 4 keyword strengths read)")),
                 qPrintable(o.out));
        const QJsonArray list =
            QJsonDocument::fromJson(
                mem(s, {QStringLiteral("list"), QStringLiteral("--json")}).out.toUtf8())
                .array();
        QCOMPARE(list.size(), 4);
        const QJsonObject thought = list[3].toObject();
        QCOMPARE(thought.value(QStringLiteral("kind")).toString(), QStringLiteral("reflection"));
        QCOMPARE(thought.value(QStringLiteral("evidence")).toArray(), (QJsonArray{1, 2}));
        QCOMPARE(thought.value(QStringLiteral("importance")).toInt(), 8);
        QCOMPARE(thought.value(QStringLiteral("importance_source")).toString(),
                 QStringLiteral("model"));
        QCOMPARE(list[0].toObject().value(QStringLiteral("last_accessed_at")).toString(),
                 QStringLiteral("2023-02-13T12:30:00Z"));
        QCOMPARE(list[0].toObject().value(QStringLiteral("agent")).toString(),
                 QStringLiteral("isabella"));
        // The store's model is now the folder's: hash queries are refused with a message.
        const HakoOutcome q = mem(
            s, {QStringLiteral("retrieve"), QStringLiteral("--query"), QStringLiteral("party")});
        QCOMPARE(q.exitCode, 1);

        const QString file = m_dir.filePath(QStringLiteral("export.json"));
        QCOMPARE(mem(s, {QStringLiteral("export"), file}).exitCode, 0);
        const QString copy = freshStore();
        const HakoOutcome imp = mem(copy, {QStringLiteral("import"), file});
        QVERIFY2(imp.exitCode == 0, qPrintable(imp.err));
        QCOMPARE(imp.out.trimmed(), QStringLiteral("imported 4 memories"));
        const QJsonArray copied =
            QJsonDocument::fromJson(
                mem(copy, {QStringLiteral("list"), QStringLiteral("--json")}).out.toUtf8())
                .array();
        QCOMPARE(copied.size(), 4);
        QCOMPARE(copied[3].toObject().value(QStringLiteral("evidence")).toArray(),
                 (QJsonArray{1, 2}));
        QCOMPARE(copied[2].toObject().value(QStringLiteral("text")),
                 list[2].toObject().value(QStringLiteral("text")));
    }

    void importGaReembedWithHash()
    {
        const QString s = freshStore();
        const HakoOutcome o =
            mem(s, {QStringLiteral("import-ga"), QStringLiteral(HAKO_TEST_DATA_DIR "/memory/ga"),
                    QStringLiteral("--reembed"), QStringLiteral("--embedding-model"),
                    QStringLiteral("hash")});
        QVERIFY2(o.exitCode == 0, qPrintable(o.err));
        const HakoOutcome q =
            mem(s, {QStringLiteral("retrieve"), QStringLiteral("--query"),
                    QStringLiteral("Hobbs Cafe idle"), QStringLiteral("-k"), QStringLiteral("1")});
        QCOMPARE(q.exitCode, 0);
        QVERIFY2(q.out.endsWith(QLatin1String("\tHobbs Cafe is idle\n")), qPrintable(q.out));
    }

    void missingGaFolderReported()
    {
        const HakoOutcome o = mem(
            freshStore(), {QStringLiteral("import-ga"), m_dir.filePath(QStringLiteral("nope"))});
        QCOMPARE(o.exitCode, 1);
        QVERIFY(o.err.contains(QLatin1String("nodes.json")));
    }
    // Zeroes the root page of the journal's index: SQLite's quick check fails, while the
    // memories themselves stay readable.
    static bool damageIndex(const QString& store)
    {
        const char* script =
            "import sqlite3, sys\n"
            "c = sqlite3.connect(sys.argv[1])\n"
            "c.execute('PRAGMA wal_checkpoint(TRUNCATE)')\n"
            "size = c.execute('PRAGMA page_size').fetchone()[0]\n"
            "root = c.execute(\"SELECT rootpage FROM sqlite_master WHERE name='journal_memory'\")"
            ".fetchone()[0]\n"
            "c.close()\n"
            "f = open(sys.argv[1], 'r+b'); f.seek((root - 1) * size); f.write(b'\\xff' * size)\n";
        QProcess p;
        p.start(QStringLiteral("python3"),
                {QStringLiteral("-c"), QString::fromLatin1(script), store});
        return p.waitForFinished(20000) && p.exitCode() == 0;
    }

    static QByteArray contents(const QString& path)
    {
        QFile f(path);
        return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray();
    }

    void damagedStoreIsRefusedAndReadableReadOnly()
    {
        const QString s = freshStore();
        QVERIFY(!add(s, QStringLiteral("first fact"), QStringLiteral("2024-01-01T00:00:00Z"))
                     .startsWith(QLatin1String("error")));
        QVERIFY(!add(s, QStringLiteral("second fact"), QStringLiteral("2024-01-02T00:00:00Z"))
                     .startsWith(QLatin1String("error")));
        if (!damageIndex(s))
            QSKIP("python3 with sqlite3 is needed to damage a store");
        const QByteArray before = contents(s);

        const HakoOutcome list = mem(s, {QStringLiteral("list")});
        QCOMPARE(list.exitCode, 1);
        QVERIFY2(list.err.contains(QLatin1String("damaged")), qPrintable(list.err));
        QVERIFY(list.err.contains(QLatin1String("--read-only")));
        const HakoOutcome added =
            mem(s, {QStringLiteral("add"), QStringLiteral("--text"), QStringLiteral("third")});
        QCOMPARE(added.exitCode, 1);
        QCOMPARE(contents(s), before); // refused before anything was written

        const HakoOutcome readOnly =
            mem(s, {QStringLiteral("--read-only"), QStringLiteral("list")});
        QVERIFY2(readOnly.exitCode == 0, qPrintable(readOnly.err));
        QVERIFY(readOnly.out.contains(QLatin1String("first fact")));
        QVERIFY(readOnly.out.contains(QLatin1String("second fact")));
        QVERIFY2(readOnly.err.contains(QLatin1String("warning")), qPrintable(readOnly.err));
        const QString file = m_dir.filePath(QStringLiteral("rescued.json"));
        const HakoOutcome exported =
            mem(s, {QStringLiteral("--read-only"), QStringLiteral("export"), file});
        QVERIFY2(exported.exitCode == 0, qPrintable(exported.err));
        QCOMPARE(QJsonDocument::fromJson(contents(file))
                     .object()
                     .value(QStringLiteral("memories"))
                     .toArray()
                     .size(),
                 2);
        QCOMPARE(contents(s), before);
    }

    void readOnlyStoreListsExportsAndWhatIfs()
    {
        const QString s = freshStore();
        QVERIFY(!add(s, QStringLiteral("the cafe opens at nine"),
                     QStringLiteral("2024-01-01T00:00:00Z"))
                     .startsWith(QLatin1String("error")));
        const QByteArray before = contents(s);
        const HakoOutcome list = mem(s, {QStringLiteral("--read-only"), QStringLiteral("list")});
        QVERIFY2(list.exitCode == 0, qPrintable(list.err));
        QVERIFY(list.out.contains(QLatin1String("the cafe opens at nine")));
        const HakoOutcome whatIf = mem(s, {QStringLiteral("--read-only"),
                                           QStringLiteral("retrieve"), QStringLiteral("--query"),
                                           QStringLiteral("cafe"), QStringLiteral("--what-if")});
        QVERIFY2(whatIf.exitCode == 0, qPrintable(whatIf.err));
        QVERIFY(whatIf.out.contains(QLatin1String("the cafe opens at nine")));
        const HakoOutcome journaled =
            mem(s, {QStringLiteral("--read-only"), QStringLiteral("retrieve"),
                    QStringLiteral("--query"), QStringLiteral("cafe")});
        QCOMPARE(journaled.exitCode, 1);
        QVERIFY2(journaled.err.contains(QLatin1String("--what-if")), qPrintable(journaled.err));
        const HakoOutcome added = mem(s, {QStringLiteral("--read-only"), QStringLiteral("add"),
                                          QStringLiteral("--text"), QStringLiteral("x")});
        QCOMPARE(added.exitCode, 1);
        QVERIFY2(added.err.contains(QLatin1String("read-only")), qPrintable(added.err));
        const HakoOutcome exported =
            mem(s, {QStringLiteral("--read-only"), QStringLiteral("export")});
        QVERIFY2(exported.exitCode == 0, qPrintable(exported.err));
        QVERIFY(exported.out.contains(QLatin1String("the cafe opens at nine")));
        QCOMPARE(contents(s), before);

        if (::geteuid() == 0)
            return; // root may write anything: the permission case needs an ordinary user
        // A store in a folder the user may only read opens read-only by itself.
        QTemporaryDir locked;
        const QString copy = locked.filePath(QStringLiteral("m.hakomem"));
        QVERIFY(QFile::copy(s, copy));
        QFile::setPermissions(copy, QFileDevice::ReadOwner);
        QFile::setPermissions(locked.path(), QFileDevice::ReadOwner | QFileDevice::ExeOwner);
        const HakoOutcome lockedList = mem(copy, {QStringLiteral("list")});
        QFile::setPermissions(locked.path(), QFileDevice::ReadOwner | QFileDevice::WriteOwner |
                                                 QFileDevice::ExeOwner);
        QVERIFY2(lockedList.exitCode == 0, qPrintable(lockedList.err));
        QVERIFY(lockedList.out.contains(QLatin1String("the cafe opens at nine")));
    }

    // A copy of the GA fixture with `edit` applied to nodes.json and embeddings.json.
    QString gaFolder(const std::function<void(QJsonObject& nodes, QJsonObject& vectors)>& edit)
    {
        const QString dir = m_dir.filePath(QStringLiteral("ga%1").arg(++m_n));
        QDir().mkpath(dir);
        const QString from = QStringLiteral(HAKO_TEST_DATA_DIR "/memory/ga/");
        QJsonObject nodes = QJsonDocument::fromJson(contents(from + "nodes.json")).object();
        QJsonObject vectors = QJsonDocument::fromJson(contents(from + "embeddings.json")).object();
        edit(nodes, vectors);
        QFile n(dir + "/nodes.json");
        n.open(QIODevice::WriteOnly);
        n.write(QJsonDocument(nodes).toJson());
        QFile v(dir + "/embeddings.json");
        v.open(QIODevice::WriteOnly);
        v.write(QJsonDocument(vectors).toJson());
        return dir;
    }

    void importsReportWhatTheyChange()
    {
        const QString clamped = gaFolder([](QJsonObject& nodes, QJsonObject&) {
            QJsonObject one = nodes.value(QStringLiteral("node_1")).toObject();
            one[QStringLiteral("poignancy")] = 99;
            nodes[QStringLiteral("node_1")] = one;
            QJsonObject four = nodes.value(QStringLiteral("node_4")).toObject();
            four[QStringLiteral("filling")] =
                QJsonArray{QStringLiteral("node_1"), QStringLiteral("node_9")};
            nodes[QStringLiteral("node_4")] = four;
        });
        const QString s = freshStore();
        const HakoOutcome o = mem(s, {QStringLiteral("import-ga"), clamped});
        QVERIFY2(o.exitCode == 0, qPrintable(o.err));
        QVERIFY2(o.err.contains(QLatin1String("node_1: poignancy 99 stored as 10")),
                 qPrintable(o.err));
        QVERIFY2(o.err.contains(QLatin1String("node_4: evidence 9 is not in the import; dropped")),
                 qPrintable(o.err));
        QVERIFY2(o.out.contains(QLatin1String("2 change(s) listed above")), qPrintable(o.out));

        const QString badVector = gaFolder([](QJsonObject&, QJsonObject& vectors) {
            const QString key = vectors.keys().first();
            vectors[key] = QJsonArray{0.1, QStringLiteral("x"), 0.3, 0.4};
        });
        const HakoOutcome v = mem(freshStore(), {QStringLiteral("import-ga"), badVector});
        QCOMPARE(v.exitCode, 1);
        QVERIFY2(v.err.contains(QLatin1String("is not a number")), qPrintable(v.err));

        const QString list = m_dir.filePath(QStringLiteral("list%1").arg(++m_n));
        QDir().mkpath(list);
        QFile nodes(list + "/nodes.json");
        QVERIFY(nodes.open(QIODevice::WriteOnly));
        nodes.write("[1, 2, 3]");
        nodes.close();
        QFile vectors(list + "/embeddings.json");
        QVERIFY(vectors.open(QIODevice::WriteOnly));
        vectors.write("{}");
        vectors.close();
        const HakoOutcome l = mem(freshStore(), {QStringLiteral("import-ga"), list});
        QCOMPARE(l.exitCode, 1);
        QVERIFY2(l.err.contains(QLatin1String("expected an object")), qPrintable(l.err));

        // `import`: evidence pointing outside the file is dropped and said so.
        const QString file = m_dir.filePath(QStringLiteral("dangling.json"));
        QJsonObject doc =
            QJsonDocument::fromJson(mem(s, {QStringLiteral("export")}).out.toUtf8()).object();
        QJsonArray memories = doc.value(QStringLiteral("memories")).toArray();
        QJsonObject last = memories.last().toObject();
        last[QStringLiteral("evidence")] = QJsonArray{1, 77};
        memories[memories.size() - 1] = last;
        doc[QStringLiteral("memories")] = memories;
        QFile out(file);
        QVERIFY(out.open(QIODevice::WriteOnly));
        out.write(QJsonDocument(doc).toJson());
        out.close();
        const HakoOutcome imp = mem(freshStore(), {QStringLiteral("import"), file});
        QVERIFY2(imp.exitCode == 0, qPrintable(imp.err));
        QVERIFY2(imp.err.contains(QLatin1String("evidence 77 is not in the import; dropped")),
                 qPrintable(imp.err));

        QVERIFY(out.open(QIODevice::WriteOnly | QIODevice::Truncate));
        out.write("{\"format\": \"hako-memory\", \"memories\": [1, 2, 3]}");
        out.close();
        const HakoOutcome numbers = mem(freshStore(), {QStringLiteral("import"), file});
        QCOMPARE(numbers.exitCode, 1);
        QVERIFY2(numbers.err.contains(QLatin1String("not an object")), qPrintable(numbers.err));
    }
};

QTEST_GUILESS_MAIN(TestMemoryCli)
#include "tst_memorycli.moc"
