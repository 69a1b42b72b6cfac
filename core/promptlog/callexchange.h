#pragma once

#include "core/promptlog/callquery.h"
#include "core/util/diagnostic.h"

#include <cstdint>

class QIODevice;

namespace hako::promptlog {

class PromptLog;

enum class ExportFormat { Jsonl, Csv };

/// Writes the calls matching `filter` (its order and paging are ignored: the whole selection,
/// oldest first) to `out`: JSON Lines (one CallRecord::toJson() per line, everything kept, with
/// the call's scores as `scores`: CallScore::toJson() each) or
/// CSV (a header row, then one row per call; messages as JSON text), each call through the log's
/// privacy policy as it stands (redacting again what is redacted changes nothing; calls stored
/// before a rule existed leave redacted too). Reads page by page, so a
/// large log never sits in memory. Gives the number of calls written.
Result<int64_t> exportCalls(PromptLog& log, const CallFilter& filter, ExportFormat format,
                            QIODevice& out);

struct ImportSummary {
    int64_t read = 0;  ///< calls in the file
    int64_t added = 0; ///< new to the log (the others were there already)
};

/// Adds the calls of a JSON Lines export to `log` (through its privacy policy), skipping calls
/// it has, and their scores (replacing the log's score of the same call, name and source). Empty lines are ignored; the first bad line stops the import before it is stored,
/// with its line number.
Result<ImportSummary> importCalls(PromptLog& log, QIODevice& in);

} // namespace hako::promptlog
