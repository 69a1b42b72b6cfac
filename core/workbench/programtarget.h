#pragma once

#include "core/eval/experiment.h"
#include "core/pdl/analysis/quickfix.h"
#include "core/pdl/ast/block.h"
#include "core/promptlog/pricetable.h"
#include "core/run/runenvironment.h"

#include <QString>

namespace hako {

/// A PDL program as an experiment's target (eval::TargetFunction): each example's inputs become
/// the program's variables, the run is composed by RunEnvironment as `hako run` composes it
/// (every model call in the prompt log, with the environment's tags and the example's inputs),
/// and the output is the program's result text (or one variable's value). Tokens are counted
/// from the model replies, the cost priced with `prices`, and the trace kept in `traceFolder`
/// when it is set.
struct ProgramTarget {
    QString programPath;
    /// baseFolder, modelProvider (required: created once and shared by every example),
    /// promptLog, runLog (tags, programPath), sandbox.
    RunEnvironment environment;
    /// The variable whose value is the output; empty: the program's result.
    QString outputVariable;
    /// Where each example's trace is written (`<uuid>.json`); empty: no traces.
    QString traceFolder;
    promptlog::PriceTable prices;
    /// The names the examples give (the dataset's input columns): make() refuses a program
    /// that sets one of them itself (`defs:`, `def:`), since every example would then run with
    /// the program's own value instead of the dataset's.
    QStringList inputNames;

    /// Parses the program once (its errors, every one, as the diagnostic) and gives the target.
    /// The function is thread-safe: the runner calls it from several workers at once.
    Result<eval::TargetFunction> make() const;
};

/// The dataset columns among `inputNames` that `program` (parsed from `text`) would overwrite,
/// each as an error at the definition that sets it, saying what to do. Pure; any thread.
/// `names` (when given) receives each one's variable, in the same order.
std::vector<Diagnostic> overwrittenInputs(const pdl::Program& program, const QByteArray& text,
                                          const QStringList& inputNames,
                                          QStringList* names = nullptr);

/// "Make it an input": the edit that removes the `defs:` entry setting `name` at `line` (a
/// diagnostic of overwrittenInputs()) from `text`, with its nested lines, and the `defs:` key
/// itself when that was its only entry — so the dataset's value reaches the program. Nothing
/// when the definition is not an entry of a `defs:` mapping (a block's `def:` names its result:
/// renaming the column is the fix then). Pure.
std::optional<pdl::QuickFix> makeInputFix(const QString& text, const QString& name, int line);

} // namespace hako
