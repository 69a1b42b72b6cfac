#include "core/memory/threadindex.h"

#include <QFile>
#include <QJsonDocument>
#include <QJsonObject>

namespace hako::memory {

bool ThreadIndex::isValidId(const QString& id)
{
    if (id.size() != 5)
        return false;
    for (QChar c : id) {
        if (!c.isDigit() && !(c.toLower() >= QLatin1Char('a') && c.toLower() <= QLatin1Char('f')))
            return false;
    }
    return true;
}

Result<ThreadIndex> ThreadIndex::load(const QString& file)
{
    QFile f(file);
    if (!f.open(QIODevice::ReadOnly))
        return makeError(QStringLiteral("cannot read %1: %2").arg(file, f.errorString()));
    QJsonParseError err;
    const QJsonDocument doc = QJsonDocument::fromJson(f.readAll(), &err);
    if (doc.isNull())
        return makeError(
            QStringLiteral("%1: %2 at byte %3").arg(file, err.errorString()).arg(err.offset));
    const QJsonArray messages =
        doc.isArray() ? doc.array() : doc.object().value(QStringLiteral("messages")).toArray();
    return fromJson(messages, file);
}

Result<ThreadIndex> ThreadIndex::fromJson(const QJsonArray& messages, const QString& origin)
{
    ThreadIndex index;
    const QString where = origin.isEmpty() ? QStringLiteral("thread") : origin;
    for (qsizetype i = 0; i < messages.size(); ++i) {
        const QJsonObject o = messages.at(i).toObject();
        ThreadMessage m;
        m.id = o.value(QStringLiteral("id")).toString();
        for (const QJsonValue v : o.value(QStringLiteral("path")).toArray())
            m.path.append(v.toString());
        m.author =
            o.value(QStringLiteral("author")).toString(o.value(QStringLiteral("user")).toString());
        m.text =
            o.value(QStringLiteral("text")).toString(o.value(QStringLiteral("content")).toString());
        m.createdAt = o.value(QStringLiteral("created_at")).toString();
        if (m.path.isEmpty() && isValidId(m.id))
            m.path = {m.id};
        if (m.id.isEmpty() && !m.path.isEmpty())
            m.id = m.path.last();
        const QString at = QStringLiteral("%1: message %2").arg(where).arg(i + 1);
        if (!isValidId(m.id))
            return makeError(
                QStringLiteral("%1: id '%2' is not 5 hexadecimal digits").arg(at, m.id));
        for (const QString& p : m.path) {
            if (!isValidId(p))
                return makeError(
                    QStringLiteral("%1: path element '%2' is not 5 hexadecimal digits").arg(at, p));
        }
        if (m.path.last() != m.id)
            return makeError(QStringLiteral("%1: the path must end with the message's own id '%2'")
                                 .arg(at, m.id));
        if (index.m_byId.contains(m.id))
            return makeError(QStringLiteral("%1: duplicate id '%2'").arg(at, m.id));
        index.m_byId.insert(m.id, int(index.m_messages.size()));
        index.m_messages.push_back(std::move(m));
    }
    return index;
}

const ThreadMessage* ThreadIndex::find(const QString& id) const
{
    const auto it = m_byId.find(id);
    return it == m_byId.end() ? nullptr : &m_messages[size_t(it.value())];
}

Result<std::vector<ThreadMessage>> ThreadIndex::context(const QString& eventId) const
{
    const ThreadMessage* event = find(eventId);
    if (!event)
        return makeError(QStringLiteral("no message '%1' in the thread").arg(eventId));
    std::vector<ThreadMessage> chain;
    // Walk the event's own path: each prefix names exactly one ancestor, so siblings and their
    // replies can never enter the chain.
    for (const QString& id : event->path) {
        const ThreadMessage* m = find(id);
        if (!m)
            continue; // an ancestor missing from the file: the chain skips it
        if (m->path != event->path.mid(0, m->path.size()))
            return makeError(QStringLiteral("message '%1' is on the path of '%2' but its own path "
                                            "differs")
                                 .arg(id, eventId));
        chain.push_back(*m);
    }
    return chain;
}

} // namespace hako::memory
