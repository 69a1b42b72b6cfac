#pragma once
// Private to the interpreter: PDL closures as values, and the run an expression call joins.

#include "core/pdl/expr/filebase.h"
#include "core/pdl/interp/runner_p.h"

namespace hako::pdl {

/// A PDL function value: the function block and the scope it was defined in.
class PdlFunction : public Callable {
public:
    /// `id` is the function block's id and `role` the role where it was defined: a call from
    /// an expression runs the body as `<id>.instance0` in that role, as the reference does.
    PdlFunction(BlockPtr block, Env closure, const ProgramInfo* program, std::string name,
                std::string id = {}, std::string role = "user")
        : m_block(std::move(block)), m_closure(std::move(closure)), m_program(program),
          m_name(std::move(name)), m_id(std::move(id)), m_role(std::move(role))
    {}
    std::string name() const override { return m_name; }
    /// Called from an expression (`${ f(1, y=2) }`) inside a running program.
    Value call(const CallArgs& args) const override;
    /// What the reference's function object exposes to a program: `signature` (the tool
    /// description `{type: function, function: {name, description, parameters}}`),
    /// `description` and `function` (the parameters' types as written).
    Value attribute(std::string_view name) const override;

    const FunctionBlock& function() const { return static_cast<const FunctionBlock&>(*m_block); }
    const Env& closure() const { return m_closure; }
    const ProgramInfo* program() const { return m_program; }

private:
    BlockPtr m_block;
    Env m_closure;
    const ProgramInfo* m_program;
    std::string m_name;
    std::string m_id;
    std::string m_role;
};

/// The runner and state of the block whose expression is being evaluated on this thread, so
/// that a PDL function called from an expression runs inside the same run.
struct ActiveEvaluation {
    Runner* runner = nullptr;
    const State* state = nullptr;
};
ActiveEvaluation& activeEvaluation();

/// Sets the active evaluation for its lifetime and restores the previous one after; relative
/// paths in file-reading built-ins (`image_url`) resolve against the state's program folder.
/// The thread's slot is found once (a thread-local access costs a call in a shared library).
class ActiveEvaluationScope {
public:
    ActiveEvaluationScope(Runner* runner, const State* state)
        : m_slot(activeEvaluation()), m_saved(m_slot),
          m_base(state && state->program ? state->program->dir : expr::currentBaseDirectory())
    {
        m_slot = {runner, state};
    }
    ~ActiveEvaluationScope() { m_slot = m_saved; }
    ActiveEvaluationScope(const ActiveEvaluationScope&) = delete;
    ActiveEvaluationScope& operator=(const ActiveEvaluationScope&) = delete;

private:
    ActiveEvaluation& m_slot;
    ActiveEvaluation m_saved;
    expr::BaseDirectoryScope m_base;
};

} // namespace hako::pdl
