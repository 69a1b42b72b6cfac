#pragma once

#include "core/util/diagnostic.h"

#include <QString>

namespace hako {

/// The line-ending convention of a text file, detected from its first line break.
enum class LineEnding { Unix, Windows, OldMac };

/// The decoded contents of a program file.
struct ProgramText {
    QString text;                             ///< decoded UTF-8, line endings kept as in the file
    LineEnding lineEnding = LineEnding::Unix; ///< the first line break found (Unix if none)
    bool hasBom = false;                      ///< the file started with a UTF-8 byte-order mark
};

/// Loading and saving program (.pdl) files. Stateless and thread-safe; never shows UI.
namespace ProgramFile {

/// Reads `path` as UTF-8. Fails with a diagnostic naming the file (and, for invalid UTF-8, the
/// line and column of the first bad byte) instead of silently replacing bytes.
Result<ProgramText> load(const QString& path);

/// Writes `text` as UTF-8 through the output-file rule (writeOutputFile(), Shared): a regular
/// file atomically, so that on any failure the previous file is left untouched and a diagnostic
/// explains why; a device or FIFO in place. Line endings are written exactly as in `text`;
/// `withBom` prepends a UTF-8 byte-order mark.
Result<bool> save(const QString& path, const QString& text, bool withBom = false);

/// Detects the line ending used by `text` (the first break found; Unix when there is none).
LineEnding detectLineEnding(const QString& text);

} // namespace ProgramFile
} // namespace hako
