// The prompt library against a real git repository: versions are commits of a program's file
// (renames followed), labels move and keep their history, a lookup never gives out an edit
// that was not saved as a version, and rendering gives the messages a prompt would send.

#include "core/library/promptlibrary.h"
#include "core/library/promptrender.h"

#include <QDir>
#include <QFile>
#include <QJsonArray>
#include <QJsonObject>
#include <QTemporaryDir>
#include <QTest>

using namespace hako;
using namespace hako::library;

namespace {

void write(const QString& path, const QByteArray& text)
{
    QDir().mkpath(QFileInfo(path).absolutePath());
    QFile f(path);
    QVERIFY(f.open(QIODevice::WriteOnly));
    f.write(text);
}

QByteArray program(const QByteArray& id, const QByteArray& name, const QByteArray& body)
{
    return "# hako-prompt: " + id + "\ndescription: " + name + "\ntext:\n- " + body + "\n";
}

} // namespace

class TestPromptLibrary : public QObject {
    Q_OBJECT

    QTemporaryDir m_dir;
    QString m_root;

private Q_SLOTS:
    void initTestCase()
    {
        if (!GitRepo::available())
            QSKIP("git is not installed");
        QVERIFY(m_dir.isValid());
        m_root = m_dir.filePath(QStringLiteral("library"));
    }

    void createAndOpen()
    {
        QVERIFY(!PromptLibrary::open(m_dir.path()).ok() ||
                PromptLibrary::open(m_dir.path())->root() != m_root);
        Result<PromptLibrary> lib = PromptLibrary::create(m_root);
        QVERIFY2(lib.ok(), qPrintable(lib.ok() ? QString() : lib.error().message));
        QCOMPARE(QFileInfo(lib->root()).canonicalFilePath(), QFileInfo(m_root).canonicalFilePath());
        QVERIFY(lib->prompts()->isEmpty());
        // Opening from a folder inside finds the same library.
        QDir(m_root).mkpath(QStringLiteral("sub"));
        QCOMPARE(PromptLibrary::open(QDir(m_root).filePath(QStringLiteral("sub")))->root(),
                 lib->root());
    }

    // Save, edit, save again, rename: one prompt with its versions, newest first.
    void versionsFollowTheFile()
    {
        PromptLibrary lib = *PromptLibrary::open(m_root);
        const QString file = QDir(m_root).filePath(QStringLiteral("問い合わせ返信.pdl"));
        write(file, program("a1b2c3d4e5f6", "問い合わせ返信", "こんにちは v1"));
        QVERIFY(lib.hasUnsavedVersion(file));
        Result<QString> v1 = lib.saveVersion(file, QStringLiteral("最初の版"));
        QVERIFY2(v1.ok(), qPrintable(v1.ok() ? QString() : v1.error().message));
        QVERIFY(!lib.hasUnsavedVersion(file));
        QVERIFY(!lib.saveVersion(file, QStringLiteral("nothing changed")).ok());

        write(file, program("a1b2c3d4e5f6", "問い合わせ返信", "こんにちは v2"));
        QVERIFY(lib.saveVersion(file, QStringLiteral("second")).ok());

        // Moved inside the library: still the same prompt, with all its versions.
        QVERIFY(QDir(m_root).mkpath(QStringLiteral("support")));
        QVERIFY(lib.git()
                    .call({QStringLiteral("mv"), QStringLiteral("問い合わせ返信.pdl"),
                           QStringLiteral("support/reply.pdl")})
                    .ok());
        QVERIFY(lib.git()
                    .call({QStringLiteral("commit"), QStringLiteral("-qm"), QStringLiteral("move")})
                    .ok());

        Result<LibraryPrompt> p = lib.find(QStringLiteral("問い合わせ返信"));
        QVERIFY2(p.ok(), qPrintable(p.ok() ? QString() : p.error().message));
        QCOMPARE(p->id, QStringLiteral("a1b2c3d4e5f6"));
        QCOMPARE(p->path, QStringLiteral("support/reply.pdl"));
        QCOMPARE(lib.find(QStringLiteral("a1b2c3d4e5f6"))->path, p->path);
        QCOMPARE(lib.find(QStringLiteral("support/reply"))->id, p->id);

        Result<QList<PromptVersion>> h = lib.history(*p);
        QVERIFY(h.ok());
        QCOMPARE(h->size(), 3);
        QCOMPARE(h->at(0).number, 3);
        QCOMPARE(h->at(2).message, QStringLiteral("最初の版"));
        QCOMPARE(h->at(2).path, QStringLiteral("問い合わせ返信.pdl"));
        QVERIFY(lib.get(QStringLiteral("問い合わせ返信@1"))->text.contains("v1"));
        QVERIFY(lib.get(QStringLiteral("問い合わせ返信@v2"))->text.contains("v2"));
        QVERIFY(lib.get(QStringLiteral("問い合わせ返信@") + h->at(2).commit.left(8))
                    ->text.contains("v1"));
        QVERIFY(!lib.get(QStringLiteral("問い合わせ返信@9")).ok());
    }

    // Labels point at versions; moving one keeps its history; a lookup by label gives that
    // version even while the file has newer, unsaved edits.
    void labels()
    {
        PromptLibrary lib = *PromptLibrary::open(m_root);
        LibraryPrompt p = *lib.find(QStringLiteral("問い合わせ返信"));
        QVERIFY(lib.setLabel(p, QStringLiteral("production"), QStringLiteral("1")).ok());
        QVERIFY(lib.setLabel(p, QStringLiteral("staging"), QString()).ok());
        Result<ResolvedPrompt> prod = lib.get(QStringLiteral("問い合わせ返信@production"));
        QVERIFY(prod.ok());
        QCOMPARE(prod->version.number, 1);
        QCOMPARE(prod->label, QStringLiteral("production"));
        QVERIFY(prod->text.contains("v1"));

        write(QDir(m_root).filePath(QStringLiteral("support/reply.pdl")),
              program("a1b2c3d4e5f6", "問い合わせ返信", "UNSAVED EDIT"));
        QVERIFY(lib.setLabel(p, QStringLiteral("production"), QStringLiteral("2")).ok());
        prod = lib.get(QStringLiteral("問い合わせ返信@production"));
        QCOMPARE(prod->version.number, 2);
        QVERIFY(!prod->text.contains("UNSAVED"));
        QVERIFY(!lib.get(QStringLiteral("問い合わせ返信"))->text.contains("UNSAVED"));

        const QList<LabelEvent> moves = lib.labelHistory(p);
        QCOMPARE(moves.size(), 3);
        QCOMPARE(moves[0].label, QStringLiteral("production"));
        QCOMPARE(moves[2].label, QStringLiteral("production"));
        QVERIFY(moves[0].commit != moves[2].commit);
        // Moving a label is not a version of the prompt.
        QCOMPARE(lib.history(p)->size(), 3);
        QVERIFY(!lib.get(QStringLiteral("問い合わせ返信@canary")).ok());
        for (const char* bad : {"-rf", "12", "v3", "deadbeef", "with space"})
            QVERIFY2(!lib.setLabel(p, QString::fromLatin1(bad), QString()).ok(), bad);
        // Restoring the file for the next tests.
        QVERIFY(lib.git()
                    .call({QStringLiteral("checkout"), QStringLiteral("--"),
                           QStringLiteral("support/reply.pdl")})
                    .ok());
    }

    // A copy is another prompt once it has its own id; two prompts sharing a name are told
    // apart by path.
    void sharedNamesAreAmbiguous()
    {
        PromptLibrary lib = *PromptLibrary::open(m_root);
        const QString other = QDir(m_root).filePath(QStringLiteral("other/reply.pdl"));
        write(other, program("0f0f0f0f0f0f", "問い合わせ返信", "other"));
        QVERIFY(lib.saveVersion(other, QString()).ok());
        Result<LibraryPrompt> p = lib.find(QStringLiteral("問い合わせ返信"));
        QVERIFY(!p.ok());
        QVERIFY(p.error().message.contains(QLatin1String("other/reply.pdl")));
        QCOMPARE(lib.find(QStringLiteral("other/reply.pdl"))->id, QStringLiteral("0f0f0f0f0f0f"));
        QCOMPARE(lib.prompts()->size(), 2);
    }

    // The file a labelled version runs from: the library's own when it holds that version, a
    // copy of the whole commit otherwise.
    void materialize()
    {
        PromptLibrary lib = *PromptLibrary::open(m_root);
        Result<ResolvedPrompt> newest = lib.get(QStringLiteral("a1b2c3d4e5f6"));
        QCOMPARE(*lib.materialize(*newest),
                 QDir(m_root).filePath(QStringLiteral("support/reply.pdl")));
        Result<ResolvedPrompt> first = lib.get(QStringLiteral("a1b2c3d4e5f6@1"));
        Result<QString> file = lib.materialize(*first);
        QVERIFY2(file.ok(), qPrintable(file.ok() ? QString() : file.error().message));
        QVERIFY(file->contains(QLatin1String(".hako/versions/")));
        QFile f(*file);
        QVERIFY(f.open(QIODevice::ReadOnly));
        QCOMPARE(f.readAll(), first->text);
        // The copies are not part of the library.
        QVERIFY(!lib.hasUnsavedVersion(*file));
    }

    void renderGivesTheMessages()
    {
        const QByteArray text = "description: reply\n"
                                "text:\n"
                                "- role: system\n"
                                "  text: あなたは丁寧なサポート担当です。\n"
                                "- \"${ email } に返信してください\"\n"
                                "- model: ollama/granite\n"
                                "  parameters: {temperature: 0}\n";
        Result<QJsonArray> calls = renderPromptMessages(
            text, m_dir.filePath(QStringLiteral("r.pdl")),
            QJsonObject{{QStringLiteral("email"), QStringLiteral("注文が届きません")}});
        QVERIFY2(calls.ok(), qPrintable(calls.ok() ? QString() : calls.error().toString()));
        QCOMPARE(calls->size(), 1);
        const QJsonObject call = calls->at(0).toObject();
        QCOMPARE(call.value(QLatin1String("model")).toString(), QStringLiteral("ollama/granite"));
        const QJsonArray messages = call.value(QLatin1String("messages")).toArray();
        QVERIFY(messages.size() >= 2);
        QCOMPARE(messages.first().toObject().value(QLatin1String("role")).toString(),
                 QStringLiteral("system"));
        QCOMPARE(messages.last().toObject().value(QLatin1String("content")).toString(),
                 QStringLiteral("注文が届きません に返信してください"));
    }

    void renderRefusesCodeAndStopsEndlessPrograms()
    {
        QVERIFY(!renderPromptMessages("lang: python\ncode: result = 1\n",
                                      m_dir.filePath(QStringLiteral("c.pdl")), {})
                     .ok());
        Result<QJsonArray> endless =
            renderPromptMessages("repeat:\n  text: x\nuntil: ${ false }\n",
                                 m_dir.filePath(QStringLiteral("e.pdl")), {}, 300);
        QVERIFY(!endless.ok());
        QVERIFY(
            !renderPromptMessages("text: [unclosed\n", m_dir.filePath(QStringLiteral("b.pdl")), {})
                 .ok());
    }
};

QTEST_GUILESS_MAIN(TestPromptLibrary)
#include "tst_promptlibrary.moc"
