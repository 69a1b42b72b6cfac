#include "core/playground/programname.h"

#include "core/pdl/parser/yamlvalue.h"
#include "core/playground/promptdoc.h"

#include <QCoreApplication>

namespace hako::playground {

namespace {

QString tr(const char* text)
{
    return QCoreApplication::translate("hako::playground::ProgramName", text);
}

} // namespace

ProgramName programName(const QString& source)
{
    ProgramName out;
    Result<pdl::YamlValue> root = pdl::loadYaml(source.toUtf8(), QString());
    if (!root || !root->isMapping())
        return out;
    const pdl::YamlValue* d = root->value("description");
    if (!d || !d->isString())
        return out;
    out.text = QString::fromStdString(d->scalar().asString());
    out.line = d->span().line;
    out.column = d->span().column;
    return out;
}

Result<QList<TextEdit>> setProgramName(const QString& source, const QString& name)
{
    const QString wanted = name.simplified();
    if (wanted.isEmpty())
        return makeError(tr("a prompt's name cannot be empty"));
    const ProgramName now = programName(source);
    if (now.written())
        return replaceScalar(source, now.line, now.column, wanted);
    Result<pdl::YamlValue> root = pdl::loadYaml(source.toUtf8(), QString());
    if (!root)
        return root.error();
    if (!root->isMapping() || root->entries().empty() || !root->span().isValid())
        return makeError(tr("only a program that is a mapping of fields can be named here; add "
                            "a description: line in the YAML"));
    // The first key's line: the name goes just above it, at its indentation (0 at the root).
    int firstLine = root->span().line;
    for (const auto& entry : root->entries())
        if (entry.key.span().isValid())
            firstLine = std::min(firstLine, entry.key.span().line);
    const QStringList lines = source.split(QLatin1Char('\n'));
    qsizetype offset = 0;
    for (int i = 0; i < firstLine - 1 && i < lines.size(); ++i)
        offset += lines[i].size() + 1;
    const QString eol =
        source.contains(QLatin1String("\r\n")) ? QStringLiteral("\r\n") : QStringLiteral("\n");
    const QString placeholder = QStringLiteral("description: x") + eol;
    QString withKey = source;
    withKey.insert(offset, placeholder);
    Result<QList<TextEdit>> named =
        replaceScalar(withKey, firstLine, int(QStringLiteral("description: ").size()) + 1, wanted);
    if (!named)
        return named.error();
    for (const TextEdit& e : *named)
        withKey.replace(e.offset, e.length, e.replacement);
    const QString inserted = withKey.mid(offset, withKey.size() - source.size());
    if (programName(withKey).text != wanted)
        return makeError(tr("the name could not be written"));
    return QList<TextEdit>{TextEdit{offset, 0, inserted}};
}

} // namespace hako::playground
