// PlaygroundPrompt: built from a logged call, its variables found by the expression engine,
// rendered over an input row (errors located), turned into a chat request, and "Copy as PDL"
// gives a block that Hako's parser accepts and PyYAML reads as intended.
#include "core/pdl/parser/programparser.h"
#include "core/playground/playgroundprompt.h"
#include "core/playground/playgroundsession.h"
#include "core/playground/savetoprogram.h"
#include "core/promptlog/callrecord.h"

#include "pyyaml.h"

#include <QJsonArray>
#include <QRandomGenerator>
#include <QTest>

#include <nlohmann/json.hpp>

using namespace hako;
using namespace hako::playground;

namespace {

PlaygroundPrompt sample()
{
    PlaygroundPrompt p;
    p.model = QStringLiteral("ollama/granite3.2:2b");
    p.messages = {
        {QStringLiteral("system"), QStringLiteral("You are terse: answer in ${ n } words.")},
        {QStringLiteral("user"),
         QStringLiteral("Summarise:\n${ doc.title | upper }\n\n${ doc.body }\n")},
        {QStringLiteral("assistant"), QStringLiteral("It's \"quoted\" # not a comment")}};
    p.parameters.temperature = 0.25;
    p.parameters.maxTokens = 128;
    p.parameters.topP = 0.9;
    p.parameters.stop = {QStringLiteral("\n\n"), QStringLiteral("END")};
    p.parameters.seed = 42;
    p.parameters.responseFormat =
        QJsonObject{{QStringLiteral("type"), QStringLiteral("json_object")}};
    p.parameters.extra.insert(QStringLiteral("frequency_penalty"), 0.5);
    return p;
}

} // namespace

class TestPlaygroundPrompt : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void fromCall()
    {
        promptlog::CallRecord call;
        call.model = QStringLiteral("gpt-4o");
        call.promptName = QStringLiteral("summary");
        call.parameters = QJsonObject{{QStringLiteral("temperature"), 0.7},
                                      {QStringLiteral("max_tokens"), 50},
                                      {QStringLiteral("stop"), QStringLiteral("END")},
                                      {QStringLiteral("logit_bias"), QJsonObject{}}};
        call.messages = QJsonArray{
            QJsonObject{{QStringLiteral("role"), QStringLiteral("system")},
                        {QStringLiteral("content"), QStringLiteral("Be brief")}},
            QJsonObject{{QStringLiteral("role"), QStringLiteral("user")},
                        {QStringLiteral("content"),
                         QJsonArray{QJsonObject{{QStringLiteral("type"), QStringLiteral("text")},
                                                {QStringLiteral("text"), QStringLiteral("Hi")}}}}}};
        const PlaygroundPrompt p = PlaygroundPrompt::fromCall(call);
        QCOMPARE(p.model, QStringLiteral("gpt-4o"));
        QCOMPARE(p.name, QStringLiteral("summary"));
        QCOMPARE(p.messages.size(), 2);
        QCOMPARE(p.messages[0],
                 (PromptMessage{QStringLiteral("system"), QStringLiteral("Be brief")}));
        QCOMPARE(p.messages[1].content, QStringLiteral("Hi"));
        QCOMPARE(p.parameters.temperature, 0.7);
        QCOMPARE(p.parameters.maxTokens, 50);
        QCOMPARE(p.parameters.stop, QStringList{QStringLiteral("END")});
        QVERIFY(p.parameters.extra.contains(QLatin1String("logit_bias")));
        QCOMPARE(p.parameters.toJson().value(QLatin1String("stop")).toArray().size(), 1);
    }

    // A logged call is untrusted input (any local process can log one through `hako serve`):
    // the server it names, and credentials for it, are never taken into the playground.
    void fromCallLeavesOutTheCallsServer()
    {
        promptlog::CallRecord call;
        call.model = QStringLiteral("gpt-4o");
        call.parameters = QJsonObject{
            {QStringLiteral("base_url"), QStringLiteral("http://collector.invalid:9/v1")},
            {QStringLiteral("api_base"), QStringLiteral("http://other.invalid/v1")},
            {QStringLiteral("api_key"), QStringLiteral("sk-theirs")},
            {QStringLiteral("api_version"), QStringLiteral("2024-01-01")},
            {QStringLiteral("temperature"), 0.2}};
        call.messages = QJsonArray{QJsonObject{{QStringLiteral("role"), QStringLiteral("user")},
                                               {QStringLiteral("content"), QStringLiteral("Hi")}}};
        const PlaygroundPrompt p = PlaygroundPrompt::fromCall(call);
        const QJsonObject sent = p.parameters.toJson();
        for (const char* key : {"base_url", "api_base", "api_key", "api_version"})
            QVERIFY2(!sent.contains(QLatin1String(key)), key);
        QVERIFY(!p.toPdl().contains(QLatin1String("invalid")));
        QCOMPARE(p.parameters.temperature, 0.2);
        QVERIFY(p.droppedServer.contains(QLatin1String(".invalid")));
    }

    void variables()
    {
        QCOMPARE(sample().variables(), (QStringList{QStringLiteral("n"), QStringLiteral("doc")}));
        PlaygroundPrompt p;
        p.messages = {{QStringLiteral("user"), QStringLiteral("no variables {{ here }}")},
                      {QStringLiteral("user"), QStringLiteral("${ a + b } ${ a }")}};
        QCOMPARE(p.variables(), (QStringList{QStringLiteral("a"), QStringLiteral("b")}));
    }

    void render()
    {
        const QJsonObject row{
            {QStringLiteral("n"), 5},
            {QStringLiteral("doc"), QJsonObject{{QStringLiteral("title"), QStringLiteral("Cats")},
                                                {QStringLiteral("body"), QStringLiteral("猫")}}}};
        Result<QList<PromptMessage>> r = sample().render(row);
        QVERIFY2(r.ok(), qPrintable(r ? QString() : r.error().message));
        QCOMPARE(r->at(0).content, QStringLiteral("You are terse: answer in 5 words."));
        QCOMPARE(r->at(1).content, QStringLiteral("Summarise:\nCATS\n\n猫\n"));
        QCOMPARE(r->at(2).content, sample().messages[2].content);

        // A value alone is shown as JSON, as a text block shows it.
        PlaygroundPrompt typed;
        typed.messages = {{QStringLiteral("user"), QStringLiteral("${ items }")}};
        Result<QList<PromptMessage>> t =
            typed.render(QJsonObject{{QStringLiteral("items"), QJsonArray{1, true}}});
        QVERIFY(t.ok());
        QCOMPARE(t->at(0).content, QStringLiteral("[1, true]"));
    }

    void renderErrorsAreLocated()
    {
        Result<QList<PromptMessage>> r = sample().render(QJsonObject{{QStringLiteral("n"), 1}});
        QVERIFY(!r.ok());
        QVERIFY2(r.error().message.contains(QLatin1String("message 2 (user)")),
                 qPrintable(r.error().message));
        QVERIFY2(r.error().message.contains(QLatin1String("doc")), qPrintable(r.error().message));
        QCOMPARE(r.error().span.line, 2);

        PlaygroundPrompt bad;
        bad.messages = {{QStringLiteral("user"), QStringLiteral("fine\nthen ${ x + }")}};
        Result<QList<PromptMessage>> s = bad.render(QJsonObject{{QStringLiteral("x"), 1}});
        QVERIFY(!s.ok());
        QCOMPARE(s.error().span.line, 2);
        QVERIFY(s.error().span.column > 1);
        QVERIFY(s.error().message.startsWith(QLatin1String("message 1 (user), line 2")));
    }

    void chatRequest()
    {
        const PlaygroundPrompt p = sample();
        const models::ChatRequest req =
            p.toChatRequest({{QStringLiteral("user"), QStringLiteral("hello")}});
        QCOMPARE(req.model, std::string("ollama/granite3.2:2b"));
        QCOMPARE(req.messages.size(), size_t(1));
        QCOMPARE(req.messages[0].toJson().dump(),
                 std::string("{\"content\":\"hello\",\"role\":\"user\"}"));
        QVERIFY(req.stream);
        const nlohmann::json params = pdl::Value(req.parameters).toJson();
        QCOMPARE(params.at("max_tokens").get<int>(), 128);
        QCOMPARE(params.at("seed").get<int>(), 42);
        QCOMPARE(params.at("stop").size(), size_t(2));
        QCOMPARE(params.at("response_format").at("type").get<std::string>(),
                 std::string("json_object"));
        QCOMPARE(req.site.promptName, std::string("playground"));
    }

    // A logged call with an image opens with the image kept beside the message's text, and a
    // run sends it again as an image part (never as text); sessions and "Copy as PDL" keep it.
    void loggedImageIsKeptAndSentAgain()
    {
        const QString url = QStringLiteral("data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAE");
        const QJsonObject image{
            {QStringLiteral("type"), QStringLiteral("image_url")},
            {QStringLiteral("image_url"), QJsonObject{{QStringLiteral("url"), url}}}};
        promptlog::CallRecord call;
        call.model = QStringLiteral("vision");
        call.messages = QJsonArray{QJsonObject{
            {QStringLiteral("role"), QStringLiteral("user")},
            {QStringLiteral("content"),
             QJsonArray{QJsonObject{{QStringLiteral("type"), QStringLiteral("text")},
                                    {QStringLiteral("text"), QStringLiteral("Read ${ what }")}},
                        image}}}};
        const PlaygroundPrompt p = PlaygroundPrompt::fromCall(call);
        QCOMPARE(p.messages.size(), 1);
        QCOMPARE(p.messages[0].content, QStringLiteral("Read ${ what }"));
        QCOMPARE(p.messages[0].attachments, QJsonArray{image});

        auto rendered = p.render(QJsonObject{{QStringLiteral("what"), QStringLiteral("this")}});
        QVERIFY(rendered.ok());
        const models::ChatRequest req = p.toChatRequest(*rendered);
        const nlohmann::json sent = req.messages[0].toJson();
        QVERIFY2(sent.at("content").is_array(), sent.dump().c_str());
        QCOMPARE(sent.at("content").size(), size_t(2));
        QCOMPARE(sent.at("content")[0].at("text").get<std::string>(), std::string("Read this"));
        QCOMPARE(sent.at("content")[1].at("image_url").at("url").get<std::string>(),
                 url.toStdString());

        PlaygroundSession session = PlaygroundSession::create();
        session.variants = {p};
        Result<PlaygroundSession> back = PlaygroundSession::fromJson(session.toJson());
        QVERIFY(back.ok());
        QCOMPARE(back->variants[0].messages[0].attachments, QJsonArray{image});

        const QString pdl = p.toPdl();
        QVERIFY2(pdl.contains(url), qPrintable(pdl));
        const pdl::ParseResult parsed =
            pdl::parseProgramText(pdl.toUtf8(), QStringLiteral("copy.pdl"));
        QVERIFY2(parsed.ok() && parsed.program, qPrintable(pdl));
    }

    void copyAsPdlRandom()
    {
        if (!testing::havePyYaml())
            QSKIP("python3 with PyYAML is needed as the oracle");
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
                                   QStringLiteral("a\n  indented\nb"),
                                   QStringLiteral("null"),
                                   QStringLiteral("\n\nlead"),
                                   QStringLiteral("back\\slash"),
                                   QStringLiteral("a  \n  \nb")};
        QRandomGenerator rng(7);
        QList<PlaygroundPrompt> prompts;
        QStringList docs;
        for (int round = 0; round < 200; ++round) {
            PlaygroundPrompt p;
            p.model = texts[rng.bounded(int(texts.size()))];
            if (p.model.isEmpty() || p.model.contains(QLatin1Char('\n')))
                p.model = QStringLiteral("m");
            const int n = 1 + int(rng.bounded(3));
            for (int i = 0; i < n; ++i)
                p.messages << PromptMessage{i % 2 ? QStringLiteral("user")
                                                  : QStringLiteral("system"),
                                            texts[rng.bounded(int(texts.size()))]};
            if (rng.bounded(2))
                p.parameters.stop = {texts[rng.bounded(int(texts.size()))]};
            if (rng.bounded(2))
                p.parameters.extra.insert(texts[rng.bounded(int(texts.size()))].trimmed().isEmpty()
                                              ? QStringLiteral("k")
                                              : texts[rng.bounded(int(texts.size()))],
                                          QStringLiteral("v"));
            prompts << p;
            docs << p.toPdl();
            const pdl::ParseResult parsed =
                pdl::parseProgramText(docs.back().toUtf8(), QStringLiteral("copy.pdl"));
            QVERIFY2(parsed.program, qPrintable(docs.back()));
        }
        QStringList errors;
        const auto values = testing::pyYamlLoadMany(docs, &errors);
        QVERIFY(values);
        for (qsizetype i = 0; i < prompts.size(); ++i) {
            QVERIFY2(errors[i].isEmpty(), qPrintable(errors[i] + docs[i]));
            const QJsonObject o = values->at(i).toObject();
            const PlaygroundPrompt& p = prompts[i];
            QVERIFY2(o.value(QLatin1String("model")).toString() == p.model, qPrintable(docs[i]));
            QVERIFY2(o.value(QLatin1String("parameters")).toObject() == p.parameters.toJson(),
                     qPrintable(docs[i]));
            const QJsonArray items =
                o.value(QLatin1String("input")).toObject().value(QLatin1String("array")).toArray();
            QCOMPARE(items.size(), p.messages.size());
            for (qsizetype k = 0; k < items.size(); ++k)
                QVERIFY2(items[k][QLatin1String("content")].toString() == p.messages[k].content,
                         qPrintable(docs[i]));
        }
    }

    void copyAsPdl_data()
    {
        QTest::addColumn<int>("which");
        QTest::newRow("full") << 0;
        QTest::newRow("no parameters, one message") << 1;
        QTest::newRow("japanese and odd text") << 2;
    }

    void copyAsPdl()
    {
        QFETCH(int, which);
        PlaygroundPrompt p = sample();
        if (which == 1) {
            p.parameters = {};
            p.messages = {{QStringLiteral("user"), QStringLiteral("yes")}};
            p.model = QStringLiteral("true");
        } else if (which == 2) {
            p.messages = {{QStringLiteral("user"), QStringLiteral("日本語で答えて: ${ q }")},
                          {QStringLiteral("user"), QStringLiteral("  leading blanks\n  kept")},
                          {QStringLiteral("user"), QStringLiteral("- dash\n\n\n")},
                          {QStringLiteral("user"), QString()}};
        }
        const QString pdl = p.toPdl();

        // Hako's own parser accepts it as a model block.
        const pdl::ParseResult parsed =
            pdl::parseProgramText(pdl.toUtf8(), QStringLiteral("copy.pdl"));
        QVERIFY2(
            parsed.ok() && parsed.program,
            qPrintable(pdl + (parsed.diagnostics.empty() ? QString()
                                                         : parsed.diagnostics.front().toString())));

        // PyYAML reads what was meant.
        if (!testing::havePyYaml())
            QSKIP("python3 with PyYAML is needed as the oracle");
        QString error;
        const auto doc = testing::pyYamlLoad(pdl, &error);
        QVERIFY2(doc, qPrintable(error + pdl));
        const QJsonObject o = doc->toObject();
        QCOMPARE(o.value(QLatin1String("model")).toString(), p.model);
        QCOMPARE(o.value(QLatin1String("parameters")).toObject(), p.parameters.toJson());
        const QJsonArray items =
            o.value(QLatin1String("input")).toObject().value(QLatin1String("array")).toArray();
        QCOMPARE(items.size(), p.messages.size());
        for (qsizetype i = 0; i < items.size(); ++i) {
            QCOMPARE(items[i][QLatin1String("role")].toString(), p.messages[i].role);
            QCOMPARE(items[i][QLatin1String("content")].toString(), p.messages[i].content);
        }

        // And the playground reads the same prompt back from it.
        SourceSpan start;
        start.line = 1;
        start.column = 1;
        Result<PlaygroundPrompt> back = promptFromSource(pdl, start);
        QVERIFY(back.ok());
        QCOMPARE(back->messages, p.messages);
        QCOMPARE(back->parameters, p.parameters);
    }
};

QTEST_GUILESS_MAIN(TestPlaygroundPrompt)
#include "tst_playgroundprompt.moc"
