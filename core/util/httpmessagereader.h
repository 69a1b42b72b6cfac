#pragma once

#include <QByteArray>
#include <QByteArrayView>
#include <QList>
#include <QPair>
#include <QString>

namespace hako {

/// What an HttpMessageReader accepts before it gives up.
struct HttpReaderLimits {
    /// The start line and headers together (and, separately, a chunked body's trailers).
    qsizetype maxHeadBytes = 64 * 1024;
    /// Header lines of one message.
    int maxHeaderCount = 256;
    /// One chunk-size or trailer line of a chunked body.
    qsizetype maxChunkLineBytes = 4096;
    /// The body, framing removed; -1 for no limit. A Content-Length over it fails as soon as
    /// the head is read, a chunk as soon as its size line is.
    qint64 maxBodyBytes = -1;
};

/// One HTTP/1.1 message read incrementally, as bytes arrive from a connection: the start line
/// (a request line or a status line), the headers, then the body by Content-Length, by chunks,
/// or (a response only) up to the end of the connection. The one HTTP reader of Hako: the
/// server (HttpServer) reads requests with it, the model client (HttpTransport) responses.
///
/// Every limit (HttpReaderLimits) is checked as the bytes arrive, so a peer cannot make it
/// buffer more than a head's worth besides the body the caller takes. It refuses what would
/// let two readers disagree on where a message ends: conflicting Content-Length values, a bare
/// CR inside a header line, a malformed or overflowing chunk size, an unknown transfer coding.
/// Interim 1xx responses are skipped. Bytes may be fed in any pieces: one at a time gives the
/// same result as all at once. Not thread-safe; one reader per message and connection.
class HttpMessageReader {
public:
    enum class Kind { Request, Response };
    enum class State { Head, Body, Done, Failed };

    /// `bodyless` (a response only): the request was HEAD, so no body whatever is announced.
    explicit HttpMessageReader(Kind kind, HttpReaderLimits limits = {}, bool bodyless = false);

    /// Consumes the start of `in`, appending body bytes to `body` (chunk framing removed), and
    /// returns how many bytes it used. It stops early right after the head is complete (so the
    /// caller can look at it before any body is read; call again with the rest), at the end of
    /// the message (what follows is the next message's) and when the message is malformed.
    qsizetype read(QByteArrayView in, QByteArray& body);
    /// Consumes all of `bytes` (read() until it is used up). Returns false once the message is
    /// malformed (see error()). Bytes after the end of the message make the connection
    /// unusable for another (reusable() is false) but are not an error.
    bool feed(QByteArrayView bytes, QByteArray& body);
    /// The connection ended: completes a body that runs to the end of the connection, and is an
    /// error anywhere else (a truncated message). Returns whether the message is complete.
    bool endOfStream();

    Kind kind() const { return m_kind; }
    State state() const { return m_state; }
    /// The start line and headers are read (also when their framing then failed).
    bool headersComplete() const { return m_headComplete; }
    /// Some bytes of the head have arrived (a head is under way).
    bool headStarted() const { return m_state == State::Head && !m_head.isEmpty(); }

    /// A request's method and target as sent ("" for a response).
    const QByteArray& method() const { return m_method; }
    const QByteArray& target() const { return m_target; }
    /// A response's status (0 for a request, or before the head is read).
    int status() const { return m_status; }
    /// HTTP/1.0 rather than HTTP/1.1.
    bool isHttp10() const { return m_http10; }
    /// The headers in order, names as sent.
    const QList<QPair<QByteArray, QByteArray>>& headers() const { return m_headers; }
    /// A header's value (case-insensitive name; the first when repeated), "" when absent.
    QByteArray header(QByteArrayView name) const;
    /// Whether the comma-separated header value lists `token` (case-insensitive). Pure.
    static bool listsToken(QByteArrayView value, QByteArrayView token);

    /// Why the message is malformed ("" while it is not), in words for the side reading it: a
    /// request's for the client that sent it, a response's for the user of the model client.
    QString error() const { return m_error; }
    /// The status a server answers a malformed request with (400, 411, 413 or 431; 0 while
    /// nothing failed).
    int errorStatus() const { return m_errorStatus; }
    /// After Done (a response): the connection may carry another request (HTTP/1.1 without
    /// `Connection: close`, the body delimited by length or chunks, nothing extra received).
    bool reusable() const { return m_state == State::Done && m_reusable; }

private:
    enum class Framing { None, Length, Chunked, UntilClose };
    enum class ChunkState { Size, Data, DataEnd, Trailer };

    bool fail(int status, const QString& requestWords, const QString& responseWords);
    bool readHead(QByteArrayView& in);
    bool parseHead(QByteArrayView head);
    bool parseStartLine(QByteArrayView line);
    bool parseHeaderLine(QByteArrayView line);
    bool chooseFraming();
    bool contentLength(qint64& length);
    void readBody(QByteArrayView& in, QByteArray& body);
    /// Moves what is still due of a body or chunk from `in` to `body`; whether all of it is.
    bool takeRemaining(QByteArrayView& in, QByteArray& body);
    bool readChunked(QByteArrayView& in, QByteArray& body);
    bool chunkLine(QByteArrayView line);

    Kind m_kind;
    HttpReaderLimits m_limits;
    bool m_bodyless = false;
    State m_state = State::Head;
    bool m_headComplete = false;
    QByteArray m_head;
    QByteArray m_method;
    QByteArray m_target;
    int m_status = 0;
    bool m_http10 = false;
    QList<QPair<QByteArray, QByteArray>> m_headers;
    QString m_error;
    int m_errorStatus = 0;
    bool m_reusable = true;
    Framing m_framing = Framing::None;
    qint64 m_remaining = 0; // Length: body bytes still due; Chunked: of the current chunk
    qint64 m_bodyBytes = 0;
    ChunkState m_chunk = ChunkState::Size;
    QByteArray m_line; // a chunk-size or trailer line in progress
    qsizetype m_trailerBytes = 0;
};

} // namespace hako
