#pragma once

#include "core/util/diagnostic.h"

#include <QByteArray>
#include <QString>

namespace hako {

/// The most a program, an included file, a `read:` file or a data file may hold (256 MiB).
inline constexpr qint64 kMaxInputFileBytes = qint64(256) << 20;

/// Reads a regular file whole, refusing anything else: a device (/dev/zero, /dev/urandom), a
/// FIFO or a socket would never end or block the reader forever, so they are an error that says
/// so, as is a file larger than `maxBytes` (checked while reading, so a file that grows or lies
/// about its size cannot exhaust memory). Errors name the absolute path. Thread-safe.
Result<QByteArray> readBoundedFile(const QString& path, qint64 maxBytes = kMaxInputFileBytes);

} // namespace hako
