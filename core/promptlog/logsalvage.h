#pragma once

#include "core/util/diagnostic.h"

#include <QString>

#include <cstdint>

namespace hako::promptlog {

/// What a salvage copied.
struct SalvageReport {
    int64_t copied = 0;         ///< calls copied whole
    int64_t withoutContent = 0; ///< of those, copied without their messages and reply
    int64_t unreadable = 0;     ///< call numbers in use whose row could not be read
};

/// Saves what is readable of a damaged SQLite prompt log (one that fails SQLite's check and
/// that PromptLog therefore refuses): every call that can be read, looked up one by one so
/// that a damaged page costs only the calls on it, is copied into a new log file. A call whose
/// content (messages, reply) is unreadable is copied with its metadata.
///
/// Synchronous; opens `damaged` read-only and never changes it. Any thread.
class LogSalvage {
public:
    /// Copies the readable calls of `damaged` into `out`, a new file (refused when it exists).
    static Result<SalvageReport> salvage(const QString& damaged, const QString& out);
};

} // namespace hako::promptlog
