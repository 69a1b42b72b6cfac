#pragma once
// The evaluator families that live in their own files (private to core/eval).

#include "core/eval/evaluator.h"
#include "core/eval/evaluatorkind.h"

namespace hako::eval {

/// The canonical name of an evaluator type as a suite may spell it (aliases, case, `-`).
QString normalizeType(QString type);
/// `trajectory`: checks over the run's trace (TargetOutput::tracePath).
Result<std::shared_ptr<const Evaluator>> createTrajectoryEvaluator(const EvaluatorSpec& spec);
/// `pdl`: a PDL program judges (`program:` option).
Result<std::shared_ptr<const Evaluator>> createPdlEvaluator(const EvaluatorSpec& spec,
                                                            const EvaluatorContext& context);

/// The factories of the kinds written in evaluator.cpp (see evaluatorKinds()).
EvaluatorResult createExactMatch(const EvaluatorSpec& spec, const QString& type,
                                 const EvaluatorContext& context);
EvaluatorResult createContains(const EvaluatorSpec& spec, const QString& type,
                               const EvaluatorContext& context);
EvaluatorResult createContainsList(const EvaluatorSpec& spec, const QString& type,
                                   const EvaluatorContext& context);
EvaluatorResult createRegex(const EvaluatorSpec& spec, const QString& type,
                            const EvaluatorContext& context);
EvaluatorResult createNumberWithin(const EvaluatorSpec& spec, const QString& type,
                                   const EvaluatorContext& context);
EvaluatorResult createIsJson(const EvaluatorSpec& spec, const QString& type,
                             const EvaluatorContext& context);
EvaluatorResult createJsonSchema(const EvaluatorSpec& spec, const QString& type,
                                 const EvaluatorContext& context);
EvaluatorResult createJsonEqual(const EvaluatorSpec& spec, const QString& type,
                                const EvaluatorContext& context);
EvaluatorResult createLevenshtein(const EvaluatorSpec& spec, const QString& type,
                                  const EvaluatorContext& context);
EvaluatorResult createLength(const EvaluatorSpec& spec, const QString& type,
                             const EvaluatorContext& context);
EvaluatorResult createLatency(const EvaluatorSpec& spec, const QString& type,
                              const EvaluatorContext& context);
EvaluatorResult createCost(const EvaluatorSpec& spec, const QString& type,
                           const EvaluatorContext& context);
EvaluatorResult createEmbedding(const EvaluatorSpec& spec, const QString& type,
                                const EvaluatorContext& context);
EvaluatorResult createCriteria(const EvaluatorSpec& spec, const QString& type,
                               const EvaluatorContext& context);
EvaluatorResult createQa(const EvaluatorSpec& spec, const QString& type,
                         const EvaluatorContext& context);
EvaluatorResult createScoreRubric(const EvaluatorSpec& spec, const QString& type,
                                  const EvaluatorContext& context);
EvaluatorResult createPairwise(const EvaluatorSpec& spec, const QString& type,
                               const EvaluatorContext& context);

} // namespace hako::eval
