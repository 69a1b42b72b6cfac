#include "core/library/gitrepo.h"

#include "core/util/outputfile.h"

#include <QDir>
#include <QFileInfo>
#include <QProcess>
#include <QProcessEnvironment>
#include <QStandardPaths>

namespace hako::library {

namespace {

QProcessEnvironment gitEnvironment()
{
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    env.insert(QStringLiteral("GIT_TERMINAL_PROMPT"), QStringLiteral("0"));
    env.insert(QStringLiteral("GIT_PAGER"), QStringLiteral("cat"));
    env.insert(QStringLiteral("LC_ALL"), QStringLiteral("C"));
    env.insert(QStringLiteral("GIT_OPTIONAL_LOCKS"), QStringLiteral("0"));
    env.remove(QStringLiteral("GIT_DIR"));
    env.remove(QStringLiteral("GIT_WORK_TREE"));
    env.remove(QStringLiteral("GIT_INDEX_FILE"));
    return env;
}

// An identity for commits when git has none configured (a fresh machine, CI): the user's
// settings win; the fallback keeps "Save version" from failing with a git lecture.
QStringList identityArgs(const QString& root)
{
    QStringList args;
    QProcess p;
    p.setProcessEnvironment(gitEnvironment());
    p.setWorkingDirectory(root);
    const QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    for (const auto& [key, variable, fallback] :
         {std::tuple{"user.name", "HAKO_GIT_NAME", "Hako"},
          std::tuple{"user.email", "HAKO_GIT_EMAIL", "hako@localhost"}}) {
        p.start(QStringLiteral("git"), {QStringLiteral("config"), QString::fromLatin1(key)});
        const bool set = p.waitForFinished(10000) && p.exitCode() == 0 &&
                         !p.readAllStandardOutput().trimmed().isEmpty();
        if (!set)
            args << QStringLiteral("-c")
                 << QStringLiteral("%1=%2").arg(
                        QString::fromLatin1(key),
                        env.value(QString::fromLatin1(variable), QString::fromLatin1(fallback)));
    }
    return args;
}

} // namespace

bool GitRepo::available()
{
    return !QStandardPaths::findExecutable(QStringLiteral("git")).isEmpty();
}

Result<GitRepo> GitRepo::open(const QString& folder)
{
    if (!available())
        return makeError(QStringLiteral("git is not installed (Debian: apt install git)"));
    if (!QFileInfo(folder).isDir())
        return makeError(QStringLiteral("%1: no such folder").arg(folder));
    GitRepo probe(QFileInfo(folder).absoluteFilePath());
    const GitOutput top =
        probe.run({QStringLiteral("rev-parse"), QStringLiteral("--show-toplevel")});
    if (!top.ok())
        return makeError(QStringLiteral("%1 is not a prompt library (not a git repository); "
                                        "create one with `hako prompt init %1`")
                             .arg(QDir::toNativeSeparators(folder)));
    return GitRepo(QDir::cleanPath(QString::fromUtf8(top.out.trimmed())));
}

Result<GitRepo> GitRepo::init(const QString& folder)
{
    if (!available())
        return makeError(QStringLiteral("git is not installed (Debian: apt install git)"));
    QString error;
    if (!makeOutputFolder(folder, &error, NewFileAccess::Shared))
        return makeError(QStringLiteral("cannot create the folder %1: %2").arg(folder, error));
    GitRepo repo(QFileInfo(folder).absoluteFilePath());
    if (Result<GitRepo> existing = open(folder);
        existing.ok() && existing->root() == QDir::cleanPath(repo.root()))
        return existing;
    if (Result<QByteArray> made = repo.call({QStringLiteral("init"), QStringLiteral("-q")}); !made)
        return made.error();
    return open(folder);
}

GitOutput GitRepo::run(const QStringList& args, const QByteArray& input, int timeoutMs) const
{
    GitOutput out;
    QProcess p;
    p.setProcessEnvironment(gitEnvironment());
    p.setWorkingDirectory(m_root);
    QStringList all{QStringLiteral("-c"), QStringLiteral("core.quotepath=off")};
    if (!args.isEmpty() &&
        (args.first() == QLatin1String("commit") || args.first() == QLatin1String("merge") ||
         args.first() == QLatin1String("pull")))
        all << identityArgs(m_root);
    p.start(QStringLiteral("git"), all + args);
    if (!p.waitForStarted(10000)) {
        out.err = "git could not be started";
        return out;
    }
    if (!input.isEmpty())
        p.write(input);
    p.closeWriteChannel();
    if (!p.waitForFinished(timeoutMs)) {
        p.kill();
        p.waitForFinished();
        out.err = "git did not finish in time";
        return out;
    }
    out.exitCode = p.exitStatus() == QProcess::NormalExit ? p.exitCode() : -1;
    out.out = p.readAllStandardOutput();
    out.err = p.readAllStandardError();
    return out;
}

Result<QByteArray> GitRepo::call(const QStringList& args, const QByteArray& input) const
{
    GitOutput out = run(args, input);
    if (out.ok())
        return out.out;
    return makeError(
        QStringLiteral("git %1: %2").arg(args.value(0), QString::fromUtf8(out.err.trimmed())));
}

QString GitRepo::head() const
{
    const GitOutput out = run({QStringLiteral("rev-parse"), QStringLiteral("--verify"),
                               QStringLiteral("-q"), QStringLiteral("HEAD")});
    return out.ok() ? QString::fromLatin1(out.out.trimmed()) : QString();
}

Result<QString> GitRepo::resolve(const QString& rev) const
{
    const GitOutput out = run({QStringLiteral("rev-parse"), QStringLiteral("--verify"),
                               QStringLiteral("-q"), rev + QStringLiteral("^{commit}")});
    if (!out.ok())
        return makeError(QStringLiteral("no version %1").arg(rev));
    return QString::fromLatin1(out.out.trimmed());
}

Result<QByteArray> GitRepo::show(const QString& commit, const QString& path) const
{
    const GitOutput out = run({QStringLiteral("show"), commit + QLatin1Char(':') + path});
    if (!out.ok())
        return makeError(QStringLiteral("%1 is not in version %2").arg(path, commit.left(12)));
    return out.out;
}

} // namespace hako::library
