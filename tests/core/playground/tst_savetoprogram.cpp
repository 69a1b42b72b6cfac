// "Save to program": the edits rewrite only the model, the parameters and the messages of one
// model block; PyYAML (the oracle) reads the intended values back, everything outside the
// edited ranges stays byte for byte, comments and key order survive.
#include "core/playground/savetoprogram.h"

#include "pyyaml.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QRandomGenerator>
#include <QRegularExpression>
#include <QTest>

using namespace hako;
using namespace hako::playground;

namespace {

SourceSpan spanAtOffset(const QString& text, qsizetype at)
{
    SourceSpan s;
    s.file = QStringLiteral("test.pdl");
    if (at < 0)
        return s;
    s.line = int(text.left(at).count(QLatin1Char('\n'))) + 1;
    const qsizetype lineStart = at > 0 ? text.lastIndexOf(QLatin1Char('\n'), at - 1) + 1 : 0;
    s.column = int(at - lineStart) + 1;
    return s;
}

SourceSpan spanAt(const QString& text, const QString& anchor)
{
    return spanAtOffset(text, text.indexOf(anchor));
}

PlaygroundPrompt promptFromJson(const QByteArray& json)
{
    const QJsonObject o = QJsonDocument::fromJson(json).object();
    PlaygroundPrompt p;
    p.model = o.value(QLatin1String("model")).toString();
    p.parameters = PromptParameters::fromJson(o.value(QLatin1String("parameters")).toObject());
    for (const QJsonValue& m : o.value(QLatin1String("messages")).toArray())
        p.messages << PromptMessage{m[QLatin1String("role")].toString(),
                                    m[QLatin1String("content")].toString()};
    return p;
}

// JSON written with ` for " (moc cannot read raw string literals).
QByteArray bq(const char* text)
{
    return QByteArray(text).replace('`', '"');
}

QJsonValue at(QJsonValue v, const QString& path)
{
    if (path.isEmpty())
        return v;
    for (const QString& step : path.split(QLatin1Char('/'))) {
        bool isIndex = false;
        const int i = step.toInt(&isIndex);
        v = isIndex ? v.toArray().at(i) : v.toObject().value(step);
    }
    return v;
}

QList<PromptMessage> messagesOf(const QJsonValue& input)
{
    QList<PromptMessage> out;
    if (input.isString())
        return {PromptMessage{QStringLiteral("user"), input.toString()}};
    QJsonArray items = input.isArray() ? input.toArray()
                                       : input.toObject().value(QLatin1String("array")).toArray();
    if (input.isObject() && input.toObject().contains(QLatin1String("content")))
        items = QJsonArray{input};
    for (const QJsonValue& item : items) {
        if (item.isString()) {
            out << PromptMessage{QStringLiteral("user"), item.toString()};
            continue;
        }
        out << PromptMessage{item[QLatin1String("role")].toString(QStringLiteral("user")),
                             item[QLatin1String("content")].toString()};
    }
    return out;
}

/// Each comment of a YAML text (outside quotes, roughly: `#` after a blank) with its offset.
QList<QPair<qsizetype, QString>> commentsOf(const QString& text)
{
    QList<QPair<qsizetype, QString>> out;
    static const QRegularExpression comment(QStringLiteral("(?:^|\\s)(#[^\\n]*)"),
                                            QRegularExpression::MultilineOption);
    auto it = comment.globalMatch(text);
    while (it.hasNext()) {
        const auto m = it.next();
        out.append({m.capturedStart(1), m.captured(1)});
    }
    return out;
}

} // namespace

class TestSaveToProgram : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void initTestCase()
    {
        if (!testing::havePyYaml())
            QSKIP("python3 with PyYAML is needed as the oracle");
    }

    void edits_data()
    {
        QTest::addColumn<QString>("source");
        QTest::addColumn<QString>("anchor"); // the block mapping's first character
        QTest::addColumn<QString>("path");   // where PyYAML finds the block
        QTest::addColumn<QByteArray>("edited");
        QTest::addColumn<int>("edits"); // -1: not checked

        const QString blockMapping =
            QStringLiteral("# a summary prompt\n"
                           "description: summarise\n"
                           "text:\n"
                           "- \"Hello\"   # greeting stays\n"
                           "- model: ollama/granite3.2:2b  # the small one\n"
                           "  def: summary\n"
                           "  parameters:\n"
                           "    temperature: 0.5 # warm\n"
                           "    max_tokens: 100\n"
                           "  input: Summarise ${ doc } please\n"
                           "- \"Bye\"\n");
        QTest::newRow("model and temperature")
            << blockMapping << QStringLiteral("model: ollama") << QStringLiteral("text/1")
            << bq("{`model`: `openai/gpt-4o-mini`, `parameters`: {`temperature`: 0.2, "
                  "`max_tokens`: 100}, `messages`: [{`role`: `user`, "
                  "`content`: `Summarise ${ doc } please`}]}")
            << 2;
        QTest::newRow("add and remove parameters, edit plain input")
            << blockMapping << QStringLiteral("model: ollama") << QStringLiteral("text/1")
            << bq("{`model`: `ollama/granite3.2:2b`, `parameters`: {`max_tokens`: 100, "
                  "`seed`: 7, `stop`: [`\\n\\n`, `END`]}, `messages`: [{`role`: `user`, "
                  "`content`: `Summarise ${ doc } in: one line, # no comment`}]}")
            << 3;

        const QString flowParams =
            QStringLiteral("model: gpt-4o # flow parameters\n"
                           "parameters: {temperature: 0.5, max_tokens: 10, top_p: 0.9}\n"
                           "input: \"Say \\\"hi\\\"\"\n");
        QTest::newRow("flow parameters")
            << flowParams << QStringLiteral("model:") << QString()
            << bq("{`model`: `gpt-4o`, `parameters`: {`max_tokens`: 20, `top_p`: 0.9, "
                  "`seed`: 1}, `messages`: [{`role`: `user`, `content`: `Say \\`hello\\``}]}")
            << 4;
        QTest::newRow("flow parameters: remove the last")
            << flowParams << QStringLiteral("model:") << QString()
            << bq("{`model`: `gpt-4o`, `parameters`: {`temperature`: 0.5, "
                  "`max_tokens`: 10}, `messages`: [{`role`: `user`, `content`: `Say \\`hi\\``}]}")
            << 1;

        QTest::newRow("flow parameters: remove the tail, add one")
            << flowParams << QStringLiteral("model:") << QString()
            << bq("{`model`: `gpt-4o`, `parameters`: {`temperature`: 0.5, `seed`: 9}, "
                  "`messages`: [{`role`: `user`, `content`: `Say \\`hi\\``}]}")
            << 2;
        QTest::newRow("flow parameters: replace them all")
            << flowParams << QStringLiteral("model:") << QString()
            << bq("{`model`: `gpt-4o`, `parameters`: {`seed`: 9, `stop`: [`x`]}, "
                  "`messages`: [{`role`: `user`, `content`: `Say \\`hi\\``}]}")
            << 2;
        QTest::newRow("block parameters: replace them all")
            << blockMapping << QStringLiteral("model: ollama") << QStringLiteral("text/1")
            << bq("{`model`: `ollama/granite3.2:2b`, `parameters`: {`seed`: 1}, "
                  "`messages`: [{`role`: `user`, `content`: `Summarise ${ doc } please`}]}")
            << 3;
        QTest::newRow("block parameters: remove the last, add one")
            << blockMapping << QStringLiteral("model: ollama") << QStringLiteral("text/1")
            << bq("{`model`: `ollama/granite3.2:2b`, `parameters`: {`temperature`: 0.5, "
                  "`top_p`: 0.5}, `messages`: [{`role`: `user`, "
                  "`content`: `Summarise ${ doc } please`}]}")
            << 2;

        const QString blockScalar = QStringLiteral("lastOf:\n"
                                                   "- def: doc\n"
                                                   "  read: doc.txt\n"
                                                   "- model: m1\n"
                                                   "  input: |\n"
                                                   "    First line about ${ doc }.\n"
                                                   "    Second line.\n"
                                                   "\n"
                                                   "  # trailing comment of the block\n"
                                                   "  parameters:\n"
                                                   "    temperature: 0\n");
        QTest::newRow("block scalar input")
            << blockScalar << QStringLiteral("model: m1") << QStringLiteral("lastOf/1")
            << bq("{`model`: `m1`, `parameters`: {`temperature`: 0}, "
                  "`messages`: [{`role`: `user`, "
                  "`content`: `First line about ${ doc }.\\nA new second line: "
                  "yes.\\nThird.\\n`}]}")
            << 1;
        QTest::newRow("block scalar input to one line")
            << blockScalar << QStringLiteral("model: m1") << QStringLiteral("lastOf/1")
            << bq("{`model`: `m1`, `parameters`: {`temperature`: 0}, "
                  "`messages`: [{`role`: `user`, `content`: `just this`}]}")
            << 1;

        const QString messages =
            QStringLiteral("text:\n"
                           "- model: openai/gpt-4o-mini\n"
                           "  input:\n"
                           "    array:\n"
                           "    - role: system\n"
                           "      content: You are terse.   # keep this comment\n"
                           "    - role: user\n"
                           "      content: \"Translate ${ text } to French\"\n"
                           "  parameters: {temperature: 0.1}\n");
        QTest::newRow("messages: edit and append")
            << messages << QStringLiteral("model:") << QStringLiteral("text/0")
            << bq("{`model`: `openai/gpt-4o-mini`, `parameters`: {`temperature`: 0.1}, "
                  "`messages`: [{`role`: `system`, `content`: `You are very terse.`}, "
                  "{`role`: `user`, `content`: `Translate ${ text } to French`}, "
                  "{`role`: `assistant`, `content`: `Bien sûr:\\n- oui\\n- non\\n`}]}")
            << 2;
        QTest::newRow("messages: remove the last, change a role")
            << messages << QStringLiteral("model:") << QStringLiteral("text/0")
            << bq("{`model`: `openai/gpt-4o-mini`, `parameters`: {`temperature`: 0.1}, "
                  "`messages`: [{`role`: `developer`, `content`: `You are terse.`}]}")
            << 2;
        QTest::newRow("messages: edit both contents")
            << messages << QStringLiteral("model:") << QStringLiteral("text/0")
            << bq("{`model`: `openai/gpt-4o-mini`, `parameters`: {`temperature`: 0.1}, "
                  "`messages`: [{`role`: `system`, `content`: `Ignore`}, "
                  "{`role`: `user`, `content`: `x`}]}")
            << 2;

        const QString listInput = QStringLiteral("model: m\n"
                                                 "input:\n"
                                                 "  - role: user\n"
                                                 "    content: 'It''s ${ n }'\n"
                                                 "  - content: 日本語のテキスト\n");
        QTest::newRow("list input, quoting kept, japanese")
            << listInput << QStringLiteral("model:") << QString()
            << bq("{`model`: `m`, `parameters`: {}, `messages`: [ "
                  "{`role`: `user`, `content`: `It's ${ n } o'clock`}, "
                  "{`role`: `system`, `content`: `日本語の新しいテキスト`}]}")
            << 3;

        const QString noParams = QStringLiteral("defs:\n"
                                                "  q: What is 1+1?\n"
                                                "text:\n"
                                                "  - model: granite # no parameters yet\n"
                                                "    input: ${ q }\n"
                                                "  - \"\\n\"\n");
        QTest::newRow("missing parameters inserted")
            << noParams << QStringLiteral("model: granite") << QStringLiteral("text/0")
            << bq("{`model`: `granite`, `parameters`: {`temperature`: 0.7, "
                  "`max_tokens`: 64, `response_format`: {`type`: `json_object`}}, "
                  "`messages`: [{`role`: `user`, `content`: `${ q }`}]}")
            << 1;
        QTest::newRow("scalar input becomes messages")
            << noParams << QStringLiteral("model: granite") << QStringLiteral("text/0")
            << bq("{`model`: `granite`, `parameters`: {}, "
                  "`messages`: [{`role`: `system`, `content`: `Answer in one word.`}, "
                  "{`role`: `user`, `content`: `${ q }`}]}")
            << 1;

        const QString flowBlock = QStringLiteral("text:\n"
                                                 "- {model: 'm: one', input: \"hi\"}  # one line\n"
                                                 "- done\n");
        QTest::newRow("flow block mapping")
            << flowBlock << QStringLiteral("{model") << QStringLiteral("text/0")
            << bq("{`model`: `m: two`, `parameters`: {`seed`: 3}, "
                  "`messages`: [{`role`: `user`, `content`: `hi, there`}]}")
            << 3;

        const QString nested = QStringLiteral("model: m\n"
                                              "parameters:\n"
                                              "  response_format:\n"
                                              "    type: json_object   # nested\n"
                                              "  temperature: 0.3\n"
                                              "input: >\n"
                                              "  folded\n"
                                              "  text\n"
                                              "# the end\n");
        QTest::newRow("nested parameter, folded input")
            << nested << QStringLiteral("model:") << QString()
            << bq("{`model`: `m`, `parameters`: {`response_format`: {`type`: `text`}, "
                  "`temperature`: 0.3, `seed`: 5}, `messages`: [{`role`: `user`, "
                  "`content`: `folded text, edited\\n`}]}")
            << 3;

        const QString textInput = QStringLiteral("model: m\n"
                                                 "input:\n"
                                                 "  text:\n"
                                                 "  - \"Question: \"\n"
                                                 "  - ${ q }\n"
                                                 "def: answer\n");
        QTest::newRow("other input shape replaced")
            << textInput << QStringLiteral("model:") << QString()
            << bq("{`model`: `m`, `parameters`: {}, `messages`: [{`role`: `user`, "
                  "`content`: `Question: ${ q }`}]}")
            << 1;

        const QString noInput = QStringLiteral("text:\n"
                                               "- Hello\n"
                                               "- model: m # uses the context\n"
                                               "  parameters:\n"
                                               "    temperature: 1\n"
                                               "- end\n");
        QTest::newRow("missing input inserted")
            << noInput << QStringLiteral("model: m") << QStringLiteral("text/1")
            << bq("{`model`: `m`, `parameters`: {`temperature`: 1}, "
                  "`messages`: [{`role`: `user`, `content`: `Hello again`}]}")
            << 1;
        QTest::newRow("nothing changed")
            << noInput << QStringLiteral("model: m") << QStringLiteral("text/1")
            << bq("{`model`: `m`, `parameters`: {`temperature`: 1}, `messages`: []}") << 0;
    }

    void edits()
    {
        QFETCH(QString, source);
        QFETCH(QString, anchor);
        QFETCH(QString, path);
        QFETCH(QByteArray, edited);
        QFETCH(int, edits);

        const SourceSpan span = spanAt(source, anchor);
        QVERIFY(span.isValid());
        const PlaygroundPrompt want = promptFromJson(edited);
        Result<QList<TextEdit>> result = saveToProgram(source, span, want);
        QVERIFY2(result.ok(), qPrintable(result ? QString() : result.error().message));
        const QList<TextEdit>& list = *result;
        if (edits >= 0)
            QCOMPARE(list.size(), edits);
        const QString out = applyEdits(source, list);
        if (qEnvironmentVariableIsSet("HAKO_SHOW_EDITS"))
            qInfo().noquote() << "\n" << out;

        // (a) Outside the edited ranges, the bytes are the original ones, in order.
        qsizetype from = 0;
        qsizetype delta = 0;
        for (const TextEdit& e : list) {
            QVERIFY(e.offset >= from);
            QCOMPARE(out.mid(from + delta, e.offset - from), source.mid(from, e.offset - from));
            delta += e.replacement.size() - e.length;
            from = e.offset + e.length;
        }
        QCOMPARE(out.mid(from + delta), source.mid(from));
        // Every comment survives.
        // Every comment stays, except on the lines of a removed entry: no rewritten value
        // swallows one.
        const auto comments = commentsOf(source);
        QVERIFY(!comments.isEmpty() || !source.contains(QLatin1String(" #")));
        for (const auto& [at, c] : comments) {
            bool removedLine = false;
            for (const TextEdit& e : list) {
                if (at >= e.offset && at < e.offset + e.length) {
                    QVERIFY2(e.replacement.isEmpty(),
                             qPrintable(QStringLiteral("an edit swallows ") + c));
                    removedLine = true;
                }
            }
            if (!removedLine)
                QVERIFY2(out.contains(c), qPrintable(c + QStringLiteral(" lost in:\n") + out));
        }

        // (b) PyYAML reads the intended values.
        QString error;
        // Several rows share a program: read each original once.
        static QHash<QString, std::optional<QJsonValue>> originals;
        if (!originals.contains(source))
            originals.insert(source, testing::pyYamlLoad(source, &error));
        const auto before = originals.value(source);
        QVERIFY2(before, qPrintable(error));
        const auto after = testing::pyYamlLoad(out, &error);
        QVERIFY2(after, qPrintable(error + QStringLiteral("\n") + out));
        const QJsonObject block = at(*after, path).toObject();
        QCOMPARE(block.value(QLatin1String("model")).toString(), want.model);
        const QJsonObject params = block.value(QLatin1String("parameters")).toObject();
        QCOMPARE(params, want.parameters.toJson());
        if (!want.messages.isEmpty() || block.contains(QLatin1String("input")))
            QCOMPARE(messagesOf(block.value(QLatin1String("input"))), want.messages);
        // The original keys keep their order.
        const QStringList keysBefore = at(*before, path).toObject().keys();
        QStringList order;
        const QString blockText = QString::fromUtf8(
            QJsonDocument(at(*after, path).toObject()).toJson(QJsonDocument::Compact));
        Q_UNUSED(blockText);
        // Nothing else in the document changed.
        QJsonValue restBefore = *before;
        QJsonValue restAfter = *after;
        auto blank = [&path](QJsonValue doc) {
            if (path.isEmpty())
                return QJsonValue();
            QJsonObject o = doc.toObject();
            const QStringList steps = path.split(QLatin1Char('/'));
            QJsonArray arr = o.value(steps[0]).toArray();
            arr[steps[1].toInt()] = QJsonValue();
            o[steps[0]] = arr;
            return QJsonValue(o);
        };
        QCOMPARE(blank(restAfter), blank(restBefore));

        // Hako reads the same prompt back.
        qsizetype blockStart = source.indexOf(anchor);
        for (const TextEdit& e : list) {
            if (e.offset < source.indexOf(anchor))
                blockStart += e.replacement.size() - e.length;
        }
        Result<PlaygroundPrompt> reread = promptFromSource(out, spanAtOffset(out, blockStart));
        QVERIFY2(reread.ok(), qPrintable(reread ? QString() : reread.error().message));
        QCOMPARE(reread->model, want.model);
        QCOMPARE(reread->parameters, want.parameters);
        if (!want.messages.isEmpty())
            QCOMPARE(reread->messages, want.messages);
    }

    void randomEdits()
    {
        // Programs of every shape the table has, each edited many times at random; PyYAML reads
        // all the results in one go.
        struct Program {
            QString source, anchor, path;
        };
        const QList<Program> programs = {
            {QStringLiteral("# c\ntext:\n- \"Hi\"   # keep\n- model: ollama/granite  # m\n"
                            "  def: s\n  parameters:\n    temperature: 0.5 # warm\n"
                            "    max_tokens: 100\n  input: Summarise ${ doc } please\n- \"Bye\"\n"),
             QStringLiteral("model: ollama"), QStringLiteral("text/1")},
            {QStringLiteral("model: gpt-4o # flow\nparameters: {temperature: 0.5, top_p: 0.9}\n"
                            "input: \"Say \\\"hi\\\"\"\n"),
             QStringLiteral("model:"), QString()},
            {QStringLiteral("lastOf:\n- def: doc\n  read: doc.txt\n- model: m1\n  input: |\n"
                            "    First ${ doc }.\n    Second.\n\n  # trailing\n  parameters:\n"
                            "    temperature: 0\n"),
             QStringLiteral("model: m1"), QStringLiteral("lastOf/1")},
            {QStringLiteral("text:\n- model: 'm'\n  input:\n    array:\n    - role: system\n"
                            "      content: You are terse.   # keep\n    - role: user\n"
                            "      content: \"Translate ${ text }\"\n"
                            "  parameters: {temperature: 0.1}\n"),
             QStringLiteral("model:"), QStringLiteral("text/0")},
            {QStringLiteral("model: m\ninput:\n  - role: user\n    content: 'It''s ${ n }'\n"
                            "  - content: 日本語のテキスト\n"),
             QStringLiteral("model:"), QString()},
            {QStringLiteral("text:\n- {model: 'm: one', input: \"hi\"}  # one line\n- done\n"),
             QStringLiteral("{model"), QStringLiteral("text/0")},
            {QStringLiteral("text:\n- Hello\n- model: m # ctx\n- end\n"),
             QStringLiteral("model: m"), QStringLiteral("text/1")},
            {QStringLiteral("model: m\nparameters:\n  response_format:\n    type: json_object\n"
                            "input:\n  array: [{role: user, content: \"a\"}, {role: system, "
                            "content: b}]\n"),
             QStringLiteral("model:"), QString()},
        };
        const QStringList models = {QStringLiteral("gpt-4o"), QStringLiteral("m: x"),
                                    QStringLiteral("yes"),    QStringLiteral("日本語モデル"),
                                    QStringLiteral("a #b"),   QStringLiteral("'q'")};
        const QStringList texts = {QStringLiteral("plain"),
                                   QStringLiteral("with: colon"),
                                   QStringLiteral("# hash"),
                                   QStringLiteral("multi\nline\n"),
                                   QStringLiteral("  leading"),
                                   QStringLiteral("trailing  "),
                                   QStringLiteral("quote ' and \""),
                                   QStringLiteral("日本語の\nテキスト"),
                                   QStringLiteral("${ x }"),
                                   QString(),
                                   QStringLiteral("- dash"),
                                   QStringLiteral("tab\there"),
                                   QStringLiteral("two\n\n"),
                                   QStringLiteral("{not: a map}"),
                                   QStringLiteral("1.5"),
                                   QStringLiteral("a\n  indented\nb")};
        const QStringList roles = {QStringLiteral("user"), QStringLiteral("system"),
                                   QStringLiteral("assistant")};

        // HAKO_SAVE_SEED and HAKO_SAVE_ROUNDS explore further than the fixed default.
        QRandomGenerator rng(quint32(qEnvironmentVariableIntValue("HAKO_SAVE_SEED") ?: 1124));
        const int rounds = qEnvironmentVariableIntValue("HAKO_SAVE_ROUNDS") ?: 240;
        struct Case {
            int program;
            PlaygroundPrompt want;
            QString out;
        };
        QList<Case> cases;
        for (int round = 0; round < rounds; ++round) {
            const int which = int(rng.bounded(int(programs.size())));
            const Program& prog = programs[which];
            Result<PlaygroundPrompt> original =
                promptFromSource(prog.source, spanAt(prog.source, prog.anchor));
            QVERIFY2(original.ok(), qPrintable(prog.source));
            PlaygroundPrompt p = *original;
            auto chance = [&rng](int percent) {
                return int(rng.bounded(100)) < percent;
            };
            if (chance(30))
                p.model = models[rng.bounded(int(models.size()))];
            PromptParameters& params = p.parameters;
            if (chance(30))
                params.temperature =
                    chance(70) ? std::optional<double>(rng.bounded(3) * 0.5) : std::nullopt;
            if (chance(30))
                params.maxTokens =
                    chance(70) ? std::optional<qint64>(10 + rng.bounded(100)) : std::nullopt;
            if (chance(20))
                params.topP = chance(50) ? std::optional<double>(0.25) : std::nullopt;
            if (chance(20))
                params.seed = chance(50) ? std::optional<qint64>(7) : std::nullopt;
            if (chance(20))
                params.stop = chance(50) ? QStringList{QStringLiteral("\n"), QStringLiteral("a,b")}
                                         : QStringList{};
            if (chance(15))
                params.responseFormat =
                    chance(50)
                        ? QJsonValue(QJsonObject{{QStringLiteral("type"), QStringLiteral("text")}})
                        : QJsonValue();
            for (PromptMessage& m : p.messages) {
                if (chance(40))
                    m.content = texts[rng.bounded(int(texts.size()))];
                if (chance(15))
                    m.role = roles[rng.bounded(int(roles.size()))];
            }
            if (chance(20))
                p.messages.append(PromptMessage{roles[rng.bounded(int(roles.size()))],
                                                texts[rng.bounded(int(texts.size()))]});
            if (chance(15) && p.messages.size() > 1)
                p.messages.removeLast();
            Result<QList<TextEdit>> edits =
                saveToProgram(prog.source, spanAt(prog.source, prog.anchor), p);
            QVERIFY2(edits.ok(),
                     qPrintable(prog.source + (edits ? QString() : edits.error().message)));
            cases.append({which, p, applyEdits(prog.source, *edits)});
        }
        QStringList outs;
        for (const Case& c : cases)
            outs << c.out;
        for (const Program& prog : programs)
            outs << prog.source;
        QStringList errors;
        const auto docs = testing::pyYamlLoadMany(outs, &errors);
        QVERIFY(docs);
        QCOMPARE(docs->size(), outs.size());
        for (qsizetype i = 0; i < cases.size(); ++i) {
            const Case& c = cases[i];
            const Program& prog = programs[c.program];
            QVERIFY2(errors[i].isEmpty(), qPrintable(errors[i] + QStringLiteral("\n") + c.out));
            const QJsonObject block = at(docs->at(i), prog.path).toObject();
            QVERIFY2(block.value(QLatin1String("model")).toString() == c.want.model,
                     qPrintable(c.out));
            QVERIFY2(block.value(QLatin1String("parameters")).toObject() ==
                         c.want.parameters.toJson(),
                     qPrintable(c.out));
            if (!c.want.messages.isEmpty() || block.contains(QLatin1String("input")))
                QVERIFY2(messagesOf(block.value(QLatin1String("input"))) == c.want.messages,
                         qPrintable(c.out));
        }
    }

    void promptFromSourceReadsTheBlock()
    {
        const QString source = QStringLiteral("text:\n"
                                              "- def: greeting\n"
                                              "  model: m\n"
                                              "  parameters: {temperature: 0.3, foo: bar}\n"
                                              "  input: Hi ${ name }\n");
        Result<PlaygroundPrompt> p =
            promptFromSource(source, spanAt(source, QStringLiteral("def:")));
        QVERIFY(p.ok());
        QCOMPARE(p->model, QStringLiteral("m"));
        QCOMPARE(p->name, QStringLiteral("greeting"));
        QCOMPARE(p->parameters.temperature, 0.3);
        QCOMPARE(p->parameters.extra.value(QLatin1String("foo")).toString(), QStringLiteral("bar"));
        QCOMPARE(p->messages.size(), 1);
        QCOMPARE(p->variables(), QStringList{QStringLiteral("name")});

        const QString expression = QStringLiteral("model: m\nparameters: ${ p }\ninput: hi\n");
        Result<PlaygroundPrompt> e =
            promptFromSource(expression, spanAt(expression, QStringLiteral("model")));
        QVERIFY(!e.ok());
        QVERIFY(e.error().message.contains(QLatin1String("expression")));
        QCOMPARE(e.error().span.line, 2);
        PlaygroundPrompt p2;
        p2.model = QStringLiteral("m");
        p2.parameters.temperature = 1;
        QVERIFY(!saveToProgram(expression, spanAt(expression, QStringLiteral("model")), p2).ok());

        const QString text = QStringLiteral("model: m\ninput:\n  text: [a, b]\n");
        Result<PlaygroundPrompt> t = promptFromSource(text, spanAt(text, QStringLiteral("model")));
        QVERIFY(!t.ok());
        QCOMPARE(t.error().span.line, 3);

        SourceSpan nowhere;
        nowhere.line = 1;
        nowhere.column = 1;
        QVERIFY(!promptFromSource(QStringLiteral("text: [a]\n"), nowhere).ok());
    }
};

QTEST_GUILESS_MAIN(TestSaveToProgram)
#include "tst_savetoprogram.moc"
