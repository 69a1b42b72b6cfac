#include "core/promptlog/callquery.h"

#include <QDateTime>

#include <algorithm>
#include <cmath>

namespace hako::promptlog {

QStringList searchTerms(const QString& text)
{
    QStringList terms;
    QString current;
    bool quoted = false;
    for (const QChar c : text) {
        if (c == QLatin1Char('"')) {
            if (!current.isEmpty())
                terms.append(current);
            current.clear();
            quoted = !quoted;
        } else if (!quoted && c.isSpace()) {
            if (!current.isEmpty())
                terms.append(current);
            current.clear();
        } else {
            current += c;
        }
    }
    if (!current.isEmpty())
        terms.append(current);
    terms.removeDuplicates();
    return terms;
}

QString groupName(StatsGroup group)
{
    switch (group) {
    case StatsGroup::Prompt:
        return QStringLiteral("prompt");
    case StatsGroup::Tag:
        return QStringLiteral("tag");
    case StatsGroup::Model:
        return QStringLiteral("model");
    case StatsGroup::Day:
        return QStringLiteral("day");
    case StatsGroup::Version:
        return QStringLiteral("version");
    case StatsGroup::Program:
        return QStringLiteral("program");
    }
    return QStringLiteral("prompt");
}

std::optional<StatsGroup> groupFromName(const QString& name)
{
    for (StatsGroup g : {StatsGroup::Prompt, StatsGroup::Tag, StatsGroup::Model, StatsGroup::Day,
                         StatsGroup::Version, StatsGroup::Program}) {
        if (groupName(g) == name)
            return g;
    }
    return std::nullopt;
}

std::optional<StatsColumn> statsColumnFromName(const QString& name)
{
    static const QList<std::pair<const char*, StatsColumn>> names = {
        {"key", StatsColumn::Key},
        {"name", StatsColumn::Key},
        {"prompt", StatsColumn::Key},
        {"calls", StatsColumn::Calls},
        {"success", StatsColumn::SuccessRate},
        {"tokens-in", StatsColumn::TokensIn},
        {"in", StatsColumn::TokensIn},
        {"tokens-out", StatsColumn::TokensOut},
        {"out", StatsColumn::TokensOut},
        {"tokens", StatsColumn::Tokens},
        {"cost", StatsColumn::Cost},
        {"p50", StatsColumn::P50},
        {"p95", StatsColumn::P95}};
    for (const auto& [n, c] : names) {
        if (name == QLatin1String(n))
            return c;
    }
    return std::nullopt;
}

namespace {

std::optional<double> columnValue(const StatsRow& r, StatsColumn column)
{
    switch (column) {
    case StatsColumn::Key:
        return std::nullopt;
    case StatsColumn::Calls:
        return double(r.calls);
    case StatsColumn::SuccessRate:
        return r.successRate();
    case StatsColumn::TokensIn:
        return double(r.tokensIn);
    case StatsColumn::TokensOut:
        return double(r.tokensOut);
    case StatsColumn::Tokens:
        return double(r.tokensIn + r.tokensOut);
    case StatsColumn::Cost:
        return r.cost;
    case StatsColumn::P50:
        return r.p50LatencyMs;
    case StatsColumn::P95:
        return r.p95LatencyMs;
    }
    return std::nullopt;
}

} // namespace

void sortStats(QList<StatsRow>& rows, StatsColumn column, bool reversed)
{
    std::stable_sort(rows.begin(), rows.end(),
                     [](const StatsRow& a, const StatsRow& b) { return a.key < b.key; });
    if (column == StatsColumn::Key) {
        if (reversed)
            std::reverse(rows.begin(), rows.end());
        return;
    }
    std::stable_sort(rows.begin(), rows.end(), [&](const StatsRow& a, const StatsRow& b) {
        const std::optional<double> x = columnValue(a, column);
        const std::optional<double> y = columnValue(b, column);
        if (!x || !y)
            return x.has_value() && !y.has_value();
        return reversed ? *x < *y : *x > *y;
    });
}

std::optional<double> percentileDisc(std::vector<double>& values, double fraction)
{
    if (values.empty())
        return std::nullopt;
    const double n = double(values.size());
    size_t rank = size_t(std::ceil(fraction * n));
    rank = std::clamp<size_t>(rank, 1, values.size());
    auto nth = values.begin() + ptrdiff_t(rank - 1);
    std::nth_element(values.begin(), nth, values.end());
    return *nth;
}

std::optional<int64_t> parseAge(const QString& text)
{
    const QString t = text.trimmed();
    if (t.size() < 2)
        return std::nullopt;
    bool ok = false;
    const double n = t.left(t.size() - 1).toDouble(&ok);
    if (!ok || n < 0)
        return std::nullopt;
    int64_t unit = 0;
    switch (t.back().toLatin1()) {
    case 's':
        unit = 1000;
        break;
    case 'm':
        unit = 60 * 1000;
        break;
    case 'h':
        unit = 3600 * 1000;
        break;
    case 'd':
        unit = 24 * 3600 * 1000;
        break;
    case 'w':
        unit = 7 * 24 * 3600 * 1000;
        break;
    default:
        return std::nullopt;
    }
    return int64_t(n * double(unit));
}

QString utcDay(int64_t utcMs)
{
    return QDateTime::fromMSecsSinceEpoch(utcMs, Qt::UTC).date().toString(Qt::ISODate);
}

} // namespace hako::promptlog

namespace hako::promptlog {

SeriesRange SeriesRange::ending(int64_t nowMs, int64_t bucketMs, int buckets)
{
    SeriesRange r;
    r.bucketMs = std::max<int64_t>(bucketMs, 1);
    r.buckets = std::max(buckets, 1);
    // Buckets aligned to multiples of their length (whole UTC days for a day), the last one
    // holding now.
    const int64_t lastStart = nowMs - (nowMs % r.bucketMs);
    r.fromMs = lastStart - r.bucketMs * (r.buckets - 1);
    return r;
}

} // namespace hako::promptlog
