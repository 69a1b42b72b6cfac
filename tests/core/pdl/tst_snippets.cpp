// Block snippets of completion: offered where a block can start (and nowhere else), and each
// one, inserted into a list item, at the top level, after `text:`, in a 4-space file and a CRLF
// file and its placeholder filled, is a program the checker accepts and PyYAML reads as the same
// value in every place.
#include "core/pdl/lang/completion.h"
#include "core/pdl/lang/snippets.h"
#include "core/pdl/programcheck.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>

using namespace hako;
using namespace hako::pdl;

namespace {

QString findPython()
{
    if (QFileInfo::exists(QStringLiteral("/usr/bin/python3")))
        return QStringLiteral("/usr/bin/python3");
    return QStandardPaths::findExecutable(QStringLiteral("python3"));
}

QStringList splitLines(const QString& text)
{
    QStringList lines = text.split(QLatin1Char('\n'));
    for (QString& l : lines) {
        if (l.endsWith(QLatin1Char('\r')))
            l.chop(1);
    }
    return lines;
}

// The UTF-16 offset of 1-based (line, column) in `text` (ASCII before the column).
qsizetype offsetOf(const QString& text, int line, int column)
{
    qsizetype offset = 0;
    for (int l = 1; l < line; ++l)
        offset = text.indexOf(QLatin1Char('\n'), offset) + 1;
    return offset + column - 1;
}

struct Place {
    const char* name;
    const char* text; ///< the cursor at the end
    const char* eol;
};

// Every place yields the same value as `list` (the top level: that value's only item).
const Place kPlaces[] = {
    {"list", "text:\n  - ", "\n"},
    {"top", "", "\n"},
    {"afterText", "text: ", "\n"},
    {"typedPrefix", "text:\n  - xy", "\n"},
    {"fourSpaces", "text:\n    - ", "\n"},
    {"crlf", "text:\r\n  - ", "\r\n"},
    {"fourSpacesAfterText", "description: demo\ntext:\n    - hi\n    - text: ", "\n"},
};

QString fillFor(const QString& id)
{
    if (id == QLatin1String("include") || id == QLatin1String("import"))
        return QStringLiteral("hello.pdl");
    return QStringLiteral("hello");
}

struct Inserted {
    QString id;
    QString place;
    QString program;
};

} // namespace

class TestSnippets : public QObject {
    Q_OBJECT

private:
    QTemporaryDir m_dir;
    QList<Inserted> m_programs;

private Q_SLOTS:
    void initTestCase()
    {
        QVERIFY(m_dir.isValid());
        QFile f(m_dir.filePath(QStringLiteral("hello.pdl")));
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write("def: greeting\ntext: Hello\n");
    }

    void everyKindHasASnippet()
    {
        const QList<CompletionItem> items = blockSnippets(QStringLiteral("ollama/granite3.3:8b"));
        QStringList ids;
        for (const CompletionItem& i : items) {
            ids << i.snippet.id;
            QCOMPARE(i.kind, CompletionItem::Kind::Snippet);
            QVERIFY2(!i.text.isEmpty() && !i.documentation.isEmpty(), qPrintable(i.snippet.id));
            QVERIFY(i.documentation.endsWith(QLatin1Char('.')));
            QVERIFY(i.snippet.cursorOffset >= 0 && i.snippet.cursorOffset <= i.snippet.body.size());
            QVERIFY(!i.snippet.body.contains(QLatin1String("$0")));
        }
        for (const char* id :
             {"model",    "text",    "lastOf", "array", "object",  "data",        "code",
              "read",     "include", "import", "if",    "for",     "repeatUntil", "repeatTimes",
              "function", "call",    "def",    "match", "message", "get"})
            QVERIFY2(ids.contains(QLatin1String(id)), id);
        QCOMPARE(items.first().snippet.id, QStringLiteral("model"));
        QCOMPARE(items.first().snippet.body,
                 QStringLiteral("model: ollama/granite3.3:8b\ninput: \nparameters:\n"
                                "  temperature: 0"));
        QCOMPARE(items.first().snippet.cursorOffset,
                 int(items.first().snippet.body.indexOf(QLatin1String("input: ")) + 7));
        // Without a configured default the alias is used; odd names are quoted.
        QVERIFY(
            blockSnippets({}).first().snippet.body.startsWith(QLatin1String("model: default\n")));
        QVERIFY(blockSnippets(QStringLiteral("a: b#c"))
                    .first()
                    .snippet.body.startsWith(QLatin1String("model: \"a: b#c\"\n")));
    }

    void offeredFirstOnANewListItem()
    {
        const QStringList lines = {QStringLiteral("text:"), QStringLiteral("  - mod")};
        const Completions c =
            completionsAt(lines, 2, 8, nullptr, {}, QStringLiteral("ollama/granite3.3:8b"));
        QVERIFY(!c.items.isEmpty());
        QCOMPARE(c.items.first().kind, CompletionItem::Kind::Snippet);
        QCOMPARE(c.items.first().snippet.id, QStringLiteral("model"));
        QVERIFY(c.items.first().snippet.body.contains(QLatin1String("ollama/granite3.3:8b")));
        QCOMPARE(c.prefix, QStringLiteral("mod"));
        // The bare block kind is still there, after it.
        bool kind = false;
        for (const CompletionItem& i : c.items)
            kind = kind ||
                   (i.text == QLatin1String("model") && i.kind == CompletionItem::Kind::BlockKind);
        QVERIFY(kind);
        // `model` typed in full: the snippet is the first (the bare key is not offered then).
        const Completions full = completionsAt({QStringLiteral("- model")}, 1, 8, nullptr, {});
        QVERIFY(!full.items.isEmpty());
        QCOMPARE(full.items.first().snippet.id, QStringLiteral("model"));
    }

    void whereBlocksStart_data()
    {
        QTest::addColumn<QString>("text");
        QTest::addColumn<int>("line");
        QTest::addColumn<int>("column");
        QTest::addColumn<bool>("offered");
        QTest::newRow("empty file") << "" << 1 << 1 << true;
        QTest::newRow("empty file with comment") << "# a program\n" << 2 << 1 << true;
        QTest::newRow("top level after a key") << "description: x\n" << 2 << 1 << false;
        QTest::newRow("list item") << "text:\n  - " << 2 << 5 << true;
        QTest::newRow("list item with prefix") << "text:\n  - re" << 2 << 7 << true;
        QTest::newRow("then value") << "if: ${ x }\nthen: " << 2 << 7 << true;
        QTest::newRow("then own line") << "if: ${ x }\nthen:\n  " << 3 << 3 << true;
        QTest::newRow("second key of an item") << "text:\n  - model: m\n    in" << 3 << 7 << false;
        QTest::newRow("scalar value") << "text:\n  - hello wor" << 2 << 14 << false;
        QTest::newRow("plain value") << "description: mo" << 1 << 16 << false;
        QTest::newRow("then scalar") << "if: ${ x }\nthen: yes and" << 2 << 14 << false;
        QTest::newRow("quoted") << "text:\n  - \"mo" << 2 << 8 << false;
        QTest::newRow("expression") << "text:\n  - ${ mo" << 2 << 10 << false;
        QTest::newRow("comment") << "text:\n  # - mo" << 2 << 9 << false;
        QTest::newRow("comment after") << "text: # mo" << 1 << 11 << false;
        QTest::newRow("block scalar") << "text:\n  - |\n    some text\n    - mo" << 4 << 9 << false;
        QTest::newRow("block scalar blank line") << "code: |\n  x = 1\n\n" << 3 << 1 << false;
        QTest::newRow("text after cursor") << "text:\n  - mo del" << 2 << 7 << false;
        QTest::newRow("defs names") << "defs:\n  " << 2 << 3 << false;
        QTest::newRow("parameters") << "model: m\nparameters:\n  - " << 3 << 5 << false;
    }

    void whereBlocksStart()
    {
        QFETCH(QString, text);
        QFETCH(int, line);
        QFETCH(int, column);
        QFETCH(bool, offered);
        const QStringList lines = splitLines(text);
        QCOMPARE(snippetSiteAt(lines, line, column).has_value(), offered);
        bool any = false;
        for (const CompletionItem& i : completionsAt(lines, line, column, nullptr, {}).items)
            any = any || i.kind == CompletionItem::Kind::Snippet;
        QCOMPARE(any, offered);
    }

    void indentStep()
    {
        QCOMPARE(indentStepOf({}), 2);
        QCOMPARE(indentStepOf(splitLines(QStringLiteral("text:\n  - a"))), 2);
        QCOMPARE(indentStepOf(splitLines(QStringLiteral("text:\n    - a"))), 4);
        QCOMPARE(indentStepOf(splitLines(QStringLiteral("- model: m\n  parameters:\n      t: 0"))),
                 4);
        QCOMPARE(indentStepOf(splitLines(QStringLiteral("# c\ndefs:\n\n    x: 1"))), 4);
    }

    void reindent()
    {
        int cursor = 0;
        const QString body = QStringLiteral("match: x\nwith:\n  - case: 1\n    then:\n      "
                                            "text: a\n  - then: b");
        cursor = int(body.indexOf(QLatin1String("text: a")));
        const QString out = reindentSnippet(body, 6, 4, QStringLiteral("\r\n"), &cursor);
        QCOMPARE(out, QStringLiteral("match: x\r\n      with:\r\n          - case: 1\r\n"
                                     "            then:\r\n                text: a\r\n"
                                     "          - then: b"));
        QCOMPARE(out.mid(cursor, 7), QStringLiteral("text: a"));
    }

    void insertion_data()
    {
        QTest::addColumn<QString>("id");
        QTest::addColumn<QString>("place");
        for (const CompletionItem& i : blockSnippets(QStringLiteral("ollama/granite3.3:8b"))) {
            for (const Place& p : kPlaces)
                QTest::addRow("%s/%s", qPrintable(i.snippet.id), p.name)
                    << i.snippet.id << QString::fromLatin1(p.name);
        }
    }

    void insertion()
    {
        QFETCH(QString, id);
        QFETCH(QString, place);
        const Place* p = nullptr;
        for (const Place& candidate : kPlaces) {
            if (place == QLatin1String(candidate.name))
                p = &candidate;
        }
        QVERIFY(p);
        Snippet snippet;
        for (const CompletionItem& i : blockSnippets(QStringLiteral("ollama/granite3.3:8b"))) {
            if (i.snippet.id == id)
                snippet = i.snippet;
        }
        QString text = QString::fromLatin1(p->text);
        const QStringList lines = splitLines(text);
        const int line = int(lines.size());
        const int column = int(lines.last().size()) + 1;
        const std::optional<SnippetEdit> edit =
            snippetEditAt(lines, line, column, snippet, QString::fromLatin1(p->eol));
        QVERIFY(edit);
        QCOMPARE(edit->line, line);
        QCOMPARE(edit->toColumn, column);
        const qsizetype from = offsetOf(text, line, edit->fromColumn);
        const qsizetype to = offsetOf(text, line, edit->toColumn);
        text.replace(from, to - from, edit->text);
        const qsizetype cursor = from + edit->cursorOffset;
        // The cursor is where the placeholder was.
        const QString fill = fillFor(id);
        text.insert(cursor, fill);
        if (QLatin1String(p->eol) == QLatin1String("\r\n")) {
            QCOMPARE(text.count(QLatin1Char('\n')), text.count(QLatin1String("\r\n")));
        } else {
            QVERIFY(!text.contains(QLatin1Char('\r')));
        }
        const ProgramReport report =
            analyzeProgramText(text.toUtf8(), m_dir.filePath(QStringLiteral("main.pdl")));
        QStringList errors;
        for (const Diagnostic& d : report.diagnostics) {
            if (d.severity == Severity::Error)
                errors << QStringLiteral("%1:%2 %3")
                              .arg(d.span.line)
                              .arg(d.span.column)
                              .arg(d.message);
        }
        QVERIFY2(errors.isEmpty(),
                 qPrintable(text + QLatin1String("\n---\n") + errors.join(QLatin1Char('\n'))));
        m_programs.append({id, place, text});
    }

    // PyYAML reads every inserted program, and the same value wherever it was inserted.
    void pyyamlOracle()
    {
        if (m_programs.isEmpty())
            QSKIP("insertion() did not run");
        const QString python = findPython();
        if (python.isEmpty())
            QSKIP("python3 missing (Debian: python3-yaml)");
        QProcess probe;
        probe.start(python, {QStringLiteral("-c"), QStringLiteral("import yaml")});
        if (!probe.waitForFinished(30000) || probe.exitCode() != 0)
            QSKIP("python3-yaml missing");
        QJsonArray texts;
        for (const Inserted& i : m_programs)
            texts.append(i.program);
        QProcess py;
        py.start(python, {QStringLiteral("-c"),
                          QStringLiteral("import json, sys, yaml\n"
                                         "out = []\n"
                                         "for t in json.load(sys.stdin):\n"
                                         "    try:\n"
                                         "        out.append({'value': yaml.safe_load(t)})\n"
                                         "    except Exception as e:\n"
                                         "        out.append({'error': str(e)})\n"
                                         "json.dump(out, sys.stdout)\n")});
        QVERIFY(py.waitForStarted(30000));
        py.write(QJsonDocument(texts).toJson(QJsonDocument::Compact));
        py.closeWriteChannel();
        QVERIFY(py.waitForFinished(60000));
        QCOMPARE(py.exitCode(), 0);
        const QJsonArray results = QJsonDocument::fromJson(py.readAllStandardOutput()).array();
        QCOMPARE(results.size(), m_programs.size());
        QHash<QString, QJsonValue> expected; // by snippet: its block as `list` gives it
        for (int k = 0; k < m_programs.size(); ++k) {
            const Inserted& i = m_programs.at(k);
            const QJsonObject r = results.at(k).toObject();
            QVERIFY2(!r.contains(QLatin1String("error")),
                     qPrintable(i.id + QLatin1Char('/') + i.place + QLatin1String(": ") +
                                r.value(QLatin1String("error")).toString() + QLatin1Char('\n') +
                                i.program));
            QJsonValue block = r.value(QLatin1String("value"));
            if (i.place == QLatin1String("fourSpacesAfterText"))
                block = block.toObject().value(QLatin1String("text")).toArray().at(1);
            if (i.place != QLatin1String("top"))
                block = block.toObject().value(QLatin1String("text")).toArray().at(0);
            QVERIFY2(block.isObject(), qPrintable(i.id + QLatin1Char('/') + i.place));
            if (!expected.contains(i.id))
                expected.insert(i.id, block);
            QVERIFY2(expected.value(i.id) == block,
                     qPrintable(i.id + QLatin1Char('/') + i.place + QLatin1Char('\n') + i.program));
        }
        QCOMPARE(expected.value(QStringLiteral("model"))
                     .toObject()
                     .value(QLatin1String("model"))
                     .toString(),
                 QStringLiteral("ollama/granite3.3:8b"));
        QCOMPARE(expected.value(QStringLiteral("model"))
                     .toObject()
                     .value(QLatin1String("input"))
                     .toString(),
                 QStringLiteral("hello"));
    }
};

QTEST_GUILESS_MAIN(TestSnippets)
#include "tst_snippets.moc"
