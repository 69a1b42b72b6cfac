#pragma once

#include "core/util/diagnostic.h"

#include <QJsonArray>
#include <QJsonObject>
#include <QString>
#include <QStringList>

#include <cstdint>
#include <optional>

namespace hako::promptlog {

/// How a model call ended.
enum class CallStatus { Ok, Failed, Cancelled };

/// "ok", "failed", "cancelled".
QString statusName(CallStatus status);
/// The status named `name` (as statusName() spells it), or nothing.
std::optional<CallStatus> statusFromName(const QString& name);

/// Where a call comes from: a program's own model block, an evaluator's judge, the playground,
/// the target program of an experiment, or a span received over OTLP.
enum class CallOrigin { Program, Judge, Playground, Experiment, Received };

/// "program", "judge", "playground", "experiment", "received".
QString originName(CallOrigin origin);
/// The origin named `name` (as originName() spells it), or nothing.
std::optional<CallOrigin> originFromName(const QString& name);
/// The origin of a call logged before calls carried one: `judge` for the judge's calls
/// (prompt or tag `eval:judge`), `playground` for the playground's (tag `playground`), else
/// `program` — the rule the stores' schema upgrade applies too.
CallOrigin legacyOrigin(const QString& promptName, const QStringList& tags);

/// One model call of one run, as the prompt log keeps it. A plain value: copy it, move it, hand
/// it to PromptLog::record() from any thread.
struct CallRecord {
    /// The store's sequence number (`hako log show 42`); 0 until the call is stored.
    int64_t id = 0;
    /// A stable identity across stores (export/import, links from traces); PromptLog::record()
    /// gives a UUID when empty.
    QString uid;
    QString runId;
    QString programPath;
    QString programHash; ///< of the program's text, as the caller computes it
    QString promptName;  ///< the prompt's human name (core/pdl/promptidentity.h)
    /// The prompt's identity (core/pdl/promptidentity.h): its model block's id and its
    /// program's ("~…": derived from the path, not yet saved in the program); empty for calls
    /// made outside a program (judge, playground).
    QString promptId;
    QString programId;
    QString programName; ///< the program's human name
    /// The prompt library's commit the program ran at; empty when it is not known.
    QString version;
    CallOrigin origin = CallOrigin::Program;
    SourceSpan span; ///< the model block's place in its program
    QString traceNodeId;
    QStringList tags; ///< "key:value" or plain words
    QString model;    ///< as the program names it (an alias such as `default`)
    QString endpoint; ///< the endpoint's name, never its key
    /// The model the endpoint was asked for once the alias was resolved, and the one the
    /// server says answered; empty when not known (calls logged before, received spans).
    QString resolvedModel;
    QString responseModel;
    QJsonObject parameters;
    QJsonArray messages; ///< as sent after templating: [{role, content, …}, …]
    QString reply;
    QJsonArray toolCalls;
    QString finishReason;
    std::optional<int64_t> promptTokens;
    std::optional<int64_t> completionTokens;
    std::optional<int64_t> cachedTokens;
    std::optional<double> timeToFirstTokenMs;
    std::optional<double> latencyMs;
    std::optional<double> cost; ///< in the price table's currency; none for unknown models
    CallStatus status = CallStatus::Ok;
    QString error;
    int retries = 0;
    QJsonObject inputs;    ///< the run's input variables (`-d`/`-f` data, `read` answers)
    int64_t startedAt = 0; ///< UTC, milliseconds since the epoch
    /// The content (messages, reply, tool calls, inputs) was not stored: "metadata only".
    bool contentOmitted = false;

    bool operator==(const CallRecord&) const = default;

    /// The model that answered, as well as is known: the server's, else the resolved, else
    /// the program's name. What prices and `--by model` go by.
    QString answeredModel() const
    {
        return !responseModel.isEmpty()   ? responseModel
               : !resolvedModel.isEmpty() ? resolvedModel
                                          : model;
    }

    /// The call as one JSON object (the `hako log export` line format; `id` is the uid).
    QJsonObject toJson() const;
    /// The call an export line describes; the error says which field is wrong.
    static Result<CallRecord> fromJson(const QJsonObject& object);
};

/// The name a call is listed under: the model block's `def`, else its `description` (its first
/// line), else `file:line` with the program's file name. Pure.
QString promptNameFor(const QString& def, const QString& description, const QString& file,
                      int line);

/// The text full-text search looks at: every message's content and the reply, one per line.
QString searchableText(const QJsonArray& messages, const QString& reply);

/// UTC milliseconds as ISO 8601 with milliseconds (`2024-05-01T10:00:00.000Z`).
QString isoTime(int64_t utcMs);

} // namespace hako::promptlog
