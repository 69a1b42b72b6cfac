#include "core/workbench/runarchive.h"

#include "core/otel/otlpwriter.h"
#include "core/pdl/trace/tracewriter.h"
#include "core/util/outputfile.h"

#include <QDir>
#include <QFileInfo>
#include <QRegularExpression>
#include <QStandardPaths>

#include <map>

namespace hako {

RunArchive::RunArchive(QString folder) : m_folder(std::move(folder)) {}

QString RunArchive::defaultFolder()
{
    return QStandardPaths::writableLocation(QStandardPaths::AppDataLocation) +
           QStringLiteral("/traces");
}

QString RunArchive::pathFor(const QString& runId) const
{
    static const QRegularExpression safe(QStringLiteral("^[A-Za-z0-9_-]{1,128}$"));
    if (m_folder.isEmpty() || !safe.match(runId).hasMatch())
        return {};
    return m_folder + QLatin1Char('/') + runId + QStringLiteral(".trace.json");
}

bool RunArchive::contains(const QString& runId) const
{
    const QString path = pathFor(runId);
    return !path.isEmpty() && QFileInfo::exists(path);
}

bool RunArchive::save(const pdl::TraceNode& root, const QString& runId, QString* error,
                      int keep) const
{
    const QString path = pathFor(runId);
    if (path.isEmpty()) {
        if (error)
            *error = QStringLiteral("'%1' cannot name a trace file").arg(runId);
        return false;
    }
    QString why;
    if (!makeOutputFolder(m_folder, &why)) {
        if (error)
            *error = why;
        return false;
    }
    if (!pdl::writeTraceFile(root, path, error))
        return false;
    prune(keep);
    return true;
}

bool RunArchive::appendRequest(const std::vector<otel::Span>& spans, const QByteArray& json,
                               QString* error, int keep) const
{
    return append(requestLines(spans, json), error, keep);
}

RunArchive::RequestLines RunArchive::requestLines(const std::vector<otel::Span>& spans,
                                                  const QByteArray& json) const
{
    // The request's spans by trace, in the order they came (not copied: a span's attributes
    // are most of it).
    std::map<std::string_view, std::vector<const otel::Span*>> byTrace;
    for (const otel::Span& s : spans)
        byTrace[s.traceId].push_back(&s);
    // One trace on one line, beginning as an object does (no byte-order mark, no line break a
    // reader of the file would split it at): kept as it was sent.
    const bool asSent = byTrace.size() == 1 && json.trimmed().startsWith('{') &&
                        !json.contains('\n') && !json.contains('\r');
    // The lines go to a buffer this thread keeps (a request's megabyte is neither allocated
    // nor copied again for each request).
    thread_local std::string text;
    text.clear();
    RequestLines lines;
    lines.text = &text;
    for (const auto& [traceId, ofTrace] : byTrace) {
        const QString path = pathFor(QString::fromUtf8(traceId.data(), qsizetype(traceId.size())));
        if (path.isEmpty())
            continue; // not a trace id a file can be named by
        if (asSent)
            text.append(json.constData(), size_t(json.size()));
        else
            otel::appendOtlpJson(text, ofTrace);
        text += '\n';
        lines.lines.push_back({path, text.size()});
    }
    return lines;
}

bool RunArchive::append(const RequestLines& lines, QString* error, int keep) const
{
    QString why;
    if (!lines.lines.empty() && !makeOutputFolder(m_folder, &why)) {
        if (error)
            *error = why;
        return false;
    }
    bool fresh = false;
    size_t begin = 0;
    for (const RequestLines::Line& l : lines.lines) {
        fresh = fresh || !QFileInfo::exists(l.path);
        const QByteArray line =
            QByteArray::fromRawData(lines.text->data() + begin, qsizetype(l.end - begin));
        begin = l.end;
        if (!appendOutputFile(l.path, line, &why)) {
            if (error)
                *error = why;
            return false;
        }
    }
    if (fresh)
        prune(keep);
    return true;
}

int RunArchive::prune(int keep) const
{
    QDir dir(m_folder);
    const QFileInfoList files = dir.entryInfoList({QStringLiteral("*.trace.json")}, QDir::Files,
                                                  QDir::Time); // newest first
    int removed = 0;
    for (qsizetype i = std::max(keep, 0); i < files.size(); ++i)
        if (QFile::remove(files.at(i).absoluteFilePath()))
            ++removed;
    return removed;
}

} // namespace hako
