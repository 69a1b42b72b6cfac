#pragma once

#include "core/library/promptlibrary.h"
#include "core/util/httpserver.h"

#include <QObject>

#include <atomic>
#include <memory>

namespace hako::library {

/// Serves the prompt library to applications over HTTP (on HttpServer):
/// - `GET /v1/prompts`: every prompt with its newest version and labels;
/// - `GET /v1/prompts/NAME[?label=L|version=V][&variables=JSON]`: the prompt at that label or
///   version (default: the newest) with its program text and, with `variables`, the messages it
///   would send (see renderPromptMessages());
/// - `POST /v1/prompts/NAME/render` with `{"label"|"version", "variables"}`: the same.
/// Only committed versions are served. Answers are cached until the library's newest commit
/// changes (looked at at most every `refreshMs`). Beyond loopback a bearer token is required.
class PromptServer : public QObject {
    Q_OBJECT
public:
    PromptServer(PromptLibrary library, HttpServerOptions options, int refreshMs = 500,
                 QObject* parent = nullptr);
    ~PromptServer() override;

    Result<quint16> start();
    void stop();
    quint16 port() const;

    /// Requests answered (any status).
    qint64 requests() const;

    /// The answer to one request, without a socket: what the server and the tests use.
    /// Not thread-safe (the server calls it from its one thread).
    HttpResponse answer(const HttpRequest& request);

Q_SIGNALS:
    void requestRejected(int status, const QString& reason);

private:
    struct State;
    std::shared_ptr<State> m_state;
    HttpServer* m_server = nullptr;
};

} // namespace hako::library
