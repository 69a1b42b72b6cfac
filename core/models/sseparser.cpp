#include "core/models/sseparser.h"

namespace hako::models {

void SseParser::feed(const QByteArray& bytes)
{
    qsizetype start = 0;
    for (qsizetype i = 0; i < bytes.size(); ++i) {
        const char c = bytes.at(i);
        if (c != '\n' && c != '\r')
            continue;
        // A CRLF split across two feeds: the LF finishes nothing new.
        if (c == '\n' && m_lastWasCr && i == start && m_buffer.isEmpty()) {
            m_lastWasCr = false;
            start = i + 1;
            continue;
        }
        m_buffer.append(bytes.constData() + start, i - start);
        line(m_buffer);
        m_buffer.clear();
        if (c == '\r' && i + 1 < bytes.size() && bytes.at(i + 1) == '\n')
            ++i;
        m_lastWasCr = (c == '\r' && i + 1 >= bytes.size());
        start = i + 1;
    }
    if (start < bytes.size()) {
        m_buffer.append(bytes.constData() + start, bytes.size() - start);
        m_lastWasCr = false;
    }
}

bool SseParser::hasPartialEvent() const
{
    return m_haveData || !m_buffer.isEmpty();
}

void SseParser::line(const QByteArray& text)
{
    if (text.isEmpty()) {
        if (m_haveData) {
            const QByteArray data = m_data;
            m_data.clear();
            m_haveData = false;
            m_onEvent(data);
        }
        return;
    }
    if (text.startsWith(':'))
        return;
    const qsizetype colon = text.indexOf(':');
    const QByteArray field = colon < 0 ? text : text.left(colon);
    if (field != "data")
        return;
    QByteArray value = colon < 0 ? QByteArray() : text.mid(colon + 1);
    if (value.startsWith(' '))
        value.remove(0, 1);
    if (m_haveData)
        m_data += '\n';
    m_data += value;
    m_haveData = true;
}

} // namespace hako::models
