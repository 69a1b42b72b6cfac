#include "core/playground/playgroundprompt.h"

#include "core/pdl/expr/expression.h"
#include "core/pdl/valuejson.h"
#include "core/playground/yamlemit_p.h"
#include "core/promptlog/callrecord.h"

#include <QJsonArray>
#include <QJsonDocument>

#include <nlohmann/json.hpp>

#include <algorithm>

namespace hako::playground {

namespace {

// A message's text: a string, or the text parts of a list of parts (the other parts are the
// message's attachments, see attachmentsOf); anything else as its JSON.
QString contentText(const QJsonValue& content)
{
    if (content.isString())
        return content.toString();
    if (content.isNull() || content.isUndefined())
        return {};
    // Multi-part contents ([{type: text, text: …}, {type: image_url, …}]) keep their text parts.
    if (content.isArray()) {
        QStringList parts;
        bool allParts = true;
        for (const QJsonValue& part : content.toArray()) {
            const QJsonObject o = part.toObject();
            const QString type = o.value(QLatin1String("type")).toString();
            if (type == QLatin1String("text"))
                parts << o.value(QLatin1String("text")).toString();
            else if (type.isEmpty())
                allParts = false;
        }
        if (allParts)
            return parts.join(QString());
    }
    const QByteArray json = QJsonDocument(QJsonArray{content}).toJson(QJsonDocument::Compact);
    return QString::fromUtf8(json.mid(1, json.size() - 2));
}

// The parts of a list of parts that are not text (images), as they are.
QJsonArray attachmentsOf(const QJsonValue& content)
{
    QJsonArray out;
    if (!content.isArray())
        return out;
    for (const QJsonValue& part : content.toArray()) {
        const QString type = part.toObject().value(QLatin1String("type")).toString();
        if (type.isEmpty())
            return {};
        if (type != QLatin1String("text"))
            out.append(part);
    }
    return out;
}

bool isStringList(const QJsonArray& array)
{
    return std::all_of(array.begin(), array.end(),
                       [](const QJsonValue& s) { return s.isString(); });
}

} // namespace

QJsonObject PromptParameters::toJson() const
{
    QJsonObject o = extra;
    if (temperature)
        o.insert(QStringLiteral("temperature"), *temperature);
    if (maxTokens)
        o.insert(QStringLiteral("max_tokens"), double(*maxTokens));
    if (topP)
        o.insert(QStringLiteral("top_p"), *topP);
    if (!stop.isEmpty())
        o.insert(QStringLiteral("stop"), QJsonArray::fromStringList(stop));
    if (seed)
        o.insert(QStringLiteral("seed"), double(*seed));
    if (!responseFormat.isUndefined() && !responseFormat.isNull())
        o.insert(QStringLiteral("response_format"), responseFormat);
    return o;
}

PromptParameters PromptParameters::fromJson(const QJsonObject& parameters)
{
    PromptParameters p;
    for (auto it = parameters.begin(); it != parameters.end(); ++it) {
        const QString key = it.key();
        const QJsonValue v = it.value();
        if (key == QLatin1String("temperature") && v.isDouble())
            p.temperature = v.toDouble();
        else if (key == QLatin1String("max_tokens") && v.isDouble())
            p.maxTokens = qint64(v.toDouble());
        else if (key == QLatin1String("top_p") && v.isDouble())
            p.topP = v.toDouble();
        else if (key == QLatin1String("seed") && v.isDouble())
            p.seed = qint64(v.toDouble());
        else if (key == QLatin1String("stop") && v.isString())
            p.stop = QStringList{v.toString()};
        else if (key == QLatin1String("stop") && v.isArray() && isStringList(v.toArray()))
            p.stop = v.toVariant().toStringList();
        else if (key == QLatin1String("response_format") && !v.isNull())
            p.responseFormat = v;
        else
            p.extra.insert(key, v);
    }
    return p;
}

PlaygroundPrompt PlaygroundPrompt::fromCall(const promptlog::CallRecord& call)
{
    PlaygroundPrompt p;
    p.model = call.model;
    p.name = call.promptName;
    p.promptId = call.promptId;
    p.programId = call.programId;
    p.programName = call.programName;
    p.parameters = PromptParameters::fromJson(call.parameters);
    for (const char* key : {"base_url", "api_base"}) {
        const QJsonValue url = p.parameters.extra.take(QLatin1String(key));
        if (url.isString() && p.droppedServer.isEmpty())
            p.droppedServer = url.toString();
    }
    for (const char* key : {"api_key", "api_version"})
        p.parameters.extra.remove(QLatin1String(key));
    for (const QJsonValue& m : call.messages) {
        const QJsonObject o = m.toObject();
        PromptMessage message;
        message.role = o.value(QLatin1String("role")).toString(QStringLiteral("user"));
        message.content = contentText(o.value(QLatin1String("content")));
        message.attachments = attachmentsOf(o.value(QLatin1String("content")));
        p.messages << message;
    }
    return p;
}

QStringList PlaygroundPrompt::variables() const
{
    QStringList names;
    for (const PromptMessage& m : messages) {
        const QByteArray text = m.content.toUtf8();
        if (!text.contains("${"))
            continue;
        for (const std::string& name : pdl::templateVariables(text.toStdString())) {
            const QString n = QString::fromStdString(name);
            if (!names.contains(n))
                names << n;
        }
    }
    return names;
}

Result<QList<PromptMessage>> PlaygroundPrompt::render(const QJsonObject& inputs) const
{
    pdl::MapScope scope;
    for (auto it = inputs.begin(); it != inputs.end(); ++it)
        scope.set(it.key().toStdString(), pdl::fromQJsonValue(it.value()));
    QList<PromptMessage> out;
    out.reserve(messages.size());
    for (qsizetype i = 0; i < messages.size(); ++i) {
        const PromptMessage& m = messages.at(i);
        PromptMessage r = m;
        const std::string text = m.content.toStdString();
        Result<pdl::Value> value = pdl::evaluateTemplate(text, scope);
        QString rendered;
        std::optional<Diagnostic> failure;
        if (value) {
            try {
                rendered = value->isString() ? QString::fromStdString(value->asString())
                                             : QString::fromStdString(value->toText());
            } catch (const std::exception& e) {
                failure = pdl::diagnosticAtOffset(text, 0, e.what());
            }
        } else {
            failure = value.error();
        }
        if (failure) {
            Diagnostic d = *failure;
            d.message = QStringLiteral("message %1 (%2), line %3, column %4: %5")
                            .arg(i + 1)
                            .arg(m.role)
                            .arg(d.span.line)
                            .arg(d.span.column)
                            .arg(d.message);
            return d;
        }
        r.content = rendered;
        out << r;
    }
    return out;
}

models::ChatRequest PlaygroundPrompt::toChatRequest(const QList<PromptMessage>& renderedMessages,
                                                    bool stream) const
{
    models::ChatRequest request;
    request.model = model.toStdString();
    pdl::List list;
    for (const PromptMessage& m : renderedMessages) {
        pdl::Dict message;
        message.set("role", pdl::Value(m.role.toStdString()));
        if (m.attachments.isEmpty()) {
            message.set("content", pdl::Value(m.content.toStdString()));
        } else {
            // Text first, then the images as the call sent them (never turned into text).
            QJsonArray parts;
            if (!m.content.isEmpty())
                parts.append(QJsonObject{{QStringLiteral("type"), QStringLiteral("text")},
                                         {QStringLiteral("text"), m.content}});
            for (const QJsonValue& part : m.attachments)
                parts.append(part);
            message.set("content", pdl::fromQJsonValue(parts));
        }
        list.push_back(pdl::Value(std::move(message)));
    }
    request.messages = std::move(list);
    request.parameters = pdl::fromQJsonObject(parameters.toJson());
    request.stream = stream;
    request.site.promptName = (name.isEmpty() ? QStringLiteral("playground") : name).toStdString();
    request.site.promptId = promptId.toStdString();
    request.site.programId = programId.toStdString();
    request.site.programName = programName.toStdString();
    return request;
}

QString PlaygroundPrompt::toPdl() const
{
    using namespace detail;
    QString out =
        QStringLiteral("model: ") + scalar(model, ScalarStyle::Plain, 2, false) + QLatin1Char('\n');
    const QJsonObject params = parameters.toJson();
    if (!params.isEmpty()) {
        out += QStringLiteral("parameters:\n");
        for (auto it = params.begin(); it != params.end(); ++it) {
            out += QStringLiteral("  ") + scalar(it.key(), ScalarStyle::Plain, 0, false) +
                   QStringLiteral(": ") + flowValue(it.value(), false) + QLatin1Char('\n');
        }
    }
    if (!messages.isEmpty()) {
        out += QStringLiteral("input:\n  array:\n");
        for (const PromptMessage& m : messages) {
            out += QStringLiteral("  - role: ") + scalar(m.role, ScalarStyle::Plain, 0, false) +
                   QLatin1Char('\n');
            if (m.attachments.isEmpty()) {
                out += QStringLiteral("    content: ") +
                       scalar(m.content, ScalarStyle::Plain, 6, false) + QLatin1Char('\n');
                continue;
            }
            // A message with images: its parts as a list, the images' data URLs as they are.
            out += QStringLiteral("    content:\n      data:\n");
            if (!m.content.isEmpty())
                out += QStringLiteral("      - ") +
                       flowValue(QJsonObject{{QStringLiteral("type"), QStringLiteral("text")},
                                             {QStringLiteral("text"), m.content}},
                                 false) +
                       QLatin1Char('\n');
            for (const QJsonValue& part : m.attachments)
                out += QStringLiteral("      - ") + flowValue(part, false) + QLatin1Char('\n');
        }
    }
    return out;
}

} // namespace hako::playground
