#pragma once

#include "core/util/diagnostic.h"

#include <QByteArray>
#include <QString>

#include <cstdint>
#include <optional>
#include <vector>

namespace hako {
class RunArchive;
namespace eval {
class OnlineEvaluator;
}
namespace otel {
struct Span;
}
namespace promptlog {
class PromptLog;
}

/// What keeping one received request did.
struct KeptSpans {
    /// Why its calls could not be committed: the request is then to be answered 503 (nothing
    /// was archived nor offered).
    std::optional<Diagnostic> logError;
    int64_t calls = 0;    ///< its LLM spans, as prompt-log calls
    int64_t added = 0;    ///< of them, new to the log (the others were sent again)
    bool archived = true; ///< its spans were kept in the archive (or there is none)
    QString archiveError; ///< why not, when they were not
};

/// What `hako serve --otlp` and the window's receiver do with a request before answering it:
/// its LLM spans become prompt-log calls committed to `log` (a call answered 200 survives the
/// process being killed the next moment; uids keep a retry from adding a call twice), the new
/// ones are offered to `online` (may be null), and its spans are kept in `archive` (may be
/// null; `json` is the request's text when it came as OTLP/JSON, see
/// RunArchive::appendRequest()). Receiver's thread.
KeptSpans keepReceivedSpans(promptlog::PromptLog& log, const std::vector<otel::Span>& spans,
                            const QByteArray& json, const RunArchive* archive,
                            eval::OnlineEvaluator* online);

} // namespace hako
