// The ranges of an evaluator's numbers, checked when it is created: a threshold of -3 would
// pass every example, a negative `max` would read as "no limit", NaN would compare false with
// everything. Each error names the evaluator, the field and the range it must be in.
#include "core/eval/evaluator.h"
#include "core/eval/evaluators_p.h"

#include <cmath>
#include <limits>
#include <optional>

namespace hako::eval {

namespace {

constexpr double kInfinity = std::numeric_limits<double>::infinity();

QString shown(const QJsonValue& v)
{
    if (v.isDouble())
        return QString::number(v.toDouble(), 'g', 15);
    if (v.isString())
        return QLatin1Char('"') + v.toString() + QLatin1Char('"');
    if (v.isBool())
        return v.toBool() ? QStringLiteral("true") : QStringLiteral("false");
    if (v.isNull())
        return QStringLiteral("null");
    return QStringLiteral("a list or mapping");
}

QString range(double low, double high, bool integer)
{
    const QString kind = integer ? QStringLiteral("a whole number") : QStringLiteral("a number");
    if (high == kInfinity)
        return QStringLiteral("%1 of %2 or more").arg(kind).arg(low);
    return QStringLiteral("%1 from %2 to %3").arg(kind).arg(low).arg(high);
}

// Checks one number of `spec`; gives the error, if any.
std::optional<QString> checkNumber(const QString& field, const QJsonValue& v, double low,
                                   double high, bool integer = false)
{
    const double d = v.toDouble();
    const bool ok = v.isDouble() && std::isfinite(d) && d >= low && d <= high &&
                    (!integer || d == std::floor(d));
    if (ok)
        return std::nullopt;
    return QStringLiteral("`%1` must be %2 (it is %3)")
        .arg(field, range(low, high, integer), shown(v));
}

std::optional<QString> checkOptional(const QString& field, const std::optional<double>& v)
{
    if (!v)
        return std::nullopt;
    return checkNumber(field, QJsonValue(*v), 0, 1);
}

// The numeric options of the types that have them.
std::optional<QString> checkOptions(const QString& type, const QJsonObject& o)
{
    auto option = [&o](const char* key, double low, double high,
                       bool integer = false) -> std::optional<QString> {
        const QString k = QString::fromLatin1(key);
        if (!o.contains(k))
            return std::nullopt;
        return checkNumber(k, o.value(k), low, high, integer);
    };
    if (type == QLatin1String("length_chars") || type == QLatin1String("length_tokens")) {
        for (const char* key : {"min", "max"})
            if (auto e = option(key, 0, kInfinity, true))
                return e;
        const QJsonValue min = o.value(QStringLiteral("min"));
        const QJsonValue max = o.value(QStringLiteral("max"));
        if (min.isDouble() && max.isDouble() && max.toDouble() < min.toDouble())
            return QStringLiteral("`max` (%1) is below `min` (%2)")
                .arg(max.toDouble())
                .arg(min.toDouble());
    } else if (type == QLatin1String("latency")) {
        return option("max_ms", 0, kInfinity);
    } else if (type == QLatin1String("cost")) {
        return option("max", 0, kInfinity);
    } else if (type == QLatin1String("number_within")) {
        return option("tolerance", 0, kInfinity);
    }
    return std::nullopt;
}

} // namespace

Result<bool> checkEvaluatorSpec(const EvaluatorSpec& spec)
{
    const QString type = normalizeType(spec.type);
    std::optional<QString> problem = checkOptional(QStringLiteral("threshold"), spec.threshold);
    if (!problem)
        problem = checkOptional(QStringLiteral("min_score"), spec.minScore);
    if (!problem)
        problem = checkOptional(QStringLiteral("min_pass_rate"), spec.minPassRate);
    if (!problem)
        problem = checkOptions(type, spec.options);
    if (!problem)
        return true;
    const QString name = spec.name.isEmpty() ? spec.type : spec.name;
    return makeError(QStringLiteral("evaluator %1 (%2): %3").arg(name, spec.type, *problem));
}

Score checkedScore(Score s)
{
    if (s.error || (std::isfinite(s.score) && s.score >= 0 && s.score <= 1))
        return s;
    // Never a pass: a judge that answers out of its scale has not judged.
    Score failed;
    failed.evaluator = s.evaluator;
    failed.error = true;
    failed.label = QStringLiteral("error");
    failed.reasoning =
        QStringLiteral("could not judge: score %1 is outside 0–1")
            .arg(std::isnan(s.score) ? QStringLiteral("NaN") : QString::number(s.score, 'g', 15));
    if (!s.reasoning.isEmpty())
        failed.reasoning += QStringLiteral("\n") + s.reasoning;
    return failed;
}

} // namespace hako::eval
