#pragma once

#include "widgets/promptview/promptview.h"

#include <QHash>
#include <QString>

namespace hako {

namespace pdl {
struct TraceNode;
}

/// The replies of a finished run's trace for PromptView::setReplies(): for each model block
/// (by PromptDoc::blockId() of its source span) the latest call's reply, its tokens (prompt +
/// completion from `pdl__usage`), its time and, for a failed call, the error as a plain
/// sentence. Only nodes of `programFile` count (an included program's calls are not its
/// cards); "" takes every node. Pure; any thread once the run is over.
QHash<QString, PromptReply> repliesFromTrace(const pdl::TraceNode& root,
                                             const QString& programFile = QString());

} // namespace hako
