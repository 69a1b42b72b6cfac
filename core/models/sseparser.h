#pragma once

#include <QByteArray>

#include <functional>

namespace hako::models {

/// Incremental parser of a `text/event-stream` body: feed bytes as they arrive, receive each
/// complete event's data (multi-line `data:` fields joined by "\n") as soon as its blank line
/// arrives. Comments (`:`), `event:`, `id:` and `retry:` fields are ignored; CR, LF and CRLF
/// line ends are all accepted. Not thread-safe; one parser per stream.
class SseParser {
public:
    using EventHandler = std::function<void(const QByteArray& data)>;

    explicit SseParser(EventHandler onEvent) : m_onEvent(std::move(onEvent)) {}

    void feed(const QByteArray& bytes);
    /// True when bytes of an unfinished event (or line) are still buffered: a stream that ends
    /// here was cut off.
    bool hasPartialEvent() const;

private:
    void line(const QByteArray& text);

    EventHandler m_onEvent;
    QByteArray m_buffer;
    QByteArray m_data;
    bool m_haveData = false;
    bool m_lastWasCr = false;
};

} // namespace hako::models
