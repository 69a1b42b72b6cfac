#include "core/workbench/examplecatalog.h"

#include "core/util/outputfile.h"

#include <QDir>
#include <QDirIterator>
#include <QFile>
#include <QFileInfo>

#include <algorithm>

namespace hako {

ExampleCatalog::ExampleCatalog(QString sourceDir) : m_sourceDir(std::move(sourceDir)) {}

ExampleInfo ExampleCatalog::parseHeader(const QString& fileName, const QString& text)
{
    ExampleInfo info;
    info.fileName = fileName;
    QStringList description;
    for (const QString& raw : text.split(QLatin1Char('\n'))) {
        const QString line = raw.trimmed();
        if (!line.startsWith(QLatin1Char('#')))
            break;
        const QString body = line.mid(1).trimmed();
        if (body.startsWith(QLatin1String("title:"), Qt::CaseInsensitive))
            info.title = body.mid(6).trimmed();
        else if (body.startsWith(QLatin1String("needs:"), Qt::CaseInsensitive))
            info.needsModel =
                body.mid(6).trimmed().startsWith(QLatin1String("model"), Qt::CaseInsensitive);
        else
            description << body;
    }
    if (info.title.isEmpty())
        info.title = QFileInfo(fileName).completeBaseName();
    info.description = description.join(QLatin1Char(' ')).trimmed();
    return info;
}

QList<ExampleInfo> ExampleCatalog::examples() const
{
    QList<ExampleInfo> list;
    QDir dir(m_sourceDir);
    for (const QFileInfo& fi : dir.entryInfoList({QStringLiteral("*.pdl")}, QDir::Files)) {
        QFile f(fi.filePath());
        if (!f.open(QIODevice::ReadOnly))
            continue;
        // The header is at the top; 8 KiB is plenty.
        list.append(parseHeader(fi.fileName(), QString::fromUtf8(f.read(8192))));
    }
    std::sort(list.begin(), list.end(), [](const ExampleInfo& a, const ExampleInfo& b) {
        if (a.needsModel != b.needsModel)
            return !a.needsModel;
        return a.title.localeAwareCompare(b.title) < 0;
    });
    return list;
}

Result<QString> ExampleCatalog::materialize(const QString& fileName, const QString& targetDir,
                                            bool overwrite) const
{
    if (!QFileInfo::exists(QDir(m_sourceDir).filePath(fileName)))
        return makeError(QStringLiteral("no example named %1").arg(fileName));
    QDir target(targetDir);
    QString error;
    // Examples become the user's programs: they are shared like any program the user writes.
    if (!makeOutputFolder(targetDir, &error, NewFileAccess::Shared))
        return makeError(error);
    QDirIterator it(m_sourceDir, QDir::Files, QDirIterator::Subdirectories);
    while (it.hasNext()) {
        const QString source = it.next();
        const QString relative = QDir(m_sourceDir).relativeFilePath(source);
        const QString dest = target.filePath(relative);
        if (QFileInfo::exists(dest) && !overwrite)
            continue;
        if (!makeOutputFolder(QFileInfo(dest).absolutePath(), &error, NewFileAccess::Shared))
            return makeError(error);
        QFile in(source);
        if (!in.open(QIODevice::ReadOnly))
            return makeError(QStringLiteral("cannot read %1").arg(source));
        if (!writeOutputFile(dest, in.readAll(), &error, NewFileAccess::Shared))
            return makeError(QStringLiteral("cannot write %1: %2").arg(dest, error));
    }
    return target.filePath(fileName);
}

} // namespace hako
