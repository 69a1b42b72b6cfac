#pragma once

#include "core/util/cancel.h"
#include "core/util/diagnostic.h"

#include <QJsonObject>
#include <QJsonValue>
#include <QString>
#include <QStringList>

#include <memory>
#include <optional>

namespace hako::models {
class IModelProvider;
}

namespace hako::eval {

/// What a target gave for one example: its output text and what the run cost.
struct TargetOutput {
    QString output;
    QString tracePath; ///< the example's trace file, when kept
    int64_t promptTokens = 0;
    int64_t completionTokens = 0;
    std::optional<double> cost;
    double latencyMs = 0;

    QJsonObject toJson() const;
    static TargetOutput fromJson(const QJsonObject& o);
};

/// What an evaluator judges: one example's inputs and reference and what the target gave.
struct EvalCase {
    QString output;
    QJsonObject inputs;
    QJsonValue reference = QJsonValue(QJsonValue::Undefined);
    TargetOutput run;
    /// Pairwise evaluators: the other output (a baseline experiment's); empty: none.
    QString otherOutput;
    bool hasOtherOutput = false;
};

/// One evaluator's verdict on one example: a score in 0–1 (or a label), pass/fail against the
/// evaluator's threshold and the reasoning shown when the score is clicked. `error` is set when
/// the evaluator could not judge (the judge did not answer, the embedding failed): never a pass.
struct Score {
    QString evaluator; ///< the evaluator's name in its suite
    double score = 0;
    QString label;
    bool pass = false;
    bool error = false;
    QString reasoning;

    QJsonObject toJson() const;
    static Score fromJson(const QJsonObject& o);
};

/// An evaluator as a suite declares it: `type` (see evaluatorTypes()), a name (defaults to the
/// type), its options (`value`, `values`, `pattern`, `tolerance`, `max`, `criteria`, `model`, …)
/// and the threshold a score must reach to pass (each type has a default).
struct EvaluatorSpec {
    QString name;
    QString type;
    QJsonObject options;
    std::optional<double> threshold;
    /// Aggregate requirements checked by `hako eval`: the mean score, the share of passing
    /// examples (default 1: every example must pass).
    std::optional<double> minScore;
    std::optional<double> minPassRate;
};

/// What model-graded and embedding evaluators call: the provider (the run's, so their calls
/// are logged too), the default judge and embedding models, and the prompt language (`en`,
/// `ja`).
struct EvaluatorContext {
    std::shared_ptr<models::IModelProvider> models;
    QString judgeModel;
    QString embeddingModel;
    QString language = QStringLiteral("en");
    /// Code blocks of judge programs (`pdl` evaluators) run under the sandbox, as the
    /// target's do.
    bool sandbox = false;
};

/// Judges outputs. Immutable once created; evaluate() is safe from several threads at once.
/// Model-graded evaluators block on the model call: call them from worker threads.
class Evaluator {
public:
    explicit Evaluator(EvaluatorSpec spec) : m_spec(std::move(spec)) {}
    virtual ~Evaluator() = default;

    const EvaluatorSpec& spec() const { return m_spec; }
    QString name() const { return m_spec.name.isEmpty() ? m_spec.type : m_spec.name; }
    /// The score one example needs to pass.
    double threshold() const { return m_spec.threshold.value_or(defaultThreshold()); }
    /// The verdict; pass is score >= threshold() unless `error`. A score outside 0–1 (or NaN)
    /// is an error, never a pass (see checkedScore()).
    Score evaluate(const EvalCase& c, const CancelToken& cancel) const;

protected:
    virtual double defaultThreshold() const { return 1.0; }
    /// Fills score, label and reasoning (and error); evaluate() sets name and pass.
    virtual Score judge(const EvalCase& c, const CancelToken& cancel) const = 0;

private:
    EvaluatorSpec m_spec;
};

/// Checks the ranges of a spec's numbers: `threshold`, `min_score` and `min_pass_rate` in
/// 0–1, and the options that are limits (`min`/`max` of the length types: whole numbers from
/// 0, `max` not below `min`; `max_ms` of latency, `max` of cost, `tolerance`: 0 or more),
/// never NaN. The error names the evaluator, the field, the valid range and the value given.
/// createEvaluator() checks this first.
Result<bool> checkEvaluatorSpec(const EvaluatorSpec& spec);

/// `s` when its score is in 0–1 (or it is an error already); else an error score ("could not
/// judge: score 5 is outside 0–1", with the judge's reasoning after it) that never passes.
Score checkedScore(Score s);

/// The evaluator a spec describes; errors name the unknown type or the bad option.
Result<std::shared_ptr<const Evaluator>> createEvaluator(const EvaluatorSpec& spec,
                                                         const EvaluatorContext& context = {});

/// The programs the evaluators of `specs` run (a `pdl` evaluator's `program`, absolute as the
/// suite resolved it): what the trust rule checks, with the target, before an experiment runs.
QStringList evaluatorPrograms(const QList<EvaluatorSpec>& specs);

/// Every type createEvaluator() knows, with aliases left out:
/// exact_match, contains, icontains, contains_any, contains_all, regex, starts_with,
/// number_within, is_json, json_schema, json_equal, json_edit_distance, levenshtein,
/// length_chars, length_tokens, latency, cost, embedding_similarity, criteria,
/// labeled_criteria, qa, cot_qa, context_qa, score_rubric, pairwise, trajectory (checks over
/// the run's trace, see trajectory.cpp), pdl (a PDL program judges, see pdlevaluator.cpp).
QStringList evaluatorTypes();

} // namespace hako::eval
