#include "core/playground/promptdocplace.h"

#include <QCoreApplication>
#include <QRegularExpression>
#include <QStringList>

namespace hako::playground {

namespace {

bool contains(const SourceSpan& s, int line, int column)
{
    if (!s.isValid())
        return false;
    const int endLine = s.endLine > 0 ? s.endLine : s.line;
    const int endColumn = s.endLine > 0 ? s.endColumn : s.column + 1;
    const bool afterStart = line > s.line || (line == s.line && column >= s.column);
    // Spans end at their last character; the column after it counts too: an error after the
    // last character of a text (an unclosed `${`) is in that text.
    const bool beforeEnd = line < endLine || (line == endLine && column <= endColumn + 1);
    return afterStart && beforeEnd;
}

// The innermost message of a card (at any depth) holding the position.
const PromptDocItem* messageAt(const QList<PromptDocItem>& items, int line, int column)
{
    for (const PromptDocItem& i : items) {
        if (const PromptDocItem* inner = messageAt(i.children, line, column))
            return inner;
        if (contains(i.span, line, column) || contains(i.textSpan, line, column))
            return &i;
    }
    return nullptr;
}

// The innermost card, value or text holding the position; else the innermost section.
const PromptDocItem* itemAt(const QList<PromptDocItem>& items, int line, int column)
{
    for (const PromptDocItem& i : items) {
        const bool here = contains(i.span, line, column) || contains(i.textSpan, line, column);
        if (i.kind == PromptDocItem::Kind::Card) {
            if (here)
                return &i;
            continue;
        }
        if (const PromptDocItem* inner = itemAt(i.children, line, column))
            return inner;
        if (here)
            return &i;
    }
    return nullptr;
}

// The key of the card's own field that holds `line` (`parameters` for a line under
// `parameters:`), read from the text: the nearest line at or above it, at the card's key column.
QString cardKeyAt(const PromptDocItem& card, const QString& text, int line)
{
    const QStringList lines = text.split(QLatin1Char('\n'));
    static const QRegularExpression key(QStringLiteral("^([A-Za-z_][\\w-]*)[ \\t]*:"));
    const int keyColumn = card.span.column - 1;
    for (int l = std::min<int>(line, int(lines.size())); l >= card.span.line && l >= 1; --l) {
        const QString s = lines.at(l - 1);
        // Columns count code points: the indentation before a key is ASCII.
        const QString before = s.left(keyColumn);
        const bool atKeyColumn =
            l == card.span.line || (before.size() == keyColumn && before.trimmed().isEmpty() &&
                                    s.size() > keyColumn && s.at(keyColumn) != QLatin1Char(' '));
        // Items of a list written at the key's own column (`input:` then `- role: …`) belong
        // to the key above.
        if (!atKeyColumn || s.mid(keyColumn).startsWith(QLatin1Char('-')))
            continue;
        const QRegularExpressionMatch m = key.match(s.mid(keyColumn));
        if (m.hasMatch())
            return m.captured(1);
        if (!s.trimmed().isEmpty() && !s.trimmed().startsWith(QLatin1Char('#')))
            return {};
    }
    return {};
}

// The role of the `{role, content}` message of a list that holds `line`, read from the text
// ("" when none is written): what the view does not show as a message still has one.
QString roleAt(const QString& text, int line, int firstLine)
{
    const QStringList lines = text.split(QLatin1Char('\n'));
    static const QRegularExpression role(QStringLiteral("^[ \\t]*(?:-[ \\t]+)?role:[ \\t]*(\\w+)"));
    for (int l = std::min<int>(line, int(lines.size())); l > firstLine; --l) {
        const QString s = lines.at(l - 1);
        if (const QRegularExpressionMatch m = role.match(s); m.hasMatch())
            return m.captured(1);
        if (s.trimmed().startsWith(QLatin1String("- ")))
            break;
    }
    return {};
}

PromptDocPlace::Field messageField(const QString& role)
{
    if (role == QLatin1String("system"))
        return PromptDocPlace::Field::Instructions;
    if (role.isEmpty() || role == QLatin1String("user"))
        return PromptDocPlace::Field::Input;
    return PromptDocPlace::Field::Message;
}

QString quoted(const QString& name)
{
    return QCoreApplication::translate("hako::playground::PromptDocPlace", "“%1”").arg(name);
}

} // namespace

PromptDocPlace placeAt(const PromptDoc& doc, const QString& text, int line, int column)
{
    PromptDocPlace place;
    const PromptDocItem* item = itemAt(doc.items, line, column);
    if (!item)
        return place;
    place.id = item->id;
    place.heading = item->heading;
    place.kind = item->kind;
    place.line = item->span.line;
    place.label = item->label;
    if (item->kind != PromptDocItem::Kind::Card)
        return place;
    if (contains(item->modelSpan, line, column)) {
        place.field = PromptDocPlace::Field::Model;
        return place;
    }
    if (const PromptDocItem* message = messageAt(item->children, line, column)) {
        place.field = messageField(message->role);
        place.role = message->role;
        return place;
    }
    const QString key = cardKeyAt(*item, text, line);
    if (key == QLatin1String("model"))
        place.field = PromptDocPlace::Field::Model;
    else if (key == QLatin1String("parameters"))
        place.field = PromptDocPlace::Field::Parameters;
    else if (key == QLatin1String("input") || key == QLatin1String("messages")) {
        place.role = roleAt(text, line, item->span.line);
        place.field = messageField(place.role);
    }
    return place;
}

QString describePlace(const PromptDocPlace& place)
{
    if (!place.isValid())
        return {};
    using K = PromptDocItem::Kind;
    switch (place.kind) {
    case K::Value:
        return QCoreApplication::translate("hako::playground::PromptDocPlace", "Value %1")
            .arg(quoted(place.heading));
    case K::Paragraph:
    case K::Message:
        return place.heading.isEmpty()
                   ? QCoreApplication::translate("hako::playground::PromptDocPlace",
                                                 "Text at line %1")
                         .arg(place.line)
                   : QCoreApplication::translate("hako::playground::PromptDocPlace", "Text %1")
                         .arg(quoted(place.heading));
    case K::Section:
        return place.heading.isEmpty()
                   ? QCoreApplication::translate("hako::playground::PromptDocPlace",
                                                 "%1 at line %2")
                         .arg(place.label)
                         .arg(place.line)
                   : QCoreApplication::translate("hako::playground::PromptDocPlace", "%1 %2")
                         .arg(place.label, quoted(place.heading));
    case K::Card:
        break;
    }
    const QString card =
        place.heading.isEmpty()
            ? QCoreApplication::translate("hako::playground::PromptDocPlace",
                                          "Model call at line %1")
                  .arg(place.line)
            : QCoreApplication::translate("hako::playground::PromptDocPlace", "Model call %1")
                  .arg(quoted(place.heading));
    QString field;
    switch (place.field) {
    case PromptDocPlace::Field::None:
        return card;
    case PromptDocPlace::Field::Model:
        field = QCoreApplication::translate("hako::playground::PromptDocPlace", "Model");
        break;
    case PromptDocPlace::Field::Parameters:
        field = QCoreApplication::translate("hako::playground::PromptDocPlace", "Parameters");
        break;
    case PromptDocPlace::Field::Input:
        field = QCoreApplication::translate("hako::playground::PromptDocPlace", "Input");
        break;
    case PromptDocPlace::Field::Instructions:
        field = QCoreApplication::translate("hako::playground::PromptDocPlace", "Instructions");
        break;
    case PromptDocPlace::Field::Message:
        field = QCoreApplication::translate("hako::playground::PromptDocPlace", "%1 message")
                    .arg(place.role);
        break;
    }
    return QCoreApplication::translate("hako::playground::PromptDocPlace", "%1 › %2")
        .arg(card, field);
}

} // namespace hako::playground
