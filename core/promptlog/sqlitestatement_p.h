#pragma once

// One prepared SQLite statement, read as a SqlRow: what the SQLite log and its salvage both
// read calls through, so that a column decodes the same whichever of them reads it.
#include "core/promptlog/sqlshared_p.h"

#include <QByteArray>
#include <QString>

#include <sqlite3.h>

#include <cstdint>
#include <optional>
#include <vector>

namespace hako::promptlog {

/// A statement prepared on `db` (which must outlive it), with binding, stepping and column
/// reading. valid() is false when `sql` did not prepare. Not thread-safe: one connection's
/// thread uses it.
class SqliteStatement : public SqlRow {
public:
    SqliteStatement(sqlite3* db, const QString& sql)
    {
        const QByteArray s = sql.toUtf8();
        if (sqlite3_prepare_v2(db, s.constData(), int(s.size()), &m_stmt, nullptr) != SQLITE_OK)
            m_stmt = nullptr;
    }
    ~SqliteStatement() override { sqlite3_finalize(m_stmt); }
    SqliteStatement(const SqliteStatement&) = delete;
    SqliteStatement& operator=(const SqliteStatement&) = delete;

    bool valid() const { return m_stmt; }
    /// Back to before the first step, with no values bound.
    void reset()
    {
        sqlite3_reset(m_stmt);
        sqlite3_clear_bindings(m_stmt);
    }
    void bind(int i, int64_t v) { sqlite3_bind_int64(m_stmt, i, v); }
    void bind(int i, const QByteArray& utf8)
    {
        sqlite3_bind_text(m_stmt, i, utf8.constData(), int(utf8.size()), SQLITE_TRANSIENT);
    }
    void bind(int i, const QString& v)
    {
        // Most columns are empty or short ASCII (ids, names, a status): copied as they are,
        // without making a UTF-8 copy first (SQLite keeps its own).
        constexpr qsizetype kShort = 256;
        if (v.size() <= kShort) {
            char ascii[kShort];
            const char16_t* from = reinterpret_cast<const char16_t*>(v.constData());
            qsizetype n = 0;
            while (n < v.size() && from[n] < 0x80) {
                ascii[n] = char(from[n]);
                ++n;
            }
            if (n == v.size()) {
                sqlite3_bind_text(m_stmt, i, ascii, int(n), SQLITE_TRANSIENT);
                return;
            }
        }
        bind(i, v.toUtf8());
    }
    /// Binds `utf8` without SQLite copying it: it must stay as it is until the statement has
    /// been stepped (and is bound again before the next step).
    void bindStatic(int i, const QByteArray& utf8)
    {
        sqlite3_bind_text(m_stmt, i, utf8.constData(), int(utf8.size()), SQLITE_STATIC);
    }
    void bindOpt(int i, const std::optional<int64_t>& v)
    {
        if (v)
            bind(i, *v);
        else
            sqlite3_bind_null(m_stmt, i);
    }
    void bindOpt(int i, const std::optional<double>& v)
    {
        if (v)
            sqlite3_bind_double(m_stmt, i, *v);
        else
            sqlite3_bind_null(m_stmt, i);
    }
    /// `values` as ?1, ?2, … in order.
    void bindAll(const std::vector<SqlValue>& values)
    {
        for (size_t i = 0; i < values.size(); ++i) {
            if (const auto* n = std::get_if<int64_t>(&values[i]))
                bind(int(i) + 1, *n);
            else if (const auto* d = std::get_if<double>(&values[i]))
                sqlite3_bind_double(m_stmt, int(i) + 1, *d);
            else if (const auto* t = std::get_if<QString>(&values[i]))
                bind(int(i) + 1, *t);
            else
                sqlite3_bind_null(m_stmt, int(i) + 1);
        }
    }
    /// A row is ready; false when done or failed (see failed()).
    bool step()
    {
        m_rc = sqlite3_step(m_stmt);
        return m_rc == SQLITE_ROW;
    }
    /// Runs a statement that gives no rows to read, and resets it; false when it failed.
    bool run()
    {
        step();
        const bool ok = m_rc == SQLITE_DONE || m_rc == SQLITE_ROW;
        sqlite3_reset(m_stmt);
        return ok;
    }
    /// The last step() neither gave a row nor finished.
    bool failed() const { return m_rc != SQLITE_ROW && m_rc != SQLITE_DONE; }

    bool isNull(int col) const override { return sqlite3_column_type(m_stmt, col) == SQLITE_NULL; }
    int64_t int64(int col) const override { return sqlite3_column_int64(m_stmt, col); }
    double real(int col) const override { return sqlite3_column_double(m_stmt, col); }
    QString text(int col) const override
    {
        const auto* p = reinterpret_cast<const char*>(sqlite3_column_text(m_stmt, col));
        return p ? QString::fromUtf8(p, sqlite3_column_bytes(m_stmt, col)) : QString();
    }
    /// The column's UTF-8 bytes without a copy: valid until the next step or reset.
    QByteArray raw(int col) const
    {
        const auto* p = reinterpret_cast<const char*>(sqlite3_column_text(m_stmt, col));
        return p ? QByteArray::fromRawData(p, sqlite3_column_bytes(m_stmt, col)) : QByteArray();
    }

private:
    sqlite3_stmt* m_stmt = nullptr;
    int m_rc = SQLITE_OK;
};

} // namespace hako::promptlog
