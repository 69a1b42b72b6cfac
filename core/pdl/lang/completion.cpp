#include "core/pdl/lang/completion.h"

#include "core/pdl/check/scopeanalysis.h"
#include "core/pdl/lang/builtindocs.h"
#include "core/pdl/lang/languagedocs.h"
#include "core/pdl/lang/snippets.h"
#include "core/pdl/lang/yamlcursor.h"
#include "core/pdl/programcheck.h"

#include <QFileInfo>
#include <QRegularExpression>

#include <algorithm>

namespace hako::pdl {

namespace {

QStringList valuesFor(const QString& key)
{
    if (key == QLatin1String("lang"))
        return {QStringLiteral("python"), QStringLiteral("ipython"), QStringLiteral("command"),
                QStringLiteral("jinja"), QStringLiteral("pdl")};
    if (key == QLatin1String("role"))
        return {QStringLiteral("user"), QStringLiteral("assistant"), QStringLiteral("system"),
                QStringLiteral("tool")};
    if (key == QLatin1String("context"))
        return {QStringLiteral("dependent"), QStringLiteral("independent")};
    if (key == QLatin1String("as"))
        return {QStringLiteral("text"), QStringLiteral("array"), QStringLiteral("object"),
                QStringLiteral("lastOf"), QStringLiteral("reduce")};
    if (key == QLatin1String("parser"))
        return {QStringLiteral("json"), QStringLiteral("jsonl"), QStringLiteral("yaml"),
                QStringLiteral("csv")};
    if (key == QLatin1String("mode"))
        return {QStringLiteral("fullmatch"), QStringLiteral("search"), QStringLiteral("match"),
                QStringLiteral("split"), QStringLiteral("findall")};
    if (key == QLatin1String("kind"))
        return {QStringLiteral("text"),    QStringLiteral("lastOf"),     QStringLiteral("array"),
                QStringLiteral("object"),  QStringLiteral("sequence"),   QStringLiteral("if"),
                QStringLiteral("match"),   QStringLiteral("repeat"),     QStringLiteral("map"),
                QStringLiteral("include"), QStringLiteral("import"),     QStringLiteral("function"),
                QStringLiteral("call"),    QStringLiteral("model"),      QStringLiteral("code"),
                QStringLiteral("get"),     QStringLiteral("data"),       QStringLiteral("message"),
                QStringLiteral("read"),    QStringLiteral("aggregator"), QStringLiteral("factor"),
                QStringLiteral("empty")};
    return {};
}

bool matches(const QString& candidate, const QString& prefix)
{
    return candidate.startsWith(prefix, Qt::CaseInsensitive) && candidate != prefix;
}

// The `${ … }` ranges (1-based code-point columns, inclusive) on one line.
QList<QPair<int, int>> expressionRanges(const QString& line)
{
    QList<QPair<int, int>> out;
    int column = 1;
    int start = -1;
    int depth = 0;
    for (int i = 0; i < line.size(); ++i) {
        const QChar c = line.at(i);
        if (start < 0 && c == QLatin1Char('$') && i + 1 < line.size() &&
            line.at(i + 1) == QLatin1Char('{')) {
            start = column;
            depth = 0;
        } else if (start >= 0 && c == QLatin1Char('{')) {
            ++depth;
        } else if (start >= 0 && c == QLatin1Char('}')) {
            if (--depth == 0) {
                out.append({start, column});
                start = -1;
            }
        }
        if (!c.isLowSurrogate())
            ++column;
    }
    if (start >= 0)
        out.append({start, column});
    return out;
}

// The dotted identifier covering `column` (1-based), up to the end of the word under it.
QString dottedNameAt(const QString& line, int column)
{
    const QList<uint> cps = line.toUcs4();
    auto isIdent = [](uint c) {
        return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
               c == '_';
    };
    int i = column - 1;
    if (i < 0 || i >= int(cps.size()) || !isIdent(cps[i]))
        return {};
    int end = i;
    while (end + 1 < int(cps.size()) && isIdent(cps[end + 1]))
        ++end;
    int begin = i;
    while (begin > 0 && (isIdent(cps[begin - 1]) || cps[begin - 1] == '.'))
        --begin;
    QString out;
    for (int k = begin; k <= end; ++k)
        out.append(QString::fromUcs4(reinterpret_cast<const char32_t*>(&cps[k]), 1));
    return out;
}

QString definitionText(const VariableDefinition& d, const QString& currentFile)
{
    QString where;
    if (d.span.isValid()) {
        where = d.span.file.isEmpty() || d.span.file == currentFile
                    ? QStringLiteral("defined at line %1").arg(d.span.line)
                    : QStringLiteral("defined in %1 at line %2")
                          .arg(QFileInfo(d.span.file).fileName())
                          .arg(d.span.line);
    } else if (d.kind == VariableKind::Builtin) {
        where = QStringLiteral("provided by every run");
    } else {
        where = QStringLiteral("provided from outside the program");
    }
    QString text = QStringLiteral("%1 (%2)\n%3")
                       .arg(QString::fromStdString(d.name), variableKindName(d.kind), where);
    if (const BuiltinDoc* doc = BuiltinDocs::find(QString::fromStdString(d.name)))
        text += QLatin1Char('\n') + doc->summary;
    return text;
}

QString keyDoc(const QStringList& lines, int line, const KeyAt& key)
{
    const CursorContext ctx = cursorContext(lines, line, key.startColumn);
    const QString& parent = ctx.parentKey;
    if (!parent.isEmpty()) {
        const QString sub = LanguageDocs::subField(parent, key.key);
        if (!sub.isEmpty())
            return sub;
        if (parent == QLatin1String("defs"))
            return QStringLiteral("%1 (defs entry)\nA variable defined before the block runs.")
                .arg(key.key);
        if (parent == QLatin1String("for"))
            return QStringLiteral("%1 (loop variable)\nBound to each element of its list in "
                                  "turn.")
                .arg(key.key);
        if (parent == QLatin1String("function"))
            return QStringLiteral("%1 (function parameter)\nA parameter with its type.")
                .arg(key.key);
        if (parent == QLatin1String("parameters") || parent == QLatin1String("args") ||
            parent == QLatin1String("data") || parent == QLatin1String("object") ||
            parent == QLatin1String("spec"))
            return {};
    }
    QStringList keys = ctx.siblingKeys;
    keys.append(key.key);
    const QString text = LanguageDocs::field(kindOfKeys(keys), key.key);
    if (text.isEmpty())
        return {};
    return text;
}

} // namespace

Completions completionsAt(const QStringList& lines, int line, int column,
                          const ScopeAnalysis* scopes, const QStringList& modelNames,
                          const QString& defaultModel)
{
    Completions out;
    const CursorContext ctx = cursorContext(lines, line, column);
    out.prefix = ctx.prefix;
    out.prefixColumn = ctx.prefixColumn;
    auto add = [&](const QString& text, CompletionItem::Kind kind) {
        if (!matches(text, ctx.prefix))
            return;
        for (const CompletionItem& i : out.items) {
            if (i.text == text)
                return;
        }
        out.items.append({text, kind, {}, {}});
    };
    switch (ctx.position) {
    case CursorContext::Position::Expression:
        if (scopes && !ctx.prefix.contains(QLatin1Char('.'))) {
            for (const VariableDefinition* d : scopes->namesInReach(line, column))
                add(QString::fromStdString(d->name), CompletionItem::Kind::Variable);
        }
        for (const BuiltinDoc& d : BuiltinDocs::withPrefix(QString()))
            add(d.name, CompletionItem::Kind::Builtin);
        break;
    case CursorContext::Position::Key:
        for (const QString& f : keyCompletions(ctx)) {
            const bool isKind =
                !LanguageDocs::blockKind(f).isEmpty() &&
                (!ctx.blockKind || f != QLatin1String(blockKindName(*ctx.blockKind)));
            add(f, isKind ? CompletionItem::Kind::BlockKind : CompletionItem::Kind::Field);
        }
        break;
    case CursorContext::Position::Value:
        if (ctx.key == QLatin1String("model")) {
            for (const QString& m : modelNames)
                add(m, CompletionItem::Kind::Model);
        } else {
            for (const QString& v : valuesFor(ctx.key))
                add(v, CompletionItem::Kind::Value);
        }
        break;
    case CursorContext::Position::Other:
        break;
    }
    std::sort(out.items.begin(), out.items.end(),
              [](const CompletionItem& a, const CompletionItem& b) {
                  return a.text.compare(b.text, Qt::CaseInsensitive) < 0;
              });
    // Snippets first, in their own order (the model call leads): typing a keyword on a new
    // list item selects its snippet before the bare key.
    if (snippetSiteAt(lines, line, column)) {
        QList<CompletionItem> snippets;
        for (CompletionItem& s : blockSnippets(defaultModel)) {
            if (ctx.prefix.isEmpty() || s.text.startsWith(ctx.prefix, Qt::CaseInsensitive))
                snippets.append(std::move(s));
        }
        out.items = snippets + out.items;
    }
    return out;
}

QString hoverTextAt(const QStringList& lines, int line, int column, const ProgramReport* report)
{
    if (line < 1 || line > lines.size())
        return {};
    QStringList parts;
    const QString& text = lines.at(line - 1);
    const ScopeAnalysis* scopes = report ? report->scopes.get() : nullptr;
    const QString file = report && report->parse.program ? report->parse.program->file : QString();

    bool inExpression = false;
    for (const auto& [from, to] : expressionRanges(text)) {
        if (column >= from && column <= to)
            inExpression = true;
    }
    const VariableDefinition* def = scopes ? scopes->resolveAt(line, column) : nullptr;
    if (def) {
        parts << definitionText(*def, file);
    } else if (inExpression) {
        const QString name = dottedNameAt(text, column);
        if (!name.isEmpty()) {
            if (const BuiltinDoc* doc = BuiltinDocs::find(name))
                parts << doc->signature + QLatin1Char('\n') + doc->summary;
        }
    } else if (const KeyAt key = keyAt(lines, line, column); !key.key.isEmpty()) {
        const QString doc = keyDoc(lines, line, key);
        if (!doc.isEmpty())
            parts << doc;
    }
    if (report) {
        for (const Diagnostic& d : report->diagnostics) {
            const SourceSpan& s = d.span;
            const int endLine = s.endLine > 0 ? s.endLine : s.line;
            const int endColumn =
                s.endLine > s.line ? INT_MAX : (s.endColumn > 0 ? s.endColumn : s.column);
            const bool sameFile = file.isEmpty() || s.file.isEmpty() || s.file == file;
            if (sameFile && s.line == line && column >= s.column &&
                (endLine > line || column <= std::max(endColumn, s.column)))
                parts << QStringLiteral("%1: %2").arg(severityName(d.severity), d.message);
        }
    }
    return parts.join(QStringLiteral("\n\n"));
}

} // namespace hako::pdl
