#include "core/memory/sqlitedb.h"

#include "core/util/outputfile.h"

#include <QUrl>

#include <sqlite3.h>

#include <string>
#include <utility>

namespace hako::memory {

SqliteStatement::SqliteStatement(SqliteDb& db, std::string_view sql) : m_db(&db)
{
    if (sqlite3_prepare_v3(db.handle(), sql.data(), int(sql.size()), SQLITE_PREPARE_PERSISTENT,
                           &m_stmt, nullptr) != SQLITE_OK) {
        m_stmt = nullptr;
        m_ok = false;
    }
}

SqliteStatement::~SqliteStatement()
{
    if (m_stmt)
        sqlite3_finalize(m_stmt);
}

SqliteStatement::SqliteStatement(SqliteStatement&& other) noexcept
    : m_db(other.m_db), m_stmt(std::exchange(other.m_stmt, nullptr)), m_ok(other.m_ok)
{}

SqliteStatement& SqliteStatement::operator=(SqliteStatement&& other) noexcept
{
    if (this != &other) {
        if (m_stmt)
            sqlite3_finalize(m_stmt);
        m_db = other.m_db;
        m_stmt = std::exchange(other.m_stmt, nullptr);
        m_ok = other.m_ok;
    }
    return *this;
}

void SqliteStatement::reset()
{
    if (!m_stmt)
        return;
    sqlite3_reset(m_stmt);
    sqlite3_clear_bindings(m_stmt);
    m_ok = true;
}

void SqliteStatement::bind(int index, int64_t v)
{
    sqlite3_bind_int64(m_stmt, index, v);
}

void SqliteStatement::bind(int index, double v)
{
    sqlite3_bind_double(m_stmt, index, v);
}

void SqliteStatement::bind(int index, const QString& v)
{
    if (v.isNull())
        sqlite3_bind_null(m_stmt, index);
    else
        bindText(index, v.toUtf8());
}

void SqliteStatement::bindText(int index, const QByteArray& utf8)
{
    sqlite3_bind_text(m_stmt, index, utf8.constData(), int(utf8.size()), SQLITE_TRANSIENT);
}

void SqliteStatement::bindBlob(int index, const void* data, int bytes)
{
    sqlite3_bind_blob(m_stmt, index, bytes ? data : "", bytes, SQLITE_TRANSIENT);
}

void SqliteStatement::bindNull(int index)
{
    sqlite3_bind_null(m_stmt, index);
}

bool SqliteStatement::step()
{
    if (!m_stmt) {
        m_ok = false;
        return false;
    }
    const int rc = sqlite3_step(m_stmt);
    if (rc == SQLITE_ROW)
        return true;
    m_ok = rc == SQLITE_DONE;
    return false;
}

bool SqliteStatement::exec()
{
    step();
    const bool good = m_ok;
    if (m_stmt)
        sqlite3_reset(m_stmt);
    return good;
}

int64_t SqliteStatement::int64(int col) const
{
    return sqlite3_column_int64(m_stmt, col);
}

double SqliteStatement::real(int col) const
{
    return sqlite3_column_double(m_stmt, col);
}

QString SqliteStatement::text(int col) const
{
    const auto* p = reinterpret_cast<const char*>(sqlite3_column_text(m_stmt, col));
    if (!p)
        return {};
    return QString::fromUtf8(p, sqlite3_column_bytes(m_stmt, col));
}

bool SqliteStatement::isNull(int col) const
{
    return sqlite3_column_type(m_stmt, col) == SQLITE_NULL;
}

const void* SqliteStatement::blob(int col) const
{
    return sqlite3_column_blob(m_stmt, col);
}

int SqliteStatement::bytes(int col) const
{
    return sqlite3_column_bytes(m_stmt, col);
}

SqliteDb::~SqliteDb()
{
    close();
}

Result<bool> SqliteDb::open(const QString& path, Mode mode)
{
    close();
    int flags = SQLITE_OPEN_NOMUTEX;
    QByteArray p = path.toUtf8();
    switch (mode) {
    case Mode::Create: {
        // Private from the first byte: SQLite gives -wal and -shm the database's permissions.
        // A store in a folder that does not exist is an error, as it always was.
        QString why;
        if (!createPrivateFile(path, &why, false))
            return makeError(QStringLiteral("cannot create memory store %1: %2").arg(path, why));
        flags |= SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE;
        break;
    }
    case Mode::Existing:
        flags |= SQLITE_OPEN_READWRITE;
        break;
    case Mode::ReadOnly:
        flags |= SQLITE_OPEN_READONLY;
        break;
    case Mode::Immutable: {
        flags |= SQLITE_OPEN_READONLY | SQLITE_OPEN_URI;
        // A URI: the path's own '?', '#' and '%' must not be read as URI syntax.
        QByteArray escaped = QUrl::toPercentEncoding(QString::fromUtf8(p), "/");
        p = "file:" + escaped + "?immutable=1";
        break;
    }
    }
    if (sqlite3_open_v2(p.constData(), &m_db, flags, nullptr) != SQLITE_OK) {
        const QString reason =
            m_db ? QString::fromUtf8(sqlite3_errmsg(m_db)) : QStringLiteral("out of memory");
        close();
        return makeError(QStringLiteral("cannot open memory store %1: %2").arg(path, reason));
    }
    sqlite3_busy_timeout(m_db, 5000);
    sqlite3_extended_result_codes(m_db, 1);
    return true;
}

void SqliteDb::close()
{
    if (m_db) {
        sqlite3_close_v2(m_db);
        m_db = nullptr;
    }
}

Result<bool> SqliteDb::exec(std::string_view sql)
{
    char* err = nullptr;
    const std::string s(sql);
    if (sqlite3_exec(m_db, s.c_str(), nullptr, nullptr, &err) != SQLITE_OK) {
        const QString message =
            QStringLiteral("SQLite: %1").arg(QString::fromUtf8(err ? err : "?"));
        sqlite3_free(err);
        return makeError(message);
    }
    return true;
}

QString SqliteDb::lastError() const
{
    return QStringLiteral("SQLite: %1").arg(QString::fromUtf8(sqlite3_errmsg(m_db)));
}

int64_t SqliteDb::lastInsertRowId() const
{
    return sqlite3_last_insert_rowid(m_db);
}

SqliteTransaction::SqliteTransaction(SqliteDb& db) : m_db(db)
{
    m_begun = db.exec("BEGIN IMMEDIATE").ok();
}

SqliteTransaction::~SqliteTransaction()
{
    if (m_begun && !m_done)
        m_db.exec("ROLLBACK");
}

Result<bool> SqliteTransaction::commit()
{
    m_done = true;
    if (!m_begun)
        return makeError(m_db.lastError());
    auto r = m_db.exec("COMMIT");
    if (!r)
        m_db.exec("ROLLBACK");
    return r;
}

} // namespace hako::memory
