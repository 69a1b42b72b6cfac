#include "core/library/librarysync.h"

#include "core/util/outputfile.h"

#include <QCoreApplication>
#include <QDir>
#include <QJsonArray>
#include <QJsonDocument>
#include <QSet>

#include <algorithm>

namespace hako::library {

namespace {

constexpr int kNetworkMs = 120000;

// Said to the author (in the window's language; the command line stays English).
QString tr(const char* text)
{
    return QCoreApplication::translate("hako::library::LibrarySync", text);
}

QString text(const QByteArray& bytes)
{
    return QString::fromUtf8(bytes).trimmed();
}

int countCommits(const GitRepo& git, const QString& range)
{
    const GitOutput out = git.run({QStringLiteral("rev-list"), QStringLiteral("--count"), range});
    return out.ok() ? text(out.out).toInt() : 0;
}

} // namespace

QString LibrarySync::remote() const
{
    const GitOutput out = m_library.git().run(
        {QStringLiteral("remote"), QStringLiteral("get-url"), QStringLiteral("origin")});
    return out.ok() ? text(out.out) : QString();
}

Result<bool> LibrarySync::setRemote(const QString& url) const
{
    const QString u = url.trimmed();
    if (u.isEmpty() || u.startsWith(QLatin1Char('-')))
        return makeError(tr("give the address of the team's shared library"));
    const bool exists = !remote().isEmpty();
    Result<QByteArray> done = m_library.git().call(
        {QStringLiteral("remote"), exists ? QStringLiteral("set-url") : QStringLiteral("add"),
         QStringLiteral("origin"), u});
    if (!done)
        return done.error();
    return true;
}

QJsonObject LibrarySync::mergeLabels(const QJsonObject& mine, const QJsonObject& theirs)
{
    const QJsonObject a = mine.value(QLatin1String("prompts")).toObject();
    const QJsonObject b = theirs.value(QLatin1String("prompts")).toObject();
    QStringList keys = a.keys() + b.keys();
    keys.removeDuplicates();
    QJsonObject prompts;
    for (const QString& key : keys) {
        QList<QJsonObject> events;
        QSet<QString> seen;
        for (const QJsonObject& side : {a.value(key).toObject(), b.value(key).toObject()})
            for (const QJsonValue& e : side.value(QLatin1String("history")).toArray()) {
                const QString id =
                    QString::fromUtf8(QJsonDocument(e.toObject()).toJson(QJsonDocument::Compact));
                if (!seen.contains(id)) {
                    seen.insert(id);
                    events << e.toObject();
                }
            }
        std::stable_sort(events.begin(), events.end(),
                         [](const QJsonObject& x, const QJsonObject& y) {
                             return x.value(QLatin1String("at")).toDouble() <
                                    y.value(QLatin1String("at")).toDouble();
                         });
        QJsonObject labels;
        QJsonArray history;
        for (const QJsonObject& e : events) {
            labels.insert(e.value(QLatin1String("label")).toString(),
                          e.value(QLatin1String("version")));
            history.append(e);
        }
        // Labels without any recorded move (older files): as either side has them.
        for (const QJsonObject& side : {b.value(key).toObject(), a.value(key).toObject()}) {
            const QJsonObject l = side.value(QLatin1String("labels")).toObject();
            for (auto it = l.begin(); it != l.end(); ++it)
                if (!labels.contains(it.key()))
                    labels.insert(it.key(), it.value());
        }
        prompts.insert(key, QJsonObject{{QStringLiteral("labels"), labels},
                                        {QStringLiteral("history"), history}});
    }
    QJsonObject out = mine;
    out.insert(QStringLiteral("prompts"), prompts);
    return out;
}

Result<bool> LibrarySync::resolve(const QStringList& conflicts, ConflictChoice choice,
                                  SyncOutcome& outcome) const
{
    const GitRepo& git = m_library.git();
    const QString labelsFile = QString::fromLatin1(PromptLibrary::kLabelsFile);
    for (const QString& path : conflicts) {
        if (path == labelsFile) {
            // Label moves never clash: both histories are kept.
            Result<QByteArray> mine =
                git.call({QStringLiteral("show"), QStringLiteral(":2:") + path});
            Result<QByteArray> theirs =
                git.call({QStringLiteral("show"), QStringLiteral(":3:") + path});
            const QJsonObject merged =
                mergeLabels(mine ? QJsonDocument::fromJson(*mine).object() : QJsonObject(),
                            theirs ? QJsonDocument::fromJson(*theirs).object() : QJsonObject());
            QString error;
            if (!writeOutputFile(QDir(git.root()).filePath(path),
                                 QJsonDocument(merged).toJson(QJsonDocument::Indented), &error,
                                 NewFileAccess::Shared))
                return makeError(tr("cannot write %1: %2").arg(path, error));
            outcome.labelsMerged = true;
        } else {
            if (choice == ConflictChoice::Stop)
                return makeError(tr("unexpected clash on %1").arg(path));
            Result<QByteArray> picked =
                git.call({QStringLiteral("checkout"),
                          choice == ConflictChoice::KeepMine ? QStringLiteral("--ours")
                                                             : QStringLiteral("--theirs"),
                          QStringLiteral("--"), path});
            if (!picked)
                return picked.error();
        }
        if (Result<QByteArray> added =
                git.call({QStringLiteral("add"), QStringLiteral("--"), path});
            !added)
            return added.error();
    }
    Result<QByteArray> committed =
        git.call({QStringLiteral("commit"), QStringLiteral("-q"), QStringLiteral("--no-edit")});
    if (!committed)
        return committed.error();
    return true;
}

Result<SyncOutcome> LibrarySync::sync(ConflictChoice choice) const
{
    const GitRepo& git = m_library.git();
    if (remote().isEmpty())
        return makeError(tr("no team library is set: give its address first"));
    const QString branch = text(
        git.run({QStringLiteral("symbolic-ref"), QStringLiteral("--short"), QStringLiteral("HEAD")})
            .out);
    if (branch.isEmpty())
        return makeError(tr("the library is not on a branch"));
    const GitOutput fetched = git.run(
        {QStringLiteral("fetch"), QStringLiteral("-q"), QStringLiteral("origin")}, {}, kNetworkMs);
    if (!fetched.ok())
        return makeError(tr("cannot reach the team library: %1").arg(text(fetched.err)));
    SyncOutcome outcome;
    const QString upstream = QStringLiteral("origin/") + branch;
    const bool remoteHasBranch = git.run({QStringLiteral("rev-parse"), QStringLiteral("-q"),
                                          QStringLiteral("--verify"), upstream})
                                     .ok();
    if (remoteHasBranch && !git.head().isEmpty()) {
        outcome.received = countCommits(git, QStringLiteral("HEAD..") + upstream);
        if (outcome.received > 0) {
            const GitOutput merged =
                git.run({QStringLiteral("merge"), QStringLiteral("--no-edit"), upstream});
            if (!merged.ok()) {
                const QStringList conflicts =
                    text(git.run({QStringLiteral("diff"), QStringLiteral("--name-only"),
                                  QStringLiteral("--diff-filter=U")})
                             .out)
                        .split(QLatin1Char('\n'), Qt::SkipEmptyParts);
                if (conflicts.isEmpty()) // refused before merging: an unsaved edit is in the way
                    return makeError(tr("save your changes as versions first: %1")
                                         .arg(text(merged.err + merged.out)));
                QStringList texts = conflicts;
                texts.removeAll(QString::fromLatin1(PromptLibrary::kLabelsFile));
                if (choice == ConflictChoice::Stop && !texts.isEmpty()) {
                    git.run({QStringLiteral("merge"), QStringLiteral("--abort")});
                    outcome.conflicts = texts;
                    outcome.merged = false;
                    return outcome;
                }
                outcome.conflicts = texts;
                if (Result<bool> r = resolve(conflicts, choice, outcome); !r) {
                    git.run({QStringLiteral("merge"), QStringLiteral("--abort")});
                    return r.error();
                }
            }
        }
    } else if (remoteHasBranch) {
        // A new library joining the team's: it starts from the team's versions.
        Result<QByteArray> reset =
            git.call({QStringLiteral("merge"), QStringLiteral("-q"), upstream});
        if (!reset)
            return reset.error();
        outcome.received = countCommits(git, QStringLiteral("HEAD"));
    }
    outcome.sent = remoteHasBranch ? countCommits(git, upstream + QStringLiteral("..HEAD"))
                                   : countCommits(git, QStringLiteral("HEAD"));
    if (outcome.sent > 0) {
        const GitOutput pushed =
            git.run({QStringLiteral("push"), QStringLiteral("-q"), QStringLiteral("origin"),
                     QStringLiteral("HEAD:refs/heads/") + branch},
                    {}, kNetworkMs);
        if (!pushed.ok())
            return makeError(tr("the team library did not take this library's "
                                "versions (someone may have just sent theirs: sync "
                                "again): %1")
                                 .arg(text(pushed.err)));
    }
    return outcome;
}

} // namespace hako::library
