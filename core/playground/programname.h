#pragma once

#include "core/playground/savetoprogram.h"
#include "core/util/diagnostic.h"

#include <QList>
#include <QString>

namespace hako::playground {

/// A program's human name as written: the text of its root `description` (what the log, the
/// library, experiments and stats show) and where that text starts.
struct ProgramName {
    QString text;
    int line = 0; ///< 1-based; 0 when the program has no `description`
    int column = 0;
    bool written() const { return line > 0; }
};

/// The name `source` (a PDL program) gives itself; nothing written when its root is not a
/// mapping or has no string `description`. Pure.
ProgramName programName(const QString& source);

/// The minimal edits that name the program `name` (one line, trimmed; not empty): its
/// `description` replaced (replaceScalar), else `description: NAME` inserted as the root
/// mapping's first key, below the leading comments (the prompt's identity stays first). An
/// error when the root is not a block mapping. Checked by reading the result back. Pure.
Result<QList<TextEdit>> setProgramName(const QString& source, const QString& name);

} // namespace hako::playground
