#include "core/pdl/lang/snippets.h"

#include "core/pdl/lang/yamlcursor.h"

#include <QCoreApplication>
#include <QRegularExpression>

namespace hako::pdl {

namespace {

constexpr char kContext[] = "hako::pdl::Snippets";
// The first placeholder in a body; no body writes it otherwise.
const QString kCursor = QStringLiteral("$0");

struct SnippetDef {
    const char* id;
    const char* label;
    const char* documentation;
    const char* body; ///< `%1` is the model name
};

// Labels start with the keyword: the editor's list selects by what is typed.
const SnippetDef kSnippets[] = {
    {"model", QT_TRANSLATE_NOOP("hako::pdl::Snippets", "model call"),
     QT_TRANSLATE_NOOP("hako::pdl::Snippets",
                       "Calls the default model with an input and parameters."),
     "model: %1\ninput: $0\nparameters:\n  temperature: 0"},
    {"text", QT_TRANSLATE_NOOP("hako::pdl::Snippets", "text made of parts"),
     QT_TRANSLATE_NOOP("hako::pdl::Snippets",
                       "Runs a list of blocks and joins their results into one text."),
     "text:\n  - $0"},
    {"lastOf", QT_TRANSLATE_NOOP("hako::pdl::Snippets", "lastOf steps, keep the last result"),
     QT_TRANSLATE_NOOP("hako::pdl::Snippets",
                       "Runs a list of blocks in order; the result is the last one's."),
     "lastOf:\n  - $0"},
    {"array", QT_TRANSLATE_NOOP("hako::pdl::Snippets", "array of results"),
     QT_TRANSLATE_NOOP("hako::pdl::Snippets",
                       "Runs a list of blocks and collects their results in a list."),
     "array:\n  - $0"},
    {"object", QT_TRANSLATE_NOOP("hako::pdl::Snippets", "object with named results"),
     QT_TRANSLATE_NOOP("hako::pdl::Snippets",
                       "Builds an object whose fields are the results of blocks."),
     "object:\n  name: $0"},
    {"data", QT_TRANSLATE_NOOP("hako::pdl::Snippets", "data value"),
     QT_TRANSLATE_NOOP("hako::pdl::Snippets",
                       "A literal value (text, number, list or object) written in YAML."),
     "data:\n  name: $0"},
    {"code", QT_TRANSLATE_NOOP("hako::pdl::Snippets", "code in Python"),
     QT_TRANSLATE_NOOP("hako::pdl::Snippets",
                       "Runs Python code; the value of its `result` variable is the result."),
     "lang: python\ncode: |\n  result = $0"},
    {"read", QT_TRANSLATE_NOOP("hako::pdl::Snippets", "read input from the user"),
     QT_TRANSLATE_NOOP("hako::pdl::Snippets",
                       "Shows a message and reads a line typed by the user."),
     "read:\nmessage: \"$0\""},
    {"include", QT_TRANSLATE_NOOP("hako::pdl::Snippets", "include another program"),
     QT_TRANSLATE_NOOP("hako::pdl::Snippets",
                       "Runs another PDL file here, as if written in place."),
     "include: $0"},
    {"import", QT_TRANSLATE_NOOP("hako::pdl::Snippets", "import definitions from a file"),
     QT_TRANSLATE_NOOP("hako::pdl::Snippets",
                       "Makes the definitions of another PDL file available, without running it."),
     "import: $0"},
    {"if", QT_TRANSLATE_NOOP("hako::pdl::Snippets", "if a condition holds, then… else…"),
     QT_TRANSLATE_NOOP("hako::pdl::Snippets",
                       "Runs the `then` block when the condition is true, else the `else` block."),
     "if: ${ $0 }\nthen: \"\"\nelse: \"\""},
    {"for", QT_TRANSLATE_NOOP("hako::pdl::Snippets", "for each item, loop over a list"),
     QT_TRANSLATE_NOOP("hako::pdl::Snippets", "Runs the body once for each item of a list."),
     "for:\n  item: ${ $0 }\nrepeat:\n  text: ${ item }"},
    {"repeatUntil", QT_TRANSLATE_NOOP("hako::pdl::Snippets", "repeat until a condition holds"),
     QT_TRANSLATE_NOOP("hako::pdl::Snippets",
                       "Runs the body again and again until the condition becomes true."),
     "repeat:\n  text: $0\nuntil: ${ true }"},
    {"repeatTimes", QT_TRANSLATE_NOOP("hako::pdl::Snippets", "repeat a number of times"),
     QT_TRANSLATE_NOOP("hako::pdl::Snippets", "Runs the body a fixed number of times."),
     "repeat:\n  text: $0\nmaxIterations: 3"},
    {"function", QT_TRANSLATE_NOOP("hako::pdl::Snippets", "function definition"),
     QT_TRANSLATE_NOOP("hako::pdl::Snippets",
                       "Defines a function with parameters that others can call."),
     "def: my_function\nfunction:\n  name: string\nreturn: $0"},
    {"call", QT_TRANSLATE_NOOP("hako::pdl::Snippets", "call a function with arguments"),
     QT_TRANSLATE_NOOP("hako::pdl::Snippets",
                       "Calls a function defined elsewhere, passing it arguments."),
     "call: ${ $0 }\nargs:\n  name: \"\""},
    {"def", QT_TRANSLATE_NOOP("hako::pdl::Snippets", "def: keep a result in a variable"),
     QT_TRANSLATE_NOOP("hako::pdl::Snippets",
                       "Stores a block's result in a variable that later blocks can use."),
     "def: $0\ntext: \"\""},
    {"match", QT_TRANSLATE_NOOP("hako::pdl::Snippets", "match a value against cases"),
     QT_TRANSLATE_NOOP("hako::pdl::Snippets",
                       "Runs the first case whose pattern matches the value."),
     "match: ${ $0 }\nwith:\n  - case: \"yes\"\n    then: \"\"\n  - then: \"\""},
    {"message", QT_TRANSLATE_NOOP("hako::pdl::Snippets", "message with a role"),
     QT_TRANSLATE_NOOP("hako::pdl::Snippets",
                       "Adds a chat message with a role (user, assistant, system) to the context."),
     "role: user\ncontent: $0"},
    {"get", QT_TRANSLATE_NOOP("hako::pdl::Snippets", "get a variable's value"),
     QT_TRANSLATE_NOOP("hako::pdl::Snippets", "The value of a variable defined earlier."),
     "get: $0"},
};

// A YAML plain scalar when the name can be one, else a double-quoted one.
QString yamlScalar(const QString& s)
{
    static const QRegularExpression plain(
        QStringLiteral("^[A-Za-z0-9_./@+-][^#:]*(:[^ ][^#:]*)*$"));
    if (plain.match(s).hasMatch() && !s.endsWith(QLatin1Char(' ')))
        return s;
    QString q = s;
    q.replace(QLatin1Char('\\'), QLatin1String("\\\\"))
        .replace(QLatin1Char('"'), QLatin1String("\\\""));
    return QLatin1Char('"') + q + QLatin1Char('"');
}

int leadingSpaces(const QString& s)
{
    int n = 0;
    while (n < s.size() && s.at(n) == QLatin1Char(' '))
        ++n;
    return n;
}

bool isBlankOrComment(const QString& s)
{
    const QString t = s.trimmed();
    return t.isEmpty() || t.startsWith(QLatin1Char('#'));
}

// Whether 0-based `line` lies in a block scalar (`key: |` / `- >-` and the lines under it).
bool insideBlockScalar(const QStringList& lines, int line)
{
    static const QRegularExpression indicator(
        QStringLiteral("(^|:\\s|^\\s*-\\s)\\s*[|>][-+0-9]*\\s*(#.*)?$"));
    int limit = leadingSpaces(lines.at(line));
    if (lines.at(line).trimmed().isEmpty())
        limit = INT_MAX; // a blank line belongs to a scalar above at any indentation
    for (int l = line - 1; l >= 0; --l) {
        const QString& t = lines.at(l);
        if (t.trimmed().isEmpty())
            continue;
        const int indent = leadingSpaces(t);
        if (indent >= limit)
            continue;
        if (indicator.match(t).hasMatch())
            return true;
        if (t.trimmed().startsWith(QLatin1Char('#')))
            continue;
        limit = indent;
        if (indent == 0)
            break;
    }
    return false;
}

// Fields whose value is one block, and those usually written as a list of blocks.
bool takesBlock(const QString& key)
{
    static const QStringList keys = {QStringLiteral("then"),     QStringLiteral("else"),
                                     QStringLiteral("repeat"),   QStringLiteral("return"),
                                     QStringLiteral("fallback"), QStringLiteral("content")};
    return keys.contains(key);
}

bool takesList(const QString& key)
{
    static const QStringList keys = {QStringLiteral("text"), QStringLiteral("lastOf"),
                                     QStringLiteral("array")};
    return keys.contains(key);
}

} // namespace

QList<CompletionItem> blockSnippets(const QString& defaultModel)
{
    const QString model = yamlScalar(defaultModel.trimmed().isEmpty() ? QStringLiteral("default")
                                                                      : defaultModel.trimmed());
    QList<CompletionItem> out;
    for (const SnippetDef& d : kSnippets) {
        CompletionItem item;
        item.kind = CompletionItem::Kind::Snippet;
        item.text = QCoreApplication::translate(kContext, d.label);
        item.documentation = QCoreApplication::translate(kContext, d.documentation);
        item.snippet.id = QString::fromLatin1(d.id);
        QString body = QString::fromUtf8(d.body);
        if (item.snippet.id == QLatin1String("model"))
            body = body.arg(model);
        item.snippet.cursorOffset = int(body.indexOf(kCursor));
        body.remove(item.snippet.cursorOffset, kCursor.size());
        item.snippet.body = body;
        out.append(item);
    }
    return out;
}

std::optional<SnippetSite> snippetSiteAt(const QStringList& lines, int line, int column)
{
    if (line < 1 || line > lines.size())
        return std::nullopt;
    const QString& text = lines.at(line - 1);
    // Columns here are code points; everything before an accepted cursor is ASCII.
    const int cursor = column - 1;
    if (cursor < 0 || cursor > text.size())
        return std::nullopt;
    const QString before = text.left(cursor);
    if (!text.mid(cursor).trimmed().isEmpty() || insideBlockScalar(lines, line - 1))
        return std::nullopt;
    const CursorContext ctx = cursorContext(lines, line, column);

    static const QRegularExpression keyPos(
        QStringLiteral("^( *)((?:- +)*)([A-Za-z_][A-Za-z0-9_]*)?$"));
    static const QRegularExpression valuePos(QStringLiteral(
        "^( *)((?:- +)*)([A-Za-z_][A-Za-z0-9_]*)\\s*:( +)([A-Za-z_][A-Za-z0-9_]*)?$"));
    if (ctx.position == CursorContext::Position::Key) {
        const QRegularExpressionMatch m = keyPos.match(before);
        if (!m.hasMatch() || !ctx.siblingKeys.isEmpty())
            return std::nullopt;
        const bool listItem = m.capturedLength(2) > 0;
        const QString& parent = ctx.parentKey;
        bool ok;
        if (listItem) {
            ok = parent.isEmpty() || takesList(parent) || takesBlock(parent);
        } else if (parent.isEmpty()) {
            // The top level of an otherwise empty file.
            ok = m.capturedLength(1) == 0;
            for (int l = 0; ok && l < lines.size(); ++l)
                ok = l == line - 1 || isBlankOrComment(lines.at(l));
        } else {
            ok = takesBlock(parent);
        }
        if (!ok)
            return std::nullopt;
        SnippetSite site;
        site.fromColumn = int(m.capturedStart(3) >= 0 ? m.capturedStart(3) : before.size()) + 1;
        site.toColumn = column;
        site.baseIndent = site.fromColumn - 1;
        return site;
    }
    if (ctx.position == CursorContext::Position::Value) {
        const QRegularExpressionMatch m = valuePos.match(before);
        if (!m.hasMatch())
            return std::nullopt;
        const QString key = m.captured(3);
        if (!takesBlock(key) && !takesList(key))
            return std::nullopt;
        // `text:` as a key of data, parameters, … is no block's field.
        static const QStringList dataParents = {
            QStringLiteral("data"),       QStringLiteral("parameters"), QStringLiteral("spec"),
            QStringLiteral("for"),        QStringLiteral("function"),   QStringLiteral("args"),
            QStringLiteral("properties"), QStringLiteral("with")};
        if (dataParents.contains(ctx.parentKey) && key != QLatin1String("then"))
            return std::nullopt;
        const int step = indentStepOf(lines);
        SnippetSite site;
        site.fromColumn = int(m.capturedStart(4)) + 1; // right after the colon
        site.toColumn = column;
        site.baseIndent = int(m.capturedStart(3)) + step;
        site.lead = QLatin1Char('\n') + QString(site.baseIndent, QLatin1Char(' '));
        if (takesList(key)) {
            site.lead += QLatin1String("- ");
            site.baseIndent += 2;
        }
        return site;
    }
    return std::nullopt;
}

int indentStepOf(const QStringList& lines)
{
    for (int l = 0; l + 1 < lines.size(); ++l) {
        const QString& t = lines.at(l);
        if (isBlankOrComment(t) || !t.trimmed().endsWith(QLatin1Char(':')))
            continue;
        int next = l + 1;
        while (next < lines.size() && isBlankOrComment(lines.at(next)))
            ++next;
        if (next >= lines.size())
            break;
        // The parent's key column: after any `- ` markers.
        int parent = leadingSpaces(t);
        while (t.mid(parent, 2) == QLatin1String("- "))
            parent = parent + 2 + leadingSpaces(t.mid(parent + 2));
        const int diff = leadingSpaces(lines.at(next)) - parent;
        if (diff == 4)
            return 4;
        if (diff > 0)
            return 2;
    }
    return 2;
}

QString reindentSnippet(const QString& body, int baseIndent, int step, const QString& lineEnding,
                        int* cursorOffset)
{
    // Mark the cursor with a character no body holds so that it moves with its line.
    const QChar mark(0xFFFF);
    QString marked = body;
    if (cursorOffset && *cursorOffset >= 0 && *cursorOffset <= marked.size())
        marked.insert(*cursorOffset, mark);
    struct Frame {
        int original;
        int indent;
    };
    QList<Frame> frames{{0, baseIndent}};
    QStringList out;
    const QStringList lines = marked.split(QLatin1Char('\n'));
    for (int i = 0; i < lines.size(); ++i) {
        const QString& line = lines.at(i);
        const int n = leadingSpaces(line);
        const QString content = line.mid(n);
        while (frames.size() > 1 && frames.last().original > n)
            frames.removeLast();
        int indent;
        if (frames.last().original == n) {
            indent = frames.last().indent;
        } else {
            // One level deeper under a key: the file's step.
            indent = frames.last().indent + step;
            frames.append({n, indent});
        }
        if (content.startsWith(QLatin1String("- ")))
            frames.append({n + 2, indent + 2}); // a list item's mapping is always 2 further
        out.append(i == 0 ? content : QString(indent, QLatin1Char(' ')) + content);
    }
    QString result = out.join(lineEnding);
    const qsizetype at = result.indexOf(mark);
    if (cursorOffset)
        *cursorOffset = at >= 0 ? int(at) : int(result.size());
    if (at >= 0)
        result.remove(at, 1);
    return result;
}

std::optional<SnippetEdit> snippetEditAt(const QStringList& lines, int line, int column,
                                         const Snippet& snippet, const QString& lineEnding)
{
    const std::optional<SnippetSite> site = snippetSiteAt(lines, line, column);
    if (!site)
        return std::nullopt;
    int cursor = snippet.cursorOffset;
    const QString body =
        reindentSnippet(snippet.body, site->baseIndent, indentStepOf(lines), lineEnding, &cursor);
    QString lead = site->lead;
    lead.replace(QLatin1Char('\n'), lineEnding);
    SnippetEdit edit;
    edit.line = line;
    edit.fromColumn = site->fromColumn;
    edit.toColumn = site->toColumn;
    edit.text = lead + body;
    edit.cursorOffset = int(lead.size()) + cursor;
    return edit;
}

} // namespace hako::pdl
