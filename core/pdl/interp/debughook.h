#pragma once

#include "core/pdl/ast/block.h"
#include "core/pdl/value.h"
#include "core/util/diagnostic.h"

#include <optional>
#include <string>

namespace hako::pdl {

/// The block a paused run stands at, as the interpreter shows it to a debugger: where it is,
/// and its live state (variables and background context), which a debugger may read and change.
///
/// Valid only during the IDebugHook call that received it, on the interpreter's worker thread
/// (a debugger that pauses there may hand work to that thread, never use the frame elsewhere).
class DebugFrame {
public:
    virtual ~DebugFrame() = default;
    virtual const Block& block() const = 0;
    /// The block's `pdl__id` (`text.3.repeat.2.model`).
    virtual const std::string& id() const = 0;
    /// Blocks enclosing this one (0: the program's root block); function bodies and includes
    /// count from their call or include block.
    virtual int depth() const = 0;
    /// The run was cancelled (RunOptions::cancel): a paused debugger must return at once.
    virtual bool cancelled() const = 0;
    /// The variables the block sees, in definition order.
    virtual Dict variables() const = 0;
    /// Binds `name` in the block's scope (it stays visible to later siblings, as a `def`).
    virtual void setVariable(const std::string& name, Value value) = 0;
    /// The background context so far: what a model block without `input` would be sent.
    virtual List context() const = 0;
    /// Replaces the background context.
    virtual void setContext(const List& messages) = 0;
    /// Evaluates a PDL template (`${ i == 3 }`, `Hello ${ name }`) in the block's scope.
    virtual Result<Value> evaluate(const std::string& source) const = 0;
    /// For a model block: use `reply` as the model's answer instead of calling the model (the
    /// trace node is marked answered by hand). Ignored for other blocks.
    virtual void answerModel(std::string reply) = 0;
    /// The frame of the block enclosing this one (for a function's body: its call block; for
    /// an included program: its include block), valid as long as this one; null at the root
    /// (and at the first block of a parallel `map` iteration's thread).
    virtual const DebugFrame* enclosing() const { return nullptr; }
};

/// Consulted by the interpreter before every block, and when a block fails, when
/// RunOptions::debugger is set. Called on the interpreter's worker thread (several threads for
/// parallel `map` iterations); an implementation pauses the run by blocking in these calls.
/// Not called for blocks run by the hook itself (expressions it evaluates).
class IDebugHook {
public:
    virtual ~IDebugHook() = default;
    /// A run of `program` starts, or an include or import loaded `program` (on the worker).
    virtual void programLoaded(const std::shared_ptr<const Program>& program) = 0;
    /// `frame`'s block is about to run (its node has been reported started).
    virtual void beforeBlock(DebugFrame& frame) = 0;
    /// Whether the run must keep its background context for the debugger to show even when the
    /// program never reads it (which costs a message per block in long loops).
    virtual bool wantsContext() const { return true; }
    /// `frame`'s block failed with `message` (once per error, at the innermost failing block,
    /// before `fallback`, `retry` or the enclosing blocks see it).
    virtual void blockFailed(DebugFrame& frame, const std::string& message) = 0;
};

} // namespace hako::pdl
