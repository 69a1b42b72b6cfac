#include "core/promptlog/callrecord.h"

#include <QDateTime>
#include <QFileInfo>
#include <QJsonValue>

namespace hako::promptlog {

QString statusName(CallStatus status)
{
    switch (status) {
    case CallStatus::Ok:
        return QStringLiteral("ok");
    case CallStatus::Failed:
        return QStringLiteral("failed");
    case CallStatus::Cancelled:
        return QStringLiteral("cancelled");
    }
    return QStringLiteral("ok");
}

std::optional<CallStatus> statusFromName(const QString& name)
{
    for (CallStatus s : {CallStatus::Ok, CallStatus::Failed, CallStatus::Cancelled}) {
        if (statusName(s) == name)
            return s;
    }
    return std::nullopt;
}

QString originName(CallOrigin origin)
{
    switch (origin) {
    case CallOrigin::Program:
        return QStringLiteral("program");
    case CallOrigin::Judge:
        return QStringLiteral("judge");
    case CallOrigin::Playground:
        return QStringLiteral("playground");
    case CallOrigin::Experiment:
        return QStringLiteral("experiment");
    case CallOrigin::Received:
        return QStringLiteral("received");
    }
    return QStringLiteral("program");
}

std::optional<CallOrigin> originFromName(const QString& name)
{
    for (CallOrigin o : {CallOrigin::Program, CallOrigin::Judge, CallOrigin::Playground,
                         CallOrigin::Experiment, CallOrigin::Received}) {
        if (originName(o) == name)
            return o;
    }
    return std::nullopt;
}

CallOrigin legacyOrigin(const QString& promptName, const QStringList& tags)
{
    if (promptName == QLatin1String("eval:judge") || tags.contains(QLatin1String("eval:judge")))
        return CallOrigin::Judge;
    if (tags.contains(QLatin1String("playground")))
        return CallOrigin::Playground;
    return CallOrigin::Program;
}

QString promptNameFor(const QString& def, const QString& description, const QString& file, int line)
{
    if (!def.trimmed().isEmpty())
        return def.trimmed();
    const QString firstLine = description.trimmed().section(QLatin1Char('\n'), 0, 0).trimmed();
    if (!firstLine.isEmpty())
        return firstLine;
    const QString name = file.isEmpty() ? QStringLiteral("?") : QFileInfo(file).fileName();
    return QStringLiteral("%1:%2").arg(name).arg(line);
}

namespace {

// Message content is a string, or (OpenAI's multimodal form) a list of parts of which the
// text ones count.
void appendContent(QString& out, const QJsonValue& content)
{
    if (content.isString()) {
        out += content.toString();
        out += QLatin1Char('\n');
    } else if (content.isArray()) {
        for (const QJsonValue& part : content.toArray()) {
            if (part.isString())
                appendContent(out, part);
            else if (part.isObject() && part.toObject().value(QLatin1String("text")).isString())
                appendContent(out, part.toObject().value(QLatin1String("text")));
        }
    }
}

QJsonValue optionalInt(const std::optional<int64_t>& v)
{
    return v ? QJsonValue(qint64(*v)) : QJsonValue(QJsonValue::Null);
}

QJsonValue optionalReal(const std::optional<double>& v)
{
    return v ? QJsonValue(*v) : QJsonValue(QJsonValue::Null);
}

} // namespace

QString searchableText(const QJsonArray& messages, const QString& reply)
{
    QString out;
    for (const QJsonValue& m : messages)
        appendContent(out, m.toObject().value(QLatin1String("content")));
    out += reply;
    return out;
}

QString isoTime(int64_t utcMs)
{
    return QDateTime::fromMSecsSinceEpoch(utcMs, Qt::UTC).toString(Qt::ISODateWithMs);
}

QJsonObject CallRecord::toJson() const
{
    QJsonObject o;
    o.insert(QLatin1String("id"), uid);
    o.insert(QLatin1String("run_id"), runId);
    o.insert(QLatin1String("started_at"), isoTime(startedAt));
    o.insert(QLatin1String("prompt"), promptName);
    o.insert(QLatin1String("prompt_id"), promptId);
    o.insert(QLatin1String("program_id"), programId);
    o.insert(QLatin1String("program_name"), programName);
    o.insert(QLatin1String("version"), version);
    o.insert(QLatin1String("origin"), originName(origin));
    o.insert(QLatin1String("program"), programPath);
    o.insert(QLatin1String("program_hash"), programHash);
    o.insert(QLatin1String("source"), QJsonObject{{QLatin1String("file"), span.file},
                                                  {QLatin1String("line"), span.line},
                                                  {QLatin1String("column"), span.column},
                                                  {QLatin1String("end_line"), span.endLine},
                                                  {QLatin1String("end_column"), span.endColumn}});
    o.insert(QLatin1String("trace_node"), traceNodeId);
    o.insert(QLatin1String("tags"), QJsonArray::fromStringList(tags));
    o.insert(QLatin1String("model"), model);
    o.insert(QLatin1String("endpoint"), endpoint);
    if (!resolvedModel.isEmpty())
        o.insert(QLatin1String("resolved_model"), resolvedModel);
    if (!responseModel.isEmpty())
        o.insert(QLatin1String("response_model"), responseModel);
    o.insert(QLatin1String("parameters"), parameters);
    o.insert(QLatin1String("messages"), messages);
    o.insert(QLatin1String("reply"), reply);
    o.insert(QLatin1String("tool_calls"), toolCalls);
    o.insert(QLatin1String("finish_reason"), finishReason);
    o.insert(QLatin1String("usage"),
             QJsonObject{{QLatin1String("prompt_tokens"), optionalInt(promptTokens)},
                         {QLatin1String("completion_tokens"), optionalInt(completionTokens)},
                         {QLatin1String("cached_tokens"), optionalInt(cachedTokens)}});
    o.insert(QLatin1String("ttft_ms"), optionalReal(timeToFirstTokenMs));
    o.insert(QLatin1String("latency_ms"), optionalReal(latencyMs));
    o.insert(QLatin1String("cost"), optionalReal(cost));
    o.insert(QLatin1String("status"), statusName(status));
    o.insert(QLatin1String("error"), error);
    o.insert(QLatin1String("retries"), retries);
    o.insert(QLatin1String("inputs"), inputs);
    o.insert(QLatin1String("content_omitted"), contentOmitted);
    return o;
}

namespace {

struct Reader {
    const QJsonObject& o;
    QString error;

    QString text(const char* key)
    {
        const QJsonValue v = o.value(QLatin1String(key));
        if (v.isUndefined() || v.isNull())
            return {};
        if (!v.isString())
            fail(key, "a string");
        return v.toString();
    }
    int integer(const QJsonObject& from, const char* key)
    {
        const QJsonValue v = from.value(QLatin1String(key));
        if (v.isUndefined() || v.isNull())
            return 0;
        if (!v.isDouble())
            fail(key, "a number");
        return v.toInt();
    }
    std::optional<int64_t> optInt(const QJsonObject& from, const char* key)
    {
        const QJsonValue v = from.value(QLatin1String(key));
        if (v.isUndefined() || v.isNull())
            return std::nullopt;
        if (!v.isDouble()) {
            fail(key, "a number");
            return std::nullopt;
        }
        return int64_t(v.toInteger());
    }
    std::optional<double> optReal(const char* key)
    {
        const QJsonValue v = o.value(QLatin1String(key));
        if (v.isUndefined() || v.isNull())
            return std::nullopt;
        if (!v.isDouble()) {
            fail(key, "a number");
            return std::nullopt;
        }
        return v.toDouble();
    }
    QJsonObject object(const char* key)
    {
        const QJsonValue v = o.value(QLatin1String(key));
        if (!v.isUndefined() && !v.isNull() && !v.isObject())
            fail(key, "an object");
        return v.toObject();
    }
    QJsonArray array(const char* key)
    {
        const QJsonValue v = o.value(QLatin1String(key));
        if (!v.isUndefined() && !v.isNull() && !v.isArray())
            fail(key, "an array");
        return v.toArray();
    }
    void fail(const char* key, const char* what)
    {
        if (error.isEmpty())
            error = QStringLiteral("'%1' must be %2").arg(QLatin1String(key), QLatin1String(what));
    }
};

} // namespace

Result<CallRecord> CallRecord::fromJson(const QJsonObject& object)
{
    Reader r{object, {}};
    CallRecord c;
    c.uid = r.text("id");
    c.runId = r.text("run_id");
    const QString started = r.text("started_at");
    const QDateTime t = QDateTime::fromString(started, Qt::ISODateWithMs);
    if (!t.isValid())
        return makeError(
            QStringLiteral("'started_at' must be an ISO 8601 time, not '%1'").arg(started));
    c.startedAt = t.toMSecsSinceEpoch();
    c.promptName = r.text("prompt");
    c.programPath = r.text("program");
    c.programHash = r.text("program_hash");
    const QJsonObject source = r.object("source");
    c.span.file = source.value(QLatin1String("file")).toString();
    c.span.line = r.integer(source, "line");
    c.span.column = r.integer(source, "column");
    c.span.endLine = r.integer(source, "end_line");
    c.span.endColumn = r.integer(source, "end_column");
    c.traceNodeId = r.text("trace_node");
    for (const QJsonValue& tag : r.array("tags")) {
        if (!tag.isString())
            r.fail("tags", "a list of strings");
        c.tags.append(tag.toString());
    }
    c.model = r.text("model");
    c.endpoint = r.text("endpoint");
    c.resolvedModel = r.text("resolved_model");
    c.responseModel = r.text("response_model");
    c.parameters = r.object("parameters");
    c.messages = r.array("messages");
    c.reply = r.text("reply");
    c.toolCalls = r.array("tool_calls");
    c.finishReason = r.text("finish_reason");
    const QJsonObject usage = r.object("usage");
    c.promptTokens = r.optInt(usage, "prompt_tokens");
    c.completionTokens = r.optInt(usage, "completion_tokens");
    c.cachedTokens = r.optInt(usage, "cached_tokens");
    c.timeToFirstTokenMs = r.optReal("ttft_ms");
    c.latencyMs = r.optReal("latency_ms");
    c.cost = r.optReal("cost");
    const QString status = r.text("status");
    const auto s = statusFromName(status.isEmpty() ? QStringLiteral("ok") : status);
    if (!s)
        return makeError(
            QStringLiteral("'status' must be ok, failed or cancelled, not '%1'").arg(status));
    c.status = *s;
    c.error = r.text("error");
    c.retries = r.integer(object, "retries");
    c.promptId = r.text("prompt_id");
    c.programId = r.text("program_id");
    c.programName = r.text("program_name");
    c.version = r.text("version");
    // An export written before calls had an origin tells it by the old rule.
    const QString origin = r.text("origin");
    const auto o = origin.isEmpty() ? legacyOrigin(c.promptName, c.tags) : originFromName(origin);
    if (!o)
        return makeError(QStringLiteral("'origin' must be program, judge, playground, experiment "
                                        "or received, not '%1'")
                             .arg(origin));
    c.origin = *o;
    c.inputs = r.object("inputs");
    c.contentOmitted = object.value(QLatin1String("content_omitted")).toBool();
    if (c.uid.isEmpty())
        r.fail("id", "a non-empty string");
    if (!r.error.isEmpty())
        return makeError(r.error);
    return c;
}

} // namespace hako::promptlog
