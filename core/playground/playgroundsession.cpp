#include "core/playground/playgroundsession.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonParseError>
#include <QUuid>

#include <array>

namespace hako::playground {

namespace {

const QLatin1String kHeaderPrefix("{\"header\":");

QString isoTime(const QDateTime& t)
{
    return t.isValid() ? t.toUTC().toString(Qt::ISODateWithMs) : QString();
}

QDateTime fromIso(const QJsonValue& v)
{
    return QDateTime::fromString(v.toString(), Qt::ISODateWithMs);
}

QString stateName(CellResult::State s)
{
    switch (s) {
    case CellResult::State::Pending:
        return QStringLiteral("pending");
    case CellResult::State::Running:
        return QStringLiteral("running");
    case CellResult::State::Done:
        return QStringLiteral("done");
    case CellResult::State::Failed:
        return QStringLiteral("failed");
    case CellResult::State::Cancelled:
        break;
    }
    return QStringLiteral("cancelled");
}

CellResult::State stateFromName(const QString& name)
{
    if (name == QLatin1String("done"))
        return CellResult::State::Done;
    if (name == QLatin1String("failed"))
        return CellResult::State::Failed;
    // A call that was waiting or running when the session was saved never finished: it was
    // cancelled when the pane closed.
    return CellResult::State::Cancelled;
}

QJsonObject cellToJson(const CellResult& c)
{
    QJsonObject o{{QStringLiteral("state"), stateName(c.state)}};
    if (!c.reply.isEmpty())
        o.insert(QStringLiteral("reply"), c.reply);
    if (!c.error.isEmpty())
        o.insert(QStringLiteral("error"), c.error);
    if (c.promptTokens)
        o.insert(QStringLiteral("promptTokens"), double(*c.promptTokens));
    if (c.completionTokens)
        o.insert(QStringLiteral("completionTokens"), double(*c.completionTokens));
    if (c.tokensEstimated)
        o.insert(QStringLiteral("tokensEstimated"), true);
    if (c.latencyMs)
        o.insert(QStringLiteral("latencyMs"), *c.latencyMs);
    return o;
}

CellResult cellFromJson(const QJsonObject& o)
{
    CellResult c;
    c.state = stateFromName(o.value(QLatin1String("state")).toString());
    c.reply = o.value(QLatin1String("reply")).toString();
    c.error = o.value(QLatin1String("error")).toString();
    if (const QJsonValue v = o.value(QLatin1String("promptTokens")); v.isDouble())
        c.promptTokens = qint64(v.toDouble());
    if (const QJsonValue v = o.value(QLatin1String("completionTokens")); v.isDouble())
        c.completionTokens = qint64(v.toDouble());
    c.tokensEstimated = o.value(QLatin1String("tokensEstimated")).toBool();
    if (const QJsonValue v = o.value(QLatin1String("latencyMs")); v.isDouble())
        c.latencyMs = v.toDouble();
    return c;
}

QJsonObject promptToJson(const PlaygroundPrompt& p)
{
    QJsonArray messages;
    for (const PromptMessage& m : p.messages) {
        QJsonObject mo{{QStringLiteral("role"), m.role}, {QStringLiteral("content"), m.content}};
        if (!m.attachments.isEmpty())
            mo.insert(QStringLiteral("attachments"), m.attachments);
        messages.append(mo);
    }
    QJsonObject o{
        {QStringLiteral("model"), p.model},
        {QStringLiteral("messages"), messages},
        {QStringLiteral("parameters"), PlaygroundSession::withoutSecrets(p.parameters.toJson())}};
    const std::pair<const char*, const QString*> identity[] = {{"name", &p.name},
                                                               {"promptId", &p.promptId},
                                                               {"programId", &p.programId},
                                                               {"programName", &p.programName}};
    for (const auto& [key, value] : identity)
        if (!value->isEmpty())
            o.insert(QLatin1String(key), *value);
    return o;
}

PlaygroundPrompt promptFromJson(const QJsonObject& o)
{
    PlaygroundPrompt p;
    p.model = o.value(QLatin1String("model")).toString();
    p.name = o.value(QLatin1String("name")).toString();
    p.promptId = o.value(QLatin1String("promptId")).toString();
    p.programId = o.value(QLatin1String("programId")).toString();
    p.programName = o.value(QLatin1String("programName")).toString();
    // A file edited by hand is read with the same care as one written here.
    p.parameters = PromptParameters::fromJson(
        PlaygroundSession::withoutSecrets(o.value(QLatin1String("parameters")).toObject()));
    for (const QJsonValue& m : o.value(QLatin1String("messages")).toArray()) {
        const QJsonObject mo = m.toObject();
        PromptMessage message;
        message.role = mo.value(QLatin1String("role")).toString(QStringLiteral("user"));
        message.content = mo.value(QLatin1String("content")).toString();
        for (const QJsonValue& part : mo.value(QLatin1String("attachments")).toArray())
            if (part.isObject())
                message.attachments.append(part);
        p.messages << message;
    }
    return p;
}

QJsonObject resultsToJson(const PlaygroundSessionResults& r)
{
    QJsonArray cells;
    for (const CellResult& c : r.cells)
        cells.append(cellToJson(c));
    return QJsonObject{
        {QStringLiteral("rows"), r.rows},
        {QStringLiteral("repeat"), r.repeat},
        {QStringLiteral("variantLabels"), QJsonArray::fromStringList(r.variantLabels)},
        {QStringLiteral("rowLabels"), QJsonArray::fromStringList(r.rowLabels)},
        {QStringLiteral("cells"), cells}};
}

PlaygroundSessionResults resultsFromJson(const QJsonObject& o)
{
    PlaygroundSessionResults r;
    r.rows = std::max(0, o.value(QLatin1String("rows")).toInt());
    r.repeat = std::max(1, o.value(QLatin1String("repeat")).toInt(1));
    r.variantLabels = o.value(QLatin1String("variantLabels")).toVariant().toStringList();
    r.rowLabels = o.value(QLatin1String("rowLabels")).toVariant().toStringList();
    for (const QJsonValue& c : o.value(QLatin1String("cells")).toArray())
        r.cells.push_back(cellFromJson(c.toObject()));
    // A grid whose cells do not fill its shape (a file cut short, edited by hand) is dropped
    // rather than shown shifted.
    if (!r.isConsistent())
        return {};
    return r;
}

QJsonObject headerToJson(const PlaygroundSessionHeader& h)
{
    return QJsonObject{{QStringLiteral("format"), PlaygroundSession::kFormatVersion},
                       {QStringLiteral("id"), h.id},
                       {QStringLiteral("name"), h.name},
                       {QStringLiteral("created"), isoTime(h.created)},
                       {QStringLiteral("updated"), isoTime(h.updated)},
                       {QStringLiteral("variants"), h.variants},
                       {QStringLiteral("inputRows"), h.inputRows},
                       {QStringLiteral("model"), h.model}};
}

Result<PlaygroundSessionHeader> headerFromJson(const QJsonValue& value)
{
    if (!value.isObject())
        return makeError(QStringLiteral("it has no session header"));
    const QJsonObject o = value.toObject();
    const int format = o.value(QLatin1String("format")).toInt(0);
    if (format < 1)
        return makeError(QStringLiteral("it has no format version"));
    if (format > PlaygroundSession::kFormatVersion)
        return makeError(QStringLiteral("it was written by a newer Hako (format %1)").arg(format));
    PlaygroundSessionHeader h;
    h.id = o.value(QLatin1String("id")).toString();
    // The id names the file: anything but a UUID could point elsewhere.
    if (QUuid::fromString(h.id).isNull())
        return makeError(QStringLiteral("its id is not a UUID"));
    h.name = o.value(QLatin1String("name")).toString();
    h.created = fromIso(o.value(QLatin1String("created")));
    h.updated = fromIso(o.value(QLatin1String("updated")));
    h.variants = std::max(0, o.value(QLatin1String("variants")).toInt());
    h.inputRows = std::max(0, o.value(QLatin1String("inputRows")).toInt());
    h.model = o.value(QLatin1String("model")).toString();
    return h;
}

QString normalisedKey(const QString& name)
{
    QString k = name.toLower();
    k.remove(QLatin1Char('_'));
    k.remove(QLatin1Char('-'));
    return k;
}

} // namespace

bool PlaygroundSessionResults::isConsistent() const
{
    return rows >= 0 && repeat >= 1 &&
           qint64(cells.size()) == qint64(rows) * qint64(variantLabels.size()) * qint64(repeat);
}

PlaygroundSession PlaygroundSession::create()
{
    PlaygroundSession s;
    s.id = QUuid::createUuid().toString(QUuid::WithoutBraces);
    s.created = QDateTime::currentDateTimeUtc();
    s.updated = s.created;
    return s;
}

PlaygroundSessionHeader PlaygroundSession::header() const
{
    PlaygroundSessionHeader h;
    h.id = id;
    h.name = name;
    h.created = created;
    h.updated = updated;
    h.variants = int(variants.size());
    h.inputRows = int(inputRows.size());
    h.model = variants.isEmpty() ? QString() : variants.front().model;
    return h;
}

QByteArray PlaygroundSession::toJson() const
{
    QJsonArray variantList;
    for (const PlaygroundPrompt& p : variants)
        variantList.append(promptToJson(p));
    QJsonArray rows;
    for (const QJsonObject& r : inputRows)
        rows.append(r);
    QJsonObject body{{QStringLiteral("variants"), variantList},
                     {QStringLiteral("inputRows"), rows},
                     {QStringLiteral("repeat"), repeat}};
    if (!programPath.isEmpty()) {
        body.insert(QStringLiteral("program"),
                    QJsonObject{{QStringLiteral("path"), programPath},
                                {QStringLiteral("line"), span.line},
                                {QStringLiteral("column"), span.column},
                                {QStringLiteral("endLine"), span.endLine},
                                {QStringLiteral("endColumn"), span.endColumn}});
    }
    if (!results.isEmpty() && results.isConsistent())
        body.insert(QStringLiteral("results"), resultsToJson(results));
    // The header goes first, alone on its line and compact (so it holds no newline): listing
    // sessions reads that line only. QJsonObject sorts its keys, hence the hand-made envelope.
    QByteArray out = kHeaderPrefix.latin1();
    out += QJsonDocument(headerToJson(header())).toJson(QJsonDocument::Compact);
    out += ",\n\"session\":";
    out += QJsonDocument(body).toJson(QJsonDocument::Indented);
    out += "}\n";
    return out;
}

Result<PlaygroundSession> PlaygroundSession::fromJson(const QByteArray& bytes)
{
    QJsonParseError error;
    const QJsonDocument doc = QJsonDocument::fromJson(bytes, &error);
    if (error.error == QJsonParseError::IllegalUTF8String)
        return makeError(QStringLiteral("it is not UTF-8 text (at byte %1)").arg(error.offset));
    if (error.error != QJsonParseError::NoError)
        return makeError(QStringLiteral("it is not valid JSON (%1 at byte %2)")
                             .arg(error.errorString())
                             .arg(error.offset));
    if (!doc.isObject())
        return makeError(QStringLiteral("it is not a JSON object"));
    const QJsonObject root = doc.object();
    Result<PlaygroundSessionHeader> header = headerFromJson(root.value(QLatin1String("header")));
    if (!header)
        return header.error();
    const QJsonValue bodyValue = root.value(QLatin1String("session"));
    if (!bodyValue.isObject())
        return makeError(QStringLiteral("it has no session"));
    const QJsonObject body = bodyValue.toObject();
    PlaygroundSession s;
    s.id = header->id;
    s.name = header->name;
    s.created = header->created;
    s.updated = header->updated;
    for (const QJsonValue& v : body.value(QLatin1String("variants")).toArray())
        s.variants << promptFromJson(v.toObject());
    for (const QJsonValue& r : body.value(QLatin1String("inputRows")).toArray())
        s.inputRows << r.toObject();
    s.repeat = std::max(1, body.value(QLatin1String("repeat")).toInt(1));
    const QJsonObject program = body.value(QLatin1String("program")).toObject();
    s.programPath = program.value(QLatin1String("path")).toString();
    if (!s.programPath.isEmpty()) {
        s.span.file = s.programPath;
        s.span.line = program.value(QLatin1String("line")).toInt();
        s.span.column = program.value(QLatin1String("column")).toInt();
        s.span.endLine = program.value(QLatin1String("endLine")).toInt();
        s.span.endColumn = program.value(QLatin1String("endColumn")).toInt();
    }
    s.results = resultsFromJson(body.value(QLatin1String("results")).toObject());
    return s;
}

Result<PlaygroundSessionHeader> PlaygroundSession::readHeader(const QByteArray& firstLine)
{
    QByteArray line = firstLine.trimmed();
    if (!line.startsWith(kHeaderPrefix.latin1()) || !line.endsWith(','))
        return makeError(QStringLiteral("it does not start with a session header"));
    line = line.mid(kHeaderPrefix.size(), line.size() - kHeaderPrefix.size() - 1);
    QJsonParseError error;
    const QJsonDocument doc = QJsonDocument::fromJson(line, &error);
    if (error.error != QJsonParseError::NoError)
        return makeError(
            QStringLiteral("its header is not valid JSON (%1)").arg(error.errorString()));
    return headerFromJson(doc.object());
}

bool PlaygroundSession::isSecretParameter(const QString& name)
{
    const QString k = normalisedKey(name);
    static const std::array<QLatin1String, 9> exact{
        QLatin1String("baseurl"),        QLatin1String("apibase"), QLatin1String("apiversion"),
        QLatin1String("authorization"),  QLatin1String("headers"), QLatin1String("extraheaders"),
        QLatin1String("defaultheaders"), QLatin1String("cookie"),  QLatin1String("credentials")};
    static const std::array<QLatin1String, 7> suffixes{
        QLatin1String("apikey"),     QLatin1String("secret"),      QLatin1String("secretkey"),
        QLatin1String("password"),   QLatin1String("accesstoken"), QLatin1String("authtoken"),
        QLatin1String("bearertoken")};
    for (const QLatin1String& e : exact) {
        if (k == e)
            return true;
    }
    for (const QLatin1String& s : suffixes) {
        if (k.endsWith(s))
            return true;
    }
    return false;
}

QJsonObject PlaygroundSession::withoutSecrets(const QJsonObject& parameters)
{
    QJsonObject out;
    for (auto it = parameters.begin(); it != parameters.end(); ++it) {
        if (isSecretParameter(it.key()))
            continue;
        out.insert(it.key(), it.value().isObject()
                                 ? QJsonValue(withoutSecrets(it.value().toObject()))
                                 : it.value());
    }
    return out;
}

} // namespace hako::playground
