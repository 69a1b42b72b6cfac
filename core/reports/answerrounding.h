#pragma once

#include <QString>

#include <optional>

namespace hako::reports {

/// What a question asks of a numeric answer, read from its Japanese wording.
struct RoundingRule {
    /// Digits kept after the decimal point (0: an integer; -1: to the tens, …).
    int decimals = 0;
    /// The power of ten of the unit the answer is asked in (百万円単位 → 6), if it names one.
    std::optional<int> unitExponent;
};

/// The rule a question names: 小数第N位を四捨五入 (N-1 decimals; 小数第一位を四捨五入 means an
/// integer), 小数第N位まで (N decimals), 一/十/百/千の位を四捨五入 (tens, hundreds, …), 整数で
/// (0 decimals), with the unit of 百万円単位, 単位：千円, 何億円. Full-width digits and kanji
/// digits (第２位, 第二位) are read. Nothing when the question names no rounding and no unit.
std::optional<RoundingRule> roundingRuleFor(const QString& question);

/// `number` (ASCII digits, an optional sign and decimal point, as "-1234.5") rounded half up —
/// ties away from zero, as Python's decimal.ROUND_HALF_UP — to `decimals` digits after the
/// point (negative: to tens, hundreds, …), exactly, without floating point. The result has
/// exactly max(decimals, 0) decimals and never reads "-0". Nothing for a malformed number.
std::optional<QString> roundHalfUp(const QString& number, int decimals);

/// The answer to `question` as the question asks for it: the first number in `answer` (commas,
/// full-width digits, ▲/△ for minus, a unit word such as 億 or 百万 after it) converted to the
/// unit the question names (a bare number is taken to be in that unit) and rounded half up per
/// roundingRuleFor(); the number alone is returned. The answer is returned unchanged (trimmed) when
/// the question names no rule or the answer holds no number ("分かりません").
QString roundAnswer(const QString& answer, const QString& question);

} // namespace hako::reports
