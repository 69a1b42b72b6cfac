// Playground sessions kept on disk: every field (Japanese text, extra parameters, the program a
// prompt came from, input rows, the last results) comes back as it was saved; the list is newest
// first and skips damaged files with a reason; secrets never reach the file; a failed save
// leaves the previous file as it was; files are private.
#include "core/playground/playgroundsession.h"
#include "core/playground/playgroundsessionstore.h"

#include <QDir>
#include <QFile>
#include <QJsonArray>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>
#include <QUuid>

using namespace hako;
using namespace hako::playground;

namespace {

PlaygroundSession sampleSession()
{
    PlaygroundSession s = PlaygroundSession::create();
    s.name = QStringLiteral("問い合わせ返信の比較");
    PlaygroundPrompt a;
    a.name = QStringLiteral("返信");
    a.model = QStringLiteral("ollama/granite3.2:8b");
    a.messages = {{QStringLiteral("system"), QStringLiteral("丁寧に答えてください。")},
                  {QStringLiteral("user"), QStringLiteral("次のメールに返信して: ${ email }")}};
    a.parameters.temperature = 0.3;
    a.parameters.maxTokens = 256;
    a.parameters.topP = 0.9;
    a.parameters.stop = {QStringLiteral("\n\n"), QStringLiteral("終")};
    a.parameters.seed = 7;
    a.parameters.responseFormat =
        QJsonObject{{QStringLiteral("type"), QStringLiteral("json_object")}};
    a.parameters.extra =
        QJsonObject{{QStringLiteral("frequency_penalty"), 0.5},
                    {QStringLiteral("logit_bias"), QJsonObject{{QStringLiteral("50256"), -100}}},
                    {QStringLiteral("タグ"), QStringLiteral("値")}};
    PlaygroundPrompt b = a;
    b.model = QStringLiteral("gpt-4o-mini");
    b.parameters = {};
    b.messages.last().content = QStringLiteral("短く返信: ${ email }");
    s.variants = {a, b};
    s.programPath = QStringLiteral("/home/花子/問い合わせ返信.pdl");
    s.span = SourceSpan{s.programPath, 12, 3, 20, 1};
    s.inputRows = {QJsonObject{{QStringLiteral("email"), QStringLiteral("配送が遅れています。")}},
                   QJsonObject{{QStringLiteral("email"), QStringLiteral("返品したい")}}};
    s.repeat = 2;
    s.results.rows = 2;
    s.results.repeat = 2;
    s.results.variantLabels = {QStringLiteral("1: granite"), QStringLiteral("2: gpt")};
    s.results.rowLabels = {QStringLiteral("1: 配送"), QStringLiteral("2: 返品")};
    for (int i = 0; i < 8; ++i) {
        CellResult c;
        c.state = i == 5 ? CellResult::State::Failed : CellResult::State::Done;
        c.reply = QStringLiteral("お問い合わせありがとうございます。%1").arg(i);
        c.error = i == 5 ? QStringLiteral("サーバーエラー 500") : QString();
        c.promptTokens = 40 + i;
        c.completionTokens = 12 + i;
        c.tokensEstimated = i == 3;
        c.latencyMs = 120.5 + i;
        s.results.cells.push_back(c);
    }
    return s;
}

void writeFile(const QString& path, const QByteArray& bytes)
{
    QFile f(path);
    QVERIFY(f.open(QIODevice::WriteOnly | QIODevice::Truncate));
    f.write(bytes);
}

} // namespace

class TestPlaygroundSession : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void initTestCase() { QStandardPaths::setTestModeEnabled(true); }

    void defaultFolderIsBesideThePromptLog()
    {
        const QString folder = PlaygroundSessionStore::defaultFolder();
        QVERIFY(folder.endsWith(QLatin1String("/playground-sessions")));
        QVERIFY(
            folder.startsWith(QStandardPaths::writableLocation(QStandardPaths::AppDataLocation)));
    }

    void everyFieldRoundTrips()
    {
        QTemporaryDir dir;
        PlaygroundSessionStore store(dir.filePath(QStringLiteral("sessions")));
        const PlaygroundSession s = sampleSession();
        QVERIFY(store.save(s).ok());
        Result<PlaygroundSession> back = store.load(s.id);
        QVERIFY2(back.ok(), qPrintable(back.ok() ? QString() : back.error().message));
        QCOMPARE(back->id, s.id);
        QCOMPARE(back->name, s.name);
        QCOMPARE(back->created, s.created);
        QCOMPARE(back->updated, s.updated);
        QCOMPARE(back->variants.size(), 2);
        QCOMPARE(back->variants, s.variants);
        QCOMPARE(back->variants[0].parameters.extra, s.variants[0].parameters.extra);
        QCOMPARE(back->programPath, s.programPath);
        QCOMPARE(back->span, s.span);
        QCOMPARE(back->inputRows, s.inputRows);
        QCOMPARE(back->repeat, 2);
        QCOMPARE(back->results.rows, 2);
        QCOMPARE(back->results.repeat, 2);
        QCOMPARE(back->results.variantLabels, s.results.variantLabels);
        QCOMPARE(back->results.rowLabels, s.results.rowLabels);
        QCOMPARE(back->results.cells.size(), s.results.cells.size());
        for (size_t i = 0; i < s.results.cells.size(); ++i) {
            const CellResult& a = s.results.cells[i];
            const CellResult& b = back->results.cells[i];
            QCOMPARE(b.state, a.state);
            QCOMPARE(b.reply, a.reply);
            QCOMPARE(b.error, a.error);
            QCOMPARE(b.promptTokens, a.promptTokens);
            QCOMPARE(b.completionTokens, a.completionTokens);
            QCOMPARE(b.tokensEstimated, a.tokensEstimated);
            QCOMPARE(b.latencyMs, a.latencyMs);
        }
    }

    void unfinishedCallsComeBackCancelled()
    {
        PlaygroundSession s = sampleSession();
        s.results.cells[0].state = CellResult::State::Running;
        s.results.cells[1].state = CellResult::State::Pending;
        Result<PlaygroundSession> back = PlaygroundSession::fromJson(s.toJson());
        QVERIFY(back.ok());
        QCOMPARE(back->results.cells[0].state, CellResult::State::Cancelled);
        QCOMPARE(back->results.cells[1].state, CellResult::State::Cancelled);
        QCOMPARE(back->results.cells[0].reply, s.results.cells[0].reply);
    }

    void secretsAreNeverWritten()
    {
        PlaygroundSession s = sampleSession();
        s.variants[0].droppedServer = QStringLiteral("https://leak.example/v1");
        s.variants[0].parameters.extra.insert(QStringLiteral("api_key"),
                                              QStringLiteral("sk-SECRET1"));
        s.variants[0].parameters.extra.insert(QStringLiteral("base_url"),
                                              QStringLiteral("https://leak.example/v1"));
        s.variants[0].parameters.extra.insert(QStringLiteral("api_version"), QStringLiteral("v9"));
        s.variants[0].parameters.extra.insert(QStringLiteral("OPENAI-API-KEY"),
                                              QStringLiteral("sk-SECRET2"));
        s.variants[1].parameters.extra.insert(
            QStringLiteral("extra_body"),
            QJsonObject{{QStringLiteral("client_secret"), QStringLiteral("sk-SECRET3")},
                        {QStringLiteral("keep"), 1}});
        s.variants[1].parameters.extra.insert(
            QStringLiteral("extra_headers"),
            QJsonObject{{QStringLiteral("Authorization"), QStringLiteral("Bearer sk-SECRET4")}});
        const QByteArray bytes = s.toJson();
        QVERIFY(!bytes.contains("SECRET"));
        QVERIFY(!bytes.contains("leak.example"));
        QVERIFY(!bytes.contains("api_version"));
        Result<PlaygroundSession> back = PlaygroundSession::fromJson(bytes);
        QVERIFY(back.ok());
        // What is not a secret stays: max_tokens is no token, frequency_penalty is kept.
        QCOMPARE(back->variants[0].parameters.maxTokens, std::optional<qint64>(256));
        QCOMPARE(back->variants[0].parameters.extra.value(QLatin1String("frequency_penalty")),
                 QJsonValue(0.5));
        QCOMPARE(back->variants[1]
                     .parameters.extra.value(QLatin1String("extra_body"))
                     .toObject()
                     .value(QLatin1String("keep")),
                 QJsonValue(1));
        // A file written by hand with a key is read without it.
        QByteArray handMade = bytes;
        handMade.replace("\"frequency_penalty\"",
                         "\"api_key\": \"sk-HAND\", \"frequency_penalty\"");
        Result<PlaygroundSession> read = PlaygroundSession::fromJson(handMade);
        QVERIFY(read.ok());
        QVERIFY(!read->variants[0].parameters.extra.contains(QLatin1String("api_key")));
    }

    void listIsNewestFirstFromTheHeaderLine()
    {
        QTemporaryDir dir;
        PlaygroundSessionStore store(dir.path());
        PlaygroundSession older = sampleSession();
        older.updated = QDateTime(QDate(2024, 1, 1), QTime(9, 0), Qt::UTC);
        PlaygroundSession newer = PlaygroundSession::create();
        newer.name = QStringLiteral("新しい");
        newer.updated = QDateTime(QDate(2024, 6, 1), QTime(9, 0), Qt::UTC);
        QVERIFY(store.save(older).ok());
        QVERIFY(store.save(newer).ok());
        const PlaygroundSessionList list = store.list();
        QCOMPARE(list.skipped.size(), 0);
        QCOMPARE(list.sessions.size(), 2);
        QCOMPARE(list.sessions[0].id, newer.id);
        QCOMPARE(list.sessions[0].name, QStringLiteral("新しい"));
        QCOMPARE(list.sessions[1].name, older.name);
        QCOMPARE(list.sessions[1].variants, 2);
        QCOMPARE(list.sessions[1].inputRows, 2);
        QCOMPARE(list.sessions[1].model, QStringLiteral("ollama/granite3.2:8b"));
    }

    void damagedFilesAreSkippedWithAReason_data()
    {
        QTest::addColumn<QByteArray>("bytes");
        QTest::addColumn<QString>("reason");
        const QByteArray good = sampleSession().toJson();
        QTest::newRow("empty") << QByteArray() << QStringLiteral("JSON");
        QTest::newRow("not json") << QByteArray("hello\n") << QStringLiteral("JSON");
        QTest::newRow("cut short") << good.left(good.size() / 2) << QStringLiteral("cut short");
        QByteArray latin1 = good;
        latin1.replace(QStringLiteral("問い合わせ返信の比較").toUtf8(), QByteArray("\xe9t\xe9"));
        QTest::newRow("not utf-8") << latin1 << QStringLiteral("UTF-8");
        QByteArray newer = good;
        newer.replace("\"format\":1", "\"format\":99");
        QTest::newRow("newer format") << newer << QStringLiteral("newer");
        QTest::newRow("array") << QByteArray("[1,2]") << QStringLiteral("object");
        QTest::newRow("binary") << QByteArray("\x00\x01\x02\xff", 4) << QStringLiteral("JSON");
    }

    void damagedFilesAreSkippedWithAReason()
    {
        QFETCH(QByteArray, bytes);
        QFETCH(QString, reason);
        QTemporaryDir dir;
        PlaygroundSessionStore store(dir.path());
        const PlaygroundSession good = PlaygroundSession::create();
        QVERIFY(store.save(good).ok());
        const QString id = QUuid::createUuid().toString(QUuid::WithoutBraces);
        writeFile(store.pathOf(id), bytes);
        const PlaygroundSessionList list = store.list();
        QCOMPARE(list.sessions.size(), 1);
        QCOMPARE(list.sessions[0].id, good.id);
        QCOMPARE(list.skipped.size(), 1);
        QCOMPARE(list.skipped[0].path, QFileInfo(store.pathOf(id)).absoluteFilePath());
        QVERIFY2(list.skipped[0].reason.contains(reason, Qt::CaseInsensitive),
                 qPrintable(list.skipped[0].reason));
        Result<PlaygroundSession> loaded = store.load(id);
        QVERIFY(!loaded.ok());
        QVERIFY(!loaded.error().message.isEmpty());
    }

    void aCopiedFileIsNotTakenForItsOriginal()
    {
        QTemporaryDir dir;
        PlaygroundSessionStore store(dir.path());
        const PlaygroundSession s = sampleSession();
        QVERIFY(store.save(s).ok());
        const QString copy = QUuid::createUuid().toString(QUuid::WithoutBraces);
        QVERIFY(QFile::copy(store.pathOf(s.id), store.pathOf(copy)));
        const PlaygroundSessionList list = store.list();
        QCOMPARE(list.sessions.size(), 1);
        QCOMPARE(list.skipped.size(), 1);
        QVERIFY(!store.load(copy).ok());
        QVERIFY(!store.load(QStringLiteral("../../etc/passwd")).ok());
    }

    void aHugeFileIsRefusedWithAClearError()
    {
        QTemporaryDir dir;
        PlaygroundSessionStore store(dir.path());
        store.setMaxBytes(4096);
        PlaygroundSession s = PlaygroundSession::create();
        QVERIFY(store.save(s).ok());
        PlaygroundSessionStore unlimited(dir.path());
        s.name = QString(8000, QLatin1Char('x'));
        QVERIFY(unlimited.save(s).ok());
        Result<PlaygroundSession> loaded = store.load(s.id);
        QVERIFY(!loaded.ok());
        QVERIFY2(loaded.error().message.contains(QLatin1String("larger than")),
                 qPrintable(loaded.error().message));
        const PlaygroundSessionList list = store.list();
        QCOMPARE(list.sessions.size(), 0);
        QCOMPARE(list.skipped.size(), 1);
        QVERIFY(list.skipped[0].reason.contains(QLatin1String("larger than")));
    }

    void aFailedSaveLeavesTheOldFile()
    {
        QTemporaryDir dir;
        PlaygroundSessionStore store(dir.path());
        store.setMaxBytes(64 * 1024);
        PlaygroundSession s = sampleSession();
        QVERIFY(store.save(s).ok());
        QFile f(store.pathOf(s.id));
        QVERIFY(f.open(QIODevice::ReadOnly));
        const QByteArray before = f.readAll();
        f.close();
        // Too large to keep: refused before anything is written.
        s.results.cells[0].reply = QString(70 * 1024, QLatin1Char('a'));
        Result<bool> saved = store.save(s);
        QVERIFY(!saved.ok());
        QVERIFY(saved.error().message.contains(QLatin1String("too large")));
        QVERIFY(f.open(QIODevice::ReadOnly));
        QCOMPARE(f.readAll(), before);
        f.close();
        // The path taken by a folder: the write fails, nothing else is touched.
        PlaygroundSession other = PlaygroundSession::create();
        QVERIFY(QDir(dir.path()).mkdir(other.id + QStringLiteral(".json")));
        QVERIFY(!store.save(other).ok());
        QVERIFY(f.open(QIODevice::ReadOnly));
        QCOMPARE(f.readAll(), before);
    }

    void filesArePrivate()
    {
        QTemporaryDir dir;
        const QString folder = dir.filePath(QStringLiteral("new/sessions"));
        PlaygroundSessionStore store(folder);
        const PlaygroundSession s = sampleSession();
        QVERIFY(store.save(s).ok());
        const QFileDevice::Permissions others = QFileDevice::ReadGroup | QFileDevice::WriteGroup |
                                                QFileDevice::ReadOther | QFileDevice::WriteOther;
        const QFileDevice::Permissions filePermissions = QFile::permissions(store.pathOf(s.id));
        QVERIFY(filePermissions & QFileDevice::ReadOwner);
        QVERIFY(!(filePermissions & others));
        const QFileDevice::Permissions folderPermissions = QFile::permissions(folder);
        QVERIFY(!(folderPermissions & others));
    }

    void renameAndRemove()
    {
        QTemporaryDir dir;
        PlaygroundSessionStore store(dir.path());
        const PlaygroundSession s = sampleSession();
        QVERIFY(store.save(s).ok());
        QVERIFY(store.rename(s.id, QStringLiteral("午後の実験")).ok());
        QCOMPARE(store.load(s.id)->name, QStringLiteral("午後の実験"));
        QCOMPARE(store.load(s.id)->variants, s.variants);
        QCOMPARE(store.list().sessions.value(0).name, QStringLiteral("午後の実験"));
        QVERIFY(store.remove(s.id).ok());
        QVERIFY(!QFile::exists(store.pathOf(s.id)));
        QCOMPARE(store.list().sessions.size(), 0);
        QVERIFY(!store.remove(s.id).ok());
        QVERIFY(!store.rename(s.id, QStringLiteral("x")).ok());
    }

    void aMissingFolderListsNothing()
    {
        PlaygroundSessionStore store(QStringLiteral("/nonexistent/hako/sessions"));
        const PlaygroundSessionList list = store.list();
        QVERIFY(list.sessions.isEmpty());
        QVERIFY(list.skipped.isEmpty());
    }
};

QTEST_GUILESS_MAIN(TestPlaygroundSession)
#include "tst_playgroundsession.moc"
