#include "core/pdl/lang/yamlcursor.h"

#include "core/pdl/parser/fieldtables.h"

#include <QRegularExpression>

namespace hako::pdl {

namespace {

// UTF-16 index of 1-based code-point `column` in `line` (clamped to the line).
int utf16Index(const QString& line, int column)
{
    int i = 0;
    for (int c = 1; c < column && i < line.size(); ++c)
        i += (line.at(i).isHighSurrogate() && i + 1 < line.size()) ? 2 : 1;
    return i;
}

int codePointColumn(const QString& line, int index)
{
    int column = 1;
    for (int i = 0; i < index && i < line.size(); ++i) {
        if (!line.at(i).isLowSurrogate())
            ++column;
    }
    return column;
}

// One line's mapping key as YAML sees it: the column where the key starts (after indentation
// and `- ` list markers), whether a `- ` introduced it, and the key itself.
struct LineKey {
    bool blank = true;
    int indent = 0;    ///< first non-space column (0-based)
    int keyColumn = 0; ///< 0-based column of the key (after `- ` markers)
    bool listItem = false;
    QString key; ///< empty when the line has no `key:`
};

LineKey lineKey(const QString& line)
{
    static const QRegularExpression re(
        QStringLiteral("^( *)((?:- +)*)([A-Za-z_][A-Za-z0-9_]*|\"[^\"]*\"|'[^']*')\\s*:(\\s|$)"));
    LineKey k;
    int i = 0;
    while (i < line.size() && line.at(i) == QLatin1Char(' '))
        ++i;
    if (i >= line.size() || line.at(i) == QLatin1Char('#'))
        return k;
    k.blank = false;
    k.indent = i;
    const QRegularExpressionMatch m = re.match(line);
    if (m.hasMatch()) {
        k.keyColumn = int(m.capturedStart(3));
        k.listItem = m.capturedLength(2) > 0;
        QString key = m.captured(3);
        if (key.startsWith(QLatin1Char('"')) || key.startsWith(QLatin1Char('\'')))
            key = key.mid(1, key.size() - 2);
        k.key = key;
    } else {
        int j = i;
        while (j + 1 < line.size() && line.at(j) == QLatin1Char('-') &&
               line.at(j + 1) == QLatin1Char(' ')) {
            j += 2;
            while (j < line.size() && line.at(j) == QLatin1Char(' '))
                ++j;
        }
        k.keyColumn = j;
        k.listItem = j > i;
    }
    return k;
}

// Collects the keys of the mapping whose keys start at `keyColumn` around `line` (0-based),
// and the key owning that mapping.
void collectSiblings(const QStringList& lines, int line, int keyColumn, bool startsHere,
                     CursorContext& out)
{
    int start = line;
    int dashColumn = -1; // the `- ` that starts the mapping, when a list item does
    if (startsHere) {
        dashColumn = lineKey(lines.at(line)).indent;
    } else {
        for (int l = line - 1; l >= 0; --l) {
            const LineKey k = lineKey(lines.at(l));
            if (k.blank)
                continue;
            if (k.keyColumn == keyColumn && !k.key.isEmpty() &&
                (k.indent == keyColumn || k.listItem)) {
                out.siblingKeys.prepend(k.key);
                start = l;
                if (k.listItem) {
                    dashColumn = k.indent;
                    break; // `- key:` starts the mapping
                }
                continue;
            }
            if (k.indent < keyColumn)
                break;
        }
    }
    for (int l = start - 1; l >= 0; --l) {
        const LineKey k = lineKey(lines.at(l));
        if (k.blank || k.indent >= keyColumn)
            continue;
        if (dashColumn >= 0 && k.listItem && k.indent == dashColumn)
            continue; // an earlier item of the same list
        if (!k.key.isEmpty() && k.keyColumn < keyColumn)
            out.parentKey = k.key;
        break;
    }
    for (int l = line + 1; l < lines.size(); ++l) {
        const LineKey k = lineKey(lines.at(l));
        if (k.blank)
            continue;
        if (k.indent < keyColumn)
            break;
        if (k.keyColumn == keyColumn && !k.key.isEmpty() && k.indent == keyColumn)
            out.siblingKeys.append(k.key);
    }
}

const std::vector<std::string_view>& structuredFields(const QString& parent)
{
    static const std::vector<std::string_view> none;
    static const std::vector<std::string_view> join = {"as", "with", "reduce"};
    static const std::vector<std::string_view> retry = {"tries",   "exceptions", "delay",
                                                        "backoff", "max_delay",  "jitter"};
    static const std::vector<std::string_view> parser = {"regex", "mode", "spec", "pdl"};
    static const std::vector<std::string_view> withCase = {"case", "if", "then"};
    static const std::vector<std::string_view> expectations = {"expect", "feedback"};
    static const std::vector<std::string_view> aggregator = {"file",   "mode",   "encoding",
                                                             "prefix", "suffix", "flush"};
    if (parent == QLatin1String("join"))
        return join;
    if (parent == QLatin1String("retry"))
        return retry;
    if (parent == QLatin1String("parser"))
        return parser;
    if (parent == QLatin1String("with"))
        return withCase;
    if (parent == QLatin1String("expectations"))
        return expectations;
    if (parent == QLatin1String("aggregator"))
        return aggregator;
    return none;
}

// Keys whose mapping values hold names or data, not blocks: nothing to complete there.
bool isNameMapping(const QString& parent)
{
    static const QStringList names = {
        QStringLiteral("defs"),       QStringLiteral("for"),        QStringLiteral("parameters"),
        QStringLiteral("args"),       QStringLiteral("spec"),       QStringLiteral("function"),
        QStringLiteral("data"),       QStringLiteral("case"),       QStringLiteral("object"),
        QStringLiteral("properties"), QStringLiteral("contribute"), QStringLiteral("scope")};
    return names.contains(parent);
}

} // namespace

std::optional<BlockKind> kindOfKeys(const QStringList& keys)
{
    for (std::string_view keyword : kindKeywords()) {
        const QString k = QString::fromLatin1(keyword.data(), qsizetype(keyword.size()));
        if (keys.contains(k)) {
            if (keyword == "code" || keyword == "args")
                return keys.contains(QLatin1String("code")) ? BlockKind::Code : BlockKind::Args;
            if (keyword == "content")
                return BlockKind::Message;
            if (keyword == "factor")
                return BlockKind::Empty;
            for (BlockKind kind :
                 {BlockKind::Text, BlockKind::LastOf, BlockKind::Array, BlockKind::Object,
                  BlockKind::Sequence, BlockKind::If, BlockKind::Match, BlockKind::Repeat,
                  BlockKind::Map, BlockKind::Include, BlockKind::Import, BlockKind::Function,
                  BlockKind::Call, BlockKind::Model, BlockKind::Get, BlockKind::Data,
                  BlockKind::Read, BlockKind::Aggregator}) {
                if (k == QLatin1String(blockKindName(kind)))
                    return kind;
            }
        }
    }
    return std::nullopt;
}

CursorContext cursorContext(const QStringList& lines, int line, int column)
{
    CursorContext out;
    if (line < 1 || line > lines.size())
        return out;
    const QString& text = lines.at(line - 1);
    const int cursor = utf16Index(text, column);
    const QString before = text.left(cursor);

    const qsizetype open = before.lastIndexOf(QLatin1String("${"));
    if (open >= 0 && before.indexOf(QLatin1Char('}'), open) < 0) {
        static const QRegularExpression ident(QStringLiteral("[A-Za-z_][A-Za-z0-9_.]*$"));
        const QRegularExpressionMatch m = ident.match(before);
        out.position = CursorContext::Position::Expression;
        out.prefix = m.hasMatch() ? m.captured(0) : QString();
        out.prefixColumn = codePointColumn(text, int(before.size() - out.prefix.size()));
        return out;
    }
    if (before.trimmed().startsWith(QLatin1Char('#')))
        return out;

    static const QRegularExpression keyPos(
        QStringLiteral("^( *)((?:- +)*)([A-Za-z_][A-Za-z0-9_]*)?$"));
    static const QRegularExpression valuePos(
        QStringLiteral("^( *)((?:- +)*)([A-Za-z_][A-Za-z0-9_]*)\\s*:\\s+(.*)$"));
    int keyColumn = -1;
    bool startsHere = false;
    if (const QRegularExpressionMatch m = keyPos.match(before); m.hasMatch()) {
        out.position = CursorContext::Position::Key;
        out.prefix = m.captured(3);
        keyColumn = int(m.capturedStart(3) >= 0 ? m.capturedStart(3) : before.size());
        startsHere = m.capturedLength(2) > 0;
    } else if (const QRegularExpressionMatch v = valuePos.match(before); v.hasMatch()) {
        out.position = CursorContext::Position::Value;
        out.key = v.captured(3);
        keyColumn = int(v.capturedStart(3));
        startsHere = v.capturedLength(2) > 0;
        static const QRegularExpression word(QStringLiteral("[A-Za-z0-9_./:-]*$"));
        out.prefix = word.match(before).captured(0);
    } else {
        return out;
    }
    out.prefixColumn = codePointColumn(text, int(before.size() - out.prefix.size()));
    collectSiblings(lines, line - 1, keyColumn, startsHere, out);
    QStringList keys = out.siblingKeys;
    if (out.position == CursorContext::Position::Value)
        keys.append(out.key);
    out.blockKind = kindOfKeys(keys);
    return out;
}

KeyAt keyAt(const QStringList& lines, int line, int column)
{
    if (line < 1 || line > lines.size())
        return {};
    const QString& text = lines.at(line - 1);
    const LineKey k = lineKey(text);
    if (k.key.isEmpty())
        return {};
    const int start = codePointColumn(text, k.keyColumn);
    const int end = start + int(k.key.size()) - 1;
    if (column < start || column > end)
        return {};
    return {k.key, start, end};
}

QStringList keyCompletions(const CursorContext& context)
{
    QStringList out;
    auto add = [&](std::string_view name) {
        const QString s = QString::fromLatin1(name.data(), qsizetype(name.size()));
        if (!context.siblingKeys.contains(s) && !out.contains(s))
            out.append(s);
    };
    if (!context.parentKey.isEmpty()) {
        const auto& fields = structuredFields(context.parentKey);
        if (!fields.empty()) {
            for (std::string_view f : fields)
                add(f);
            return out;
        }
        if (isNameMapping(context.parentKey))
            return out;
    }
    if (context.blockKind) {
        for (std::string_view f : kindFields(*context.blockKind))
            add(f);
    } else {
        for (std::string_view f : kindKeywords())
            add(f);
        add("kind");
    }
    for (std::string_view f : commonFieldNames())
        add(f);
    return out;
}

} // namespace hako::pdl
