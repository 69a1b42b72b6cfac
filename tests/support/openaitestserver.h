#pragma once

#include <QByteArray>
#include <QList>
#include <QPair>
#include <QString>
#include <QStringList>
#include <QUrl>

#include <atomic>
#include <memory>

namespace hako::testing {

/// One HTTP request the test server received, kept for assertions.
struct RecordedRequest {
    QByteArray method;
    QByteArray path;                              ///< path and query, e.g. `/v1/chat/completions`
    QList<QPair<QByteArray, QByteArray>> headers; ///< names lower-cased
    QByteArray body;

    /// The value of header `lowerName` ("" when absent).
    QByteArray header(const QByteArray& lowerName) const;
};

/// What the server answers to one request.
struct ScriptedReply {
    int status = 200;
    QList<QPair<QByteArray, QByteArray>> headers;
    /// The whole body of a plain reply (ignored when `events` is not empty).
    QByteArray body;
    /// Server-sent events: each is sent as `data: <event>\n\n` in its own HTTP chunk.
    QList<QByteArray> events;
    /// Wait this long before sending the status line.
    int delayMs = 0;
    /// Wait this long between two events.
    int eventDelayMs = 0;
    /// Drop the connection after sending `events` (no terminating chunk): a mid-stream
    /// disconnect.
    bool disconnectAfterEvents = false;
    /// Drop the connection right after reading the request, without any reply.
    bool disconnectImmediately = false;
    /// Like disconnectImmediately, but with a TCP reset (RST) instead of an orderly close.
    bool resetImmediately = false;

    // --- faults (tests/core/tst_modelfaults.cpp) ---
    /// When not empty: these exact bytes are the whole response (status line, headers and body
    /// as given, so they may be garbled), each written separately and flushed, `rawDelayMs`
    /// apart; then the connection is closed.
    QList<QByteArray> raw;
    int rawDelayMs = 0;
    /// When >= 0: a 200 JSON reply whose Content-Length announces this many bytes, streamed as
    /// fast as the client reads them (a reply larger than any sensible limit).
    qint64 hugeBodyBytes = -1;
    /// After `events`: keep sending `endlessEvent` (or a content delta) until the client goes
    /// away, as fast as it reads (a stream that never ends).
    bool endless = false;
    QByteArray endlessEvent;
    /// When > 0: the reply (status line, headers, body) is sent one byte every `dripMs`.
    int dripMs = 0;
    /// When > 0: every event of a streamed reply is split into pieces of this many bytes, each
    /// in its own HTTP chunk and TCP write (`eventDelayMs` still applies between events).
    int splitEventsBytes = 0;
    /// When set, receives the steady_clock time (ns) just after each event is written to the
    /// socket (for latency benchmarks).
    std::shared_ptr<std::atomic<qint64>> eventWrittenNs;

    /// A non-streamed chat completion with `content` and usage (when promptTokens >= 0).
    static ScriptedReply chat(const QString& content, int promptTokens = 5,
                              int completionTokens = 3);
    /// A streamed chat completion: one chunk per token, then a usage chunk (when
    /// promptTokens >= 0) and `[DONE]`.
    static ScriptedReply chatStream(const QStringList& tokens, int promptTokens = 5,
                                    int completionTokens = -1);
    /// A chat completion whose assistant message calls one tool.
    static ScriptedReply toolCall(const QString& id, const QString& name,
                                  const QString& argumentsJson);
    /// An OpenAI-style error body with `status` and, when >= 0, a Retry-After header.
    static ScriptedReply error(int status, const QString& message, int retryAfterSeconds = -1);
    /// A 200 reply whose body is not valid JSON.
    static ScriptedReply badJson();
    /// A 200 JSON reply with exactly this body (for malformed but well-formed JSON).
    static ScriptedReply withBody(const QByteArray& body);
};

/// A scriptable OpenAI-compatible HTTP/1.1 server on 127.0.0.1 (random port) for tests and
/// benchmarks: `/v1/chat/completions` (plain and SSE), `/v1/embeddings`, `/v1/models`.
///
/// Scripted replies are queued per path and served in order; when a path's queue is empty the
/// server answers by itself: chat echoes the last user message (`echo: …`, streamed word by word
/// when the request asks to stream), embeddings are deterministic 4-dimensional vectors of each
/// text, models lists `setModels()`. A request naming a model outside a non-empty `setModels()`
/// list gets a 404 `model_not_found`.
///
/// Threading: the server runs on its own thread, so a test may block its own thread on a
/// client call. All public functions are thread-safe. Keep-alive connections are supported.
class OpenAiTestServer {
public:
    OpenAiTestServer();
    ~OpenAiTestServer();
    OpenAiTestServer(const OpenAiTestServer&) = delete;
    OpenAiTestServer& operator=(const OpenAiTestServer&) = delete;

    /// Listens on 127.0.0.1 and a free port; false when that fails.
    bool start();
    quint16 port() const;
    /// `http://127.0.0.1:<port>/v1`.
    QString baseUrl() const;

    /// Queues a reply for the next request to `path` (`/v1/chat/completions`, …).
    void enqueue(const QByteArray& path, const ScriptedReply& reply);
    void enqueueChat(const ScriptedReply& reply) { enqueue("/v1/chat/completions", reply); }
    void setModels(const QStringList& models);

    QList<RecordedRequest> requests() const;
    /// Requests received (complete request heads read), however each was answered: proves a
    /// POST was sent once.
    int requestCount() const;
    void clearRequests();
    /// Connections currently open (for checking that a cancelled call frees its connection).
    int openConnections() const;

    /// Requests read whose reply is not finished yet (waiting for a delay, or streaming).
    int requestsInFlight() const;
    /// The most requests that were in flight at once since the start or resetPeakInFlight().
    int peakRequestsInFlight() const;
    void resetPeakInFlight();
    /// Replies the server makes by itself (no scripted reply queued) wait this long first.
    void setDefaultDelayMs(int delayMs);

    struct Impl;

private:
    std::unique_ptr<Impl> d;
};

} // namespace hako::testing
