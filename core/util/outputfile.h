#pragma once

#include <QByteArray>
#include <QString>

namespace hako {

/// What a path given as an output (`--trace FILE`, a file aggregator, `memory export FILE`)
/// names, which decides how it is written.
enum class OutputKind {
    Regular, ///< a regular file, or nothing yet: saved atomically (QSaveFile)
    Stream,  ///< a character device or FIFO (/dev/null, /dev/stdout, a pipe): written in place
    Refused  ///< a folder, block device or socket: never written
};

/// Classifies `path`, following symbolic links. For Refused, `reason` says why ("it is a
/// folder").
OutputKind outputKind(const QString& path, QString* reason = nullptr);

/// Writes `data` to `path`: a regular file atomically (the old content stays until the new one
/// is complete; a device node is never replaced by a regular file), a character device or FIFO
/// in place (`--trace /dev/null` discards), anything else refused. A FIFO nobody reads is an
/// error, not a wait. On failure returns false with `error` saying why ("No space left on
/// device").
bool writeOutputFile(const QString& path, const QByteArray& data, QString* error);

/// Appends `data` to `path` (created when missing): for file aggregators with `mode: append`
/// and for streams. Same refusals as writeOutputFile().
bool appendOutputFile(const QString& path, const QByteArray& data, QString* error);

} // namespace hako
