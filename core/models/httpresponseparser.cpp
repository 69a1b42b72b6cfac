#include "core/models/httpresponseparser.h"

#include <algorithm>

namespace hako::models {

namespace {

QByteArrayView trimmed(QByteArrayView v)
{
    while (!v.isEmpty() && (v.front() == ' ' || v.front() == '\t'))
        v = v.sliced(1);
    while (!v.isEmpty() && (v.back() == ' ' || v.back() == '\t' || v.back() == '\r'))
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

/// Whether the comma-separated header value lists `token` (case-insensitive).
bool listsToken(QByteArrayView value, QByteArrayView token)
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

} // namespace

QByteArray HttpResponseParser::header(QByteArrayView name) const
{
    for (const auto& h : m_headers) {
        if (QByteArrayView(h.first).compare(name, Qt::CaseInsensitive) == 0)
            return h.second;
    }
    return {};
}

bool HttpResponseParser::fail(const QString& why)
{
    m_state = State::Failed;
    m_error = why;
    m_reusable = false;
    return false;
}

bool HttpResponseParser::parseHead(QByteArrayView head)
{
    // head: everything before the blank line, lines separated by CRLF (a bare LF is accepted).
    m_headers.clear();
    qsizetype pos = 0;
    bool first = true;
    bool http10 = false;
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
            // HTTP/1.x SP 3DIGIT [SP reason]
            if (line.size() < 12 || !line.startsWith("HTTP/1.") || line[8] != ' ' ||
                (line.size() > 12 && line[12] != ' '))
                return fail(
                    QStringLiteral("the server's reply is not HTTP (status line '%1')")
                        .arg(QString::fromLatin1(line.first(std::min<qsizetype>(line.size(), 40)))
                                 .toHtmlEscaped()));
            http10 = line[7] == '0';
            int status = 0;
            for (int i = 9; i < 12; ++i) {
                if (line[i] < '0' || line[i] > '9')
                    return fail(QStringLiteral("the server's status line is garbled ('%1')")
                                    .arg(QString::fromLatin1(
                                        line.first(std::min<qsizetype>(line.size(), 40)))));
                status = status * 10 + (line[i] - '0');
            }
            if (status < 100)
                return fail(
                    QStringLiteral("the server sent status %1, which does not exist").arg(status));
            m_status = status;
            continue;
        }
        if (line.isEmpty())
            continue;
        if (line.front() == ' ' || line.front() == '\t') {
            // An obsolete folded continuation line belongs to the previous header.
            if (m_headers.isEmpty())
                return fail(QStringLiteral("the server's reply headers are malformed"));
            m_headers.last().second += ' ' + trimmed(line).toByteArray();
            continue;
        }
        const qsizetype colon = line.indexOf(':');
        if (colon <= 0 || !isToken(line.first(colon)))
            return fail(QStringLiteral("the server's reply headers are malformed"));
        m_headers.append(
            {line.first(colon).toByteArray(), trimmed(line.sliced(colon + 1)).toByteArray()});
    }
    const QByteArray connection = header("connection");
    m_reusable = http10 ? listsToken(connection, "keep-alive") : !listsToken(connection, "close");
    // The body's framing (RFC 9112 §6.3).
    if (m_bodyless || (m_status >= 100 && m_status < 200) || m_status == 204 || m_status == 304) {
        m_framing = Framing::None;
    } else if (const QByteArray te = header("transfer-encoding"); !te.isEmpty()) {
        if (!listsToken(te, "chunked"))
            return fail(QStringLiteral("the server's reply uses transfer encoding '%1', which "
                                       "Hako does not read")
                            .arg(QString::fromLatin1(te)));
        m_framing = Framing::Chunked;
        m_chunk = ChunkState::Size;
    } else if (const QByteArray cl = header("content-length"); !cl.isEmpty()) {
        bool ok = false;
        const qint64 n = cl.trimmed().toLongLong(&ok);
        if (!ok || n < 0 || !std::all_of(cl.begin(), cl.end(), [](char c) {
                return (c >= '0' && c <= '9') || c == ' ';
            }))
            return fail(QStringLiteral("the server's reply has an invalid Content-Length '%1'")
                            .arg(QString::fromLatin1(cl)));
        m_framing = n > 0 ? Framing::Length : Framing::None;
        m_remaining = n;
    } else {
        m_framing = Framing::UntilClose;
        m_reusable = false;
    }
    return true;
}

bool HttpResponseParser::feed(QByteArrayView in, QByteArray& body)
{
    while (!in.isEmpty()) {
        switch (m_state) {
        case State::Failed:
            return false;
        case State::Done:
            m_reusable = false; // the server sent more than the response
            return true;
        case State::Head: {
            // Look for the blank line, also across the boundary with what came before.
            const qsizetype before = m_head.size();
            const qsizetype take = std::min<qsizetype>(in.size(), kMaxHeadBytes + 4 - before);
            m_head.append(in.first(take));
            qsizetype end = m_head.indexOf("\r\n\r\n", std::max<qsizetype>(0, before - 3));
            qsizetype sep = 4;
            if (end < 0) {
                end = m_head.indexOf("\n\n", std::max<qsizetype>(0, before - 1));
                sep = 2;
            }
            if (end < 0) {
                if (m_head.size() > kMaxHeadBytes)
                    return fail(QStringLiteral("the server's reply headers are larger than %1 KB")
                                    .arg(kMaxHeadBytes / 1024));
                if (m_head.size() >= 8 && !m_head.startsWith("HTTP/1."))
                    return fail(QStringLiteral("the server's reply is not HTTP"));
                in = in.sliced(take);
                continue;
            }
            const qsizetype used = end + sep - before; // bytes of `in` that belong to the head
            const QByteArray head = m_head.first(end);
            m_head.clear();
            in = in.sliced(used);
            if (!parseHead(head))
                return false;
            if (m_status >= 100 && m_status < 200 && m_status != 101) {
                m_status = 0; // an interim response: the real one follows
                m_headers.clear();
                continue;
            }
            if (m_status == 101)
                return fail(QStringLiteral("the server switched protocols, which Hako does not "
                                           "expect"));
            m_state = m_framing == Framing::None ? State::Done : State::Body;
            continue;
        }
        case State::Body:
            if (!feedBody(in, body))
                return false;
            continue;
        }
    }
    return m_state != State::Failed;
}

bool HttpResponseParser::feedBody(QByteArrayView& in, QByteArray& body)
{
    switch (m_framing) {
    case Framing::None:
        m_state = State::Done;
        return true;
    case Framing::UntilClose:
        body.append(in);
        in = {};
        return true;
    case Framing::Length: {
        const qsizetype n = qsizetype(std::min<qint64>(m_remaining, in.size()));
        body.append(in.first(n));
        in = in.sliced(n);
        m_remaining -= n;
        if (m_remaining == 0)
            m_state = State::Done;
        return true;
    }
    case Framing::Chunked:
        break;
    }
    while (!in.isEmpty() && m_state == State::Body) {
        switch (m_chunk) {
        case ChunkState::Size:
        case ChunkState::Trailer: {
            const qsizetype nl = in.indexOf('\n');
            const qsizetype take = nl < 0 ? in.size() : nl + 1;
            m_line.append(in.first(take));
            in = in.sliced(take);
            if (m_line.size() > 4096)
                return fail(QStringLiteral("the server's chunked reply has a line longer than "
                                           "4 KB"));
            if (nl < 0)
                return true;
            QByteArrayView line = trimmed(QByteArrayView(m_line).chopped(1));
            if (m_chunk == ChunkState::Trailer) {
                if (line.isEmpty())
                    m_state = State::Done;
                m_line.clear();
                break;
            }
            if (const qsizetype semi = line.indexOf(';'); semi >= 0)
                line = trimmed(line.first(semi));
            bool ok = line.size() > 0 && line.size() <= 15;
            qint64 size = 0;
            for (char c : line) {
                int digit = -1;
                if (c >= '0' && c <= '9')
                    digit = c - '0';
                else if (c >= 'a' && c <= 'f')
                    digit = c - 'a' + 10;
                else if (c >= 'A' && c <= 'F')
                    digit = c - 'A' + 10;
                ok &= digit >= 0;
                size = size * 16 + std::max(digit, 0);
            }
            if (!ok)
                return fail(
                    QStringLiteral("the server's chunked reply has an invalid chunk "
                                   "size '%1'")
                        .arg(QString::fromLatin1(line.first(std::min<qsizetype>(line.size(), 20)))
                                 .toHtmlEscaped()));
            m_line.clear();
            m_remaining = size;
            m_chunk = size == 0 ? ChunkState::Trailer : ChunkState::Data;
            break;
        }
        case ChunkState::Data: {
            const qsizetype n = qsizetype(std::min<qint64>(m_remaining, in.size()));
            body.append(in.first(n));
            in = in.sliced(n);
            m_remaining -= n;
            if (m_remaining == 0) {
                m_chunk = ChunkState::DataEnd;
                m_line.clear();
            }
            break;
        }
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
                return fail(QStringLiteral("the server's chunked reply is malformed (no line "
                                           "end after a chunk)"));
            }
            break;
        }
        }
    }
    return true;
}

bool HttpResponseParser::endOfStream()
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
        fail(m_head.isEmpty() ? QStringLiteral("the server closed the connection without a reply")
                              : QStringLiteral("the server closed the connection in the middle "
                                               "of the reply headers"));
    else
        fail(QStringLiteral("the server closed the connection before the reply was complete"));
    return false;
}

} // namespace hako::models
