#pragma once

#include "core/otel/runtable.h"
#include "core/pdl/interp/tracenode.h"
#include "core/util/diagnostic.h"

#include <QByteArray>
#include <QString>

#include <vector>

namespace hako::promptlog {
struct CallRecord;
}

namespace hako::otel {

/// The runs of OTLP data (JSON or protobuf, any number of traces): one row per trace. Fails
/// as parseOtlpData does (nothing decodes: the decoder's message, which says where).
Result<std::vector<RunRow>> runsOfOtlpData(const QByteArray& data, const QString& path);

/// The one run of a Hako or reference trace tree: its root's name (`def`, else the program's
/// file name, else the kind), every node a span, errors, tokens and cost from `pdl__usage`,
/// the result as output. `id` names it (the file).
RunRow runOfTrace(const pdl::TraceNode& root, const std::string& id);

/// The runs of a trace file: OTLP (every trace) or Hako's/the reference's trace JSON (one run).
/// Fails with a message naming the file (and where it is damaged). An OTLP file loadOtlpTrace
/// has just read, unchanged since, is not read again.
Result<std::vector<RunRow>> readRuns(const QString& path);

/// Prompt log calls grouped by their run (`runId`; a call without one is a run of its own):
/// name from the program (else the prompt, else the model), start and end from the calls'
/// times and latencies, a call per span, errors, tokens, cost, `session:`/`user:` tags, the
/// first call's last message as input and the last reply as output. By start time.
std::vector<RunRow> runsOfCalls(const std::vector<promptlog::CallRecord>& calls);

/// The calls of one prompt-log run as a trace, so that the trace panes show it: a root named
/// as runsOfCalls names the run, holding one model node per call in start order (labelled with
/// the prompt; the messages sent as its model input; the reply, or the error, as its result;
/// tokens and cost as its usage; model, endpoint, tags and the log's call id among its
/// expressions). Null when `calls` is empty. Pure.
pdl::TracePtr traceOfCalls(std::vector<promptlog::CallRecord> calls);

} // namespace hako::otel
