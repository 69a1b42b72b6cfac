#pragma once

#include <QJsonObject>
#include <QString>
#include <QStringList>

#include <cstdint>
#include <optional>
#include <vector>

namespace hako::memory {

/// What a memory is: something seen, a fact drawn from a thread, a higher-level conclusion,
/// a chat turn, or a summary of other memories.
enum class Kind : uint8_t { Observation, Insight, Reflection, Chat, Summary };
/// Lifecycle: only active memories are retrieval candidates; deleted ones stay in the file
/// (their history is in the journal) but are hidden by default.
enum class State : uint8_t { Active, Archived, Deleted };
/// Where an importance value came from.
enum class ImportanceSource : uint8_t { Model, Manual, Default };
/// Who made a change recorded in the journal.
enum class Actor : uint8_t { Agent, User, System };

QString kindName(Kind k);
std::optional<Kind> kindFromName(const QString& name);
QString stateName(State s);
std::optional<State> stateFromName(const QString& name);
QString importanceSourceName(ImportanceSource s);
std::optional<ImportanceSource> importanceSourceFromName(const QString& name);
QString actorName(Actor a);
std::optional<Actor> actorFromName(const QString& name);

/// Milliseconds since the Unix epoch (UTC), the store's time unit.
using Millis = int64_t;
/// `2024-05-01T10:00:00Z` (milliseconds shown only when not zero).
QString formatTime(Millis ms);
/// Parses ISO-8601 (`2024-05-01`, `2024-05-01T10:00`, `…:00Z`, `…+02:00`, `2024-05-01 10:00:00`);
/// a time without an offset is UTC. nullopt when it does not parse.
std::optional<Millis> parseTime(const QString& text);
Millis nowMillis();

/// Where a memory came from: the thread and messages it was drawn from and the run/trace node
/// that created it. All optional.
struct MemorySource {
    QString threadId;
    QStringList messageIds;
    QString runId;
    QString nodeId;

    bool isEmpty() const
    {
        return threadId.isEmpty() && messageIds.isEmpty() && runId.isEmpty() && nodeId.isEmpty();
    }
    bool operator==(const MemorySource&) const = default;
};

/// One memory as stored. `embedding` is empty when the memory has none; `embeddingModel` and
/// the vector's size say which model produced it. A plain value: copy freely between threads.
struct MemoryRecord {
    int64_t id = 0; ///< assigned by the store (> 0)
    QString agent = QStringLiteral("default");
    Kind kind = Kind::Observation;
    QString text;
    Millis createdAt = 0;
    Millis lastAccessedAt = 0;
    int64_t accessCount = 0;
    int importance = 5; ///< 1–10
    ImportanceSource importanceSource = ImportanceSource::Default;
    QString embeddingModel;
    std::vector<float> embedding;
    std::vector<int64_t> evidence; ///< ids of the memories an insight/reflection was drawn from
    MemorySource source;
    State state = State::Active;
    int64_t version = 1;

    /// The record as JSON (what the journal stores as before/after and what export writes).
    /// The vector is included only when `withEmbedding`; model and dimension always are.
    QJsonObject toJson(bool withEmbedding = false) const;
    /// From toJson(); missing fields keep their defaults. Errors name the bad field.
    static std::optional<MemoryRecord> fromJson(const QJsonObject& o, QString* error = nullptr);
};

} // namespace hako::memory
