#include "core/playground/yamlemit_p.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QRegularExpression>

namespace hako::playground::detail {

bool isPlainSafe(const QString& text, bool flow)
{
    if (text.isEmpty() || text.front().isSpace() || text.back().isSpace())
        return false;
    static const QString badFirst = QStringLiteral("-?:,[]{}#&*!|>'\"%@`=~");
    if (badFirst.contains(text.front()))
        return false;
    if (text.endsWith(QLatin1Char(':')) || text.contains(QLatin1String(": ")) ||
        text.contains(QLatin1String(" #")) || text.contains(QLatin1String("${")))
        return false;
    for (QChar c : text) {
        if (c.unicode() < 0x20 || c.unicode() == 0x7F || c == QChar(0x2028) || c == QChar(0x2029) ||
            c == QChar(0x85) || c == QChar(0xFEFF))
            return false;
        if (flow && QStringLiteral(",[]{}").contains(c))
            return false;
    }
    // Anything PyYAML's resolver could take for a number, bool, null or timestamp.
    static const QRegularExpression special(
        QStringLiteral("^(?:[-+]?[0-9._:]|\\.|(?:y|n|yes|no|true|false|on|off|null)$)"),
        QRegularExpression::CaseInsensitiveOption);
    return !special.match(text).hasMatch();
}

bool isLiteralSafe(const QString& text)
{
    // Kept trailing blank lines (`|+`) would also take any blank lines that follow the
    // scalar in the document: such texts are quoted instead.
    if (text.isEmpty() || text.endsWith(QLatin1String("\n\n")))
        return false;
    for (QChar c : text) {
        if ((c.unicode() < 0x20 && c != QLatin1Char('\n') && c != QLatin1Char('\t')) ||
            c.unicode() == 0x7F || c == QChar(0x85) || c == QChar(0x2028) || c == QChar(0x2029) ||
            c == QChar(0xFEFF))
            return false;
    }
    // The first line's indentation sets the block's; a leading blank would need an indicator,
    // which is relative to a parent indentation this function does not know.
    const QStringList lines = text.split(QLatin1Char('\n'));
    for (const QString& line : lines) {
        if (line.isEmpty())
            continue;
        if (line.front() == QLatin1Char(' '))
            return false;
        break;
    }
    for (const QString& line : lines) {
        // A line of only blanks would be read back as an empty line.
        if (!line.isEmpty() && line.trimmed().isEmpty())
            return false;
    }
    return true;
}

QString doubleQuoted(const QString& text)
{
    QString json =
        QString::fromUtf8(QJsonDocument(QJsonArray{text}).toJson(QJsonDocument::Compact));
    json = json.mid(1, json.size() - 2);
    // JSON leaves these as they are; YAML would fold or refuse them inside quotes.
    json.replace(QChar(0x85), QLatin1String("\\N"));
    json.replace(QChar(0x2028), QLatin1String("\\L"));
    json.replace(QChar(0x2029), QLatin1String("\\P"));
    json.replace(QChar(0xFEFF), QLatin1String("\\uFEFF"));
    json.replace(QChar(0x7F), QLatin1String("\\x7F"));
    return json;
}

static QString singleQuoted(const QString& text)
{
    QString s = text;
    s.replace(QLatin1Char('\''), QLatin1String("''"));
    return QLatin1Char('\'') + s + QLatin1Char('\'');
}

static bool isSingleQuoteSafe(const QString& text)
{
    for (QChar c : text) {
        if (c.unicode() < 0x20 || c.unicode() == 0x7F || c == QChar(0x85) || c == QChar(0x2028) ||
            c == QChar(0x2029) || c == QChar(0xFEFF))
            return false;
    }
    return text.isEmpty() || (!text.front().isSpace() && !text.back().isSpace());
}

static QString literal(const QString& text, int indent)
{
    QString body = text;
    const QString chomp = body.endsWith(QLatin1Char('\n')) ? QString() : QStringLiteral("-");
    if (body.endsWith(QLatin1Char('\n')))
        body.chop(1);
    const QString pad(indent, QLatin1Char(' '));
    QString out = QLatin1Char('|') + chomp;
    const QStringList lines = body.split(QLatin1Char('\n'));
    for (const QString& line : lines)
        out += QLatin1Char('\n') + (line.isEmpty() ? QString() : pad + line);
    return out;
}

QString scalar(const QString& text, ScalarStyle preferred, int indent, bool flow)
{
    const bool multiLine = text.contains(QLatin1Char('\n'));
    switch (preferred) {
    case ScalarStyle::Literal:
        if (!flow && isLiteralSafe(text) && indent > 0)
            return literal(text, indent);
        break;
    case ScalarStyle::SingleQuoted:
        if (!multiLine && isSingleQuoteSafe(text))
            return singleQuoted(text);
        break;
    case ScalarStyle::DoubleQuoted:
        return doubleQuoted(text);
    case ScalarStyle::Plain:
        break;
    }
    if (!multiLine && isPlainSafe(text, flow))
        return text;
    if (multiLine && !flow && indent > 0 && isLiteralSafe(text))
        return literal(text, indent);
    return doubleQuoted(text);
}

QString flowValue(const QJsonValue& value, bool flow)
{
    if (value.isString())
        return scalar(value.toString(), ScalarStyle::Plain, 0, flow);
    if (value.isNull() || value.isUndefined())
        return QStringLiteral("null");
    const QString json =
        QString::fromUtf8(QJsonDocument(QJsonArray{value}).toJson(QJsonDocument::Compact));
    return json.mid(1, json.size() - 2);
}

} // namespace hako::playground::detail
