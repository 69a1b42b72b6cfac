#pragma once

#include <QByteArray>
#include <QByteArrayView>
#include <QList>
#include <QPair>
#include <QString>

namespace hako::models {

/// An HTTP/1.1 response read incrementally, as bytes arrive from a connection: the status line,
/// the headers, then the body by Content-Length, by chunks, or up to the end of the connection.
/// Interim 1xx responses are skipped. Every limit is checked as the bytes arrive, so a server
/// cannot make the parser buffer more than a header block's worth (64 KB) besides the body the
/// caller takes.
class HttpResponseParser {
public:
    enum class State { Head, Body, Done, Failed };

    /// `bodyless`: the request was HEAD, so no response has a body whatever it announces.
    explicit HttpResponseParser(bool bodyless = false) : m_bodyless(bodyless) {}

    /// Consumes `bytes`, appending body bytes to `body` (chunk framing removed). Returns false
    /// once the response is malformed (see error()). Bytes after the end of the response make
    /// the connection unusable for another request (reusable() is false) but are not an error.
    bool feed(QByteArrayView bytes, QByteArray& body);
    /// The connection ended: completes a body that runs to the end of the connection, and is an
    /// error anywhere else (a truncated response). Returns whether the response is complete.
    bool endOfStream();

    State state() const { return m_state; }
    bool headersComplete() const { return m_state == State::Body || m_state == State::Done; }
    int status() const { return m_status; }
    const QList<QPair<QByteArray, QByteArray>>& headers() const { return m_headers; }
    /// A header's value (case-insensitive name; the first when repeated), "" when absent.
    QByteArray header(QByteArrayView name) const;
    /// Why the response is malformed ("" while it is not).
    QString error() const { return m_error; }
    /// After Done: the connection may carry another request (HTTP/1.1 without
    /// `Connection: close`, the body delimited by length or chunks, nothing extra received).
    bool reusable() const { return m_state == State::Done && m_reusable; }

    static constexpr qsizetype kMaxHeadBytes = 64 * 1024;

private:
    bool fail(const QString& why);
    bool parseHead(QByteArrayView head);
    bool feedBody(QByteArrayView& in, QByteArray& body);

    enum class Framing { None, Length, Chunked, UntilClose };
    enum class ChunkState { Size, Data, DataEnd, Trailer };

    bool m_bodyless = false;
    State m_state = State::Head;
    QByteArray m_head;
    int m_status = 0;
    QList<QPair<QByteArray, QByteArray>> m_headers;
    QString m_error;
    bool m_reusable = true;
    Framing m_framing = Framing::None;
    qint64 m_remaining = 0; // Length: body bytes still due; Chunked: of the current chunk
    ChunkState m_chunk = ChunkState::Size;
    QByteArray m_line; // a chunk-size or trailer line in progress
};

} // namespace hako::models
