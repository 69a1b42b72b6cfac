#include "widgets/promptview/promptreplies.h"

#include "core/pdl/analysis/plainerror.h"
#include "core/pdl/interp/tracenode.h"
#include "core/playground/promptdoc.h"

#include <QFileInfo>

namespace hako {

namespace {

qint64 intField(const pdl::Value& dict, const char* key)
{
    if (!dict.isDict())
        return -1;
    const pdl::Value* v = dict.asDict().find(key);
    return v && v->isInt() ? qint64(v->asInt()) : -1;
}

bool sameFile(const QString& a, const QString& b)
{
    return a.isEmpty() || b.isEmpty() || a == b ||
           QFileInfo(a).absoluteFilePath() == QFileInfo(b).absoluteFilePath();
}

void collect(const pdl::TraceNode& node, const QString& file, QHash<QString, PromptReply>& out)
{
    if (node.kind == pdl::BlockKind::Model && node.span.isValid() &&
        sameFile(file, node.span.file)) {
        const SourceSpan span = node.block ? node.block->span : node.span;
        PromptReply r;
        if (!node.error.empty()) {
            Diagnostic d;
            d.message = QString::fromStdString(node.error);
            d.span = node.errorSpan;
            r.error = pdl::plainRunError(d, nullptr).text;
        } else if (node.hasResult) {
            r.text = node.result.isString() ? QString::fromStdString(node.result.asString())
                                            : QString::fromStdString(node.result.str());
        }
        const qint64 prompt = intField(node.usage, "prompt_tokens");
        const qint64 completion = intField(node.usage, "completion_tokens");
        if (prompt >= 0 || completion >= 0)
            r.tokens = std::max<qint64>(0, prompt) + std::max<qint64>(0, completion);
        if (node.endNanos > node.startNanos)
            r.ms = (node.endNanos - node.startNanos) / 1000000;
        // In a loop the same block runs several times: the last call is the one shown.
        out.insert(playground::PromptDoc::blockId(span), r);
    }
    for (const auto& [name, def] : node.defs) {
        if (def)
            collect(*def, file, out);
    }
    for (const auto& group : node.children) {
        for (const auto& child : group.nodes) {
            if (child)
                collect(*child, file, out);
        }
    }
}

} // namespace

QHash<QString, PromptReply> repliesFromTrace(const pdl::TraceNode& root, const QString& programFile)
{
    QHash<QString, PromptReply> out;
    collect(root, programFile, out);
    return out;
}

} // namespace hako
