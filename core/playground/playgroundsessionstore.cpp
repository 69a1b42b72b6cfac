#include "core/playground/playgroundsessionstore.h"

#include "core/promptlog/promptlog.h"
#include "core/util/boundedfile.h"
#include "core/util/outputfile.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QUuid>

#include <algorithm>

namespace hako::playground {

namespace {

/// A header line longer than this is not one toJson() wrote (names are short).
constexpr qint64 kMaxHeaderLine = 64 * 1024;

bool isSessionId(const QString& id)
{
    return !QUuid::fromString(id).isNull() && !id.startsWith(QLatin1Char('{'));
}

/// The header of `path` from its first line; `complete` says whether the file ends as a
/// session file ends (a file cut short while written by something else does not).
Result<PlaygroundSessionHeader> readFirstLine(const QString& path, bool* complete)
{
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly))
        return makeError(QStringLiteral("it cannot be read (%1)").arg(file.errorString()));
    const QByteArray line = file.readLine(kMaxHeaderLine);
    const qint64 size = file.size();
    if (size >= 2 && file.seek(size - 2)) {
        const QByteArray tail = file.read(2).trimmed();
        *complete = tail.endsWith('}');
    } else {
        *complete = false;
    }
    return PlaygroundSession::readHeader(line);
}

} // namespace

PlaygroundSessionStore::PlaygroundSessionStore(QString folder) : m_folder(std::move(folder)) {}

QString PlaygroundSessionStore::defaultFolder()
{
    return QFileInfo(promptlog::PromptLog::defaultPath())
        .dir()
        .filePath(QStringLiteral("playground-sessions"));
}

QString PlaygroundSessionStore::pathOf(const QString& id) const
{
    return QDir(m_folder).filePath(id + QStringLiteral(".json"));
}

PlaygroundSessionList PlaygroundSessionStore::list() const
{
    PlaygroundSessionList out;
    const QFileInfoList files =
        QDir(m_folder).entryInfoList({QStringLiteral("*.json")}, QDir::Files, QDir::Name);
    for (const QFileInfo& info : files) {
        const QString path = info.absoluteFilePath();
        auto skip = [&](const QString& reason) {
            out.skipped.append({path, reason});
        };
        if (info.size() > m_maxBytes) {
            skip(QStringLiteral("it is larger than the limit of %1 MiB").arg(m_maxBytes >> 20));
            continue;
        }
        bool complete = false;
        Result<PlaygroundSessionHeader> header = readFirstLine(path, &complete);
        if (!header) {
            // A file rewritten by another tool may still be a whole session.
            Result<QByteArray> bytes = readBoundedFile(path, m_maxBytes);
            Result<PlaygroundSession> whole = bytes ? PlaygroundSession::fromJson(*bytes)
                                                    : Result<PlaygroundSession>(bytes.error());
            if (!whole) {
                skip(whole.error().message);
                continue;
            }
            header = whole->header();
        } else if (!complete) {
            skip(QStringLiteral("it is cut short"));
            continue;
        }
        if (header->id != info.completeBaseName()) {
            skip(QStringLiteral("its id does not match its file name"));
            continue;
        }
        out.sessions.append(*header);
    }
    std::stable_sort(out.sessions.begin(), out.sessions.end(),
                     [](const PlaygroundSessionHeader& a, const PlaygroundSessionHeader& b) {
                         return a.updated > b.updated;
                     });
    return out;
}

Result<PlaygroundSession> PlaygroundSessionStore::load(const QString& id) const
{
    if (!isSessionId(id))
        return makeError(QStringLiteral("\"%1\" is not a session id").arg(id));
    const QString path = pathOf(id);
    Result<QByteArray> bytes = readBoundedFile(path, m_maxBytes);
    if (!bytes)
        return makeError(QStringLiteral("Cannot open the session: %1").arg(bytes.error().message),
                         {path});
    Result<PlaygroundSession> session = PlaygroundSession::fromJson(*bytes);
    if (!session)
        return makeError(QStringLiteral("Cannot open the session %1: %2")
                             .arg(QDir::toNativeSeparators(path), session.error().message),
                         {path});
    if (session->id != id)
        return makeError(QStringLiteral("Cannot open the session %1: its id does not match its "
                                        "file name")
                             .arg(QDir::toNativeSeparators(path)),
                         {path});
    return session;
}

Result<bool> PlaygroundSessionStore::save(const PlaygroundSession& session) const
{
    if (!isSessionId(session.id))
        return makeError(QStringLiteral("\"%1\" is not a session id").arg(session.id));
    const QByteArray bytes = session.toJson();
    if (bytes.size() > m_maxBytes)
        return makeError(QStringLiteral("The session is too large to keep (%1 MiB, the limit is "
                                        "%2 MiB): remove some rows or repeats")
                             .arg(bytes.size() >> 20)
                             .arg(m_maxBytes >> 20));
    QString error;
    if (!makeOutputFolder(m_folder, &error, NewFileAccess::Private))
        return makeError(QStringLiteral("Cannot save the session: %1").arg(error));
    const QString path = pathOf(session.id);
    if (!writeOutputFile(path, bytes, &error, NewFileAccess::Private))
        return makeError(QStringLiteral("Cannot save the session to %1: %2")
                             .arg(QDir::toNativeSeparators(path), error),
                         {path});
    return true;
}

Result<bool> PlaygroundSessionStore::rename(const QString& id, const QString& name) const
{
    Result<PlaygroundSession> session = load(id);
    if (!session)
        return session.error();
    PlaygroundSession renamed = *session;
    renamed.name = name;
    renamed.updated = QDateTime::currentDateTimeUtc();
    return save(renamed);
}

Result<bool> PlaygroundSessionStore::remove(const QString& id) const
{
    if (!isSessionId(id))
        return makeError(QStringLiteral("\"%1\" is not a session id").arg(id));
    QFile file(pathOf(id));
    if (!file.exists())
        return makeError(QStringLiteral("There is no saved session %1").arg(id));
    if (!file.remove())
        return makeError(QStringLiteral("Cannot delete the session %1: %2")
                             .arg(QDir::toNativeSeparators(file.fileName()), file.errorString()));
    return true;
}

} // namespace hako::playground
