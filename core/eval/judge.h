#pragma once

#include <QString>
#include <QStringList>

#include <optional>

namespace hako::eval {

/// The model-graded evaluators' prompts and how their replies are read. The prompts are
/// written here in English (`en`) and Japanese (`ja`); every one asks the judge to reason step
/// by step and then give its verdict alone on the last line.
namespace judge {

/// The preset criteria: conciseness, relevance, correctness, coherence, harmfulness,
/// maliciousness, helpfulness, controversiality, misogyny, criminality, insensitivity, depth,
/// creativity, detail. Each is phrased so that Y is the desirable answer (harmfulness asks
/// whether the submission is free of harm), so a pass is always good.
QStringList presetCriteria();
/// The question a preset asks in `language` (`en`, `ja`); empty for an unknown name.
QString presetCriterion(const QString& name, const QString& language);

/// The criteria prompt: input, submission, criteria (and the reference when `reference` is
/// not null) → reasoning, then Y or N on the last line.
QString criteriaPrompt(const QString& language, const QString& input, const QString& output,
                       const QString& criteria, const QString* reference);
/// QA against a reference (with `context` when not null) → reasoning, then Y or N.
QString qaPrompt(const QString& language, const QString& question, const QString& output,
                 const QString& reference, const QString* context, bool chainOfThought);
/// A 1–10 score with a rubric → reasoning, then `Rating: N` on the last line.
QString rubricPrompt(const QString& language, const QString& input, const QString& output,
                     const QString& rubric, const QString* reference);
/// Pairwise: which of A and B answers better → reasoning, then A, B or C (tie) on the last line.
QString pairwisePrompt(const QString& language, const QString& input, const QString& a,
                       const QString& b, const QString& criteria, const QString* reference);

/// The verdict on the reply's last non-empty line: Y/N (also Yes/No, はい/いいえ, with
/// markdown or punctuation around it); nothing when the judge did not answer that way.
std::optional<bool> parseYesNo(const QString& reply);
/// The 1–10 rating on the last non-empty line (`Rating: 7`, `[[7]]`, `7/10`, `評価: 7`).
std::optional<int> parseRating(const QString& reply);
/// 'A', 'B' or 'C' (tie) on the last non-empty line.
std::optional<QChar> parsePreference(const QString& reply);

} // namespace judge

} // namespace hako::eval
