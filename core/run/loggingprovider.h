#pragma once

#include "core/pdl/model/forwardingprovider.h"
#include "core/promptlog/callrecord.h"

#include <QJsonObject>
#include <QStringList>

#include <functional>
#include <memory>

namespace hako::promptlog {
class PromptLog;
}

namespace hako {

/// What the prompt log keeps of the run a call belongs to.
struct RunLogInfo {
    QString runId;       ///< one per run (RunEnvironment gives a UUID)
    QString programPath; ///< the program file, absolute
    QString programHash; ///< SHA-256 of its text, hex
    QStringList tags;    ///< `--tag`, HAKO_TAGS, the Run settings' Tags, the folder's tags
    QJsonObject inputs;  ///< the run's input variables (`-d`/`-f` data)
    /// Where the run's calls come from: a program run by the user, an experiment's target, an
    /// evaluator's judge, the playground (CallRecord::origin).
    promptlog::CallOrigin origin = promptlog::CallOrigin::Program;
    /// The prompt library's commit the program is at (CallRecord::version); empty: unknown.
    QString version;
};

/// A model provider that records every chat call it passes on in the prompt log: the messages
/// exactly as sent, the reply, usage, time to first token, latency, status and the call site
/// (ChatRequest::site: the prompt's and program's ids and names) and the run's origin and
/// version. Recording only queues the call (PromptLog::record), so the run's thread
/// never waits for the store. Embeddings and model listings pass through unrecorded.
class LoggingModelProvider : public models::ForwardingModelProvider {
public:
    /// `endpointOf` names the endpoint a model resolves to (never its key); may be empty.
    LoggingModelProvider(std::shared_ptr<models::IModelProvider> inner,
                         std::shared_ptr<promptlog::PromptLog> log, RunLogInfo run,
                         std::function<QString(const std::string& model)> endpointOf = {});

    Result<models::ChatResponse> chat(const models::ChatRequest& request,
                                      const models::DeltaCallback& onDelta,
                                      const CancelToken& cancel) override;

    const RunLogInfo& run() const { return m_run; }

private:
    std::shared_ptr<promptlog::PromptLog> m_log;
    RunLogInfo m_run;
    std::function<QString(const std::string&)> m_endpointOf;
};

/// SHA-256 (hex) of a program file's bytes, "" when it cannot be read.
QString programContentHash(const QString& path);

/// Tags from HAKO_TAGS (comma or whitespace separated).
QStringList tagsFromEnvironment();

} // namespace hako
