// Two authors share one prompt library through a git server (a bare repository here): versions
// travel both ways, label moves of both are kept, a clash on a prompt's text changes nothing
// until the author chooses, and whatever is chosen, neither version is lost.

#include "core/library/librarysync.h"

#include <QDir>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QProcess>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>

using namespace hako;
using namespace hako::library;

class TestLibrarySync : public QObject {
    Q_OBJECT

    QTemporaryDir m_dir;
    QString m_server;

    static void write(const QString& path, const QByteArray& text)
    {
        QFile f(path);
        QVERIFY(f.open(QIODevice::WriteOnly | QIODevice::Truncate));
        f.write(text);
    }
    static QByteArray read(const QString& path)
    {
        QFile f(path);
        return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray();
    }
    static PromptLibrary make(const QString& folder)
    {
        QDir().mkpath(folder);
        Result<PromptLibrary> lib = PromptLibrary::create(folder);
        if (!lib)
            qFatal("cannot make a library in %s", qPrintable(folder));
        return *lib;
    }
    // Saves `text` as a new version of `name`.pdl in `lib`.
    static void save(const PromptLibrary& lib, const QString& name, const QByteArray& text)
    {
        const QString file = QDir(lib.root()).filePath(name + QStringLiteral(".pdl"));
        write(file, text);
        Result<QString> v = lib.saveVersion(file, QStringLiteral("edit"));
        QVERIFY2(v.ok(), qPrintable(v ? QString() : v.error().message));
    }

private Q_SLOTS:
    void initTestCase()
    {
        if (QStandardPaths::findExecutable(QStringLiteral("git")).isEmpty())
            QSKIP("git is not installed");
        QVERIFY(m_dir.isValid());
        m_server = m_dir.filePath(QStringLiteral("team.git"));
        QCOMPARE(
            QProcess::execute(QStringLiteral("git"), {QStringLiteral("init"), QStringLiteral("-q"),
                                                      QStringLiteral("--bare"), m_server}),
            0);
    }

    void twoAuthors()
    {
        const QByteArray reply = "# hako-prompt: 7c7c7c7c7c7c\ndescription: 返信\ntext: \"v1\"\n";
        PromptLibrary aiko = make(m_dir.filePath(QStringLiteral("aiko")));
        save(aiko, QStringLiteral("reply"), reply);
        LibrarySync aikoSync(aiko);
        QVERIFY(!aikoSync.sync().ok()); // no team library set yet: said, nothing done
        QVERIFY(aikoSync.setRemote(m_server).ok());
        Result<SyncOutcome> first = aikoSync.sync();
        QVERIFY2(first.ok(), qPrintable(first ? QString() : first.error().message));
        QVERIFY(first->sent >= 1);

        // Ben joins: a new, empty library set to the team's.
        PromptLibrary ben = make(m_dir.filePath(QStringLiteral("ben")));
        LibrarySync benSync(ben);
        QVERIFY(benSync.setRemote(m_server).ok());
        Result<SyncOutcome> joined = benSync.sync();
        QVERIFY2(joined.ok(), qPrintable(joined ? QString() : joined.error().message));
        QVERIFY(joined->received > 0);
        QCOMPARE(read(ben.root() + QStringLiteral("/reply.pdl")), reply);

        // Each labels a version, Ben also saves a second one; both sync.
        Result<LibraryPrompt> inBen = ben.find(QStringLiteral("返信"));
        QVERIFY(inBen.ok());
        QVERIFY(ben.setLabel(*inBen, QStringLiteral("staging"), QStringLiteral("1")).ok());
        save(ben, QStringLiteral("reply"),
             "# hako-prompt: 7c7c7c7c7c7c\ndescription: 返信\ntext: \"v2\"\n");
        QVERIFY(benSync.sync().ok());
        Result<LibraryPrompt> inAiko = aiko.find(QStringLiteral("返信"));
        QVERIFY(inAiko.ok());
        QVERIFY(aiko.setLabel(*inAiko, QStringLiteral("production"), QStringLiteral("1")).ok());
        Result<SyncOutcome> both = aikoSync.sync();
        QVERIFY2(both.ok(), qPrintable(both ? QString() : both.error().message));
        QVERIFY(both->labelsMerged);
        QVERIFY(both->conflicts.isEmpty());
        inAiko = aiko.find(QStringLiteral("返信"));
        const QMap<QString, QString> labels = aiko.labels(*inAiko);
        QVERIFY(labels.contains(QStringLiteral("staging")));
        QVERIFY(labels.contains(QStringLiteral("production")));
        QCOMPARE(aiko.labelHistory(*inAiko).size(), 2);
        QVERIFY(read(aiko.root() + QStringLiteral("/reply.pdl")).contains("v2"));
        QCOMPARE(aiko.history(*inAiko)->size(), 2);
    }

    void aClashChangesNothingUntilChosen()
    {
        PromptLibrary aiko = *PromptLibrary::open(m_dir.filePath(QStringLiteral("aiko")));
        PromptLibrary ben = *PromptLibrary::open(m_dir.filePath(QStringLiteral("ben")));
        QVERIFY(LibrarySync(ben).sync().ok());
        const QByteArray head = "# hako-prompt: 7c7c7c7c7c7c\ndescription: 返信\n";
        save(ben, QStringLiteral("reply"), head + "text: \"ベンの文\"\n");
        QVERIFY(LibrarySync(ben).sync().ok());
        save(aiko, QStringLiteral("reply"), head + "text: \"あいこの文\"\n");
        const QString before = aiko.git().head();

        Result<SyncOutcome> stopped = LibrarySync(aiko).sync();
        QVERIFY(stopped.ok());
        QVERIFY(stopped->stopped());
        QCOMPARE(stopped->conflicts, QStringList{QStringLiteral("reply.pdl")});
        QCOMPARE(aiko.git().head(), before); // nothing merged
        QVERIFY(read(aiko.root() + QStringLiteral("/reply.pdl")).contains("あいこの文"));
        QVERIFY(!aiko.hasUnsavedVersion(aiko.root() + QStringLiteral("/reply.pdl")));

        // An unsaved edit is never overwritten: sync refuses.
        write(aiko.root() + QStringLiteral("/reply.pdl"), head + "text: \"未保存\"\n");
        QVERIFY(!LibrarySync(aiko).sync(ConflictChoice::KeepMine).ok());
        QVERIFY(read(aiko.root() + QStringLiteral("/reply.pdl")).contains("未保存"));
        write(aiko.root() + QStringLiteral("/reply.pdl"), head + "text: \"あいこの文\"\n");

        Result<SyncOutcome> kept = LibrarySync(aiko).sync(ConflictChoice::KeepMine);
        QVERIFY2(kept.ok(), qPrintable(kept ? QString() : kept.error().message));
        QVERIFY(!kept->stopped());
        QVERIFY(read(aiko.root() + QStringLiteral("/reply.pdl")).contains("あいこの文"));
        // Ben's version is in the history all the same, and Ben receives the merge.
        Result<LibraryPrompt> p = aiko.find(QStringLiteral("返信"));
        bool bensKept = false;
        for (const PromptVersion& v : *aiko.history(*p))
            bensKept = bensKept || aiko.git().show(v.commit, v.path).value().contains("ベンの文");
        QVERIFY(bensKept);
        QVERIFY(LibrarySync(ben).sync().ok());
        QVERIFY(read(ben.root() + QStringLiteral("/reply.pdl")).contains("あいこの文"));
    }

    void labelHistoriesJoin()
    {
        const QJsonObject mine = QJsonDocument::fromJson(R"({"prompts": {"p": {
            "labels": {"production": "a"},
            "history": [{"label": "production", "version": "a", "by": "A", "at": 10}]}}})")
                                     .object();
        const QJsonObject theirs = QJsonDocument::fromJson(R"({"prompts": {"p": {
            "labels": {"production": "b"},
            "history": [{"label": "production", "version": "b", "by": "B", "at": 20}]},
            "q": {"labels": {"staging": "c"}, "history": []}}})")
                                       .object();
        const QJsonObject merged = LibrarySync::mergeLabels(mine, theirs);
        const QJsonObject p = merged.value(QStringLiteral("prompts"))
                                  .toObject()
                                  .value(QStringLiteral("p"))
                                  .toObject();
        QCOMPARE(p.value(QStringLiteral("labels"))
                     .toObject()
                     .value(QStringLiteral("production"))
                     .toString(),
                 QStringLiteral("b")); // the newer move wins
        QCOMPARE(p.value(QStringLiteral("history")).toArray().size(), 2);
        QCOMPARE(merged.value(QStringLiteral("prompts"))
                     .toObject()
                     .value(QStringLiteral("q"))
                     .toObject()
                     .value(QStringLiteral("labels"))
                     .toObject()
                     .value(QStringLiteral("staging"))
                     .toString(),
                 QStringLiteral("c"));
        // Joined in the other order, the same.
        QCOMPARE(LibrarySync::mergeLabels(theirs, mine).value(QStringLiteral("prompts")),
                 merged.value(QStringLiteral("prompts")));
    }
};

QTEST_GUILESS_MAIN(TestLibrarySync)
#include "tst_librarysync.moc"
