#pragma once

#include "core/eval/evaluator.h"

#include <QFlags>
#include <QString>
#include <QStringList>

#include <memory>
#include <vector>

namespace hako::eval {

/// What building or running an evaluator of a kind needs besides the output.
enum class EvaluatorNeed : unsigned {
    None = 0,
    Reference = 1,      ///< the example's reference (or a `value` option in its place)
    JudgeModel = 2,     ///< a model provider and a judge model
    EmbeddingModel = 4, ///< a model provider and an embedding model
    Program = 8,        ///< a PDL program (`program:` option)
    Trace = 16,         ///< the run's trace (the target keeps traces)
    OtherOutput = 32,   ///< another experiment's output for the same example
};
Q_DECLARE_FLAGS(EvaluatorNeeds, EvaluatorNeed)
Q_DECLARE_OPERATORS_FOR_FLAGS(EvaluatorNeeds)

using EvaluatorResult = Result<std::shared_ptr<const Evaluator>>;
/// Builds an evaluator of one kind. `type` is the kind's canonical name (a factory may serve
/// several kinds); `spec.name` is filled in and its numbers are already range-checked.
using EvaluatorFactory = EvaluatorResult (*)(const EvaluatorSpec& spec, const QString& type,
                                             const EvaluatorContext& context);

/// One kind of evaluator: the one place its names, title, needs and factory are written.
struct EvaluatorKind {
    QString name;                ///< canonical, as evaluatorTypes() lists it
    QStringList aliases;         ///< other spellings a suite may use
    const char* title = nullptr; ///< plain-language title (translated by evaluatorKindTitle)
    EvaluatorNeeds needs;        ///< what it needs besides the output
    bool offeredInForm = false;  ///< the experiment form in the window offers it
    const char* example = "{}";  ///< the smallest options (JSON) it builds from, for help
    EvaluatorFactory create = nullptr;
};

/// Every evaluator kind, in the order help and error messages list them. Thread-safe (built
/// once, never changed).
const std::vector<EvaluatorKind>& evaluatorKinds();

/// The kind a suite's `type` names: its name or an alias, in any case, `-` read as `_`;
/// nullptr for an unknown type. Thread-safe.
const EvaluatorKind* findEvaluatorKind(const QString& type);

/// The plain-language title of the kind named `name` in the user's language, or `name` itself
/// when the kind has no title (or is not a kind: a suite's own evaluator names). Thread-safe
/// once the translators are installed.
QString evaluatorKindTitle(const QString& name);

} // namespace hako::eval
