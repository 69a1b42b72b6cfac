#include "core/pdl/interp/aggregator_p.h"

#include "core/pdl/interp/runner_p.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QSaveFile>

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
    if (info.isDir())
        throw PdlError("cannot open the aggregator file " + m_config.path.toStdString() +
                           ": it is a folder",
                       m_config.span);
    if (m_config.append) {
        QFile f(m_config.path);
        if (!f.open(QIODevice::WriteOnly | QIODevice::Append))
            throw PdlError("cannot open the aggregator file " + m_config.path.toStdString() + ": " +
                               f.errorString().toStdString(),
                           m_config.span);
    }
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
    if (m_config.append) {
        // One write per contribution: a crash loses at most the piece being written.
        QFile f(m_config.path);
        if (!f.open(QIODevice::WriteOnly | QIODevice::Append) ||
            f.write(piece.data(), qint64(piece.size())) != qint64(piece.size()) || !f.flush())
            throw PdlError("cannot append to the aggregator file " + m_config.path.toStdString() +
                               ": " + f.errorString().toStdString(),
                           span);
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
    QSaveFile f(m_config.path);
    if (!f.open(QIODevice::WriteOnly) ||
        f.write(m_text.data(), qint64(m_text.size())) != qint64(m_text.size()) || !f.commit())
        throw PdlError("cannot write the aggregator file " + m_config.path.toStdString() + ": " +
                           f.errorString().toStdString(),
                       m_config.span);
    m_written = true;
}

} // namespace hako::pdl
