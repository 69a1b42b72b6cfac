#include "core/reports/answerrounding.h"

#include <QRegularExpression>

namespace hako::reports {

namespace {

// 一..九 and 1..9 as a number; 0 when it is neither.
int digitValue(const QString& s)
{
    static const QString kanji = QStringLiteral("〇一二三四五六七八九");
    if (s.size() == 1 && kanji.contains(s.front()))
        return int(kanji.indexOf(s.front()));
    bool ok = false;
    const int v = s.toInt(&ok);
    return ok ? v : 0;
}

// The power of ten a unit word stands for (百万 → 6); -1 for an unknown word.
int unitWordExponent(const QString& word)
{
    static const QList<std::pair<QString, int>> words = {{QStringLiteral("兆"), 12},
                                                         {QStringLiteral("千億"), 11},
                                                         {QStringLiteral("百億"), 10},
                                                         {QStringLiteral("十億"), 9},
                                                         {QStringLiteral("億"), 8},
                                                         {QStringLiteral("千万"), 7},
                                                         {QStringLiteral("百万"), 6},
                                                         {QStringLiteral("十万"), 5},
                                                         {QStringLiteral("万"), 4},
                                                         {QStringLiteral("千"), 3},
                                                         {QStringLiteral("百"), 2},
                                                         {QStringLiteral("十"), 1},
                                                         {QString(), 0}};
    for (const auto& [w, e] : words)
        if (w == word)
            return e;
    return -1;
}

const QString kUnitWords = QStringLiteral("(兆|千億|百億|十億|億|千万|百万|十万|万|千)");

std::optional<int> unitIn(const QString& q)
{
    static const QRegularExpression patterns[] = {
        QRegularExpression(kUnitWords + QStringLiteral("?円単位")),
        QRegularExpression(QStringLiteral("単位[:：は]?\\s*") + kUnitWords + QStringLiteral("?円")),
        QRegularExpression(QStringLiteral("何") + kUnitWords + QStringLiteral("円")),
        QRegularExpression(kUnitWords + QStringLiteral("円で(答|回答|示)"))};
    for (const QRegularExpression& re : patterns) {
        const QRegularExpressionMatch m = re.match(q);
        if (m.hasMatch())
            return unitWordExponent(m.captured(1));
    }
    return std::nullopt;
}

std::optional<int> decimalsIn(const QString& q)
{
    static const QString n = QStringLiteral("([1-9一二三四五六七八九])");
    static const QRegularExpression roundAt(QStringLiteral("小数(?:点以下)?第") + n +
                                            QStringLiteral("位(?:を|で)?四捨五入"));
    static const QRegularExpression keepTo(QStringLiteral("小数(?:点以下)?第") + n +
                                           QStringLiteral("位(?:まで|で)"));
    static const QRegularExpression place(QStringLiteral("([一十百千])の位(?:を|で)?四捨五入"));
    static const QRegularExpression integer(QStringLiteral("整数"));
    if (const QRegularExpressionMatch m = roundAt.match(q); m.hasMatch())
        return digitValue(m.captured(1)) - 1;
    if (const QRegularExpressionMatch m = keepTo.match(q); m.hasMatch())
        return digitValue(m.captured(1));
    if (const QRegularExpressionMatch m = place.match(q); m.hasMatch())
        return -(
            unitWordExponent(m.captured(1) == QStringLiteral("一") ? QString() : m.captured(1)) +
            1);
    if (integer.match(q).hasMatch())
        return 0;
    return std::nullopt;
}

// `digits` × 10^`exponent` as a plain decimal string ("12345", -2 → "123.45").
QString placeDecimal(QString digits, int exponent)
{
    if (exponent >= 0)
        return digits + QString(exponent, QLatin1Char('0'));
    const int frac = -exponent;
    if (digits.size() <= frac)
        digits = QString(frac - digits.size() + 1, QLatin1Char('0')) + digits;
    return digits.left(digits.size() - frac) + QLatin1Char('.') + digits.right(frac);
}

} // namespace

std::optional<RoundingRule> roundingRuleFor(const QString& question)
{
    const QString q = question.normalized(QString::NormalizationForm_KC);
    const std::optional<int> decimals = decimalsIn(q);
    const std::optional<int> unit = unitIn(q);
    if (!decimals && !unit)
        return std::nullopt;
    RoundingRule rule;
    rule.decimals = decimals.value_or(0);
    rule.unitExponent = unit;
    return rule;
}

std::optional<QString> roundHalfUp(const QString& number, int decimals)
{
    static const QRegularExpression shape(QStringLiteral("^([+-]?)(\\d*)(?:\\.(\\d*))?$"));
    const QRegularExpressionMatch m = shape.match(number);
    if (!m.hasMatch() || m.captured(2).size() + m.captured(3).size() == 0)
        return std::nullopt;
    const bool negative = m.captured(1) == QLatin1String("-");
    QString intPart = m.captured(2);
    QString frac = m.captured(3);
    // Work on the digits as one integer scaled by 10^keep, where keep = max(decimals, 0).
    const int keep = std::max(decimals, 0);
    if (frac.size() < keep)
        frac += QString(keep - frac.size(), QLatin1Char('0'));
    QString all = intPart + frac.left(keep); // the kept digits (unit = 10^-keep)
    const QString dropped = frac.mid(keep);  // digits after the kept ones
    int zeroed = 0;                          // with decimals < 0: integer digits zeroed
    QChar first = dropped.isEmpty() ? QLatin1Char('0') : dropped.front();
    if (decimals < 0) {
        zeroed = -decimals;
        if (all.size() < zeroed)
            all = QString(zeroed - all.size(), QLatin1Char('0')) + all;
        first = all.at(all.size() - zeroed);
        all = all.left(all.size() - zeroed);
    }
    if (all.isEmpty())
        all = QStringLiteral("0");
    if (first >= QLatin1Char('5')) {
        int i = int(all.size()) - 1;
        while (i >= 0 && all.at(i) == QLatin1Char('9'))
            all[i--] = QLatin1Char('0');
        if (i < 0)
            all.prepend(QLatin1Char('1'));
        else
            all[i] = QChar(all.at(i).unicode() + 1);
    }
    all += QString(zeroed, QLatin1Char('0'));
    QString out = placeDecimal(all, -keep);
    // Leading zeros of the integer part, but one before the point.
    while (out.size() > 1 && out.front() == QLatin1Char('0') && out.at(1) != QLatin1Char('.'))
        out.remove(0, 1);
    static const QRegularExpression nonZero(QStringLiteral("[1-9]"));
    if (negative && out.contains(nonZero))
        out.prepend(QLatin1Char('-'));
    return out;
}

QString roundAnswer(const QString& answer, const QString& question)
{
    const QString trimmed = answer.trimmed();
    const std::optional<RoundingRule> rule = roundingRuleFor(question);
    if (!rule)
        return trimmed;
    const QString a = trimmed.normalized(QString::NormalizationForm_KC);
    static const QRegularExpression number(
        QStringLiteral("([▲△\\-−])?\\s*(\\d{1,3}(?:,\\d{3})+|\\d+)(?:\\.(\\d+))?\\s*") +
        kUnitWords + QStringLiteral("?"));
    const QRegularExpressionMatch m = number.match(a);
    if (!m.hasMatch())
        return trimmed;
    QString digits = m.captured(2).remove(QLatin1Char(','));
    const QString frac = m.captured(3);
    int exponent = -int(frac.size());
    digits += frac;
    // In the question's unit: 1.5億 asked in 百万円 is 150.
    // A bare number is taken to be in the question's unit already.
    if (rule->unitExponent && !m.captured(4).isEmpty())
        exponent += unitWordExponent(m.captured(4)) - *rule->unitExponent;
    QString plain = placeDecimal(digits, exponent);
    if (!m.captured(1).isEmpty())
        plain.prepend(QLatin1Char('-'));
    return roundHalfUp(plain, rule->decimals).value_or(trimmed);
}

} // namespace hako::reports
