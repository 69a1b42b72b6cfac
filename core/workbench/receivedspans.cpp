#include "core/workbench/receivedspans.h"

#include "core/eval/onlineeval.h"
#include "core/otel/spanmapper.h"
#include "core/promptlog/promptlog.h"
#include "core/workbench/runarchive.h"

namespace hako {

KeptSpans keepReceivedSpans(promptlog::PromptLog& log, const std::vector<otel::Span>& spans,
                            const QByteArray& json, const RunArchive* archive,
                            eval::OnlineEvaluator* online)
{
    std::vector<promptlog::CallRecord> calls;
    for (const otel::Span& s : spans)
        if (auto call = otel::toCallRecord(s, otel::interpretSpan(s)))
            calls.push_back(std::move(*call));
    KeptSpans kept;
    kept.calls = int64_t(calls.size());
    if (!calls.empty()) {
        Result<int64_t> inserted = log.insertNow(calls);
        if (!inserted) {
            kept.logError = inserted.error();
            return kept;
        }
        kept.added = *inserted;
    }
    if (archive)
        kept.archived = archive->appendRequest(spans, json, &kept.archiveError);
    // Sent again (already logged): evaluated the first time.
    if (online && kept.added > 0)
        online->offer(calls);
    return kept;
}

} // namespace hako
