#pragma once

// The storage behind EvalStore: one connection to one store (a SQLite file or a PostgreSQL
// database) with the same tables and the same answers. The statements themselves are shared
// (evalstore.cpp, written in the SQL both engines speak); each backend keeps its connection,
// its schema migrations and its way of serialising writers. Not thread-safe: EvalStore
// serialises every call on its own mutex.
#include "core/util/diagnostic.h"

#include <QList>
#include <QString>
#include <QStringList>

#include <cstdint>
#include <memory>
#include <variant>
#include <vector>

namespace hako::eval {

/// The schema version this build writes (both engines); a store of a newer version is refused.
/// 1: datasets, versions, examples, experiments, results. 2: the prompt under test
/// (experiments.prompt_id, prompt_name, prompt_commit, prompt_version).
inline constexpr int kStoreSchemaVersion = 2;

/// The error of a store at `location` whose schema `version` is newer than kStoreSchemaVersion
/// (both engines refuse it alike).
inline Diagnostic newerStoreError(const QString& location, int version)
{
    return makeError(QStringLiteral("eval store %1 was written by a newer Hako (schema %2)")
                         .arg(location)
                         .arg(version));
}

using SqlArg = std::variant<int64_t, QString>;

/// A statement's answer: its rows as text (NULL reads as ""), and how many rows an INSERT,
/// UPDATE or DELETE changed.
struct SqlRows {
    QList<QStringList> rows;
    int64_t changed = 0;

    bool isEmpty() const { return rows.isEmpty(); }
    qsizetype size() const { return rows.size(); }
    QString text(qsizetype row, int col) const { return rows.at(row).value(col); }
    int64_t int64(qsizetype row, int col) const { return rows.at(row).value(col).toLongLong(); }
};

class StoreBackend {
public:
    virtual ~StoreBackend() = default;

    /// Connects, creating the store or upgrading its schema to kStoreSchemaVersion (one process
    /// at a time; the others wait and find it done).
    virtual Result<bool> open() = 0;
    /// Runs one statement; `?` placeholders take `args` in order. Errors name the store.
    virtual Result<SqlRows> run(const char* sql, const std::vector<SqlArg>& args = {}) = 0;
    /// Starts a write transaction that writers of other processes wait for.
    virtual Result<bool> begin() = 0;
    virtual Result<bool> commit() = 0;
    virtual void rollback() = 0;
    /// The file, or the URL without its password: what messages name.
    virtual QString location() const = 0;
    /// An expression over `experiments` that orders experiments started in the same
    /// millisecond as they were created.
    virtual const char* creationOrder() const = 0;
};

/// A SQLite file (WAL), created private (0600) with its folder when missing.
std::unique_ptr<StoreBackend> makeSqliteStoreBackend(const QString& path);
/// A PostgreSQL database given as a libpq URL (`postgresql://user@host:port/db`).
std::unique_ptr<StoreBackend> makePostgresStoreBackend(const QString& url);

} // namespace hako::eval
