#pragma once

#include "core/pdl/model/modelprovider.h"

#include <QString>

#include <map>
#include <string>

namespace hako::models {

/// Serves chat replies recorded in a cassette file, so programs run without a model server.
///
/// The cassette is JSON: `{"interactions": [{"request": {"model", "messages", "parameters"},
/// "response": {"content", "message"?, "raw"?, "usage"?: {"prompt_tokens",
/// "completion_tokens"}}}]}`. Requests match by model, messages (role/content/tool fields as
/// sent to a server) and parameters (nulls and client-only ones such as api_key ignored);
/// a miss is an error naming the request. Streamed requests get the content word by word.
/// Immutable after load(); thread-safe.
class ReplayProvider : public IModelProvider {
public:
    static Result<std::shared_ptr<ReplayProvider>> load(const QString& cassetteFile);

    QString id() const override { return QStringLiteral("replay"); }
    Result<ChatResponse> chat(const ChatRequest& request, const DeltaCallback& onDelta,
                              const CancelToken& cancel) override;
    Result<std::vector<std::vector<float>>> embed(const std::string& model,
                                                  const std::vector<std::string>& texts,
                                                  const CancelToken& cancel) override;
    Result<QStringList> listModels(const CancelToken& cancel) override;

    /// The key a request is looked up by (canonical JSON of model, messages, parameters).
    static std::string requestKey(const ChatRequest& request);
    /// One cassette interaction for `request` answered by `response` (to write cassettes).
    static pdl::Value interaction(const ChatRequest& request, const ChatResponse& response);

private:
    QString m_file;
    std::map<std::string, ChatResponse> m_replies;
    QStringList m_models;
};

} // namespace hako::models
