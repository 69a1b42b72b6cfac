#include "core/library/promptlibrary.h"

#include "core/pdl/parser/yamlvalue.h"
#include "core/pdl/promptidentity.h"
#include "core/util/outputfile.h"

#include <QDateTime>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QProcess>
#include <QProcessEnvironment>
#include <QRegularExpression>
#include <QSettings>

namespace hako::library {

namespace {

bool isCommitLike(const QString& s)
{
    static const QRegularExpression re(QStringLiteral("^[0-9a-f]{4,40}$"));
    return re.match(s).hasMatch();
}

// A revision or path given by a user never reaches git as an option.
bool safeArgument(const QString& s)
{
    return !s.isEmpty() && !s.startsWith(QLatin1Char('-'));
}

} // namespace

LibraryPrompt describeProgram(const QByteArray& text, const QString& path)
{
    LibraryPrompt p;
    p.path = path;
    p.id = pdl::programPromptId(QString::fromUtf8(text).split(QLatin1Char('\n')));
    if (Result<pdl::YamlValue> doc = pdl::loadYaml(text, path); doc.ok() && doc->isMapping())
        if (const pdl::YamlValue* d = doc->value("description"); d && d->isScalar())
            p.name = QString::fromStdString(d->scalar().toText())
                         .section(QLatin1Char('\n'), 0, 0)
                         .trimmed();
    if (p.name.isEmpty())
        p.name = QFileInfo(path).completeBaseName();
    return p;
}

Result<PromptLibrary> PromptLibrary::open(const QString& folder)
{
    Result<GitRepo> git = GitRepo::open(folder);
    if (!git)
        return git.error();
    return PromptLibrary(*git);
}

Result<PromptLibrary> PromptLibrary::create(const QString& folder)
{
    Result<GitRepo> git = GitRepo::init(folder);
    if (!git)
        return git.error();
    return PromptLibrary(*git);
}

QString PromptLibrary::relative(const QString& file) const
{
    const QString canonical = QFileInfo(file).canonicalFilePath();
    const QString root = QFileInfo(m_git.root()).canonicalFilePath();
    const QString path = canonical.isEmpty() ? QFileInfo(file).absoluteFilePath() : canonical;
    return QDir(root).relativeFilePath(path);
}

Result<QList<LibraryPrompt>> PromptLibrary::prompts() const
{
    QList<LibraryPrompt> out;
    const QString head = m_git.head();
    if (head.isEmpty())
        return out;
    Result<QByteArray> listed =
        m_git.call({QStringLiteral("ls-tree"), QStringLiteral("-r"), QStringLiteral("-z"),
                    QStringLiteral("--name-only"), head});
    if (!listed)
        return listed.error();
    QStringList paths;
    for (const QByteArray& name : listed->split('\0'))
        if (name.endsWith(".pdl"))
            paths << QString::fromUtf8(name);
    if (paths.isEmpty())
        return out;
    // Every file's text in one git process.
    QByteArray request;
    for (const QString& p : paths)
        request += (head + QLatin1Char(':') + p).toUtf8() + '\n';
    Result<QByteArray> blobs =
        m_git.call({QStringLiteral("cat-file"), QStringLiteral("--batch")}, request);
    if (!blobs)
        return blobs.error();
    qsizetype at = 0;
    for (const QString& p : paths) {
        const qsizetype eol = blobs->indexOf('\n', at);
        if (eol < 0)
            break;
        const QList<QByteArray> header = blobs->mid(at, eol - at).split(' ');
        const qsizetype size = header.size() == 3 ? header[2].toLongLong() : -1;
        if (size < 0) {
            at = eol + 1;
            continue;
        }
        out << describeProgram(blobs->mid(eol + 1, size), p);
        at = eol + 1 + size + 1;
    }
    return out;
}

Result<LibraryPrompt> PromptLibrary::find(const QString& key) const
{
    Result<QList<LibraryPrompt>> all = prompts();
    if (!all)
        return all.error();
    QList<LibraryPrompt> byName;
    for (const LibraryPrompt& p : *all) {
        if (p.id == key || p.path == key || p.path == key + QStringLiteral(".pdl"))
            return p;
        if (p.name == key || QFileInfo(p.path).completeBaseName() == key)
            byName << p;
    }
    if (byName.size() == 1)
        return byName.first();
    if (byName.size() > 1) {
        QStringList paths;
        for (const LibraryPrompt& p : byName)
            paths << p.path;
        return makeError(QStringLiteral("%1 names %2 prompts (%3): give the path instead")
                             .arg(key)
                             .arg(byName.size())
                             .arg(paths.join(QStringLiteral(", "))));
    }
    return makeError(QStringLiteral("no prompt %1 in the library %2 (only saved versions count; "
                                    "`hako prompt list` shows them)")
                         .arg(key, m_git.root()));
}

Result<QList<PromptVersion>> PromptLibrary::history(const LibraryPrompt& prompt) const
{
    if (!safeArgument(prompt.path))
        return makeError(QStringLiteral("no such prompt"));
    Result<QByteArray> log = m_git.call(
        {QStringLiteral("log"), QStringLiteral("--follow"), QStringLiteral("--name-only"),
         QStringLiteral("--format=%x1e%H%x1f%an%x1f%at%x1f%s"), QStringLiteral("--"), prompt.path});
    if (!log)
        return log.error();
    QList<PromptVersion> versions;
    for (const QByteArray& chunk : log->split('\x1e')) {
        const QList<QByteArray> lines = chunk.trimmed().split('\n');
        const QList<QByteArray> f = lines.value(0).split('\x1f');
        if (f.size() < 4)
            continue;
        PromptVersion v;
        v.commit = QString::fromLatin1(f[0]);
        v.author = QString::fromUtf8(f[1]);
        v.time = f[2].toLongLong();
        v.message = QString::fromUtf8(f[3]);
        v.path = QString::fromUtf8(lines.value(lines.size() - 1).trimmed());
        if (v.path.isEmpty() || lines.size() < 2)
            v.path = prompt.path;
        versions << v;
    }
    for (qsizetype i = 0; i < versions.size(); ++i)
        versions[i].number = int(versions.size() - i);
    return versions;
}

QJsonObject PromptLibrary::readLabels() const
{
    const QString head = m_git.head();
    if (head.isEmpty())
        return {};
    Result<QByteArray> text = m_git.show(head, QString::fromLatin1(kLabelsFile));
    return text ? QJsonDocument::fromJson(*text).object() : QJsonObject();
}

QMap<QString, QString> PromptLibrary::labels(const LibraryPrompt& prompt) const
{
    QMap<QString, QString> out;
    const QJsonObject labels = readLabels()
                                   .value(QLatin1String("prompts"))
                                   .toObject()
                                   .value(prompt.key())
                                   .toObject()
                                   .value(QLatin1String("labels"))
                                   .toObject();
    for (auto it = labels.begin(); it != labels.end(); ++it)
        out.insert(it.key(), it.value().toString());
    return out;
}

QList<LabelEvent> PromptLibrary::labelHistory(const LibraryPrompt& prompt) const
{
    QList<LabelEvent> out;
    const QJsonArray events = readLabels()
                                  .value(QLatin1String("prompts"))
                                  .toObject()
                                  .value(prompt.key())
                                  .toObject()
                                  .value(QLatin1String("history"))
                                  .toArray();
    for (const QJsonValue& e : events) {
        const QJsonObject o = e.toObject();
        out << LabelEvent{o.value(QLatin1String("label")).toString(),
                          o.value(QLatin1String("version")).toString(),
                          o.value(QLatin1String("by")).toString(),
                          qint64(o.value(QLatin1String("at")).toDouble())};
    }
    return out;
}

Result<PromptVersion> PromptLibrary::versionOf(const LibraryPrompt& prompt,
                                               const QString& spec) const
{
    Result<QList<PromptVersion>> versions = history(prompt);
    if (!versions)
        return versions.error();
    if (versions->isEmpty())
        return makeError(QStringLiteral("%1 has no saved version").arg(prompt.name));
    if (spec.isEmpty())
        return versions->first();
    bool isNumber = false;
    const int number =
        spec.startsWith(QLatin1Char('v')) ? spec.mid(1).toInt(&isNumber) : spec.toInt(&isNumber);
    for (const PromptVersion& v : *versions) {
        if (isNumber && v.number == number && spec.size() < 4)
            return v;
        if (isCommitLike(spec) && v.commit.startsWith(spec))
            return v;
    }
    return makeError(QStringLiteral("%1 has no version %2 (it has %3; `hako prompt history %1` "
                                    "lists them)")
                         .arg(prompt.name, spec)
                         .arg(versions->size()));
}

Result<ResolvedPrompt> PromptLibrary::get(const QString& spec) const
{
    const qsizetype at = spec.lastIndexOf(QLatin1Char('@'));
    const QString name = at > 0 ? spec.left(at) : spec;
    const QString which = at > 0 ? spec.mid(at + 1) : QString();
    Result<LibraryPrompt> prompt = find(name);
    if (!prompt)
        return prompt.error();
    ResolvedPrompt r;
    r.prompt = *prompt;
    r.labels = labels(*prompt);
    QString version = which;
    if (r.labels.contains(which)) {
        r.label = which;
        version = r.labels.value(which);
    } else if (!which.isEmpty() && !isCommitLike(which) &&
               !which.contains(QRegularExpression(QStringLiteral("^v?[0-9]+$")))) {
        return makeError(QStringLiteral("%1 has no label %2 (its labels: %3)")
                             .arg(prompt->name, which,
                                  r.labels.isEmpty() ? QStringLiteral("none")
                                                     : r.labels.keys().join(QStringLiteral(", "))));
    }
    Result<PromptVersion> v = versionOf(*prompt, version);
    if (!v)
        return v.error();
    r.version = *v;
    Result<QByteArray> text = m_git.show(v->commit, v->path);
    if (!text)
        return text.error();
    r.text = *text;
    return r;
}

Result<PromptVersion> PromptLibrary::setLabel(const LibraryPrompt& prompt, const QString& label,
                                              const QString& version) const
{
    static const QRegularExpression labelName(QStringLiteral("^[\\w.-]{1,64}$"),
                                              QRegularExpression::UseUnicodePropertiesOption);
    if (!labelName.match(label).hasMatch() || label.startsWith(QLatin1Char('-')) ||
        isCommitLike(label) || label.contains(QRegularExpression(QStringLiteral("^v?[0-9]+$"))))
        return makeError(QStringLiteral("'%1' cannot be a label: use letters, digits, '.', '_' or "
                                        "'-' (not a version number)")
                             .arg(label));
    Result<PromptVersion> v = versionOf(prompt, version);
    if (!v)
        return v.error();
    QJsonObject all = readLabels();
    QJsonObject prompts = all.value(QLatin1String("prompts")).toObject();
    QJsonObject entry = prompts.value(prompt.key()).toObject();
    QJsonObject labels = entry.value(QLatin1String("labels")).toObject();
    labels.insert(label, v->commit);
    QJsonArray history = entry.value(QLatin1String("history")).toArray();
    const QString by = QString::fromUtf8(
        m_git.run({QStringLiteral("config"), QStringLiteral("user.name")}).out.trimmed());
    history.append(QJsonObject{{QStringLiteral("label"), label},
                               {QStringLiteral("version"), v->commit},
                               {QStringLiteral("by"), by.isEmpty() ? QStringLiteral("Hako") : by},
                               {QStringLiteral("at"), double(QDateTime::currentSecsSinceEpoch())}});
    entry.insert(QStringLiteral("labels"), labels);
    entry.insert(QStringLiteral("history"), history);
    entry.insert(QStringLiteral("name"), prompt.name);
    prompts.insert(prompt.key(), entry);
    all.insert(QStringLiteral("prompts"), prompts);
    const QString file = QDir(m_git.root()).filePath(QString::fromLatin1(kLabelsFile));
    // The library is shared (a team's repository): its files follow the user's umask.
    QString error;
    if (!makeOutputFolder(QFileInfo(file).absolutePath(), &error, NewFileAccess::Shared) ||
        !writeOutputFile(file, QJsonDocument(all).toJson(QJsonDocument::Indented), &error,
                         NewFileAccess::Shared))
        return makeError(QStringLiteral("cannot write %1: %2").arg(file, error));
    const QString message =
        QStringLiteral("Label %1: %2 version %3").arg(label, prompt.name).arg(v->number);
    if (Result<QByteArray> added = m_git.call(
            {QStringLiteral("add"), QStringLiteral("--"), QString::fromLatin1(kLabelsFile)});
        !added)
        return added.error();
    if (Result<QByteArray> committed =
            m_git.call({QStringLiteral("commit"), QStringLiteral("-q"), QStringLiteral("-m"),
                        message, QStringLiteral("--"), QString::fromLatin1(kLabelsFile)});
        !committed)
        return committed.error();
    return *v;
}

Result<QString> PromptLibrary::saveVersion(const QString& file, const QString& message) const
{
    const QString path = relative(file);
    if (path.startsWith(QLatin1String("..")) || !safeArgument(path))
        return makeError(QStringLiteral("%1 is not inside the library %2: save it there first")
                             .arg(file, m_git.root()));
    if (!hasUnsavedVersion(file))
        return makeError(
            QStringLiteral("%1 has no changes since its last saved version").arg(path));
    if (Result<QByteArray> added = m_git.call({QStringLiteral("add"), QStringLiteral("--"), path});
        !added)
        return added.error();
    const QString text = message.trimmed().isEmpty()
                             ? QStringLiteral("Save %1").arg(QFileInfo(path).fileName())
                             : message.trimmed();
    if (Result<QByteArray> committed =
            m_git.call({QStringLiteral("commit"), QStringLiteral("-q"), QStringLiteral("-m"), text,
                        QStringLiteral("--"), path});
        !committed)
        return committed.error();
    return m_git.head();
}

bool PromptLibrary::hasUnsavedVersion(const QString& file) const
{
    const QString path = relative(file);
    if (!safeArgument(path))
        return false;
    const GitOutput status = m_git.run(
        {QStringLiteral("status"), QStringLiteral("--porcelain"), QStringLiteral("--"), path});
    return status.ok() && !status.out.trimmed().isEmpty();
}

Result<ResolvedPrompt> PromptLibrary::versionOfFile(const QString& file) const
{
    QString path = relative(file);
    if (path.startsWith(QLatin1String("../")) || QDir::isAbsolutePath(path) || !safeArgument(path))
        return makeError(QStringLiteral("%1 is not in the library %2").arg(file, m_git.root()));
    QFile f(file);
    if (!f.open(QIODevice::ReadOnly))
        return makeError(QStringLiteral("%1: %2").arg(file, f.errorString()));
    ResolvedPrompt out;
    out.text = f.readAll();
    // A copy of a version: the commit is in its folder's name.
    static const QRegularExpression copy(QStringLiteral("^\\.hako/versions/([0-9a-f]{40})/(.+)$"));
    const QRegularExpressionMatch m = copy.match(path);
    QString commit;
    if (m.hasMatch()) {
        commit = m.captured(1);
        path = m.captured(2);
    } else if (hasUnsavedVersion(file)) {
        out.prompt = describeProgram(out.text, path);
        return makeError(QStringLiteral("%1 has changes not saved as a version").arg(path));
    }
    out.prompt = describeProgram(out.text, path);
    // The prompt as the newest commit knows it (it may have moved since this version).
    Result<LibraryPrompt> current = find(out.prompt.key());
    const LibraryPrompt prompt = current ? *current : out.prompt;
    Result<QList<PromptVersion>> versions = history(prompt);
    if (!versions)
        return versions.error();
    for (const PromptVersion& v : *versions)
        if (commit.isEmpty() ? true : v.commit == commit) {
            out.prompt = prompt;
            out.version = v;
            out.labels = labels(prompt);
            return out;
        }
    return makeError(QStringLiteral("%1 was never saved as a version").arg(path));
}

Result<QString> PromptLibrary::materialize(const ResolvedPrompt& prompt) const
{
    const QString own = QDir(m_git.root()).filePath(prompt.version.path);
    QFile current(own);
    if (current.open(QIODevice::ReadOnly) && current.readAll() == prompt.text)
        return own;
    const QString versions = QDir(m_git.root()).filePath(QStringLiteral(".hako/versions"));
    const QString folder = QDir(versions).filePath(prompt.version.commit);
    const QString file = QDir(folder).filePath(prompt.version.path);
    if (QFileInfo(file).isFile())
        return file;
    QString error;
    if (!makeOutputFolder(folder, &error, NewFileAccess::Shared))
        return makeError(QStringLiteral("cannot create %1: %2").arg(folder, error));
    writeOutputFile(QDir(versions).filePath(QStringLiteral(".gitignore")), "*\n", &error,
                    NewFileAccess::Shared);
    const GitOutput archive = m_git.run(
        {QStringLiteral("archive"), QStringLiteral("--format=tar"), prompt.version.commit});
    if (!archive.ok())
        return makeError(QStringLiteral("git archive: %1").arg(QString::fromUtf8(archive.err)));
    QProcess tar;
    tar.setWorkingDirectory(folder);
    tar.start(QStringLiteral("tar"),
              {QStringLiteral("-x"), QStringLiteral("-f"), QStringLiteral("-")});
    tar.write(archive.out);
    tar.closeWriteChannel();
    if (!tar.waitForFinished(60000) || tar.exitCode() != 0 || !QFileInfo(file).isFile()) {
        QDir(folder).removeRecursively();
        return makeError(QStringLiteral("cannot unpack version %1 of the library: %2")
                             .arg(prompt.version.commit.left(10),
                                  QString::fromUtf8(tar.readAllStandardError())));
    }
    return file;
}

Result<QString> PromptLibrary::fileFor(const QString& spec, const QString& folder, QString* commit)
{
    Result<PromptLibrary> lib = open(folder.isEmpty() ? defaultFolder() : folder);
    if (!lib)
        return lib.error();
    Result<ResolvedPrompt> resolved = lib->get(spec);
    if (!resolved)
        return resolved.error();
    if (commit)
        *commit = resolved->version.commit;
    return lib->materialize(*resolved);
}

QString PromptLibrary::defaultFolder(bool orCurrentFolder)
{
    const QString env =
        QProcessEnvironment::systemEnvironment().value(QStringLiteral("HAKO_LIBRARY"));
    if (!env.isEmpty())
        return env;
    const QString last = QSettings().value(QStringLiteral("library/last")).toString();
    return !last.isEmpty() ? last : orCurrentFolder ? QDir::currentPath() : QString();
}

} // namespace hako::library
