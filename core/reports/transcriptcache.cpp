#include "core/reports/transcriptcache.h"

#include "core/util/outputfile.h"

#include <QCryptographicHash>
#include <QDir>
#include <QFile>
#include <QFileInfo>

namespace hako::reports {

namespace {

// A model name as one path component: `openai/gpt-4o` → `openai_gpt-4o`; nothing that could
// climb out of the cache folder.
QString modelComponent(const QString& model)
{
    QString out;
    for (QChar c : model)
        out += (c.isLetterOrNumber() || c == QLatin1Char('-') || c == QLatin1Char('.'))
                   ? c
                   : QLatin1Char('_');
    while (out.contains(QLatin1String("..")))
        out.replace(QLatin1String(".."), QLatin1String("__"));
    if (out.isEmpty() || out.startsWith(QLatin1Char('.')))
        out.prepend(QLatin1Char('m'));
    return out;
}

} // namespace

TranscriptCache::TranscriptCache(QString folder) : m_folder(std::move(folder)) {}

Result<QString> TranscriptCache::fileHash(const QString& path)
{
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly))
        return makeError(QStringLiteral("%1: cannot be read (%2)").arg(path, file.errorString()));
    QCryptographicHash hash(QCryptographicHash::Sha256);
    if (!hash.addData(&file))
        return makeError(QStringLiteral("%1: cannot be read (%2)").arg(path, file.errorString()));
    return QString::fromLatin1(hash.result().toHex());
}

QString TranscriptCache::pathFor(const QString& sha, int page, const QString& model) const
{
    return QDir(m_folder).filePath(QStringLiteral("%1/%2/page-%3.md")
                                       .arg(modelComponent(sha), modelComponent(model))
                                       .arg(page));
}

std::optional<QString> TranscriptCache::find(const QString& sha, int page,
                                             const QString& model) const
{
    QFile file(pathFor(sha, page, model));
    if (!file.open(QIODevice::ReadOnly))
        return std::nullopt;
    return QString::fromUtf8(file.readAll());
}

Result<bool> TranscriptCache::store(const QString& sha, int page, const QString& model,
                                    const QString& markdown) const
{
    const QString path = pathFor(sha, page, model);
    QString error;
    if (!makeOutputFolder(QFileInfo(path).absolutePath(), &error) ||
        !writeOutputFile(path, markdown.toUtf8(), &error))
        return makeError(QStringLiteral("%1: the transcript was not kept (%2)").arg(path, error));
    return true;
}

} // namespace hako::reports
