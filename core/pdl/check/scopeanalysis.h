#pragma once

#include "core/pdl/ast/block.h"
#include "core/util/diagnostic.h"

#include <QByteArray>
#include <QString>
#include <QStringList>

#include <memory>
#include <string>
#include <vector>

namespace hako::pdl {

/// How a variable came into scope.
enum class VariableKind {
    Def,           ///< `def: x` on a block
    Defs,          ///< an entry of `defs:`
    Parameter,     ///< a function parameter
    LoopVariable,  ///< a `for:` variable of repeat or map
    LoopIndex,     ///< the `index:` of repeat or map
    MatchBinding,  ///< `def:` on a match pattern
    ModelResponse, ///< `modelResponse:` of a model block
    Builtin,       ///< pdl_context, pdl_scope, pdl_usage, pdl_model_default_parameters
    External,      ///< provided from outside (`-d`/`-f` data, the workbench's objects)
};

/// A user-facing name of a kind: "def", "function parameter", "loop variable", …
QString variableKindName(VariableKind kind);

/// One place where a variable is defined. Built-in and external names have no span.
struct VariableDefinition {
    std::string name;
    VariableKind kind = VariableKind::Def;
    SourceSpan span; ///< the name as written (the `def` value, the key of a parameter, …)
};

/// One read of a variable inside a `${ }` expression (or a `get:` field).
struct VariableUse {
    std::string name;
    SourceSpan span;     ///< the name in the file (line/column in code points)
    int definition = -1; ///< index into ScopeAnalysis::definitions; -1 when not in reach
};

/// What the analysis needs beyond the program.
struct ScopeOptions {
    /// Names provided from outside the program (`-d`/`-f` data, objects such as `doc` that
    /// the workbench binds). They are never reported as undefined.
    QStringList externalNames;
    /// Read included programs (relative to the program's folder) for the names they define.
    bool followIncludes = true;
};

/// The result of analysing which variables are in reach where. Immutable once built; safe to
/// read from any thread.
class ScopeAnalysis {
public:
    std::vector<VariableDefinition> definitions;
    std::vector<VariableUse> uses; ///< in source order
    /// "variable 'x' is used but never defined" warnings, at the use.
    std::vector<Diagnostic> warnings;

    /// The use whose name covers (line, column) (1-based, code points), or null.
    const VariableUse* useAt(int line, int column) const;
    /// The definition whose name covers (line, column), or null.
    const VariableDefinition* definitionAt(int line, int column) const;
    /// The definition a use at (line, column) refers to, or the definition written there.
    const VariableDefinition* resolveAt(int line, int column) const;
    /// Every variable name in reach at (line, column) (the nearest analysed point at or before
    /// it), sorted, with the definition each resolves to.
    std::vector<const VariableDefinition*> namesInReach(int line, int column) const;

    struct Snapshot; ///< internal: the scope at a point, for namesInReach
    struct ScopeNode;
    std::vector<Snapshot> snapshots;
};

struct ScopeAnalysis::ScopeNode {
    int definition;
    std::shared_ptr<const ScopeNode> previous;
};

struct ScopeAnalysis::Snapshot {
    int line = 0;
    int column = 0;
    std::shared_ptr<const ScopeNode> scope;
};

/// Analyses `program` (parsed from `text`): definitions in reach at each point following PDL's
/// rules (scope flows to later siblings and out of nested blocks; a function body sees its
/// defining scope and its parameters; map iterations do not leak; includes bring the names
/// their program defines; loop bodies see what earlier iterations defined), the uses of names
/// in every `${ }` expression (names only tested with `is defined` or given a `default` are not
/// uses), and a warning for each use no definition reaches. Thread-safe; reads included files.
ScopeAnalysis analyzeScopes(const Program& program, const QByteArray& text,
                            const ScopeOptions& options = {});

} // namespace hako::pdl
