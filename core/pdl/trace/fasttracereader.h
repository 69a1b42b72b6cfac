#pragma once

#include "core/pdl/interp/tracenode.h"
#include "core/util/cancel.h"

#include <QtGlobal>

#include <cstddef>
#include <functional>

namespace hako::pdl {

/// How a fast read ended.
struct FastTraceRead {
    enum class Status {
        Done,       ///< `root` holds the trace
        Cancelled,  ///< the cancel token was set
        Unsupported ///< damaged, or a shape this reader leaves to the tolerant reader
    };
    Status status = Status::Unsupported;
    TracePtr root;
};

/// Bytes of readable memory the fast reader needs after the data (simdjson's padding).
std::size_t fastTraceReaderPadding();

/// Builds a trace tree straight from trace JSON (Hako's or the reference's) with simdjson's
/// On Demand parser: no DOM of the file, recorded strings that repeat (contexts, messages)
/// shared between nodes. Gives the same tree as traceFromJson over the parsed document.
/// Anything it does not take exactly as the tolerant reader does — malformed JSON, nesting
/// beyond the tolerant reader's limits, numbers out of range, invalid escapes, repeated or
/// odd fields in places the tolerant reader treats specially — ends with `Unsupported`, and
/// the caller then reads the data with the tolerant reader (which says what and where).
/// `data` must be followed by fastTraceReaderPadding() readable bytes (`capacity` counts the
/// data and what follows). Runs on the calling thread; `progress(done, size)` is called about
/// every megabyte of input and `cancel` polled as often.
FastTraceRead fastTraceFromJson(const char* data, std::size_t size, std::size_t capacity,
                                const std::function<void(qint64, qint64)>& progress = {},
                                const CancelToken& cancel = {});

} // namespace hako::pdl
