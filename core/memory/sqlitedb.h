#pragma once

#include "core/util/diagnostic.h"

#include <QByteArray>
#include <QString>

#include <cstdint>
#include <string_view>

struct sqlite3;
struct sqlite3_stmt;

namespace hako::memory {

class SqliteDb;

/// A prepared statement: bind by 1-based index, step, read columns. Not thread-safe; used under
/// the owner's lock. Resets itself when rebound, so one can be reused in a loop.
class SqliteStatement {
public:
    SqliteStatement() = default;
    SqliteStatement(SqliteDb& db, std::string_view sql);
    ~SqliteStatement();
    SqliteStatement(const SqliteStatement&) = delete;
    SqliteStatement& operator=(const SqliteStatement&) = delete;
    SqliteStatement(SqliteStatement&& other) noexcept;
    SqliteStatement& operator=(SqliteStatement&& other) noexcept;

    bool isValid() const { return m_stmt != nullptr; }
    /// Clears bindings and rewinds.
    void reset();
    void bind(int index, int64_t v);
    void bind(int index, double v);
    void bind(int index, const QString& v); ///< a null QString binds NULL
    void bindText(int index, const QByteArray& utf8);
    void bindBlob(int index, const void* data, int bytes);
    void bindNull(int index);

    /// Advances: true when a row is available, false when done or failed (see ok()).
    bool step();
    /// Runs a statement that returns no rows; false on error.
    bool exec();
    bool ok() const { return m_ok; }

    int64_t int64(int col) const;
    double real(int col) const;
    QString text(int col) const;
    bool isNull(int col) const;
    const void* blob(int col) const;
    int bytes(int col) const;

private:
    SqliteDb* m_db = nullptr;
    sqlite3_stmt* m_stmt = nullptr;
    bool m_ok = true;
};

/// One SQLite connection. The owner serialises access (MemoryStore holds a mutex).
class SqliteDb {
public:
    SqliteDb() = default;
    ~SqliteDb();
    SqliteDb(const SqliteDb&) = delete;
    SqliteDb& operator=(const SqliteDb&) = delete;

    enum class Mode {
        Create,   ///< read-write, creating a missing file
        Existing, ///< read-write, the file must exist
        ReadOnly, ///< read-only, the file must exist
        Immutable ///< read-only and never changed by anyone (no locks, no WAL index): for a
                  ///< file in a folder the user may only read
    };
    /// Opens the file; the error names the path and SQLite's reason.
    Result<bool> open(const QString& path, Mode mode);
    void close();
    sqlite3* handle() const { return m_db; }

    /// Runs one or more statements without results.
    Result<bool> exec(std::string_view sql);
    /// The last error as "SQLite: message".
    QString lastError() const;
    int64_t lastInsertRowId() const;

private:
    sqlite3* m_db = nullptr;
};

/// BEGIN IMMEDIATE … COMMIT, rolled back if not committed before destruction.
class SqliteTransaction {
public:
    explicit SqliteTransaction(SqliteDb& db);
    ~SqliteTransaction();
    bool begun() const { return m_begun; }
    Result<bool> commit();

private:
    SqliteDb& m_db;
    bool m_begun = false;
    bool m_done = false;
};

} // namespace hako::memory
