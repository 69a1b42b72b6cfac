#include "core/util/httpmessagereader.h"

#include <algorithm>
#include <cstring>

namespace hako {

namespace {

QByteArrayView trimmed(QByteArrayView v)
{
    while (!v.isEmpty() && (v.front() == ' ' || v.front() == '\t'))
        v = v.sliced(1);
    while (!v.isEmpty() && (v.back() == ' ' || v.back() == '\t'))
        v.chop(1);
    return v;
}

bool isToken(QByteArrayView v)
{
    if (v.isEmpty())
        return false;
    for (char c : v) {
        const auto u = static_cast<unsigned char>(c);
        if (u <= 32 || u >= 127 || c == ':')
            return false;
    }
    return true;
}

// What a peer sent, quoted in an error: at most `n` bytes of its first line.
QString quote(QByteArrayView bytes, qsizetype n)
{
    qsizetype end = 0;
    while (end < bytes.size() && end < n && bytes[end] != '\r' && bytes[end] != '\n')
        ++end;
    return QString::fromLatin1(bytes.first(end)).toHtmlEscaped();
}

// A chunk size: 1 to 15 hex digits (so it cannot overflow), -1 when it is not one.
qint64 parseChunkSize(QByteArrayView line)
{
    if (line.isEmpty() || line.size() > 15)
        return -1;
    qint64 size = 0;
    for (char c : line) {
        int digit = -1;
        if (c >= '0' && c <= '9')
            digit = c - '0';
        else if (c >= 'a' && c <= 'f')
            digit = c - 'a' + 10;
        else if (c >= 'A' && c <= 'F')
            digit = c - 'A' + 10;
        if (digit < 0)
            return -1;
        size = size * 16 + digit;
    }
    return size;
}

// The end of the head (the blank line) in `head` from `from`: its offset and the separator's
// length, whichever of CRLF CRLF and LF LF comes first; -1 when none.
qsizetype headEnd(const QByteArray& head, qsizetype from, qsizetype& separator)
{
    // The blank line whose last LF comes first: "\n\n" or "\r\n\r\n" starting at `from` or
    // later. One pass from line end to line end, stopping there: looking for each form through
    // the whole buffer read the body too (up to 64 KB a request) when only the other was there.
    const char* data = head.constData();
    const qsizetype n = head.size();
    for (qsizetype i = from + 1; i < n; ++i) {
        const void* lf = std::memchr(data + i, '\n', size_t(n - i));
        if (!lf)
            break;
        i = static_cast<const char*>(lf) - data; // a LF that may end the blank line
        if (i - 1 >= from && data[i - 1] == '\n') {
            separator = 2;
            return i - 1;
        }
        if (i - 3 >= from && data[i - 1] == '\r' && data[i - 2] == '\n' && data[i - 3] == '\r') {
            separator = 4;
            return i - 3;
        }
    }
    separator = 4;
    return -1;
}

} // namespace

HttpMessageReader::HttpMessageReader(Kind kind, HttpReaderLimits limits, bool bodyless)
    : m_kind(kind), m_limits(limits), m_bodyless(bodyless)
{}

QByteArray HttpMessageReader::header(QByteArrayView name) const
{
    for (const auto& h : m_headers) {
        if (QByteArrayView(h.first).compare(name, Qt::CaseInsensitive) == 0)
            return h.second;
    }
    return {};
}

bool HttpMessageReader::listsToken(QByteArrayView value, QByteArrayView token)
{
    qsizetype start = 0;
    while (start <= value.size()) {
        qsizetype comma = value.indexOf(',', start);
        if (comma < 0)
            comma = value.size();
        if (trimmed(value.sliced(start, comma - start)).compare(token, Qt::CaseInsensitive) == 0)
            return true;
        start = comma + 1;
    }
    return false;
}

bool HttpMessageReader::fail(int status, const QString& requestWords, const QString& responseWords)
{
    m_state = State::Failed;
    m_error = m_kind == Kind::Request ? requestWords : responseWords;
    m_errorStatus = status;
    m_reusable = false;
    return false;
}

bool HttpMessageReader::parseStartLine(QByteArrayView line)
{
    if (m_kind == Kind::Request) {
        // METHOD SP target SP HTTP/1.x
        const QList<QByteArray> parts = trimmed(line).toByteArray().split(' ');
        if (parts.size() != 3 || !isToken(parts[0]) || parts[1].isEmpty() ||
            !parts[2].startsWith("HTTP/1."))
            return fail(400, QStringLiteral("malformed request line"), {});
        m_method = parts[0];
        m_target = parts[1];
        m_http10 = parts[2] == "HTTP/1.0";
        return true;
    }
    // HTTP/1.x SP 3DIGIT [SP reason]
    if (!line.startsWith("HTTP/1."))
        return fail(
            400, {},
            QStringLiteral("the server's reply is not HTTP (it begins '%1')").arg(quote(line, 8)));
    if (line.size() < 12 || line[8] != ' ' || (line.size() > 12 && line[12] != ' '))
        return fail(
            400, {},
            QStringLiteral("the server's status line is garbled ('%1')").arg(quote(line, 40)));
    m_http10 = line[7] == '0';
    int status = 0;
    for (int i = 9; i < 12; ++i) {
        if (line[i] < '0' || line[i] > '9')
            return fail(
                400, {},
                QStringLiteral("the server's status line is garbled ('%1')").arg(quote(line, 40)));
        status = status * 10 + (line[i] - '0');
    }
    if (status < 100)
        return fail(400, {},
                    QStringLiteral("the server sent status %1, which does not exist").arg(status));
    m_status = status;
    return true;
}

bool HttpMessageReader::parseHeaderLine(QByteArrayView line)
{
    const QString malformed = QStringLiteral("malformed request header");
    const QString replyMalformed = QStringLiteral("the server's reply headers are malformed");
    // A CR anywhere but at the end of a line could end the header for another reader.
    if (line.contains('\r'))
        return fail(400, malformed, replyMalformed);
    if (line.front() == ' ' || line.front() == '\t') {
        // An obsolete folded continuation line belongs to the previous header.
        if (m_headers.isEmpty())
            return fail(400, malformed, replyMalformed);
        m_headers.last().second += ' ' + trimmed(line).toByteArray();
        return true;
    }
    const qsizetype colon = line.indexOf(':');
    if (colon <= 0 || !isToken(line.first(colon)))
        return fail(400, malformed, replyMalformed);
    if (m_headers.size() >= m_limits.maxHeaderCount)
        return fail(431, QStringLiteral("too many request headers"),
                    QStringLiteral("the server's reply has more than %1 headers")
                        .arg(m_limits.maxHeaderCount));
    m_headers.append(
        {line.first(colon).toByteArray(), trimmed(line.sliced(colon + 1)).toByteArray()});
    return true;
}

bool HttpMessageReader::parseHead(QByteArrayView head)
{
    // head: everything before the blank line, lines separated by CRLF (a bare LF is accepted).
    m_headers.clear();
    qsizetype pos = 0;
    bool first = true;
    while (pos < head.size()) {
        qsizetype end = head.indexOf('\n', pos);
        if (end < 0)
            end = head.size();
        QByteArrayView line = head.sliced(pos, end - pos);
        if (line.endsWith('\r'))
            line.chop(1);
        pos = end + 1;
        if (first) {
            first = false;
            if (!parseStartLine(line))
                return false;
        } else if (!line.isEmpty() && !parseHeaderLine(line)) {
            return false;
        }
    }
    if (first)
        return parseStartLine({});
    return true;
}

bool HttpMessageReader::contentLength(qint64& length)
{
    // Every Content-Length (repeated, or a list) must give the same number (RFC 9110 §8.6).
    length = -1;
    for (const auto& [name, value] : m_headers) {
        if (QByteArrayView(name).compare("content-length", Qt::CaseInsensitive) != 0)
            continue;
        for (const QByteArray& item : value.split(',')) {
            const QByteArrayView digits = trimmed(item);
            bool ok = !digits.isEmpty() && digits.size() <= 18 &&
                      std::all_of(digits.begin(), digits.end(),
                                  [](char c) { return c >= '0' && c <= '9'; });
            const qint64 n = ok ? digits.toLongLong(&ok) : -1;
            if (!ok)
                return fail(400, QStringLiteral("invalid Content-Length"),
                            QStringLiteral("the server's reply has an invalid Content-Length '%1'")
                                .arg(QString::fromLatin1(value).toHtmlEscaped()));
            if (length >= 0 && n != length)
                return fail(400, QStringLiteral("conflicting Content-Length values"),
                            QStringLiteral("the server's reply has conflicting Content-Length "
                                           "values"));
            length = n;
        }
    }
    return true;
}

// The body's framing (RFC 9112 §6.3).
bool HttpMessageReader::chooseFraming()
{
    const bool request = m_kind == Kind::Request;
    if (request) {
        m_reusable = !m_http10 && !listsToken(header("connection"), "close");
    } else {
        const QByteArray connection = header("connection");
        m_reusable =
            m_http10 ? listsToken(connection, "keep-alive") : !listsToken(connection, "close");
    }
    qint64 length = -1;
    if (!contentLength(length))
        return false;
    if (!request && (m_bodyless || m_status < 200 || m_status == 204 || m_status == 304)) {
        m_framing = Framing::None;
    } else if (const QByteArray te = header("transfer-encoding"); !te.isEmpty()) {
        if (!listsToken(te, "chunked"))
            return fail(400, QStringLiteral("unsupported Transfer-Encoding"),
                        QStringLiteral("the server's reply uses transfer encoding '%1', which "
                                       "Hako does not read")
                            .arg(QString::fromLatin1(te).toHtmlEscaped()));
        m_framing = Framing::Chunked;
        m_chunk = ChunkState::Size;
    } else if (length >= 0) {
        if (m_limits.maxBodyBytes >= 0 && length > m_limits.maxBodyBytes)
            return fail(413, QStringLiteral("request body over the limit"),
                        QStringLiteral("the server's reply is larger than the limit"));
        m_framing = length > 0 ? Framing::Length : Framing::None;
        m_remaining = length;
    } else if (request) {
        // A request's body needs its length; a GET, HEAD or DELETE without one has none.
        if (m_method != "GET" && m_method != "HEAD" && m_method != "DELETE")
            return fail(411, QStringLiteral("Content-Length required"), {});
        m_framing = Framing::None;
    } else {
        m_framing = Framing::UntilClose;
        m_reusable = false;
    }
    return true;
}

// Takes head bytes from `in`; true once a (final) head is complete.
bool HttpMessageReader::readHead(QByteArrayView& in)
{
    while (!in.isEmpty()) {
        // Look for the blank line, also across the boundary with what came before.
        const qsizetype before = m_head.size();
        const qsizetype take = std::min<qsizetype>(in.size(), m_limits.maxHeadBytes + 4 - before);
        m_head.append(in.first(take));
        qsizetype separator = 4;
        const qsizetype end = headEnd(m_head, std::max<qsizetype>(0, before - 3), separator);
        if (end < 0) {
            in = in.sliced(take);
            if (m_head.size() > m_limits.maxHeadBytes)
                return fail(431, QStringLiteral("request headers too large"),
                            QStringLiteral("the server's reply headers are larger than %1 KB")
                                .arg(m_limits.maxHeadBytes / 1024));
            if (m_kind == Kind::Response && m_head.size() >= 8 && !m_head.startsWith("HTTP/1."))
                return fail(400, {},
                            QStringLiteral("the server's reply is not HTTP (it begins '%1')")
                                .arg(quote(m_head, 8)));
            continue;
        }
        in = in.sliced(end + separator - before); // the bytes of `in` that end the head
        const QByteArray head = m_head.first(end);
        m_head.clear();
        if (!parseHead(head))
            return false;
        if (m_kind == Kind::Response && m_status >= 100 && m_status < 200) {
            if (m_status == 101)
                return fail(400, {},
                            QStringLiteral("the server switched protocols, which Hako does not "
                                           "expect"));
            m_status = 0; // an interim response: the real one follows
            m_headers.clear();
            continue;
        }
        m_headComplete = true;
        if (!chooseFraming())
            return false;
        m_state = m_framing == Framing::None ? State::Done : State::Body;
        return true;
    }
    return false;
}

qsizetype HttpMessageReader::read(QByteArrayView in, QByteArray& body)
{
    const qsizetype total = in.size();
    if (m_state == State::Head) {
        if (readHead(in))
            return total - in.size(); // the caller looks at the head first
    }
    if (m_state == State::Body)
        readBody(in, body);
    return total - in.size();
}

bool HttpMessageReader::feed(QByteArrayView bytes, QByteArray& body)
{
    while (!bytes.isEmpty()) {
        if (m_state == State::Failed)
            return false;
        if (m_state == State::Done) {
            m_reusable = false; // the peer sent more than the message
            return true;
        }
        bytes = bytes.sliced(read(bytes, body));
    }
    return m_state != State::Failed;
}

bool HttpMessageReader::takeRemaining(QByteArrayView& in, QByteArray& body)
{
    const qsizetype n = qsizetype(std::min<qint64>(m_remaining, in.size()));
    body.append(in.first(n));
    in = in.sliced(n);
    m_remaining -= n;
    m_bodyBytes += n;
    return m_remaining == 0;
}

void HttpMessageReader::readBody(QByteArrayView& in, QByteArray& body)
{
    switch (m_framing) {
    case Framing::None:
        m_state = State::Done;
        return;
    case Framing::UntilClose:
        if (m_limits.maxBodyBytes >= 0 && m_bodyBytes + in.size() > m_limits.maxBodyBytes) {
            fail(413, QStringLiteral("request body over the limit"),
                 QStringLiteral("the server's reply is larger than the limit"));
            return;
        }
        body.append(in);
        m_bodyBytes += in.size();
        in = {};
        return;
    case Framing::Length:
        if (takeRemaining(in, body))
            m_state = State::Done;
        return;
    case Framing::Chunked:
        readChunked(in, body);
        return;
    }
}

// A chunk-size or trailer line, without its line end.
bool HttpMessageReader::chunkLine(QByteArrayView line)
{
    if (line.contains('\r'))
        return fail(400, QStringLiteral("malformed chunk"),
                    QStringLiteral("the server's chunked reply is malformed (a stray CR)"));
    if (m_chunk == ChunkState::Trailer) {
        m_trailerBytes += line.size() + 2;
        if (m_trailerBytes > m_limits.maxHeadBytes)
            return fail(431, QStringLiteral("trailers too large"),
                        QStringLiteral("the server's reply trailers are larger than %1 KB")
                            .arg(m_limits.maxHeadBytes / 1024));
        if (trimmed(line).isEmpty())
            m_state = State::Done;
        return true;
    }
    if (const qsizetype semi = line.indexOf(';'); semi >= 0)
        line = line.first(semi);
    line = trimmed(line);
    const qint64 size = parseChunkSize(line);
    if (size < 0)
        return fail(400, QStringLiteral("malformed chunk size"),
                    QStringLiteral("the server's chunked reply has an invalid chunk size '%1'")
                        .arg(quote(line, 20)));
    if (m_limits.maxBodyBytes >= 0 && m_bodyBytes + size > m_limits.maxBodyBytes)
        return fail(413, QStringLiteral("request body over the limit"),
                    QStringLiteral("the server's reply is larger than the limit"));
    m_remaining = size;
    m_chunk = size == 0 ? ChunkState::Trailer : ChunkState::Data;
    return true;
}

bool HttpMessageReader::readChunked(QByteArrayView& in, QByteArray& body)
{
    while (!in.isEmpty() && m_state == State::Body) {
        switch (m_chunk) {
        case ChunkState::Size:
        case ChunkState::Trailer: {
            const qsizetype nl = in.indexOf('\n');
            const qsizetype take = nl < 0 ? in.size() : nl + 1;
            m_line.append(in.first(take));
            in = in.sliced(take);
            if (m_line.size() > m_limits.maxChunkLineBytes)
                return fail(400, QStringLiteral("malformed chunk"),
                            QStringLiteral("the server's chunked reply has a line longer than "
                                           "%1 KB")
                                .arg(m_limits.maxChunkLineBytes / 1024));
            if (nl < 0)
                return true;
            QByteArrayView line = QByteArrayView(m_line).chopped(1);
            if (line.endsWith('\r'))
                line.chop(1);
            const bool ok = chunkLine(line);
            m_line.clear();
            if (!ok)
                return false;
            break;
        }
        case ChunkState::Data:
            if (takeRemaining(in, body)) {
                m_chunk = ChunkState::DataEnd;
                m_line.clear();
            }
            break;
        case ChunkState::DataEnd: {
            // The CRLF after a chunk's data (a bare LF is accepted).
            const char c = in.front();
            in = in.sliced(1);
            if (c == '\r' && m_line.isEmpty()) {
                m_line = "\r";
            } else if (c == '\n') {
                m_line.clear();
                m_chunk = ChunkState::Size;
            } else {
                return fail(400, QStringLiteral("malformed chunk"),
                            QStringLiteral("the server's chunked reply is malformed (no line "
                                           "end after a chunk)"));
            }
            break;
        }
        }
    }
    return true;
}

bool HttpMessageReader::endOfStream()
{
    if (m_state == State::Body && m_framing == Framing::UntilClose) {
        m_state = State::Done;
        m_reusable = false;
        return true;
    }
    if (m_state == State::Done)
        return true;
    if (m_state == State::Failed)
        return false;
    if (m_state == State::Head)
        fail(400,
             m_head.isEmpty() ? QStringLiteral("the connection closed without a request")
                              : QStringLiteral("the connection closed in the request head"),
             m_head.isEmpty() ? QStringLiteral("the server closed the connection without a reply")
                              : QStringLiteral("the server closed the connection in the middle "
                                               "of the reply headers"));
    else
        fail(400, QStringLiteral("the connection closed before the request body was complete"),
             QStringLiteral("the server closed the connection before the reply was complete"));
    return false;
}

} // namespace hako
