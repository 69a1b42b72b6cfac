#include "core/workbench/receivedspans.h"

#include "core/eval/onlineeval.h"
#include "core/otel/spanmapper.h"
#include "core/promptlog/promptlog.h"
#include "core/workbench/runarchive.h"

#include <utility>

namespace hako {

KeptSpans keepReceivedSpans(promptlog::PromptLog& log, const std::vector<otel::Span>& spans,
                            const QByteArray& json, const RunArchive* archive,
                            eval::OnlineEvaluator* online)
{
    // The calls go to the log a few dozen at a time: it writes one batch while this thread
    // makes the next.
    constexpr size_t kBatch = 32;
    KeptSpans kept;
    promptlog::CallInsert insert = log.beginInsert();
    std::vector<promptlog::CallRecord> offered; // for online evaluation, as received
    std::vector<promptlog::CallRecord> batch;
    for (const otel::Span& s : spans) {
        if (!otel::mayBeModelCall(s))
            continue; // a tool's, a retriever's… span: not read further
        std::optional<promptlog::CallRecord> call = otel::toCallRecord(s, otel::interpretSpan(s));
        if (!call)
            continue;
        ++kept.calls;
        if (online)
            offered.push_back(*call);
        batch.push_back(std::move(*call));
        if (batch.size() == kBatch)
            insert.add(std::exchange(batch, {}));
    }
    insert.add(std::move(batch));
    // The archive's lines are made while the last calls are committed, and written once they
    // are (a request refused is retried: its spans would be archived twice).
    RunArchive::RequestLines lines;
    if (archive)
        lines = archive->requestLines(spans, json);
    Result<int64_t> inserted = insert.finish();
    if (!inserted) {
        kept.logError = inserted.error();
        return kept;
    }
    kept.added = *inserted;
    if (archive)
        kept.archived = archive->append(lines, &kept.archiveError);
    // Sent again (already logged): evaluated the first time.
    if (online && kept.added > 0)
        online->offer(offered);
    return kept;
}

} // namespace hako
