#pragma once

#include "core/util/diagnostic.h"

#include <QString>

namespace hako::pdl {

class ScopeAnalysis;

/// A run's error as a prompt author reads it: one plain sentence first, the interpreter's
/// technical wording (what `hako run` prints, as the reference does) as the detail.
struct PlainError {
    QString text;   ///< one sentence, no line breaks
    QString detail; ///< the original message; empty when `text` is that message
};

/// Rewrites what it knows in plain words — a name that is neither an input nor defined (with
/// "did you mean" from the program's definitions in `scopes`, which may be null) — and passes
/// any other message through as one line. Pure; thread-safe.
PlainError plainRunError(const Diagnostic& error, const ScopeAnalysis* scopes);

} // namespace hako::pdl
