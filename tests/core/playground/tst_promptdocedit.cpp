// Structure edits of the Prompt view (promptdocedit.h): a `defs` list or number written
// again, a prompt added, moved, renamed, removed — minimal text edits, checked with PyYAML
// (when available) over generated cases and on the classify template.
#include "core/playground/promptdoc.h"
#include "core/playground/promptdocedit.h"
#include "pyyaml.h"

#include <QFile>
#include <QJsonArray>
#include <QJsonObject>
#include <QRegularExpression>
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

QString classify()
{
    return readFile(QStringLiteral(HAKO_SOURCE_DIR "/resources/templates/classify.ja.pdl"));
}

QList<PromptDocItem> flat(const QList<PromptDocItem>& items)
{
    QList<PromptDocItem> out;
    for (const PromptDocItem& i : items)
        out << i << flat(i.children);
    return out;
}

QList<PromptDocItem> cards(const QString& text)
{
    QList<PromptDocItem> out;
    const Result<PromptDoc> doc = PromptDoc::build(text);
    if (doc) {
        for (const PromptDocItem& i : flat(doc->items))
            if (i.kind == PromptDocItem::Kind::Card)
                out << i;
    }
    return out;
}

std::optional<PromptDocItem> value(const QString& text, const QString& name)
{
    const Result<PromptDoc> doc = PromptDoc::build(text);
    if (doc) {
        for (const PromptDocItem& i : flat(doc->items))
            if (i.kind == PromptDocItem::Kind::Value && i.heading == name)
                return i;
    }
    return std::nullopt;
}

QStringList comments(const QString& text)
{
    QStringList out;
    for (const QString& l : text.split(QLatin1Char('\n')))
        if (l.trimmed().startsWith(QLatin1Char('#')))
            out << l;
    return out;
}

/// Why an edit was refused ("" when it was not), for a failure message (QVERIFY2 reads it
/// either way).
template <typename T> QString why(const Result<T>& r)
{
    return r ? QString() : r.error().message;
}

QString edited(const QString& text, const Result<QList<TextEdit>>& edits)
{
    return edits ? applyEdits(text, *edits) : QString();
}

} // namespace

class TestPromptDocEdit : public QObject {
    Q_OBJECT

private Q_SLOTS:
    // Every shape a list of strings is written in, times edits of every kind: PyYAML reads
    // the list asked for, everything else of the document is the same, comments stay.
    void listShapes()
    {
        const QStringList shapes{
            QStringLiteral("# c1\nx: 1\nlabels: [a, b, c]  # trailing\ny: 2\n"),
            QStringLiteral("# c1\nx: 1\nlabels:\n  # about\n  data:\n  - a\n  # b next\n  - b\n"
                           "  - c\n# after\ny: 2\n"),
            QStringLiteral("x: 1\nlabels:\n- a\n- b\n- c\ny: 2"),
            QStringLiteral("x: 1\nlabels: {data: [a, b, c]}\ny: 2\n"),
            QStringLiteral("x: 1\r\nlabels:\r\n    - a\r\n    - b\r\n    - c\r\n"),
            QStringLiteral("labels:\n  data:\n  - a\n  - b\n  - c"),
        };
        const QList<QStringList> lists{
            {QStringLiteral("a"), QStringLiteral("b"), QStringLiteral("c"), QStringLiteral("d")},
            {QStringLiteral("b"), QStringLiteral("c")},
            {QStringLiteral("c"), QStringLiteral("a")},
            {QStringLiteral("z")},
            {},
            {QStringLiteral("yes"), QStringLiteral("a: b"), QStringLiteral("#x"),
             QStringLiteral("[1]"), QStringLiteral("3"), QStringLiteral("要望, 質問")},
            {QStringLiteral("a"), QStringLiteral("x"), QStringLiteral("c")},
        };
        QStringList outs;
        QList<QJsonValue> wants;
        for (const QString& shape : shapes) {
            // The list's start as the parser gives it: a `[` or the first `-`.
            const QStringList ls = shape.split(QLatin1Char('\n'));
            int l = 0, c = 0;
            for (int i = 0; i < ls.size() && !l; ++i) {
                const qsizetype b = ls[i].indexOf(QLatin1Char('['));
                const qsizetype d = ls[i].indexOf(QLatin1String("- a"));
                if (b >= 0 || d >= 0) {
                    l = i + 1;
                    c = int(b >= 0 ? b : d) + 1;
                }
            }
            for (const QStringList& items : lists) {
                const auto edits = replaceList(shape, l, c, items);
                QVERIFY2(edits, qPrintable(shape + QStringLiteral(" → ") + items.join('|') +
                                           QStringLiteral(": ") + why(edits)));
                QCOMPARE(edits->size(), 1);
                const QString out = applyEdits(shape, *edits);
                for (const QString& comment : comments(shape)) {
                    // A comment above a removed item may go; the others stay.
                    if (!comment.contains(QLatin1String("b next")))
                        QVERIFY2(out.contains(comment), qPrintable(out));
                }
                // Nothing before the list's line changes.
                QVERIFY(out.startsWith(shape.left(shape.indexOf(QLatin1String("labels")))));
                outs << out;
                QJsonArray want;
                for (const QString& i : items)
                    want << i;
                wants << want;
                // Writing the same list again changes nothing.
                const auto again = replaceList(out, l, c, items);
                if (again && !items.isEmpty())
                    QVERIFY2(again->isEmpty(), qPrintable(out));
            }
        }
        if (!testing::havePyYaml())
            QSKIP("python3 with PyYAML is needed as the oracle");
        QStringList errors;
        const auto docs = testing::pyYamlLoadMany(outs, &errors);
        QVERIFY(docs);
        for (qsizetype i = 0; i < outs.size(); ++i) {
            const QJsonObject o = docs->at(i).toObject();
            QJsonValue labels = o.value(QLatin1String("labels"));
            if (labels.isObject())
                labels = labels.toObject().value(QLatin1String("data"));
            QVERIFY2(labels == wants[i], qPrintable(outs[i] + errors.value(i)));
            if (outs[i].contains(QLatin1String("x: 1")))
                QCOMPARE(o.value(QLatin1String("x")), QJsonValue(1));
        }
    }

    // The classify template: 要望 added, その他 removed; the label lines only change.
    void classifyLabels()
    {
        const QString text = classify();
        const std::optional<PromptDocItem> labels = value(text, QStringLiteral("labels"));
        QVERIFY(labels);
        QCOMPARE(labels->valueType, PromptDocItem::ValueType::List);
        QCOMPARE(labels->list, QStringList({QStringLiteral("褒め言葉"), QStringLiteral("苦情"),
                                            QStringLiteral("質問"), QStringLiteral("その他")}));
        const QStringList want{QStringLiteral("褒め言葉"), QStringLiteral("苦情"),
                               QStringLiteral("質問"), QStringLiteral("要望")};
        const QString out =
            edited(text, replaceList(text, labels->textSpan.line, labels->textSpan.column, want));
        QString expected = text;
        expected.replace(QStringLiteral("    - その他\n"), QStringLiteral("    - 要望\n"));
        QCOMPARE(out, expected);
        QCOMPARE(value(out, QStringLiteral("labels"))->list, want);
    }

    void numbersAndBooleans()
    {
        const QString text = QStringLiteral(
            "defs:\n  how_many: 3  # count\n  ratio:\n    data: 0.5\n  strict: true\ntext:\n- "
            "${ how_many }\n");
        const auto n = value(text, QStringLiteral("how_many"));
        QVERIFY(n);
        QCOMPARE(n->valueType, PromptDocItem::ValueType::Number);
        QCOMPARE(n->fixed, QJsonValue(3));
        QString out = edited(
            text, replaceFixedValue(text, n->textSpan.line, n->textSpan.column, QJsonValue(5)));
        QVERIFY(out.contains(QLatin1String("how_many: 5  # count\n")));
        const auto r = value(out, QStringLiteral("ratio"));
        QVERIFY(r);
        QCOMPARE(r->fixed, QJsonValue(0.5));
        out = edited(
            out, replaceFixedValue(out, r->textSpan.line, r->textSpan.column, QJsonValue(1.25)));
        QVERIFY(out.contains(QLatin1String("data: 1.25\n")));
        const auto s = value(out, QStringLiteral("strict"));
        QVERIFY(s);
        QCOMPARE(s->valueType, PromptDocItem::ValueType::Bool);
        out = edited(
            out, replaceFixedValue(out, s->textSpan.line, s->textSpan.column, QJsonValue(false)));
        QCOMPARE(value(out, QStringLiteral("strict"))->fixed, QJsonValue(false));
        QVERIFY(!replaceFixedValue(out, s->textSpan.line, s->textSpan.column,
                                   QJsonValue(QStringLiteral("x"))));
    }

    // The whole loop on the classify template: add a reply prompt, rename it, move it (refused
    // above the prompt whose answer it reads), remove it.
    void addMoveRenameRemove()
    {
        const QString text = classify();
        const QString name = freePromptName(text, QStringLiteral("prompt"));
        QCOMPARE(name, QStringLiteral("prompt"));
        QCOMPARE(freePromptName(text, QStringLiteral("answer")), QStringLiteral("answer2"));
        QString out = edited(text, addPrompt(text, name, QStringLiteral("default"),
                                             QStringLiteral("返信を書いてください。\n"
                                                            "分類：${ answer }\n")));
        QVERIFY(out.startsWith(text));
        QCOMPARE(out.mid(text.size()),
                 QStringLiteral("- def: prompt\n  model: default\n  input: |\n"
                                "    返信を書いてください。\n    分類：${ answer }\n"));
        QList<PromptDocItem> cs = cards(out);
        QCOMPARE(cs.size(), 2);
        QCOMPARE(cs[1].heading, QStringLiteral("prompt"));

        // Renamed: its def only (nothing reads it yet).
        out = edited(out, renamePrompt(out, cs[1].span, QStringLiteral("reply")));
        cs = cards(out);
        QCOMPARE(cs[1].heading, QStringLiteral("reply"));
        QVERIFY(!renamePrompt(out, cs[1].span, QStringLiteral("for")));

        // Up over the condition and the label: allowed; over `answer`: refused, by name.
        out = edited(out, movePrompt(out, cards(out)[1].span, -1));
        QVERIFY(out.contains(QLatin1String("- def: reply")));
        out = edited(out, movePrompt(out, cards(out)[1].span, -1));
        // The label's comment moved with it.
        QVERIFY(out.contains(QStringLiteral("# モデルの答えから、前後の空白・句点・かぎかっこを取り"
                                            "除いたもの。\n- def: label")));
        const auto refused = movePrompt(out, cards(out)[1].span, -1);
        QVERIFY(!refused);
        QVERIFY2(refused.error().message.contains(QStringLiteral("“answer”")),
                 qPrintable(why(refused)));
        QVERIFY(!movePrompt(out, cards(out)[0].span, -1)); // already first
        QVERIFY(!movePrompt(out, cards(out)[0].span, +1)); // reply reads answer
        // Down again to the end, then the text is the one before the moves.
        out = edited(out, movePrompt(out, cards(out)[1].span, +1));
        out = edited(out, movePrompt(out, cards(out)[1].span, +1));
        QVERIFY(!movePrompt(out, cards(out)[1].span, +1)); // already last
        QString renamed =
            edited(text, addPrompt(text, QStringLiteral("reply"), QStringLiteral("default"),
                                   QStringLiteral("返信を書いてください。\n"
                                                  "分類：${ answer }\n")));
        QCOMPARE(out, renamed);

        // Renaming `answer` renames its uses, in the new prompt too.
        const QString before = out;
        out = edited(out, renamePrompt(out, cards(out)[0].span, QStringLiteral("category")));
        QCOMPARE(out.count(QLatin1String("${ category }")), 1);
        QCOMPARE(out.count(QLatin1String("answer")), 0);
        out = before;

        // What breaks when `answer` goes: the label, the message, the reply.
        const QList<int> users = usesOfPromptResult(out, cards(out)[0].span);
        QCOMPARE(users.size(), 3);
        QVERIFY(usesOfPromptResult(out, cards(out)[1].span).isEmpty());
        out = edited(out, removePrompt(out, cards(out)[1].span));
        QCOMPARE(out, text);
    }

    // Generated: every item of a list of steps moved down and back up, and removed, with
    // comments and files without a final newline; the YAML reads as expected every time.
    void generatedMoves()
    {
        const QStringList items{
            QStringLiteral("- \"a\\n\"\n"),
            QStringLiteral("# about b\n- def: b\n  model: m\n  input: |\n    hi\n\n    there\n"),
            QStringLiteral("- lang: python\n  code: |\n    x = 1\n"),
            QStringLiteral("- def: t\n  text:\n  - c\n  # inner\n  - d\n"),
        };
        for (const bool finalNewline : {true, false}) {
            QString text =
                QStringLiteral("# head\ndescription: t\ntext:\n") + items.join(QString());
            if (!finalNewline)
                text.chop(1);
            const Result<PromptDoc> doc = PromptDoc::build(text);
            QVERIFY(doc);
            QList<SourceSpan> spans;
            for (const PromptDocItem& i : doc->items)
                spans << i.span;
            QCOMPARE(spans.size(), 4);
            for (int k = 0; k + 1 < spans.size(); ++k) {
                const auto down = movePrompt(text, spans[k], +1);
                QVERIFY2(down, qPrintable(why(down) + QString::number(k)));
                const QString moved = applyEdits(text, *down);
                // Moving the last step makes sure the file ends with a line break.
                const bool last = k + 2 == spans.size();
                QCOMPARE(moved.size(), text.size() + (!finalNewline && last ? 1 : 0));
                QCOMPARE(moved.endsWith(QLatin1Char('\n')), finalNewline || last);
                const Result<PromptDoc> d2 = PromptDoc::build(moved);
                QVERIFY(d2);
                const auto up = movePrompt(moved, d2->items[k + 1].span, -1);
                QVERIFY2(up, qPrintable(why(up)));
                QCOMPARE(applyEdits(moved, *up), !finalNewline && last ? text + '\n' : text);
            }
            for (int k = 0; k < spans.size(); ++k) {
                const auto removed = removePrompt(text, spans[k]);
                QVERIFY2(removed, qPrintable(why(removed)));
                QString want = QStringLiteral("# head\ndescription: t\ntext:\n");
                for (int j = 0; j < items.size(); ++j)
                    if (j != k)
                        want += items[j];
                if (!finalNewline)
                    want.chop(1);
                QCOMPARE(applyEdits(text, *removed), want);
            }
        }
        QVERIFY(
            !removePrompt(QStringLiteral("text:\n- model: m\n"),
                          PromptDoc::build(QStringLiteral("text:\n- model: m\n"))->items[0].span));
    }

    // extract_json: the output format (`spec:`) of the record and of the call that fixes it
    // are values of "name: type" lines; a field added to both.
    void outputFormat()
    {
        const QString text =
            readFile(QStringLiteral(HAKO_SOURCE_DIR "/resources/templates/extract_json.ja.pdl"));
        const Result<PromptDoc> doc = PromptDoc::build(text);
        QVERIFY(doc);
        QList<PromptDocItem> specs;
        for (const PromptDocItem& i : flat(doc->items))
            if (i.valueType == PromptDocItem::ValueType::Fields)
                specs << i;
        QCOMPARE(specs.size(), 2);
        const QStringList want{QStringLiteral("name: string"), QStringLiteral("company: string"),
                               QStringLiteral("email: string"),
                               QStringLiteral("quantity: integer")};
        QCOMPARE(specs[0].list, want);
        QCOMPARE(specs[0].heading, QStringLiteral("record — output format"));
        QString out = text;
        for (int k = 1; k >= 0; --k) // the later one first: the earlier span stays
            out = edited(out, replaceFields(out, specs[k].textSpan.line, specs[k].textSpan.column,
                                            want + QStringList{QStringLiteral("date: string")}));
        QCOMPARE(out.count(QStringLiteral("spec: {name: string, company: string, email: string, "
                                          "quantity: integer, date: string}\n")),
                 2);
        QVERIFY(!replaceFields(out, specs[0].textSpan.line, specs[0].textSpan.column,
                               {QStringLiteral("no type")}));
        // A block mapping: one line per field.
        const QString block = QStringLiteral("text:\n- def: r\n  model: m\n  spec:\n    a: string\n"
                                             "    b: integer\n  parser: json\n");
        PromptDocItem f;
        for (const PromptDocItem& i : flat(PromptDoc::build(block)->items))
            if (i.valueType == PromptDocItem::ValueType::Fields)
                f = i;
        QCOMPARE(f.list.size(), 2);
        QCOMPARE(edited(block,
                        replaceFields(block, f.textSpan.line, f.textSpan.column,
                                      {QStringLiteral("b: number"), QStringLiteral("c: boolean")})),
                 QStringLiteral("text:\n- def: r\n  model: m\n  spec:\n    b: number\n"
                                "    c: boolean\n  parser: json\n"));
    }

    // A call without a name gets one as its first key.
    void nameACallWithoutOne()
    {
        const QString text = QStringLiteral("text:\n- model: m\n  input: hi\n");
        const auto edits = renamePrompt(text, cards(text)[0].span, QStringLiteral("greet"));
        QVERIFY2(edits, qPrintable(why(edits)));
        QCOMPARE(applyEdits(text, *edits),
                 QStringLiteral("text:\n- def: greet\n  model: m\n  input: hi\n"));
    }
};

QTEST_GUILESS_MAIN(TestPromptDocEdit)
#include "tst_promptdocedit.moc"
