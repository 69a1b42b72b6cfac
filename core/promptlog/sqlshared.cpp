#include "core/promptlog/logbackend_p.h"
#include "core/promptlog/sqlshared_p.h"

#include <QJsonDocument>

#include <algorithm>

namespace hako::promptlog {

namespace {

// `*` is the filters' only wildcard: everything else matches itself.
QString globPattern(const QString& pattern)
{
    QString out;
    for (const QChar c : pattern) {
        if (c == QLatin1Char('?'))
            out += QLatin1String("[?]");
        else if (c == QLatin1Char('['))
            out += QLatin1String("[[]");
        else
            out += c;
    }
    return out;
}

QString likePattern(const QString& pattern)
{
    QString out;
    for (const QChar c : pattern) {
        if (c == QLatin1Char('*'))
            out += QLatin1Char('%');
        else if (c == QLatin1Char('%') || c == QLatin1Char('_') || c == QLatin1Char('\\'))
            out += QLatin1Char('\\') + c;
        else
            out += c;
    }
    return out;
}

// A LIKE pattern matching `text` itself (with ESCAPE '\').
QString likeLiteral(const QString& text)
{
    QString out;
    for (const QChar c : text) {
        if (c == QLatin1Char('%') || c == QLatin1Char('_') || c == QLatin1Char('\\'))
            out += QLatin1Char('\\');
        out += c;
    }
    return out;
}

// A GLOB pattern matching `text` itself.
QString globLiteral(const QString& text)
{
    QString out;
    for (const QChar c : text) {
        if (c == QLatin1Char('[') || c == QLatin1Char('*') || c == QLatin1Char('?'))
            out += QLatin1Char('[') + c + QLatin1Char(']');
        else
            out += c;
    }
    return out;
}

class Builder {
public:
    Builder(Dialect d, int firstBind) : m_dialect(d), m_next(firstBind) {}

    QString bind(SqlValue v)
    {
        m_where.binds.push_back(std::move(v));
        return m_dialect == Dialect::Postgres ? QStringLiteral("$%1").arg(m_next++)
                                              : QStringLiteral("?%1").arg(m_next++);
    }
    void add(const QString& condition) { m_conditions.append(condition); }

    void pattern(const char* column, const QString& value)
    {
        const QString col = QLatin1String(column);
        if (!value.contains(QLatin1Char('*')))
            add(QStringLiteral("%1 = %2").arg(col, bind(value)));
        else if (m_dialect == Dialect::Sqlite)
            add(QStringLiteral("%1 GLOB %2").arg(col, bind(globPattern(value))));
        else
            add(QStringLiteral("%1 LIKE %2 ESCAPE '\\'").arg(col, bind(likePattern(value))));
    }

    void term(const QString& term, const ShortTermMatch& shortTerm,
              const CandidateCount& candidates)
    {
        if (m_dialect == Dialect::Postgres) {
            add(QStringLiteral("EXISTS (SELECT 1 FROM call_content ft WHERE ft.id = c.id AND "
                               "strpos(lower(ft.body), lower(%1)) > 0)")
                    .arg(bind(term)));
            return;
        }
        // The index gives candidates — calls holding every trigram of a term of three
        // characters or more, or (shorter terms) one of the indexed trigrams starting with
        // it —, and each candidate's text is checked, only where the other filters and the
        // listing's order and limit need it.
        const QList<uint> points = term.toUcs4();
        std::optional<QString> match;
        if (points.size() >= 3) {
            QStringList trigrams;
            for (qsizetype i = 0; i + 3 <= points.size(); ++i) {
                QString t =
                    QString::fromUcs4(reinterpret_cast<const char32_t*>(points.constData() + i), 3);
                t.replace(QLatin1Char('"'), QLatin1String("\"\""));
                trigrams.append(QLatin1Char('"') + t + QLatin1Char('"'));
            }
            trigrams.removeDuplicates();
            match = trigrams.join(QLatin1String(" AND "));
        } else if (shortTerm) {
            match = shortTerm(term);
        }
        if (match && match->isEmpty()) {
            add(QStringLiteral("0"));
            return;
        }
        // Few candidates: the query starts from them. More, in a listing with a limit: the
        // calls are read in the listing's order (`+c.id` keeps SQLite from starting from the
        // set), looked up in the set, and a candidate's text is checked, so that the limit
        // stops the reading early. Very many: no set at all (building a set of a million
        // candidates costs more than checking the newest calls' text until the limit).
        if (match) {
            constexpr int64_t kFew = 2000;
            constexpr int64_t kVeryMany = 200000;
            const int64_t n = candidates ? candidates(*match) : 0;
            if (n <= kVeryMany)
                add(QStringLiteral("%1c.id IN (SELECT rowid FROM call_fts WHERE call_fts MATCH %2)")
                        .arg(n > kFew ? QStringLiteral("+") : QString(), bind(*match)));
        }
        // LIKE with ESCAPE: ASCII case ignored without copying the text, and never handed to
        // the index (which answers terms shorter than three characters with nothing).
        add(QStringLiteral("EXISTS (SELECT 1 FROM call_fts ft WHERE ft.rowid = c.id AND "
                           "ft.body LIKE %1 ESCAPE '\\')")
                .arg(bind(QLatin1Char('%') + likeLiteral(term) + QLatin1Char('%'))));
    }

    SqlWhere finish()
    {
        if (!m_conditions.isEmpty())
            m_where.clause = QStringLiteral(" WHERE ") + m_conditions.join(QLatin1String(" AND "));
        return std::move(m_where);
    }

private:
    Dialect m_dialect;
    int m_next;
    SqlWhere m_where;
    QStringList m_conditions;
};

} // namespace

SqlWhere buildWhere(const CallFilter& filter, Dialect dialect, int firstBind,
                    const ShortTermMatch& shortTerm, const CandidateCount& candidates)
{
    Builder b(dialect, firstBind);
    for (const QString& tag : filter.tags)
        b.add(QStringLiteral("c.id IN (SELECT call_id FROM call_tags WHERE tag = %1)")
                  .arg(b.bind(tag)));
    if (!filter.prompt.isEmpty())
        b.pattern("c.prompt", filter.prompt);
    if (!filter.model.isEmpty())
        b.pattern("c.model", filter.model);
    if (filter.status)
        b.add(QStringLiteral("c.status = %1").arg(b.bind(statusName(*filter.status))));
    if (filter.origin)
        b.add(QStringLiteral("c.origin = %1").arg(b.bind(originName(*filter.origin))));
    if (!filter.promptId.isEmpty())
        b.add(QStringLiteral("c.prompt_id = %1").arg(b.bind(filter.promptId)));
    if (!filter.programId.isEmpty())
        b.add(QStringLiteral("c.program_id = %1").arg(b.bind(filter.programId)));
    if (!filter.runId.isEmpty())
        b.add(QStringLiteral("c.run_id = %1").arg(b.bind(filter.runId)));
    if (!filter.traceNodeId.isEmpty())
        b.add(QStringLiteral("c.trace_node = %1").arg(b.bind(filter.traceNodeId)));
    if (filter.scored) {
        const QString scored =
            QStringLiteral("EXISTS (SELECT 1 FROM call_scores s WHERE s.call_uid = c.uid%1)");
        switch (*filter.scored) {
        case CallFilter::Scored::Any:
            b.add(scored.arg(QString()));
            break;
        case CallFilter::Scored::Passed:
            b.add(scored.arg(QStringLiteral(" AND s.passed = 1")) + QStringLiteral(" AND NOT ") +
                  scored.arg(QStringLiteral(" AND s.passed = 0")));
            break;
        case CallFilter::Scored::Failed:
            b.add(scored.arg(QStringLiteral(" AND s.passed = 0")));
            break;
        }
    }
    if (filter.since)
        b.add(QStringLiteral("c.started_at >= %1").arg(b.bind(*filter.since)));
    if (filter.until)
        b.add(QStringLiteral("c.started_at < %1").arg(b.bind(*filter.until)));
    if (filter.afterId > 0)
        b.add(QStringLiteral("c.id > %1").arg(b.bind(filter.afterId)));
    for (const QString& term : searchTerms(filter.text))
        b.term(term, shortTerm, filter.limit > 0 ? candidates : CandidateCount());
    return b.finish();
}

CallFilter seriesFilter(CallFilter filter, const SeriesRange& range)
{
    filter.since = std::max(filter.since.value_or(range.fromMs), range.fromMs);
    filter.until = std::min(filter.until.value_or(range.untilMs()), range.untilMs());
    filter.limit = 0;
    filter.offset = 0;
    filter.afterId = 0;
    return filter;
}

QString seriesSql(std::optional<StatsGroup> group, const QString& whereClause,
                  const SeriesRange& range, Dialect dialect)
{
    const SqlGroupBy by =
        group ? groupBySql(*group, dialect) : SqlGroupBy{QStringLiteral("''"), {}};
    const int64_t bucket = std::max<int64_t>(range.bucketMs, 1);
    // Integer division in both dialects (bigint / bigint).
    return QStringLiteral("SELECT %1 AS k, (c.started_at - %2) / %3 AS b, count(*), "
                          "sum(CASE WHEN c.status = 'ok' THEN 1 ELSE 0 END), "
                          "coalesce(sum(c.tokens_prompt), 0) + coalesce(sum(c.tokens_completion), "
                          "0), coalesce(sum(c.latency_ms), 0), count(c.latency_ms) "
                          "FROM calls c%4%5 GROUP BY k, b ORDER BY k, b")
        .arg(by.key)
        .arg(range.fromMs)
        .arg(bucket)
        .arg(by.join, whereClause);
}

void SeriesCollector::add(const SqlRow& row)
{
    const QString key = row.isNull(0) ? QString() : row.text(0);
    const int64_t b = row.int64(1);
    if (b < 0 || b >= m_range.buckets)
        return;
    auto it = m_index.find(key);
    if (it == m_index.end()) {
        it = m_index.insert(key, m_series.size());
        m_series.append(TimeSeries(key, m_range.buckets));
    }
    TimeSeries& s = m_series[*it];
    s.calls[size_t(b)] += row.int64(2);
    s.okCalls[size_t(b)] += row.int64(3);
    s.tokens[size_t(b)] += row.int64(4);
    s.latencySumMs[size_t(b)] += row.real(5);
    s.latencyCount[size_t(b)] += row.int64(6);
}

QList<TimeSeries> SeriesCollector::take()
{
    m_index.clear();
    return std::exchange(m_series, {});
}

QString orderAndLimit(const CallFilter& filter, Dialect dialect)
{
    QString sql = filter.oldestFirst ? QStringLiteral(" ORDER BY c.id ASC")
                                     : QStringLiteral(" ORDER BY c.started_at DESC, c.id DESC");
    if (filter.orderBy && !filter.oldestFirst) {
        using O = CallFilter::Order;
        const char* column = "c.started_at";
        switch (*filter.orderBy) {
        case O::Time:
            column = "c.started_at";
            break;
        case O::Prompt:
            column = "c.prompt";
            break;
        case O::Tags:
            column = "c.tags";
            break;
        case O::Model:
            column = "c.model";
            break;
        case O::TokensIn:
            column = "c.tokens_prompt";
            break;
        case O::TokensOut:
            column = "c.tokens_completion";
            break;
        case O::Cost:
            column = "c.cost";
            break;
        case O::Latency:
            column = "c.latency_ms";
            break;
        case O::Status:
            column = "c.status";
            break;
        }
        // Both dialects spell where missing values go (SQLite and PostgreSQL disagree by
        // default): below every present value.
        const bool desc = filter.descending;
        sql = QStringLiteral(" ORDER BY %1 %2, c.id %3")
                  .arg(QLatin1String(column),
                       desc ? QStringLiteral("DESC NULLS LAST") : QStringLiteral("ASC NULLS FIRST"),
                       desc ? QStringLiteral("DESC") : QStringLiteral("ASC"));
    }
    if (filter.limit > 0)
        sql += QStringLiteral(" LIMIT %1").arg(filter.limit);
    if (filter.offset > 0) {
        if (filter.limit <= 0 && dialect == Dialect::Sqlite)
            sql += QStringLiteral(" LIMIT -1");
        sql += QStringLiteral(" OFFSET %1").arg(filter.offset);
    }
    return sql;
}

QString groupKeySql(StatsGroup group)
{
    switch (group) {
    case StatsGroup::Prompt:
        return QStringLiteral("CASE WHEN c.prompt_id <> '' THEN c.prompt_id ELSE c.prompt END");
    case StatsGroup::Program:
        return QStringLiteral(
            "CASE WHEN c.program_id <> '' THEN c.program_id ELSE c.program_path END");
    case StatsGroup::Version:
        return QStringLiteral("CASE WHEN c.version <> '' THEN c.version ELSE c.program_hash END");
    case StatsGroup::Model:
        // The model that answered (CallRecord::answeredModel()).
        return QStringLiteral("CASE WHEN c.response_model <> '' THEN c.response_model "
                              "WHEN c.resolved_model <> '' THEN c.resolved_model ELSE c.model END");
    case StatsGroup::Tag:
    case StatsGroup::Day:
        break;
    }
    return QStringLiteral("''");
}

SqlGroupBy groupBySql(StatsGroup group, Dialect dialect)
{
    switch (group) {
    case StatsGroup::Prompt:
    case StatsGroup::Model:
    case StatsGroup::Version:
    case StatsGroup::Program:
        break;
    case StatsGroup::Day:
        return {dialect == Dialect::Sqlite
                    ? QStringLiteral("strftime('%Y-%m-%d', c.started_at / 1000, 'unixepoch')")
                    : QStringLiteral("to_char(to_timestamp(c.started_at / 1000.0) AT TIME ZONE "
                                     "'UTC', 'YYYY-MM-DD')"),
                {}};
    case StatsGroup::Tag:
        // A call with several tags counts once in each; one without any, under ''.
        return {QStringLiteral("coalesce(g.tag, '')"),
                QStringLiteral(" LEFT JOIN call_tags g ON g.call_id = c.id")};
    }
    return {groupKeySql(group), {}};
}

QString groupNameSql(StatsGroup group)
{
    switch (group) {
    case StatsGroup::Prompt:
        return QStringLiteral("CASE WHEN c.program_name <> '' THEN c.program_name || ' › ' || "
                              "c.prompt ELSE c.prompt END");
    case StatsGroup::Program:
    case StatsGroup::Version:
        return QStringLiteral("c.program_name");
    default:
        break;
    }
    return QStringLiteral("''");
}

QString callColumns(bool withContent)
{
    QString cols = QStringLiteral(
        "c.id, c.uid, c.run_id, c.program_path, c.program_hash, c.prompt, c.src_file, "
        "c.src_line, c.src_column, c.src_end_line, c.src_end_column, c.trace_node, c.tags, "
        "c.model, c.endpoint, c.finish_reason, c.tokens_prompt, c.tokens_completion, "
        "c.tokens_cached, c.ttft_ms, c.latency_ms, c.cost, c.status, c.error, c.retries, "
        "c.started_at, c.content_omitted, c.prompt_id, c.program_id, c.program_name, c.version, "
        "c.origin, c.resolved_model, c.response_model");
    if (withContent)
        cols += QStringLiteral(", t.parameters, t.messages, t.reply, t.tool_calls, t.inputs");
    return cols;
}

QString callSelect(bool withContent)
{
    QString sql =
        QStringLiteral("SELECT ") + callColumns(withContent) + QStringLiteral(" FROM calls c");
    if (withContent)
        sql += QStringLiteral(" LEFT JOIN call_content t ON t.id = c.id");
    return sql;
}

namespace {

std::optional<int64_t> optInt(const SqlRow& r, int col)
{
    return r.isNull(col) ? std::nullopt : std::optional<int64_t>(r.int64(col));
}

std::optional<double> optReal(const SqlRow& r, int col)
{
    return r.isNull(col) ? std::nullopt : std::optional<double>(r.real(col));
}

QJsonDocument parse(const QString& text)
{
    return text.isEmpty() ? QJsonDocument() : QJsonDocument::fromJson(text.toUtf8());
}

} // namespace

CallRecord decodeCall(const SqlRow& r, bool withContent)
{
    CallRecord c;
    c.id = r.int64(0);
    c.uid = r.text(1);
    c.runId = r.text(2);
    c.programPath = r.text(3);
    c.programHash = r.text(4);
    c.promptName = r.text(5);
    c.span.file = r.text(6);
    c.span.line = int(r.int64(7));
    c.span.column = int(r.int64(8));
    c.span.endLine = int(r.int64(9));
    c.span.endColumn = int(r.int64(10));
    c.traceNodeId = r.text(11);
    for (const QJsonValue& v : parse(r.text(12)).array())
        c.tags.append(v.toString());
    c.model = r.text(13);
    c.endpoint = r.text(14);
    c.finishReason = r.text(15);
    c.promptTokens = optInt(r, 16);
    c.completionTokens = optInt(r, 17);
    c.cachedTokens = optInt(r, 18);
    c.timeToFirstTokenMs = optReal(r, 19);
    c.latencyMs = optReal(r, 20);
    c.cost = optReal(r, 21);
    c.status = statusFromName(r.text(22)).value_or(CallStatus::Failed);
    c.error = r.text(23);
    c.retries = int(r.int64(24));
    c.startedAt = r.int64(25);
    c.contentOmitted = r.int64(26) != 0;
    c.promptId = r.text(27);
    c.programId = r.text(28);
    c.programName = r.text(29);
    c.version = r.text(30);
    c.origin = originFromName(r.text(31)).value_or(CallOrigin::Program);
    c.resolvedModel = r.text(32);
    c.responseModel = r.text(33);
    if (withContent) {
        c.parameters = parse(r.text(kContentColumn)).object();
        c.messages = parse(r.text(kContentColumn + 1)).array();
        c.reply = r.text(kContentColumn + 2);
        c.toolCalls = parse(r.text(kContentColumn + 3)).array();
        c.inputs = parse(r.text(kContentColumn + 4)).object();
    }
    return c;
}

std::vector<SqlLookup> findLookups(const QString& idOrUid, Dialect dialect)
{
    const bool pg = dialect == Dialect::Postgres;
    const QString base = callSelect(true) + QStringLiteral(" WHERE ");
    std::vector<SqlLookup> out;
    bool numeric = false;
    const int64_t id = idOrUid.toLongLong(&numeric);
    if (numeric)
        out.push_back(
            {base + (pg ? QStringLiteral("c.id = $1::bigint") : QStringLiteral("c.id = ?1")), id});
    out.push_back(
        {base + (pg ? QStringLiteral("c.uid = $1") : QStringLiteral("c.uid = ?1")), idOrUid});
    if (idOrUid.size() >= 8) {
        if (pg)
            out.push_back({base + QStringLiteral("c.uid LIKE $1 ESCAPE '\\' LIMIT 2"),
                           likeLiteral(idOrUid) + QLatin1Char('%')});
        else
            out.push_back({base + QStringLiteral("c.uid GLOB ?1 LIMIT 2"),
                           globLiteral(idOrUid) + QLatin1Char('*')});
    }
    return out;
}

QString tagCountsSql(int limit)
{
    return QStringLiteral("SELECT tag, count(*) AS n FROM call_tags GROUP BY tag ORDER BY n DESC, "
                          "tag LIMIT %1")
        .arg(std::max(limit, 1));
}

Diagnostic newerSchemaError(const QString& where, int version)
{
    return makeError(QStringLiteral("the prompt log %1 has schema version %2, written by a newer "
                                    "Hako (this one knows up to %3)")
                         .arg(where)
                         .arg(version)
                         .arg(kSchemaVersion));
}

QByteArray jsonText(const QJsonObject& o)
{
    return o.isEmpty() ? QByteArray() : QJsonDocument(o).toJson(QJsonDocument::Compact);
}

QByteArray jsonText(const QJsonArray& a)
{
    return a.isEmpty() ? QByteArray() : QJsonDocument(a).toJson(QJsonDocument::Compact);
}

QString tagsText(const QStringList& tags)
{
    // Tags are mostly printable ASCII without quotes or backslashes ("otel", "service:api"),
    // which JSON writes as they are: written here without building a JSON array (most of a
    // received call's columns' time went to that). Anything else as Qt writes it.
    auto plain = [](const QString& tag) {
        for (QChar c : tag) {
            if (c.unicode() < 0x20 || c.unicode() > 0x7e || c == u'"' || c == u'\\')
                return false;
        }
        return true;
    };
    if (!std::all_of(tags.begin(), tags.end(), plain))
        return QString::fromUtf8(jsonText(QJsonArray::fromStringList(tags)));
    if (tags.isEmpty())
        return QString();
    QString out = QStringLiteral("[\"");
    out += tags.join(QLatin1String("\",\""));
    out += QLatin1String("\"]");
    return out;
}

} // namespace hako::promptlog
