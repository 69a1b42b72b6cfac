// The Prompt view's model of a program (PromptDoc) and its edits: scalars and parameters are
// rewritten with minimal edits, checked against PyYAML over every example, template and
// conformance program.
#include "core/playground/promptdoc.h"
#include "core/playground/promptdocedit.h"
#include "pyyaml.h"

#include <QDir>
#include <QDirIterator>
#include <QFile>
#include <QJsonArray>
#include <QJsonObject>
#include <QtTest>

using namespace hako;
using namespace hako::playground;

namespace {

QString readFile(const QString& path)
{
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly))
        return {};
    return QString::fromUtf8(f.readAll());
}

void flatten(const QList<PromptDocItem>& items, QList<PromptDocItem>& out)
{
    for (const PromptDocItem& i : items) {
        out << i;
        flatten(i.children, out);
    }
}

QList<PromptDocItem> flat(const PromptDoc& doc)
{
    QList<PromptDocItem> out;
    flatten(doc.items, out);
    return out;
}

/// Leaves where `a` and `b` differ, as "old → new" pairs of strings.
void diff(const QJsonValue& a, const QJsonValue& b, QList<QPair<QJsonValue, QJsonValue>>& out)
{
    if (a.isObject() && b.isObject()) {
        const QJsonObject oa = a.toObject(), ob = b.toObject();
        if (oa.keys() != ob.keys()) {
            out << qMakePair(a, b);
            return;
        }
        for (const QString& k : oa.keys())
            diff(oa.value(k), ob.value(k), out);
        return;
    }
    if (a.isArray() && b.isArray()) {
        const QJsonArray aa = a.toArray(), ab = b.toArray();
        if (aa.size() != ab.size()) {
            out << qMakePair(a, b);
            return;
        }
        for (qsizetype i = 0; i < aa.size(); ++i)
            diff(aa.at(i), ab.at(i), out);
        return;
    }
    if (a != b)
        out << qMakePair(a, b);
}

QStringList allPrograms()
{
    QStringList files;
    const QStringList roots{QStringLiteral(HAKO_SOURCE_DIR "/resources/examples"),
                            QStringLiteral(HAKO_SOURCE_DIR "/resources/templates"),
                            QStringLiteral(HAKO_SHARED_DIR "/conformance/pdl"),
                            QStringLiteral(HAKO_SHARED_DIR "/conformance/pdl-unit")};
    for (const QString& root : roots) {
        QDirIterator it(root, {QStringLiteral("*.pdl")}, QDir::Files, QDirIterator::Subdirectories);
        while (it.hasNext())
            files << it.next();
    }
    files.sort();
    return files;
}

} // namespace

class TestPromptDoc : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void buildsCards();
    void sections();
    void replaceKeepsStyle_data();
    void replaceKeepsStyle();
    void parameters();
    void roundTrip_data();
    void roundTrip();
};

void TestPromptDoc::buildsCards()
{
    const QString text = QStringLiteral("# A comment\n"
                                        "description: demo\n"
                                        "defs:\n"
                                        "  tone: polite\n"
                                        "text:\n"
                                        "- \"Hello\\n\"\n"
                                        "- def: answer\n"
                                        "  model: ollama/granite\n"
                                        "  input:\n"
                                        "    array:\n"
                                        "    - role: system\n"
                                        "      content: |\n"
                                        "        Be ${ tone }.\n"
                                        "    - role: user\n"
                                        "      content: ${ question }\n"
                                        "  parameters:\n"
                                        "    temperature: 0.2\n"
                                        "    max_new_tokens: 100\n"
                                        "- model: other\n");
    Result<PromptDoc> doc = PromptDoc::build(text, QStringLiteral("t.pdl"));
    QVERIFY(doc);
    const QList<PromptDocItem>& items = doc->items;
    QCOMPARE(items.size(), 4);
    QCOMPARE(items[0].kind, PromptDocItem::Kind::Value);
    QCOMPARE(items[0].heading, QStringLiteral("tone"));
    QCOMPARE(items[0].text, QStringLiteral("polite"));
    QCOMPARE(items[1].kind, PromptDocItem::Kind::Paragraph);
    QCOMPARE(items[1].text, QStringLiteral("Hello\n"));
    QCOMPARE(items[1].textSpan.line, 6);
    QCOMPARE(items[1].textSpan.column, 3);
    const PromptDocItem& card = items[2];
    QCOMPARE(card.kind, PromptDocItem::Kind::Card);
    QCOMPARE(card.heading, QStringLiteral("answer"));
    QCOMPARE(card.model, QStringLiteral("ollama/granite"));
    QCOMPARE(card.modelSpan.line, 8);
    QCOMPARE(card.modelSpan.column, 10);
    QCOMPARE(card.temperature.toDouble(), 0.2);
    QCOMPARE(card.maxTokensKey, QStringLiteral("max_new_tokens"));
    QCOMPARE(card.maxTokens.toInt(), 100);
    QVERIFY(card.parametersEditable);
    QVERIFY(!card.usesContext);
    QCOMPARE(card.children.size(), 2);
    QCOMPARE(card.children[0].role, QStringLiteral("system"));
    QCOMPARE(card.children[0].text, QStringLiteral("Be ${ tone }.\n"));
    QCOMPARE(card.children[0].textSpan.line, 12);
    QCOMPARE(card.children[1].role, QStringLiteral("user"));
    QVERIFY(card.children[1].editable);
    QVERIFY(items[3].usesContext);
    QCOMPARE(doc->inputs.size(), 1);
    QCOMPARE(doc->inputs[0].name, QStringLiteral("question"));
    QVERIFY(doc->origins.value(QStringLiteral("tone")).contains(QLatin1String("line 4")));
    QVERIFY(doc->origins.contains(QStringLiteral("question")));

    // A YAML error names its line.
    Result<PromptDoc> bad = PromptDoc::build(QStringLiteral("text:\n- a\n  b: [\n"));
    QVERIFY(!bad);
    QVERIFY(bad.error().span.line > 0);
}

void TestPromptDoc::sections()
{
    const QString text = QStringLiteral("text:\n"
                                        "- for:\n"
                                        "    q: ${ questions }\n"
                                        "  repeat:\n"
                                        "    model: m\n"
                                        "    input: ${ q }\n"
                                        "- if: ${ ok }\n"
                                        "  then: yes please\n"
                                        "- lang: python\n"
                                        "  code: result = 1\n"
                                        "- def: f\n"
                                        "  function: {x: str}\n"
                                        "  return: Hi ${ x }\n");
    Result<PromptDoc> doc = PromptDoc::build(text);
    QVERIFY(doc);
    QCOMPARE(doc->items.size(), 4);
    QCOMPARE(doc->items[0].kind, PromptDocItem::Kind::Section);
    QCOMPARE(doc->items[0].sentence, QStringLiteral("Repeats for each item of `questions`."));
    QCOMPARE(doc->items[0].children.size(), 1);
    QCOMPARE(doc->items[0].children[0].kind, PromptDocItem::Kind::Card);
    QCOMPARE(doc->items[1].label, QStringLiteral("Condition"));
    QCOMPARE(doc->items[1].children.size(), 1);
    QCOMPARE(doc->items[1].children[0].text, QStringLiteral("yes please"));
    QCOMPARE(doc->items[2].sentence,
             QStringLiteral("Runs Python code — ask an engineer to change it."));
    QVERIFY(doc->items[2].engineerOnly);
    QCOMPARE(doc->items[3].label, QStringLiteral("Function"));
    QStringList inputs;
    for (const auto& i : doc->inputs)
        inputs << i.name;
    QCOMPARE(inputs, (QStringList{QStringLiteral("questions"), QStringLiteral("ok")}));
}

void TestPromptDoc::replaceKeepsStyle_data()
{
    QTest::addColumn<QString>("source");
    QTest::addColumn<int>("line");
    QTest::addColumn<int>("column");
    QTest::addColumn<QString>("value");
    QTest::addColumn<QString>("expected");
    QTest::newRow("plain stays plain") << "a: 1\nb: Hello ${ x } # note\nc: 2\n"
                                       << 2 << 4 << "Bye ${ x }"
                                       << "a: 1\nb: Bye ${ x } # note\nc: 2\n";
    QTest::newRow("plain gets a block") << "m:\n  content: Hello\n  role: user\n"
                                        << 2 << 12 << "Hello\na: b"
                                        << "m:\n  content: |-\n    Hello\n    a: b\n  role: user\n";
    QTest::newRow("plain becomes quoted when a colon follows") << "a: x\n"
                                                               << 1 << 4 << "x: y"
                                                               << "a: \"x: y\"\n";
    QTest::newRow("block stays block, indentation kept")
        << "a:\n  b: |\n      one\n      two\n  c: 1\n"
        << 2 << 6 << "one 猫\ntwo\n"
        << "a:\n  b: |\n      one 猫\n      two\n  c: 1\n";
    QTest::newRow("single quotes kept") << "- 'it''s'\n"
                                        << 1 << 3 << "it's 猫"
                                        << "- 'it''s 猫'\n";
    QTest::newRow("double quotes kept") << "- \"a\\n\"\n"
                                        << 1 << 3 << "b\n"
                                        << "- \"b\\n\"\n";
    QTest::newRow("flow stays flow") << "x: {role: user, content: hi}\n"
                                     << 1 << 26 << "hi\nthere"
                                     << "x: {role: user, content: \"hi\\nthere\"}\n";
    QTest::newRow("crlf block") << "a: |\r\n  one\r\nb: 1\r\n"
                                << 1 << 4 << "one\ntwo\n"
                                << "a: |\r\n  one\r\n  two\r\nb: 1\r\n";
}

void TestPromptDoc::replaceKeepsStyle()
{
    QFETCH(QString, source);
    QFETCH(int, line);
    QFETCH(int, column);
    QFETCH(QString, value);
    QFETCH(QString, expected);
    Result<QList<TextEdit>> edits = replaceScalar(source, line, column, value);
    QVERIFY2(edits, qPrintable(edits ? QString() : edits.error().message));
    QCOMPARE(edits->size(), 1);
    QCOMPARE(applyEdits(source, *edits), expected);
}

void TestPromptDoc::parameters()
{
    const QString text = QStringLiteral("text:\n"
                                        "- model: m # the model\n"
                                        "  parameters:\n"
                                        "    stop: \"\\n\"\n"
                                        "    temperature: 0\n"
                                        "- model: n\n"
                                        "  input: hi\n");
    Result<PromptDoc> doc = PromptDoc::build(text);
    QVERIFY(doc);
    Result<QList<TextEdit>> e =
        editParameter(text, doc->items[0].span, QStringLiteral("temperature"), QJsonValue(0.7));
    QVERIFY(e);
    QCOMPARE(applyEdits(text, *e), QString(text).replace(QLatin1String("temperature: 0"),
                                                         QLatin1String("temperature: 0.7")));
    e = editParameter(text, doc->items[1].span, QStringLiteral("max_tokens"), QJsonValue(50));
    QVERIFY(e);
    const QString added = applyEdits(text, *e);
    QVERIFY2(added.endsWith(QLatin1String("- model: n\n  parameters:\n    max_tokens: 50\n"
                                          "  input: hi\n")),
             qPrintable(added));
    e = editParameter(text, doc->items[0].span, QStringLiteral("temperature"), QJsonValue());
    QVERIFY(e);
    QVERIFY(!applyEdits(text, *e).contains(QLatin1String("temperature")));
    QVERIFY(applyEdits(text, *e).contains(QLatin1String("stop: \"\\n\"")));
}

void TestPromptDoc::roundTrip_data()
{
    QTest::addColumn<QString>("path");
    const QStringList files = allPrograms();
    if (files.size() < 10)
        qWarning("few programs found (../shared absent?): %lld", qlonglong(files.size()));
    for (const QString& f : files)
        QTest::newRow(qPrintable(QDir(QStringLiteral(HAKO_SOURCE_DIR "/..")).relativeFilePath(f)))
            << f;
}

void TestPromptDoc::roundTrip()
{
    QFETCH(QString, path);
    const QString text = readFile(path);
    Result<PromptDoc> doc = PromptDoc::build(text, path);
    if (!doc)
        QSKIP("the program is not YAML (a conformance case about bad input)");
    const QList<PromptDocItem> items = flat(*doc);

    struct Case {
        QString edited;
        QString oldValue, newValue;
    };
    QList<Case> cases;
    for (const PromptDocItem& item : items) {
        // A list is written with itself (nothing changes) and with one item more.
        if (item.valueType == PromptDocItem::ValueType::List) {
            const auto same =
                replaceList(text, item.textSpan.line, item.textSpan.column, item.list);
            QVERIFY2(same && same->isEmpty(), qPrintable(QString::number(item.textSpan.line)));
            const auto more = replaceList(text, item.textSpan.line, item.textSpan.column,
                                          item.list + QStringList{QStringLiteral("猫: a")});
            QVERIFY2(more, qPrintable(QString::number(item.textSpan.line)));
        }
        if (item.valueType == PromptDocItem::ValueType::Number ||
            item.valueType == PromptDocItem::ValueType::Bool) {
            const auto same =
                replaceFixedValue(text, item.textSpan.line, item.textSpan.column, item.fixed);
            QVERIFY2(same && same->isEmpty(), qPrintable(QString::number(item.textSpan.line)));
        }
        // Building the model and rewriting a value with itself changes nothing.
        if (item.editable) {
            Result<QList<TextEdit>> same =
                replaceScalar(text, item.textSpan.line, item.textSpan.column, item.text);
            QVERIFY2(same && same->isEmpty(), qPrintable(QString::number(item.textSpan.line)));
            const QString value = item.text + QStringLiteral(" 猫\na: b");
            Result<QList<TextEdit>> edits =
                replaceScalar(text, item.textSpan.line, item.textSpan.column, value);
            QVERIFY2(edits, qPrintable(QStringLiteral("line %1: %2")
                                           .arg(item.textSpan.line)
                                           .arg(edits ? QString() : edits.error().message)));
            QCOMPARE(edits->size(), 1);
            const TextEdit& e = edits->front();
            const QString edited = applyEdits(text, *edits);
            // Only the scalar's lines change: everything before its first line and after its
            // last one is byte for byte the same.
            const qsizetype lineStart = text.lastIndexOf(QLatin1Char('\n'), e.offset - 1) + 1;
            qsizetype lineEnd = text.indexOf(QLatin1Char('\n'), e.offset + e.length);
            if (lineEnd < 0)
                lineEnd = text.size();
            QCOMPARE(edited.left(lineStart), text.left(lineStart));
            QCOMPARE(edited.mid(edited.size() - (text.size() - lineEnd)), text.mid(lineEnd));
            QCOMPARE(
                text.count(QLatin1Char('\n')) - text.left(lineEnd).count(QLatin1Char('\n')),
                edited.count(QLatin1Char('\n')) -
                    edited.left(edited.size() - (text.size() - lineEnd)).count(QLatin1Char('\n')));
            // Hako's own reader sees the new value in the same place.
            Result<PromptDoc> again = PromptDoc::build(edited, path);
            QVERIFY(again);
            bool seen = false;
            for (const PromptDocItem& i : flat(*again))
                seen = seen || (i.textSpan.line == item.textSpan.line &&
                                i.textSpan.column == item.textSpan.column && i.text == value);
            QVERIFY2(seen, qPrintable(QStringLiteral("line %1").arg(item.textSpan.line)));
            cases << Case{edited, item.text, value};
        }
        if (item.kind == PromptDocItem::Kind::Card && item.modelEditable) {
            const QString value = item.model + QStringLiteral(" 猫: x");
            Result<QList<TextEdit>> edits =
                replaceScalar(text, item.modelSpan.line, item.modelSpan.column, value);
            QVERIFY2(edits, qPrintable(QStringLiteral("model on line %1: %2")
                                           .arg(item.modelSpan.line)
                                           .arg(edits ? QString() : edits.error().message)));
            cases << Case{applyEdits(text, *edits), item.model, value};
        }
        if (item.kind == PromptDocItem::Kind::Card && item.parametersEditable) {
            Result<QList<TextEdit>> edits =
                editParameter(text, item.span, QStringLiteral("temperature"), QJsonValue(0.25));
            QVERIFY2(edits, qPrintable(QStringLiteral("card on line %1: %2")
                                           .arg(item.span.line)
                                           .arg(edits ? QString() : edits.error().message)));
            {
                Result<PromptDoc> again = PromptDoc::build(applyEdits(text, *edits), path);
                QVERIFY(again);
                bool seen = false;
                for (const PromptDocItem& i : flat(*again))
                    seen = seen ||
                           (i.kind == PromptDocItem::Kind::Card && i.span.line == item.span.line &&
                            i.span.column == item.span.column && i.temperature == QJsonValue(0.25));
                QVERIFY2(seen, qPrintable(QStringLiteral("card on line %1").arg(item.span.line)));
            }
        }
    }
    if (cases.isEmpty() || !testing::havePyYaml())
        return;
    // PyYAML reads each edited program as the original with exactly that one string changed.
    QStringList texts{text};
    for (const Case& c : cases)
        texts << c.edited;
    QStringList errors;
    std::optional<QJsonArray> read = testing::pyYamlLoadMany(texts, &errors);
    QVERIFY(read);
    if (!errors.front().isEmpty())
        QSKIP("PyYAML refuses the original program");
    for (qsizetype i = 0; i < cases.size(); ++i) {
        QVERIFY2(errors.at(i + 1).isEmpty(), qPrintable(errors.at(i + 1)));
        QList<QPair<QJsonValue, QJsonValue>> d;
        diff(read->at(0), read->at(i + 1), d);
        QCOMPARE(d.size(), 1);
        QCOMPARE(d.front().first.toString(), cases[i].oldValue);
        QCOMPARE(d.front().second.toString(), cases[i].newValue);
    }
}

QTEST_GUILESS_MAIN(TestPromptDoc)
#include "tst_promptdoc.moc"
