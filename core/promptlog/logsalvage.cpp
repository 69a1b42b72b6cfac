#include "core/promptlog/logsalvage.h"

#include "core/promptlog/logbackend_p.h"
#include "core/promptlog/sqlitestatement_p.h"

#include <QDateTime>
#include <QFileInfo>
#include <QStringList>

#include <sqlite3.h>

#include <algorithm>
#include <memory>
#include <optional>
#include <vector>

namespace hako::promptlog {

namespace {

// The row of call `id` in `s` (a statement taking the id as ?1): true with a row, false with
// none; s.failed() when it could not be read.
bool rowOf(SqliteStatement& s, int64_t id)
{
    s.reset();
    s.bind(1, id);
    return s.step();
}

// The highest call number in the file. max(id) reads the rightmost page only; when that one is
// damaged, a scan gives the highest it reaches.
std::optional<int64_t> lastCallId(sqlite3* db)
{
    {
        SqliteStatement max(db, QStringLiteral("SELECT max(id) FROM calls"));
        if (max.valid() && max.step() && !max.isNull(0))
            return max.int64(0);
    }
    SqliteStatement scan(db, QStringLiteral("SELECT id FROM calls"));
    if (!scan.valid())
        return std::nullopt;
    std::optional<int64_t> last;
    while (scan.step())
        last = std::max(last.value_or(0), scan.int64(0));
    return last;
}

} // namespace

Diagnostic damagedLog(const QString& path, const QString& problems)
{
    return makeError(
        QStringLiteral("the prompt log %1 is damaged (%2): nothing more is written to it. Copy "
                       "what can be read into a new log with `hako log salvage --log %1 "
                       "NEW.sqlite`, then put NEW.sqlite in its place (or name it with --log)")
            .arg(path, problems));
}

std::optional<Diagnostic> checkSqliteLog(sqlite3* db, const QString& path)
{
    QStringList problems;
    sqlite3_stmt* check = nullptr;
    int rc = sqlite3_prepare_v2(db, "PRAGMA quick_check(5)", -1, &check, nullptr);
    if (rc == SQLITE_OK) {
        while ((rc = sqlite3_step(check)) == SQLITE_ROW) {
            const auto* text = reinterpret_cast<const char*>(sqlite3_column_text(check, 0));
            if (text && qstrcmp(text, "ok") != 0)
                problems.append(QString::fromUtf8(text));
        }
    }
    sqlite3_finalize(check);
    if (rc != SQLITE_DONE) {
        const int code = sqlite3_errcode(db);
        // Busy or out of memory says nothing about the file: let the write find out.
        if (code != SQLITE_CORRUPT && code != SQLITE_NOTADB)
            return std::nullopt;
        problems.append(QString::fromUtf8(sqlite3_errmsg(db)));
    }
    if (problems.isEmpty())
        return std::nullopt;
    return damagedLog(path, problems.join(QStringLiteral("; ")));
}

std::optional<Diagnostic> checkSqliteLogBeforeWriting(sqlite3* db, const QString& path)
{
    // A check reads the whole file (about 2 s for 900 MB): a large log is checked once a day,
    // a small one every time. The time of the last clean check is kept in the log itself.
    constexpr qint64 kAlwaysCheckBytes = 128 * 1024 * 1024;
    constexpr qint64 kCheckIntervalMs = 24 * 3600 * 1000;
    const qint64 now = QDateTime::currentMSecsSinceEpoch();
    if (QFileInfo(path).size() > kAlwaysCheckBytes) {
        sqlite3_stmt* last = nullptr;
        qint64 checkedAt = 0;
        if (sqlite3_prepare_v2(db, "SELECT value FROM meta WHERE key = 'checked_at'", -1, &last,
                               nullptr) == SQLITE_OK &&
            sqlite3_step(last) == SQLITE_ROW)
            checkedAt = sqlite3_column_int64(last, 0);
        sqlite3_finalize(last);
        if (checkedAt > now - kCheckIntervalMs && checkedAt <= now)
            return std::nullopt;
    }
    if (std::optional<Diagnostic> damaged = checkSqliteLog(db, path))
        return damaged;
    const QByteArray note = "INSERT OR REPLACE INTO meta(key, value) VALUES ('checked_at', '" +
                            QByteArray::number(now) + "')";
    sqlite3_exec(db, note.constData(), nullptr, nullptr, nullptr);
    return std::nullopt;
}

Result<SalvageReport> LogSalvage::salvage(const QString& damaged, const QString& out)
{
    if (!QFileInfo(damaged).isFile())
        return makeError(QStringLiteral("there is no prompt log file at %1").arg(damaged));
    if (QFileInfo::exists(out))
        return makeError(QStringLiteral("%1 exists: salvage writes a new log, give a new file "
                                        "name")
                             .arg(out));
    QString openError;
    std::unique_ptr<sqlite3, decltype(&sqlite3_close_v2)> db(
        openSqliteReadOnly(damaged, &openError), &sqlite3_close_v2);
    if (!db)
        return makeError(QStringLiteral("cannot open %1: %2").arg(damaged, openError));
    const std::optional<int64_t> last = lastCallId(db.get());
    if (!last)
        return makeError(QStringLiteral("no call of %1 can be read (%2)")
                             .arg(damaged, QString::fromUtf8(sqlite3_errmsg(db.get()))));
    SqliteStatement whole(db.get(), callSelect(true) + QStringLiteral(" WHERE c.id = ?1"));
    SqliteStatement bare(db.get(), callSelect(false) + QStringLiteral(" WHERE c.id = ?1"));
    if (!whole.valid() || !bare.valid())
        return makeError(QStringLiteral("%1 is not a prompt log of this version (%2)")
                             .arg(damaged, QString::fromUtf8(sqlite3_errmsg(db.get()))));

    std::unique_ptr<LogBackend> target = makeSqliteBackend(out, 0);
    if (Result<bool> opened = target->connect(); !opened)
        return opened.error();
    SalvageReport report;
    std::vector<CallRecord> batch;
    auto write = [&]() -> std::optional<Diagnostic> {
        Result<int64_t> written = target->insert(batch);
        if (!written)
            return written.error();
        batch.clear();
        return std::nullopt;
    };
    // Call by call: a damaged page of the table costs the calls on it, not those after it.
    for (int64_t id = 1; id <= *last; ++id) {
        if (rowOf(whole, id)) {
            batch.push_back(decodeCall(whole, true));
        } else if (!whole.failed()) {
            continue; // no call of that number (deleted)
        } else if (rowOf(bare, id)) {
            batch.push_back(decodeCall(bare, false));
            ++report.withoutContent;
        } else {
            if (bare.failed())
                ++report.unreadable;
            continue;
        }
        ++report.copied;
        if (batch.size() >= 500)
            if (std::optional<Diagnostic> e = write())
                return *e;
    }
    if (!batch.empty())
        if (std::optional<Diagnostic> e = write())
            return *e;
    return report;
}

} // namespace hako::promptlog
