#include "core/workbench/recoverystore.h"

#include "core/util/outputfile.h"

#include <QCoreApplication>
#include <QDir>
#include <QFile>
#include <QJsonDocument>
#include <QJsonObject>
#include <QStandardPaths>
#include <QUuid>

#include <algorithm>

#include <cerrno>
#include <csignal>
#include <sys/types.h>

namespace hako {

namespace {

constexpr int kFormatVersion = 1;

// The state letter and start time (clock ticks after boot) of a process from
// /proc/<pid>/stat; false when there is no such process (or no /proc).
bool procStat(qint64 pid, char* state, qint64* startTicks)
{
    QFile f(QStringLiteral("/proc/%1/stat").arg(pid));
    if (!f.open(QIODevice::ReadOnly))
        return false;
    const QByteArray line = f.readAll();
    // The command name may hold spaces and parentheses: the fields follow the last ')'.
    const qsizetype close = line.lastIndexOf(')');
    if (close < 0)
        return false;
    const QList<QByteArray> fields = line.mid(close + 2).split(' ');
    // fields[0] is the state (field 3), fields[19] the start time (field 22).
    if (fields.size() < 20 || fields[0].isEmpty())
        return false;
    *state = fields[0][0];
    *startTicks = fields[19].toLongLong();
    return true;
}

qint64 ownStartTicks()
{
    static const qint64 ticks = [] {
        char state = 0;
        qint64 t = 0;
        return procStat(QCoreApplication::applicationPid(), &state, &t) ? t : qint64(0);
    }();
    return ticks;
}

// Whether the process that wrote a copy still runs. A pid alone is not enough: after a kill
// the next start may get the same pid (containers, a fresh pid namespace) or the killed
// process may linger as a zombie; the start time tells them apart.
bool processAlive(qint64 pid, qint64 startTicks)
{
    if (pid <= 0)
        return false;
    char state = 0;
    qint64 ticks = 0;
    if (procStat(pid, &state, &ticks)) {
        if (state == 'Z' || state == 'X')
            return false;
        return startTicks <= 0 || ticks == startTicks;
    }
    if (pid == QCoreApplication::applicationPid())
        return true;
    // No /proc: signal 0 checks existence; EPERM means it exists but belongs to someone else.
    return ::kill(pid_t(pid), 0) == 0 || errno == EPERM;
}

// A copy larger than this is not one of ours (a program of a few MB at most).
constexpr qint64 kMaxCopyBytes = 256 * 1024 * 1024;

bool validId(const QString& id)
{
    static const QString allowed = QStringLiteral("-_{}");
    if (id.isEmpty() || id.size() > 100)
        return false;
    return std::all_of(id.begin(), id.end(), [](QChar c) {
        return (c.unicode() < 128 && c.isLetterOrNumber()) || allowed.contains(c);
    });
}

// Reads one copy into `e`: "" when it can be restored, else why not. Everything restoring
// needs is checked here, so a listed copy never fails to restore for its content.
QString readEntry(const QString& path, RecoveryEntry* e)
{
    QFile f(path);
    if (f.size() > kMaxCopyBytes)
        return QStringLiteral("too large to be a recovery copy");
    if (!f.open(QIODevice::ReadOnly))
        return f.errorString();
    QJsonParseError parseError;
    const QJsonDocument doc = QJsonDocument::fromJson(f.readAll(), &parseError);
    if (!doc.isObject())
        return QStringLiteral("not a recovery copy (%1)").arg(parseError.errorString());
    const QJsonObject o = doc.object();
    if (o.value(QStringLiteral("version")).toInt() != kFormatVersion)
        return QStringLiteral("written by another version of Hako");
    e->bufferId = o.value(QStringLiteral("buffer")).toString();
    if (!validId(e->bufferId))
        return QStringLiteral("no valid buffer id");
    if (!o.value(QStringLiteral("text")).isString())
        return QStringLiteral("no text");
    if (!o.value(QStringLiteral("path")).isString() &&
        !o.value(QStringLiteral("path")).isUndefined())
        return QStringLiteral("the program's path is not a text");
    e->originalPath = o.value(QStringLiteral("path")).toString();
    e->savedAt =
        QDateTime::fromString(o.value(QStringLiteral("saved")).toString(), Qt::ISODateWithMs);
    // A copy without a readable time still restores; it sorts last.
    if (!e->savedAt.isValid())
        e->savedAt = QDateTime::fromMSecsSinceEpoch(0, Qt::UTC);
    e->pid = o.value(QStringLiteral("pid")).toInteger();
    e->startTicks = o.value(QStringLiteral("started")).toInteger();
    e->recoveryFile = path;
    return {};
}

} // namespace

RecoveryStore::RecoveryStore(const QString& directory)
    : m_dir(directory.isEmpty() ? defaultDirectory() : directory)
{}

QString RecoveryStore::defaultDirectory()
{
    return QStandardPaths::writableLocation(QStandardPaths::AppDataLocation) +
           QStringLiteral("/recovery");
}

QString RecoveryStore::newBufferId()
{
    return QUuid::createUuid().toString(QUuid::WithoutBraces);
}

QString RecoveryStore::fileFor(const QString& bufferId) const
{
    return QDir(m_dir).filePath(bufferId + QStringLiteral(".json"));
}

Result<bool> RecoveryStore::save(const QString& bufferId, const QString& originalPath,
                                 const QString& text)
{
    if (!validId(bufferId))
        return makeError(QStringLiteral("invalid recovery buffer id '%1'").arg(bufferId));
    QString error;
    if (!makeOutputFolder(m_dir, &error))
        return makeError(QStringLiteral("cannot create the recovery folder: %1").arg(error),
                         {m_dir});
    QJsonObject o;
    o.insert(QStringLiteral("version"), kFormatVersion);
    o.insert(QStringLiteral("buffer"), bufferId);
    o.insert(QStringLiteral("path"), originalPath);
    o.insert(QStringLiteral("saved"), QDateTime::currentDateTimeUtc().toString(Qt::ISODateWithMs));
    o.insert(QStringLiteral("pid"), QCoreApplication::applicationPid());
    o.insert(QStringLiteral("started"), ownStartTicks());
    o.insert(QStringLiteral("text"), text);
    const QString path = fileFor(bufferId);
    if (!writeOutputFile(path, QJsonDocument(o).toJson(QJsonDocument::Compact), &error))
        return makeError(QStringLiteral("cannot write the recovery copy: %1").arg(error), {path});
    return true;
}

void RecoveryStore::remove(const QString& bufferId)
{
    if (validId(bufferId))
        QFile::remove(fileFor(bufferId));
}

QList<RecoveryEntry> RecoveryStore::list(bool includeLive, QStringList* damaged) const
{
    QList<RecoveryEntry> out;
    const QDir dir(m_dir);
    for (const QString& name : dir.entryList({QStringLiteral("*.json")}, QDir::Files)) {
        RecoveryEntry e;
        const QString problem = readEntry(dir.filePath(name), &e);
        if (!problem.isEmpty()) {
            if (damaged)
                damaged->append(QStringLiteral("%1: %2").arg(dir.filePath(name), problem));
            continue;
        }
        if (!includeLive && processAlive(e.pid, e.startTicks))
            continue;
        out.append(e);
    }
    std::sort(out.begin(), out.end(),
              [](const RecoveryEntry& a, const RecoveryEntry& b) { return a.savedAt > b.savedAt; });
    return out;
}

Result<QString> RecoveryStore::text(const RecoveryEntry& entry) const
{
    QFile f(entry.recoveryFile);
    if (!f.open(QIODevice::ReadOnly))
        return makeError(QStringLiteral("cannot read the recovery copy: %1").arg(f.errorString()),
                         {entry.recoveryFile});
    const QJsonObject o = QJsonDocument::fromJson(f.readAll()).object();
    const QJsonValue text = o.value(QStringLiteral("text"));
    if (!text.isString())
        return makeError(QStringLiteral("the recovery copy is damaged"), {entry.recoveryFile});
    return text.toString();
}

} // namespace hako
