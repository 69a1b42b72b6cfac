#pragma once

// What the SQLite and PostgreSQL backends share: the filter's WHERE clause (one builder, two
// dialects, so that both answer the same), the columns a call is read from and its decoding.
#include "core/promptlog/callquery.h"
#include "core/promptlog/callrecord.h"
#include "core/util/diagnostic.h"

#include <QByteArray>
#include <QHash>
#include <QString>

#include <cstdint>
#include <functional>
#include <optional>
#include <variant>
#include <vector>

namespace hako::promptlog {

enum class Dialect { Sqlite, Postgres };

/// A bound value; std::monostate is SQL NULL.
using SqlValue = std::variant<int64_t, QString, double, std::monostate>;

struct SqlWhere {
    QString clause; ///< " WHERE …" or empty
    std::vector<SqlValue> binds;
};

/// SQLite: the FTS5 MATCH expression finding a search term of fewer than three characters
/// (which trigrams cannot hold) — the OR of the indexed trigrams starting with it —, an empty
/// string when there are none, or nothing to have the rows' text scanned instead.
using ShortTermMatch = std::function<std::optional<QString>(const QString& term)>;

/// SQLite: how many calls an FTS5 MATCH expression gives as candidates.
using CandidateCount = std::function<int64_t(const QString& match)>;

/// The WHERE clause selecting `filter`'s calls from `calls c`. `firstBind` numbers PostgreSQL's
/// $n placeholders (SQLite uses ?NNN likewise). With `candidates`, a listing with a limit reads
/// the calls in its order when a search term has many candidates (and stops at the limit).
SqlWhere buildWhere(const CallFilter& filter, Dialect dialect, int firstBind = 1,
                    const ShortTermMatch& shortTerm = {}, const CandidateCount& candidates = {});
/// " ORDER BY … LIMIT … OFFSET …" for a listing.
QString orderAndLimit(const CallFilter& filter, Dialect dialect);

class SqlRow;

/// `filter` narrowed to the calls that started within `range`.
CallFilter seriesFilter(CallFilter filter, const SeriesRange& range);
/// The query behind LogBackend::series() over `where` (built from seriesFilter()): rows of
/// (key, bucket, calls, ok calls, tokens, latency sum, latencies). The range's numbers are
/// written into the text (they are integers of ours), so the binds are the WHERE clause's.
QString seriesSql(std::optional<StatsGroup> group, const QString& whereClause,
                  const SeriesRange& range, Dialect dialect);
/// Collects seriesQuery() rows into one TimeSeries per key, in order of first appearance.
class SeriesCollector {
public:
    explicit SeriesCollector(const SeriesRange& range) : m_range(range) {}
    void add(const SqlRow& row);
    QList<TimeSeries> take();

private:
    SeriesRange m_range;
    QList<TimeSeries> m_series;
    QHash<QString, qsizetype> m_index;
};

/// The columns of a listing (`calls c`), then with content those of `call_content t`.
QString callColumns(bool withContent);
/// "SELECT <callColumns()> FROM calls c", with content joined from `call_content t`: the start
/// of every query that reads calls for decodeCall().
QString callSelect(bool withContent);
inline constexpr int kContentColumn = 34;

/// The SQL expression (over `calls c`) of a group's key for the prompt, program, version and
/// model groups (the day and tag groups are each backend's own); see StatsGroup.
QString groupKeySql(StatsGroup group);
/// A group's key over `calls c` for a query that groups in SQL, every group (the day in UTC,
/// one row per tag), and the join the key reads (empty, or " LEFT JOIN call_tags g …").
struct SqlGroupBy {
    QString key;
    QString join;
};
SqlGroupBy groupBySql(StatsGroup group, Dialect dialect);
/// The SQL expression of what a person calls a group's call (StatsRow::name), `''` for none.
QString groupNameSql(StatsGroup group);

/// A result row, whichever the backend.
class SqlRow {
public:
    virtual ~SqlRow() = default;
    virtual bool isNull(int col) const = 0;
    virtual int64_t int64(int col) const = 0;
    virtual double real(int col) const = 0;
    virtual QString text(int col) const = 0;
};
CallRecord decodeCall(const SqlRow& row, bool withContent);

/// One query of LogBackend::find(): the calls (with content) of `where` with its one value.
struct SqlLookup {
    QString sql;
    SqlValue value;
};
/// The queries behind LogBackend::find(), to be tried in order until one gives a call: the
/// call of that sequence number (when `idOrUid` is one), of that uid, then of that uid prefix
/// (8 characters or more; at most 2 rows, so that an ambiguous prefix shows as two).
std::vector<SqlLookup> findLookups(const QString& idOrUid, Dialect dialect);
/// The query behind LogBackend::tags(): rows of (tag, calls), most used first, at most `limit`.
QString tagCountsSql(int limit);
/// The error of a store whose schema `version` is newer than this build knows; `where` names
/// it (a file, or a URL without its password).
Diagnostic newerSchemaError(const QString& where, int version);

/// JSON values as the store keeps them (compact text; empty for an empty value).
QByteArray jsonText(const QJsonObject& o);
QByteArray jsonText(const QJsonArray& a);
QString tagsText(const QStringList& tags);

} // namespace hako::promptlog
