#include "core/promptlog/callexchange.h"

#include "core/promptlog/promptlog.h"

#include <QHash>
#include <QIODevice>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>

namespace hako::promptlog {

namespace {

constexpr int kPage = 1000;

QString csvField(const QString& value)
{
    if (!value.contains(QLatin1Char(',')) && !value.contains(QLatin1Char('"')) &&
        !value.contains(QLatin1Char('\n')) && !value.contains(QLatin1Char('\r')))
        return value;
    QString quoted = value;
    quoted.replace(QLatin1Char('"'), QLatin1String("\"\""));
    return QLatin1Char('"') + quoted + QLatin1Char('"');
}

template <typename T> QString optionalText(const std::optional<T>& v)
{
    return v ? QString::number(*v) : QString();
}

QString csvRow(const CallRecord& c)
{
    const QStringList fields = {
        c.uid,
        c.runId,
        isoTime(c.startedAt),
        c.promptName,
        c.tags.join(QLatin1Char(' ')),
        c.model,
        c.endpoint,
        statusName(c.status),
        optionalText(c.promptTokens),
        optionalText(c.completionTokens),
        optionalText(c.cachedTokens),
        optionalText(c.timeToFirstTokenMs),
        optionalText(c.latencyMs),
        optionalText(c.cost),
        QString::number(c.retries),
        c.finishReason,
        c.error,
        c.programPath,
        c.span.isValid() ? QStringLiteral("%1:%2").arg(c.span.file).arg(c.span.line) : QString(),
        c.traceNodeId,
        c.messages.isEmpty()
            ? QString()
            : QString::fromUtf8(QJsonDocument(c.messages).toJson(QJsonDocument::Compact)),
        c.reply,
        c.promptId,
        c.programId,
        c.programName,
        c.version,
        originName(c.origin),
        c.resolvedModel,
        c.responseModel};
    QStringList out;
    for (const QString& f : fields)
        out.append(csvField(f));
    return out.join(QLatin1Char(',')) + QLatin1String("\r\n");
}

const char* kCsvHeader =
    "id,run_id,started_at,prompt,tags,model,endpoint,status,tokens_prompt,tokens_completion,"
    "tokens_cached,ttft_ms,latency_ms,cost,retries,finish_reason,error,program,source,"
    "trace_node,messages,reply,prompt_id,program_id,program_name,version,origin,resolved_model,"
    "response_model\r\n";

} // namespace

Result<int64_t> exportCalls(PromptLog& log, const CallFilter& filter, ExportFormat format,
                            QIODevice& out)
{
    CallFilter page = filter;
    page.oldestFirst = true;
    page.afterId = 0;
    page.limit = kPage;
    page.offset = 0;
    int64_t written = 0;
    if (format == ExportFormat::Csv && out.write(kCsvHeader) < 0)
        return makeError(QStringLiteral("cannot write: %1").arg(out.errorString()));
    for (;;) {
        auto calls = log.list(page, true);
        if (!calls)
            return calls.error();
        // JSON Lines carry each call's scores (annotations, evaluators' verdicts) along.
        QHash<QString, QJsonArray> scores;
        if (format == ExportFormat::Jsonl && !calls->isEmpty()) {
            ScoreFilter ofPage;
            for (const CallRecord& c : *calls)
                ofPage.callUids.append(c.uid);
            auto read = log.scores(ofPage);
            if (!read)
                return read.error();
            for (auto it = read->crbegin(); it != read->crend(); ++it)
                scores[it->callUid].append(it->toJson());
        }
        for (CallRecord& c : calls.value()) {
            // Calls stored before a rule existed (or under laxer settings) leave only as the
            // policy keeps them now.
            log.options().privacy.apply(c);
            QJsonObject json = c.toJson();
            if (const auto it = scores.constFind(c.uid); it != scores.cend())
                json.insert(QLatin1String("scores"), *it);
            const QByteArray line = format == ExportFormat::Jsonl
                                        ? QJsonDocument(json).toJson(QJsonDocument::Compact) + '\n'
                                        : csvRow(c).toUtf8();
            if (out.write(line) != line.size())
                return makeError(QStringLiteral("cannot write: %1").arg(out.errorString()));
            ++written;
        }
        if (calls->size() < kPage)
            return written;
        page.afterId = calls->last().id;
    }
}

Result<ImportSummary> importCalls(PromptLog& log, QIODevice& in)
{
    ImportSummary summary;
    std::vector<CallRecord> batch;
    int64_t lineNumber = 0;
    auto store = [&]() -> Result<bool> {
        if (batch.empty())
            return true;
        auto added = log.insertNow(std::move(batch));
        batch.clear();
        if (!added)
            return added.error();
        summary.added += *added;
        return true;
    };
    // Parse everything first: a bad line stores nothing.
    std::vector<CallRecord> all;
    QList<CallScore> scores;
    while (!in.atEnd()) {
        const QByteArray line = in.readLine().trimmed();
        ++lineNumber;
        if (line.isEmpty())
            continue;
        QJsonParseError parseError;
        const QJsonDocument doc = QJsonDocument::fromJson(line, &parseError);
        if (!doc.isObject())
            return makeError(QStringLiteral("line %1: not a JSON object%2")
                                 .arg(lineNumber)
                                 .arg(parseError.error != QJsonParseError::NoError
                                          ? QStringLiteral(" (%1)").arg(parseError.errorString())
                                          : QString()));
        auto call = CallRecord::fromJson(doc.object());
        if (!call)
            return makeError(
                QStringLiteral("line %1: %2").arg(lineNumber).arg(call.error().message));
        for (const QJsonValue& v : doc.object().value(QLatin1String("scores")).toArray()) {
            auto score = CallScore::fromJson(v.toObject());
            if (!score)
                return makeError(
                    QStringLiteral("line %1: %2").arg(lineNumber).arg(score.error().message));
            scores.append(*score);
        }
        all.push_back(std::move(call.value()));
    }
    summary.read = int64_t(all.size());
    for (CallRecord& c : all) {
        batch.push_back(std::move(c));
        if (batch.size() >= size_t(kPage)) {
            if (auto ok = store(); !ok)
                return ok.error();
        }
    }
    if (auto ok = store(); !ok)
        return ok.error();
    // A score the log has already (same call, name and source) is replaced by the file's.
    for (const CallScore& s : scores)
        if (auto kept = log.setScore(s); !kept)
            return kept.error();
    return summary;
}

} // namespace hako::promptlog
