#include "core/pdl/interp/aggregator_p.h"

#include "core/pdl/interp/runner_p.h"
#include "core/util/outputfile.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>

namespace hako::pdl {

Value ContextAggregator::call(const CallArgs&) const
{
    std::lock_guard lock(m_mutex);
    return Value(m_messages);
}

void ContextAggregator::contribute(const Value& value, const std::string& role,
                                   const std::string& leafId, bool structured,
                                   const SourceSpan&) const
{
    // A structured block's messages are its children's; the reference adds none for it.
    if (structured)
        return;
    Dict m;
    m.set("role", Value(role));
    m.set("content", value);
    if (!leafId.empty())
        m.set("pdl__defsite", Value(leafId));
    std::lock_guard lock(m_mutex);
    m_messages.push_back(Value(std::move(m)));
}

FileAggregator::FileAggregator(Config config) : m_config(std::move(config))
{
    const QFileInfo info(m_config.path);
    if (!info.dir().exists())
        throw PdlError("cannot open the aggregator file " + m_config.path.toStdString() +
                           ": its folder does not exist",
                       m_config.span);
    QString reason;
    OutputKind kind = outputKind(m_config.path, &reason);
    if (kind == OutputKind::Refused)
        throw PdlError("cannot open the aggregator file " + m_config.path.toStdString() + ": " +
                           reason.toStdString(),
                       m_config.span);
    if (m_config.append && kind == OutputKind::Regular &&
        !appendOutputFile(m_config.path, {}, &reason))
        throw PdlError("cannot open the aggregator file " + m_config.path.toStdString() + ": " +
                           reason.toStdString(),
                       m_config.span);
}

std::string FileAggregator::repr() const
{
    return "<file aggregator " + m_config.path.toStdString() + ">";
}

Value FileAggregator::call(const CallArgs&) const
{
    std::lock_guard lock(m_mutex);
    return Value(m_text);
}

void FileAggregator::contribute(const Value& value, const std::string&, const std::string&, bool,
                                const SourceSpan& span) const
{
    const std::string piece = m_config.prefix + value.toText() + m_config.suffix;
    std::lock_guard lock(m_mutex);
    m_text += piece;
    // One write per contribution: a crash loses at most the piece being written. A device or
    // FIFO (/dev/stdout, a pipe) gets each piece once, never the whole text again.
    if (m_config.append || outputKind(m_config.path) == OutputKind::Stream) {
        QString error;
        if (!appendOutputFile(m_config.path, QByteArray::fromStdString(piece), &error))
            throw PdlError("cannot append to the aggregator file " + m_config.path.toStdString() +
                               ": " + error.toStdString(),
                           span);
        m_written = true;
        return;
    }
    if (m_config.flush)
        commitLocked();
}

void FileAggregator::finish() const
{
    std::lock_guard lock(m_mutex);
    if (!m_config.append && (!m_written || !m_config.flush))
        commitLocked();
}

void FileAggregator::commitLocked() const
{
    // A stream got every piece as it came.
    if (outputKind(m_config.path) == OutputKind::Stream)
        return;
    QString error;
    if (!writeOutputFile(m_config.path, QByteArray::fromStdString(m_text), &error))
        throw PdlError("cannot write the aggregator file " + m_config.path.toStdString() + ": " +
                           error.toStdString(),
                       m_config.span);
    m_written = true;
}

} // namespace hako::pdl
