#include "core/otel/runsources.h"

#include "core/otel/otlpfile.h"
#include "core/pdl/trace/tracediff.h"
#include "core/pdl/trace/traceloader.h"
#include "core/pdl/valuejson.h"
#include "core/promptlog/callrecord.h"

#include <QFile>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonObject>

#include <algorithm>
#include <map>

namespace hako::otel {

namespace {

std::string cutText(const std::string& text)
{
    if (text.size() <= RunRow::kTextLimit)
        return text;
    size_t end = RunRow::kTextLimit;
    while (end > 0 && (uchar(text[end]) & 0xC0) == 0x80)
        --end;
    return text.substr(0, end) + "…";
}

std::string tagValue(const QStringList& tags, const QString& key)
{
    const QString prefix = key + QLatin1Char(':');
    for (const QString& tag : tags)
        if (tag.startsWith(prefix))
            return tag.mid(prefix.size()).toStdString();
    return {};
}

// The runs `collector` gathered from the OTLP spans a scan of `path` handed on.
Result<std::vector<RunRow>> runsOfScan(const QString& path, const Result<OtlpScan>& scanned,
                                       const RunCollector& collector)
{
    if (!scanned) {
        Diagnostic d = scanned.error();
        if (!d.message.contains(path))
            d.message = QStringLiteral("%1: %2").arg(path, d.message);
        return d;
    }
    if (collector.size() == 0)
        return makeError(scanned->firstProblem.isEmpty()
                             ? QStringLiteral("%1 holds no spans").arg(path)
                             : QStringLiteral("%1: %2").arg(path, scanned->firstProblem));
    return collector.rows();
}

} // namespace

Result<std::vector<RunRow>> runsOfOtlpData(const QByteArray& data, const QString& path)
{
    RunCollector collector;
    const auto scanned = scanOtlpData(
        data, path, [&collector](const std::vector<Span>& spans) { collector.add(spans); });
    return runsOfScan(path, scanned, collector);
}

RunRow runOfTrace(const pdl::TraceNode& root, const std::string& id)
{
    RunRow row;
    row.id = id;
    row.name = !root.def.empty()           ? root.def
               : !root.span.file.isEmpty() ? QFileInfo(root.span.file).fileName().toStdString()
                                           : std::string(pdl::blockKindName(root.kind));
    row.startNanos = root.startNanos;
    row.endNanos = root.endNanos;
    std::vector<const pdl::TraceNode*> stack{&root};
    while (!stack.empty()) {
        const pdl::TraceNode* n = stack.back();
        stack.pop_back();
        ++row.spans;
        if (!n->error.empty())
            ++row.errors;
        const pdl::TraceMeasures m = pdl::ownMeasures(n);
        row.promptTokens += m.promptTokens;
        row.completionTokens += m.completionTokens;
        if (m.hasCost)
            row.cost = row.cost.value_or(0) + m.cost;
        for (const auto& group : n->children)
            for (const pdl::TracePtr& c : group.nodes)
                if (c)
                    stack.push_back(c.get());
        for (const auto& def : n->defs)
            if (def.second)
                stack.push_back(def.second.get());
    }
    if (root.hasResult) {
        try {
            row.output = cutText(root.result.toText());
        } catch (...) { // an undefined value has no text
        }
    }
    row.status = row.errors > 0 ? RunStatus::Error : RunStatus::Ok;
    return row;
}

Result<std::vector<RunRow>> readRuns(const QString& path)
{
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly))
        return makeError(QStringLiteral("cannot read %1: %2").arg(path, file.errorString()));
    if (looksLikeOtlp(file.peek(64 * 1024))) {   // a batch at a time: the file may be 1 GB
        if (auto read = runsReadWithTrace(path)) // the window has just read it
            return std::move(*read);
        RunCollector collector;
        const auto scanned = scanOtlpFile(
            path, [&collector](const std::vector<Span>& spans) { collector.add(spans); });
        return runsOfScan(path, scanned, collector);
    }
    file.close();
    Result<pdl::TraceLoadResult> loaded = pdl::readTraceFile(path);
    if (!loaded)
        return loaded.error();
    if (loaded->partial)
        return loaded->problem;
    if (!loaded->root)
        return makeError(QStringLiteral("%1 holds no trace").arg(path));
    return std::vector<RunRow>{runOfTrace(*loaded->root, path.toStdString())};
}

std::vector<RunRow> runsOfCalls(const std::vector<promptlog::CallRecord>& calls)
{
    std::map<std::string, RunRow> runs;
    for (const promptlog::CallRecord& c : calls) {
        const std::string key = (c.runId.isEmpty() ? c.uid : c.runId).toStdString();
        RunRow& row = runs[key];
        const int64_t start = c.startedAt * 1000000;
        const int64_t end = start + int64_t(c.latencyMs.value_or(0) * 1e6);
        if (row.id.empty()) {
            row.id = key;
            row.name = (!c.programName.isEmpty()  ? c.programName
                        : !c.promptName.isEmpty() ? c.promptName
                                                  : c.model)
                           .toStdString();
            row.startNanos = start;
            row.endNanos = end;
        }
        if (start < row.startNanos || row.input.empty()) {
            if (!c.messages.isEmpty())
                row.input = cutText(c.messages.last()
                                        .toObject()
                                        .value(QLatin1String("content"))
                                        .toString()
                                        .toStdString());
        }
        if (end >= row.endNanos)
            row.output = cutText(c.reply.toStdString());
        row.startNanos = std::min(row.startNanos, start);
        row.endNanos = std::max(row.endNanos, end);
        ++row.spans;
        if (c.status == promptlog::CallStatus::Failed || !c.error.isEmpty())
            ++row.errors;
        row.promptTokens += c.promptTokens.value_or(0);
        row.completionTokens += c.completionTokens.value_or(0);
        if (c.cost)
            row.cost = row.cost.value_or(0) + *c.cost;
        if (row.session.empty())
            row.session = tagValue(c.tags, QStringLiteral("session"));
        if (row.user.empty())
            row.user = tagValue(c.tags, QStringLiteral("user"));
    }
    std::vector<RunRow> out;
    out.reserve(runs.size());
    for (auto& [key, row] : runs) {
        row.status = row.errors > 0 ? RunStatus::Error : RunStatus::Ok;
        out.push_back(std::move(row));
    }
    sortRuns(out, RunColumn::Start);
    return out;
}

namespace {

pdl::TracePtr callNode(const promptlog::CallRecord& c)
{
    auto n = std::make_shared<pdl::TraceNode>();
    n->kind = pdl::BlockKind::Model;
    n->id = c.uid.toStdString();
    n->def = (!c.promptName.isEmpty() ? c.promptName : c.model).toStdString();
    n->startNanos = c.startedAt * 1000000;
    n->endNanos = n->startNanos + int64_t(c.latencyMs.value_or(0) * 1e6);
    try { // the log keeps any JSON; one nested past the bridge's depth is left out
        if (!c.messages.isEmpty())
            n->modelInput = pdl::fromQJsonValue(c.messages);
    } catch (...) {
    }
    if (c.status == promptlog::CallStatus::Ok && c.error.isEmpty()) {
        n->result = pdl::Value(c.reply.toStdString());
        n->hasResult = true;
    } else {
        n->error = (c.error.isEmpty() ? promptlog::statusName(c.status) : c.error).toStdString();
    }
    QJsonObject usage;
    if (c.promptTokens)
        usage.insert(QStringLiteral("prompt_tokens"), qint64(*c.promptTokens));
    if (c.completionTokens)
        usage.insert(QStringLiteral("completion_tokens"), qint64(*c.completionTokens));
    if (c.cost)
        usage.insert(QStringLiteral("cost"), *c.cost);
    if (!usage.isEmpty())
        n->usage = pdl::fromQJsonValue(usage);
    n->exprs.emplace_back("model", pdl::Value(c.model.toStdString()));
    if (!c.endpoint.isEmpty())
        n->exprs.emplace_back("endpoint", pdl::Value(c.endpoint.toStdString()));
    if (!c.tags.isEmpty())
        n->exprs.emplace_back("tags", pdl::fromQJsonValue(QJsonArray::fromStringList(c.tags)));
    if (c.id > 0)
        n->exprs.emplace_back("log call", pdl::Value(std::to_string(c.id)));
    return n;
}

} // namespace

pdl::TracePtr traceOfCalls(std::vector<promptlog::CallRecord> calls)
{
    if (calls.empty())
        return nullptr;
    std::stable_sort(calls.begin(), calls.end(),
                     [](const auto& a, const auto& b) { return a.startedAt < b.startedAt; });
    const std::vector<RunRow> rows = runsOfCalls(calls);
    auto root = std::make_shared<pdl::TraceNode>();
    root->kind = pdl::BlockKind::Sequence;
    root->id = rows.front().id;
    root->def = rows.front().name;
    root->startNanos = rows.front().startNanos;
    root->endNanos = rows.front().endNanos;
    root->isLeaf = false;
    for (const promptlog::CallRecord& c : calls)
        root->addChild("calls", callNode(c));
    if (!calls.back().reply.isEmpty()) {
        root->result = pdl::Value(calls.back().reply.toStdString());
        root->hasResult = true;
    }
    return root;
}

} // namespace hako::otel
