// MemoryStore: changing memories (update, state, revert, merge), each journaled.
#include "core/memory/memorystore.h"

#include "core/memory/memorystore_p.h"

#include <QJsonArray>
#include <QJsonDocument>

namespace hako::memory {

Result<MemoryRecord> MemoryStore::update(const MemoryRecord& record, const ChangeContext& ctx)
{
    const auto lock = d->lockForChange("change a memory");
    if (!lock)
        return lock.error();
    auto before = d->read(record.id, true);
    if (!before)
        return before.error();
    if (record.importance < 1 || record.importance > 10)
        return makeError(
            QStringLiteral("importance must be between 1 and 10, got %1").arg(record.importance));
    if (record.text.trimmed().isEmpty())
        return makeError(QStringLiteral("a memory needs text"));
    if (auto ok = d->acceptEmbedding(record.embeddingModel, record.embedding); !ok)
        return ok.error();
    MemoryRecord after = *before;
    after.agent = record.agent.isEmpty() ? before->agent : record.agent;
    after.kind = record.kind;
    after.text = record.text;
    after.importance = record.importance;
    after.importanceSource = record.importanceSource;
    after.embeddingModel = record.embeddingModel;
    after.embedding = record.embedding;
    after.evidence = record.evidence;
    after.source = record.source;
    after.version = before->version + 1;
    SqliteTransaction tx(d->db);
    if (auto w = d->writeRow(after); !w)
        return w.error();
    if (auto j = d->journal(QStringLiteral("update"), after.id, ctx, journalJson(*before),
                            journalJson(after));
        !j)
        return j.error();
    if (auto c = tx.commit(); !c)
        return c.error();
    d->cache(after);
    return after;
}

Result<int> MemoryStore::setState(const std::vector<int64_t>& ids, State state,
                                  const ChangeContext& ctx)
{
    const auto lock = d->lockForChange("change the state of memories");
    if (!lock)
        return lock.error();
    SqliteTransaction tx(d->db);
    std::vector<MemoryRecord> changed;
    for (int64_t id : ids) {
        auto before = d->read(id, true);
        if (!before)
            return before.error();
        if (before->state == state)
            continue;
        MemoryRecord after = *before;
        after.state = state;
        after.version = before->version + 1;
        if (auto w = d->writeRow(after); !w)
            return w.error();
        QJsonObject b{{QStringLiteral("state"), stateName(before->state)},
                      {QStringLiteral("version"), qint64(before->version)}};
        QJsonObject a{{QStringLiteral("state"), stateName(after.state)},
                      {QStringLiteral("version"), qint64(after.version)}};
        const QString op =
            state == State::Deleted ? QStringLiteral("delete") : QStringLiteral("state");
        if (auto j = d->journal(op, id, ctx, b, a); !j)
            return j.error();
        changed.push_back(std::move(after));
    }
    if (auto c = tx.commit(); !c)
        return c.error();
    for (const MemoryRecord& r : changed)
        d->cache(r);
    return int(changed.size());
}

Result<MemoryRecord> MemoryStore::revert(int64_t memoryId, int64_t seq, const ChangeContext& ctx)
{
    if (auto refused = d->refuseWrite("revert a memory"))
        return *refused;
    QJsonObject target;
    {
        std::lock_guard lock(d->mutex);
        SqliteStatement q(d->db, "SELECT memory_id, op, before FROM journal WHERE seq = ?");
        q.bind(1, seq);
        if (!q.step())
            return makeError(QStringLiteral("no journal entry %1").arg(seq));
        if (q.int64(0) != memoryId)
            return makeError(
                QStringLiteral("journal entry %1 is not about memory %2").arg(seq).arg(memoryId));
        if (q.isNull(2))
            return makeError(QStringLiteral("journal entry %1 (%2) has no earlier version to "
                                            "restore")
                                 .arg(seq)
                                 .arg(q.text(1)));
        target = QJsonDocument::fromJson(q.text(2).toUtf8()).object();
    }
    auto current = get(memoryId, true);
    if (!current)
        return current.error();
    // A state change journals only the state; a content update journals the whole record.
    if (!target.contains(QStringLiteral("text"))) {
        const auto s = stateFromName(target.value(QStringLiteral("state")).toString());
        if (!s)
            return makeError(QStringLiteral("journal entry %1 cannot be reverted").arg(seq));
        ChangeContext c = ctx;
        if (c.reason.isEmpty())
            c.reason = QStringLiteral("revert of journal entry %1").arg(seq);
        if (auto r = setState({memoryId}, *s, c); !r)
            return r.error();
        return get(memoryId);
    }
    QString error;
    auto old = recordFromJournal(target, &error);
    if (!old)
        return makeError(QStringLiteral("journal entry %1: %2").arg(seq).arg(error));
    old->id = memoryId;
    ChangeContext c = ctx;
    if (c.reason.isEmpty())
        c.reason = QStringLiteral("revert to the version before journal entry %1").arg(seq);
    return update(*old, c);
}

Result<int64_t> MemoryStore::merge(const std::vector<int64_t>& ids, MemoryRecord merged,
                                   const ChangeContext& ctx)
{
    if (ids.empty())
        return makeError(QStringLiteral("nothing to merge"));
    const auto lock = d->lockForChange("merge memories");
    if (!lock)
        return lock.error();
    SqliteTransaction tx(d->db);
    merged.evidence = ids;
    auto id = d->insert(merged);
    if (!id)
        return id.error();
    QJsonObject before;
    QJsonArray from;
    for (int64_t i : ids)
        from.append(qint64(i));
    before[QStringLiteral("merged")] = from;
    if (auto j = d->journal(QStringLiteral("merge"), merged.id, ctx, before, merged.toJson()); !j)
        return j.error();
    std::vector<MemoryRecord> archived;
    for (int64_t i : ids) {
        auto r = d->read(i, true);
        if (!r)
            return r.error();
        MemoryRecord a = *r;
        a.state = State::Archived;
        a.version += 1;
        if (auto w = d->writeRow(a); !w)
            return w.error();
        ChangeContext c = ctx;
        c.reason = QStringLiteral("merged into memory %1").arg(merged.id);
        if (auto j = d->journal(QStringLiteral("state"), i, c,
                                {{QStringLiteral("state"), stateName(r->state)},
                                 {QStringLiteral("version"), qint64(r->version)}},
                                {{QStringLiteral("state"), stateName(a.state)},
                                 {QStringLiteral("version"), qint64(a.version)}});
            !j)
            return j.error();
        archived.push_back(std::move(a));
    }
    if (auto c = tx.commit(); !c)
        return c.error();
    d->cache(merged);
    for (const MemoryRecord& a : archived)
        d->cache(a);
    return merged.id;
}

} // namespace hako::memory
