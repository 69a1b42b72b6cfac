#pragma once
// The evaluator families that live in their own files (private to core/eval).

#include "core/eval/evaluator.h"

namespace hako::eval {

/// The canonical name of an evaluator type as a suite may spell it (aliases, case, `-`).
QString normalizeType(QString type);
/// `trajectory`: checks over the run's trace (TargetOutput::tracePath).
Result<std::shared_ptr<const Evaluator>> createTrajectoryEvaluator(const EvaluatorSpec& spec);
/// `pdl`: a PDL program judges (`program:` option).
Result<std::shared_ptr<const Evaluator>> createPdlEvaluator(const EvaluatorSpec& spec,
                                                            const EvaluatorContext& context);

} // namespace hako::eval
