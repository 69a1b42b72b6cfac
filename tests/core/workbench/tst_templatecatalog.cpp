// TemplateCatalog over the shipped resources/templates: every template in templates.json
// exists, is a valid program (parsed and checked by hako_pdl, no errors and no undefined names
// besides the `memory` binding a memory store gives), has English and Japanese texts, and a
// malformed templates.json gives an error naming the file and the reason. Every template has a
// Japanese program (templates.json `files.ja`) with the same inputs whose prompts are Japanese,
// which programText(id, "ja") gives.
#include "core/pdl/programcheck.h"
#include "core/playground/promptdoc.h"
#include "core/workbench/templatecatalog.h"

#include <QDir>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QRegularExpression>
#include <QTemporaryDir>
#include <QTest>

#include <algorithm>

using namespace hako;

namespace {

const QString kFolder = QStringLiteral(HAKO_SOURCE_DIR "/resources/templates");

QJsonArray shippedIndex()
{
    QFile f(QDir(kFolder).filePath(QStringLiteral("templates.json")));
    if (!f.open(QIODevice::ReadOnly))
        return {};
    return QJsonDocument::fromJson(f.readAll())
        .object()
        .value(QStringLiteral("templates"))
        .toArray();
}

bool hasJapanese(const QString& text)
{
    static const QRegularExpression kana(
        QStringLiteral("[\\x{3040}-\\x{30ff}\\x{4e00}-\\x{9fff}]"));
    return text.contains(kana);
}

// The names a program defines at the top of its `defs:` (two-space keys), in order.
QStringList topLevelDefs(const QString& program)
{
    static const QRegularExpression key(QStringLiteral("^  ([A-Za-z_]\\w*):"));
    QStringList names;
    bool inDefs = false;
    for (const QString& line : program.split(QLatin1Char('\n'))) {
        if (!line.startsWith(QLatin1Char(' ')) && !line.startsWith(QLatin1Char('#')))
            inDefs = line.startsWith(QLatin1String("defs:"));
        else if (const QRegularExpressionMatch m = key.match(line); inDefs && m.hasMatch())
            names << m.captured(1);
    }
    return names;
}

// Every text of a Prompt view item and the items inside it.
void collectTexts(const QList<playground::PromptDocItem>& items, QStringList& out)
{
    for (const playground::PromptDocItem& i : items) {
        out << i.text;
        collectTexts(i.children, out);
    }
}

// The model calls (cards) of a Prompt view, inside loops and conditions too.
void collectCards(const QList<playground::PromptDocItem>& items,
                  QList<playground::PromptDocItem>& out)
{
    for (const playground::PromptDocItem& i : items) {
        if (i.kind == playground::PromptDocItem::Kind::Card)
            out << i;
        else
            collectCards(i.children, out);
    }
}

// The problems hako_pdl finds in `text` (parse errors, undefined names other than `memory`).
QStringList problemsOf(const QString& text, const QString& file)
{
    pdl::ScopeOptions options;
    options.externalNames = {QStringLiteral("memory")};
    const pdl::ProgramReport report = pdl::analyzeProgramText(text.toUtf8(), file, options);
    QStringList problems;
    for (const Diagnostic& d : report.diagnostics)
        problems << d.toString();
    if (!report.parse.program)
        problems << QStringLiteral("no program");
    return problems;
}

} // namespace

class TestTemplateCatalog : public QObject {
    Q_OBJECT

    QTemporaryDir m_dir;

    QString writeIndex(const QByteArray& json)
    {
        static int n = 0;
        const QString folder = m_dir.filePath(QStringLiteral("t%1").arg(++n));
        QDir().mkpath(folder);
        QFile f(QDir(folder).filePath(QStringLiteral("templates.json")));
        if (!f.open(QIODevice::WriteOnly))
            qFatal("cannot write fixture");
        f.write(json);
        return folder;
    }

private Q_SLOTS:
    void listsTheShippedTemplates()
    {
        const TemplateCatalog catalog(kFolder);
        const auto en = catalog.templates(QStringLiteral("en"));
        QVERIFY2(en.ok(), qPrintable(en.ok() ? QString() : en.error().message));
        QCOMPARE(en->size(), 9);
        QStringList ids;
        for (const TemplateInfo& t : *en)
            ids << t.id;
        QCOMPARE(ids,
                 (QStringList{"summarize", "classify", "extract_json", "translate", "document_qa",
                              "chat", "agent_tools", "write_review", "memory_agent"}));
        QCOMPARE(en->first().title, QStringLiteral("Summarise a text"));
        const auto ja = catalog.templates(QStringLiteral("ja"));
        QVERIFY(ja.ok());
        QCOMPARE(ja->first().title, QStringLiteral("文章を要約する"));
        // An unknown language falls back to English.
        const auto fr = catalog.templates(QStringLiteral("fr"));
        QVERIFY(fr.ok());
        QCOMPARE(fr->first().title, en->first().title);
        QVERIFY(!en->last().needsDocument && en->last().needsMemory);
    }

    void everyTemplate_data()
    {
        QTest::addColumn<QString>("id");
        for (const QJsonValue& v : shippedIndex()) {
            const QString id = v.toObject().value(QStringLiteral("id")).toString();
            QTest::newRow(qPrintable(id)) << id;
        }
    }
    void everyTemplate()
    {
        QFETCH(QString, id);
        const TemplateCatalog catalog(kFolder);
        QJsonObject entry;
        for (const QJsonValue& v : shippedIndex())
            if (v.toObject().value(QStringLiteral("id")).toString() == id)
                entry = v.toObject();

        // Both languages, for the title, the description and every input.
        for (const char* field : {"title", "description"}) {
            const QJsonObject texts = entry.value(QLatin1String(field)).toObject();
            QVERIFY2(texts.value(QStringLiteral("en")).toString().size() > 3, field);
            const QString ja = texts.value(QStringLiteral("ja")).toString();
            QVERIFY2(ja.contains(QRegularExpression(QStringLiteral("[\\x{3040}-\\x{30ff}\\x{4e00}-"
                                                                   "\\x{9fff}]"))),
                     field);
        }
        const QJsonArray inputs = entry.value(QStringLiteral("inputs")).toArray();
        QVERIFY(!inputs.isEmpty());
        for (const QJsonValue& in : inputs) {
            QVERIFY(!in.toObject().value(QStringLiteral("en")).toString().isEmpty());
            QVERIFY(!in.toObject().value(QStringLiteral("ja")).toString().isEmpty());
        }

        // The file exists and parses without errors.
        const auto text = catalog.programText(id);
        QVERIFY2(text.ok(), qPrintable(text.ok() ? QString() : text.error().message));
        const QString file = entry.value(QStringLiteral("file")).toString();
        const QStringList problems = problemsOf(*text, QDir(kFolder).filePath(file));
        QVERIFY2(problems.isEmpty(), qPrintable(problems.join(QLatin1Char('\n'))));

        // Each input is a name the program defines (with a sample value) in its top-level defs.
        for (const QJsonValue& in : inputs) {
            const QString name = in.toObject().value(QStringLiteral("name")).toString();
            QVERIFY2(text->contains(QRegularExpression(QStringLiteral("\\n  %1:").arg(name))),
                     qPrintable(name));
        }
        // A title line and `model: default` for the user's model.
        QVERIFY(text->startsWith(QLatin1String("# title: ")));
        QVERIFY(text->contains(QLatin1String("model: default")));
    }

    void japaneseProgram_data() { everyTemplate_data(); }
    void japaneseProgram()
    {
        QFETCH(QString, id);
        const TemplateCatalog catalog(kFolder);
        const auto ja = catalog.templates(QStringLiteral("ja"));
        QVERIFY(ja.ok());
        const auto info =
            std::find_if(ja->begin(), ja->end(), [&](const TemplateInfo& t) { return t.id == id; });
        QVERIFY(info != ja->end());
        // A file of its own, listed in templates.json, which programText gives for "ja".
        QCOMPARE(info->fileName, id + QLatin1String(".ja.pdl"));
        QCOMPARE(info->fileNames.value(QStringLiteral("ja")), info->fileName);
        QCOMPARE(info->fileNames.value(QStringLiteral("en")), id + QLatin1String(".pdl"));
        const auto text = catalog.programText(id, QStringLiteral("ja"));
        QVERIFY2(text.ok(), qPrintable(text.ok() ? QString() : text.error().message));
        QFile file(QDir(kFolder).filePath(info->fileName));
        QVERIFY(file.open(QIODevice::ReadOnly));
        QCOMPARE(*text, QString::fromUtf8(file.readAll()));
        const auto english = catalog.programText(id);
        QVERIFY(english.ok());
        QVERIFY(*english != *text);

        // It parses without problems, says what it is, and keeps the user's model.
        const QStringList problems = problemsOf(*text, file.fileName());
        QVERIFY2(problems.isEmpty(), qPrintable(problems.join(QLatin1Char('\n'))));
        QVERIFY(text->startsWith(QLatin1String("# title: ")));
        QVERIFY(hasJapanese(text->section(QLatin1Char('\n'), 0, 0)));
        QVERIFY(text->contains(QLatin1String("model: default")));
        QVERIFY(!text->contains(QRegularExpression(QStringLiteral("model: (?!default)"))));

        // The same inputs as the English program, in the same order (`${ }` keeps working).
        QCOMPARE(topLevelDefs(*text), topLevelDefs(*english));
        for (const TemplateInput& in : info->inputs)
            QVERIFY2(topLevelDefs(*text).contains(in.name), qPrintable(in.name));

        // Every model call asks in Japanese: its messages, or (a call that sends the program's
        // context) the program's messages and values.
        const auto doc =
            playground::PromptDoc::build(*text, file.fileName(), {QStringLiteral("memory")});
        QVERIFY(doc.ok());
        QList<playground::PromptDocItem> cards;
        collectCards(doc->items, cards);
        QVERIFY(!cards.isEmpty());
        QStringList everything;
        collectTexts(doc->items, everything);
        for (const playground::PromptDocItem& card : cards) {
            QStringList asked;
            collectTexts(card.children, asked);
            QVERIFY2(hasJapanese(asked.join(QLatin1Char('\n'))) ||
                         (card.usesContext && hasJapanese(everything.join(QLatin1Char('\n')))),
                     qPrintable(QStringLiteral("line %1").arg(card.span.line)));
        }
        // Its comments are Japanese too: every comment line with words has some.
        for (const QString& line : text->split(QLatin1Char('\n'))) {
            const QString comment = line.trimmed();
            if (comment.startsWith(QLatin1Char('#')) && comment.size() > 12)
                QVERIFY2(hasJapanese(comment), qPrintable(comment));
        }
    }

    void languageFiles()
    {
        // A language without a file of its own gets the English program; a listed file that is
        // missing is an error naming it.
        const QString folder =
            writeIndex("{\"templates\": [{\"id\": \"a\", \"file\": \"a.pdl\", \"files\": "
                       "{\"ja\": \"a.ja.pdl\"}, \"title\": {\"en\": \"A\"}, \"description\": "
                       "{\"en\": \"d\"}}, {\"id\": \"b\", \"file\": \"b.pdl\", \"title\": "
                       "{\"en\": \"B\"}, \"description\": {\"en\": \"d\"}}]}");
        for (const char* name : {"a.pdl", "a.ja.pdl", "b.pdl"}) {
            QFile f(QDir(folder).filePath(QLatin1String(name)));
            QVERIFY(f.open(QIODevice::WriteOnly));
            f.write(QByteArray("text: ") + name);
        }
        const TemplateCatalog catalog(folder);
        QCOMPARE(*catalog.programText(QStringLiteral("a"), QStringLiteral("ja")),
                 QStringLiteral("text: a.ja.pdl"));
        QCOMPARE(*catalog.programText(QStringLiteral("a"), QStringLiteral("en")),
                 QStringLiteral("text: a.pdl"));
        QCOMPARE(*catalog.programText(QStringLiteral("a"), QStringLiteral("fr")),
                 QStringLiteral("text: a.pdl"));
        QCOMPARE(*catalog.programText(QStringLiteral("b"), QStringLiteral("ja")),
                 QStringLiteral("text: b.pdl"));
        QVERIFY(QFile::remove(QDir(folder).filePath(QStringLiteral("a.ja.pdl"))));
        const auto gone = catalog.programText(QStringLiteral("a"), QStringLiteral("ja"));
        QVERIFY(!gone.ok());
        QVERIFY2(gone.error().message.contains(QLatin1String("a.ja.pdl")),
                 qPrintable(gone.error().message));
    }

    void malformedIndex_data()
    {
        QTest::addColumn<QByteArray>("json");
        QTest::addColumn<QString>("reason");
        QTest::newRow("not json") << QByteArray("{\"templates\": [\n{\"id\": \"a\",,}]}")
                                  << QStringLiteral("is not valid JSON");
        QTest::newRow("no array") << QByteArray("{\"templates\": 3}")
                                  << QStringLiteral("\"templates\" array");
        QTest::newRow("no id") << QByteArray("{\"templates\": [{\"file\": \"a.pdl\"}]}")
                               << QStringLiteral("template 1: has no \"id\"");
        QTest::newRow("no file") << QByteArray("{\"templates\": [{\"id\": \"a\"}]}")
                                 << QStringLiteral("template 1 (a): has no \"file\"");
        QTest::newRow("no english")
            << QByteArray("{\"templates\": [{\"id\": \"a\", \"file\": \"a.pdl\", \"title\": "
                          "{\"ja\": \"あ\"}, \"description\": {\"en\": \"d\"}}]}")
            << QStringLiteral("\"title\" needs an English text");
        QTest::newRow("twice")
            << QByteArray("{\"templates\": [{\"id\": \"a\", \"file\": \"a.pdl\", \"title\": "
                          "{\"en\": \"A\"}, \"description\": {\"en\": \"d\"}}, {\"id\": \"a\", "
                          "\"file\": \"b.pdl\", \"title\": {\"en\": \"B\"}, \"description\": "
                          "{\"en\": \"d\"}}]}")
            << QStringLiteral("template 2 (a): the id is used twice");
        QTest::newRow("files not an object")
            << QByteArray("{\"templates\": [{\"id\": \"a\", \"file\": \"a.pdl\", \"files\": "
                          "[\"a.ja.pdl\"], \"title\": {\"en\": \"A\"}, \"description\": "
                          "{\"en\": \"d\"}}]}")
            << QStringLiteral("template 1 (a): \"files\" must be an object");
        QTest::newRow("files without a name")
            << QByteArray("{\"templates\": [{\"id\": \"a\", \"file\": \"a.pdl\", \"files\": "
                          "{\"ja\": \"\"}, \"title\": {\"en\": \"A\"}, \"description\": "
                          "{\"en\": \"d\"}}]}")
            << QStringLiteral("template 1 (a): \"files\": the ja file has no name");
    }
    void malformedIndex()
    {
        QFETCH(QByteArray, json);
        QFETCH(QString, reason);
        const QString folder = writeIndex(json);
        const auto list = TemplateCatalog(folder).templates();
        QVERIFY(!list.ok());
        const QString message = list.error().message;
        QVERIFY2(message.contains(QDir(folder).filePath(QStringLiteral("templates.json"))),
                 qPrintable(message));
        QVERIFY2(message.contains(reason), qPrintable(message));
        QVERIFY(!TemplateCatalog(folder).programText(QStringLiteral("a")).ok());
    }

    void missingFolderAndFile()
    {
        const auto none = TemplateCatalog(m_dir.filePath(QStringLiteral("nowhere"))).templates();
        QVERIFY(!none.ok());
        QVERIFY(none.error().message.contains(QLatin1String("templates.json")));
        const QString folder =
            writeIndex("{\"templates\": [{\"id\": \"a\", \"file\": \"gone.pdl\", \"title\": "
                       "{\"en\": \"A\"}, \"description\": {\"en\": \"d\"}}]}");
        const TemplateCatalog catalog(folder);
        QVERIFY(catalog.templates().ok());
        const auto text = catalog.programText(QStringLiteral("a"));
        QVERIFY(!text.ok());
        QVERIFY(text.error().message.contains(QLatin1String("gone.pdl")));
        QVERIFY(catalog.programText(QStringLiteral("b"))
                    .error()
                    .message.contains(QLatin1String("no template named b")));
    }

    void interfaceLanguage()
    {
        qunsetenv("HAKO_LANGUAGE");
        QCOMPARE(TemplateCatalog::interfaceLanguage(QStringLiteral("ja_JP")), QStringLiteral("ja"));
        QCOMPARE(TemplateCatalog::interfaceLanguage(QStringLiteral("en")), QStringLiteral("en"));
        qputenv("HAKO_LANGUAGE", "ja");
        QCOMPARE(TemplateCatalog::interfaceLanguage(QStringLiteral("en")), QStringLiteral("ja"));
        qputenv("HAKO_LANGUAGE", "en");
        QCOMPARE(TemplateCatalog::interfaceLanguage(QStringLiteral("ja")), QStringLiteral("en"));
        qunsetenv("HAKO_LANGUAGE");
    }
};

QTEST_GUILESS_MAIN(TestTemplateCatalog)
#include "tst_templatecatalog.moc"
