#include "core/workbench/templatecatalog.h"

#include <QDir>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QJsonParseError>
#include <QLocale>
#include <QSet>

namespace hako {

namespace {

const char* const kIndexName = "templates.json";

// A {"en": …, "ja": …} text in `language`, English when that language is missing.
QString localized(const QJsonValue& value, const QString& language)
{
    const QJsonObject texts = value.toObject();
    const QString text = texts.value(language).toString();
    return text.isEmpty() ? texts.value(QStringLiteral("en")).toString() : text;
}

// The line of the character at `offset` in `data` (1-based), for parse errors.
int lineAt(const QByteArray& data, int offset)
{
    return int(data.left(offset).count('\n')) + 1;
}

} // namespace

TemplateCatalog::TemplateCatalog(QString folder) : m_folder(std::move(folder)) {}

Result<QList<TemplateInfo>> TemplateCatalog::templates(const QString& language) const
{
    const QString indexPath = QDir(m_folder).filePath(QLatin1String(kIndexName));
    SourceSpan where{indexPath};
    QFile file(indexPath);
    if (!file.open(QIODevice::ReadOnly))
        return makeError(QStringLiteral("cannot read %1: %2").arg(indexPath, file.errorString()),
                         where);
    const QByteArray data = file.readAll();
    QJsonParseError parseError;
    const QJsonDocument doc = QJsonDocument::fromJson(data, &parseError);
    if (parseError.error != QJsonParseError::NoError) {
        where.line = lineAt(data, parseError.offset);
        return makeError(QStringLiteral("%1 is not valid JSON: %2 (line %3)")
                             .arg(indexPath, parseError.errorString())
                             .arg(where.line),
                         where);
    }
    const QJsonValue list = doc.object().value(QStringLiteral("templates"));
    if (!doc.isObject() || !list.isArray())
        return makeError(
            QStringLiteral("%1 must be an object with a \"templates\" array").arg(indexPath),
            where);

    QList<TemplateInfo> result;
    QSet<QString> ids;
    int index = 0;
    for (const QJsonValue& entry : list.toArray()) {
        const QJsonObject o = entry.toObject();
        auto fail = [&](const QString& reason) {
            return makeError(
                QStringLiteral("%1: template %2%3: %4")
                    .arg(indexPath)
                    .arg(index + 1)
                    .arg(o.value(QStringLiteral("id")).isString()
                             ? QStringLiteral(" (%1)").arg(o.value(QStringLiteral("id")).toString())
                             : QString())
                    .arg(reason),
                where);
        };
        if (!entry.isObject())
            return fail(QStringLiteral("is not an object"));
        TemplateInfo info;
        info.id = o.value(QStringLiteral("id")).toString();
        info.fileName = o.value(QStringLiteral("file")).toString();
        if (info.id.isEmpty())
            return fail(QStringLiteral("has no \"id\""));
        if (ids.contains(info.id))
            return fail(QStringLiteral("the id is used twice"));
        ids.insert(info.id);
        if (info.fileName.isEmpty())
            return fail(QStringLiteral("has no \"file\""));
        info.fileNames.insert(QStringLiteral("en"), info.fileName);
        const QJsonValue files = o.value(QStringLiteral("files"));
        if (!files.isUndefined() && !files.isObject())
            return fail(QStringLiteral("\"files\" must be an object: {\"ja\": \"name.ja.pdl\"}"));
        const QJsonObject languageFiles = files.toObject();
        for (auto it = languageFiles.begin(); it != languageFiles.end(); ++it) {
            if (it.value().toString().isEmpty())
                return fail(QStringLiteral("\"files\": the %1 file has no name").arg(it.key()));
            info.fileNames.insert(it.key(), it.value().toString());
        }
        info.fileName = info.fileNames.value(language, info.fileName);
        for (const char* field : {"title", "description"}) {
            const QJsonValue v = o.value(QLatin1String(field));
            if (!v.isObject() || v.toObject().value(QStringLiteral("en")).toString().isEmpty())
                return fail(QStringLiteral("\"%1\" needs an English text: {\"en\": …, \"ja\": …}")
                                .arg(QLatin1String(field)));
        }
        info.title = localized(o.value(QStringLiteral("title")), language);
        info.description = localized(o.value(QStringLiteral("description")), language);
        const QJsonValue inputs = o.value(QStringLiteral("inputs"));
        if (!inputs.isUndefined() && !inputs.isArray())
            return fail(QStringLiteral("\"inputs\" must be an array"));
        for (const QJsonValue& in : inputs.toArray()) {
            const QJsonObject io = in.toObject();
            const QString name = io.value(QStringLiteral("name")).toString();
            if (name.isEmpty())
                return fail(QStringLiteral("an input has no \"name\""));
            QString explanation = io.value(language).toString();
            if (explanation.isEmpty())
                explanation = io.value(QStringLiteral("en")).toString();
            info.inputs.append({name, explanation});
        }
        info.needsDocument = o.value(QStringLiteral("needsDocument")).toBool();
        info.needsMemory = o.value(QStringLiteral("needsMemory")).toBool();
        result.append(std::move(info));
        ++index;
    }
    return result;
}

Result<QString> TemplateCatalog::programText(const QString& id, const QString& language) const
{
    const Result<QList<TemplateInfo>> list = templates(language);
    if (!list)
        return list.error();
    for (const TemplateInfo& t : *list) {
        if (t.id != id)
            continue;
        const QString path = QDir(m_folder).filePath(t.fileName);
        QFile f(path);
        if (!f.open(QIODevice::ReadOnly))
            return makeError(
                QStringLiteral("cannot read the template %1: %2").arg(path, f.errorString()),
                SourceSpan{path});
        return QString::fromUtf8(f.readAll());
    }
    return makeError(QStringLiteral("no template named %1").arg(id));
}

QString TemplateCatalog::interfaceLanguage(const QString& setting)
{
    QString wanted = qEnvironmentVariable("HAKO_LANGUAGE");
    if (wanted.isEmpty())
        wanted = setting;
    if (wanted.isEmpty())
        wanted = QLocale::system().name();
    return wanted.startsWith(QLatin1String("ja"), Qt::CaseInsensitive) ? QStringLiteral("ja")
                                                                       : QStringLiteral("en");
}

} // namespace hako
