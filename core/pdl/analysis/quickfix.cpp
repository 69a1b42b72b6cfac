#include "core/pdl/analysis/quickfix.h"

#include "core/pdl/analysis/textfixes.h"
#include "core/pdl/parser/fieldtables.h"
#include "core/pdl/parser/yamlvalue.h"
#include "core/pdl/programcheck.h"

#include <QCoreApplication>
#include <QRegularExpression>
#include <QSet>

#include <algorithm>
#include <limits>
#include <optional>

namespace hako::pdl {

namespace {

QString qs(std::string_view s)
{
    return QString::fromUtf8(s.data(), qsizetype(s.size()));
}

// The text split in lines, with positions converted from the parser's (line, column in code
// points) to UTF-16 offsets. Lines end at '\n'; a '\r' before it is not part of the line.
class Lines {
public:
    explicit Lines(const QString& text) : m_text(text)
    {
        m_starts.push_back(0);
        for (qsizetype i = 0; i < text.size(); ++i) {
            if (text.at(i) == QLatin1Char('\n'))
                m_starts.push_back(i + 1);
        }
        m_eol =
            text.contains(QLatin1String("\r\n")) ? QStringLiteral("\r\n") : QStringLiteral("\n");
    }
    const QString& text() const { return m_text; }
    const QString& eol() const { return m_eol; }
    int count() const { return int(m_starts.size()); }
    qsizetype start(int line) const
    {
        return line < 1 ? 0 : line > count() ? m_text.size() : m_starts[size_t(line - 1)];
    }
    /// The line without its line break.
    QStringView line(int line) const
    {
        if (line < 1 || line > count())
            return {};
        const qsizetype s = start(line);
        qsizetype e = line < count() ? m_starts[size_t(line)] - 1 : m_text.size();
        if (e > s && m_text.at(e - 1) == QLatin1Char('\r'))
            --e;
        return QStringView(m_text).mid(s, e - s);
    }
    qsizetype offset(int line, int column) const
    {
        if (line < 1)
            return 0;
        if (line > count())
            return m_text.size();
        qsizetype i = start(line);
        for (int c = 1; c < column && i < m_text.size(); ++c)
            i += (m_text.at(i).isHighSurrogate() && i + 1 < m_text.size()) ? 2 : 1;
        return i;
    }
    int indent(int l) const
    {
        const QStringView s = line(l);
        int i = 0;
        while (i < s.size() && s.at(i) == QLatin1Char(' '))
            ++i;
        return i;
    }
    bool blank(int l) const { return line(l).trimmed().isEmpty(); }
    bool blankOrComment(int l) const
    {
        const QStringView t = line(l).trimmed();
        return t.isEmpty() || t.startsWith(QLatin1Char('#'));
    }
    /// The smallest indentation step of the file (2 when nothing is indented).
    int indentUnit() const
    {
        int unit = 0;
        for (int l = 1; l <= count(); ++l) {
            if (blankOrComment(l))
                continue;
            const int i = indent(l);
            if (i > 0 && (unit == 0 || i < unit))
                unit = i;
        }
        return unit > 0 ? unit : 2;
    }

private:
    QString m_text;
    QString m_eol;
    std::vector<qsizetype> m_starts;
};

bool startsAt(const SourceSpan& s, int line, int column)
{
    return s.line == line && s.column == column;
}

// A mapping entry of the document found by where its key (or value) starts, with the mapping
// holding it and the entry above that mapping (null at the top).
struct FoundEntry {
    const YamlValue* mapping = nullptr;
    const YamlValue::Entry* entry = nullptr;
    const YamlValue::Entry* parent = nullptr;
};

void findEntry(const YamlValue& node, int line, int column, bool byValue,
               const YamlValue::Entry* parent, FoundEntry& out)
{
    if (out.entry)
        return;
    if (node.isSequence()) {
        for (const YamlValue& item : node.items())
            findEntry(item, line, column, byValue, parent, out);
    } else if (node.isMapping()) {
        for (const YamlValue::Entry& e : node.entries()) {
            if (startsAt(byValue ? e.value.span() : e.key.span(), line, column)) {
                out = {&node, &e, parent};
                return;
            }
            findEntry(e.value, line, column, byValue, &e, out);
            if (out.entry)
                return;
        }
    }
}

FoundEntry entryAt(const YamlValue& document, int line, int column, bool byValue = false)
{
    FoundEntry found;
    findEntry(document, line, column, byValue, nullptr, found);
    return found;
}

bool isBlockNode(const Program& program, const YamlValue* node)
{
    return std::find(program.blockNodes.begin(), program.blockNodes.end(), node) !=
           program.blockNodes.end();
}

// The kind the checker gives a block mapping (see Checker::parseMapping).
BlockKind kindOf(const YamlValue& node, bool* guessed = nullptr)
{
    if (guessed)
        *guessed = false;
    if (const YamlValue* k = node.value("kind")) {
        if (auto kind = kindFromName(k->isString() ? k->scalar().asString() : "", node))
            return *kind;
    }
    BlockKind kind = detectKind(node);
    if (kind == BlockKind::Empty) {
        if (auto g = guessKind(node)) {
            if (guessed)
                *guessed = true;
            return *g;
        }
    }
    return kind;
}

// A scalar's own characters in the text: after its opening quote for a quoted one. Empty when
// the text there is not `written` (escapes in a quoted scalar, a stale report).
std::optional<QuickFixEdit> replaceScalar(const Lines& lines, const YamlValue& node,
                                          const QString& written, const QString& replacement)
{
    qsizetype offset = lines.offset(node.span().line, node.span().column);
    const QString& text = lines.text();
    if (offset < text.size() &&
        (text.at(offset) == QLatin1Char('"') || text.at(offset) == QLatin1Char('\'')))
        ++offset;
    if (QStringView(text).mid(offset, written.size()) != written)
        return std::nullopt;
    return QuickFixEdit{offset, written.size(), replacement};
}

struct Candidate {
    QString name;
    int distance = 0;
    int order = 0; ///< position in the list it came from: the documented order breaks ties
};

// Best first: fewer edits, then the same length as written (a swap or a wrong letter rather
// than a missing one), then the same first letter, then the list's own order.
void rank(std::vector<Candidate>& candidates, const QString& written)
{
    auto key = [&written](const Candidate& c) {
        return std::make_tuple(c.distance, std::abs(c.name.size() - written.size()),
                               c.name.isEmpty() || written.isEmpty() ||
                                   c.name.at(0).toLower() != written.at(0).toLower(),
                               c.order);
    };
    std::stable_sort(candidates.begin(), candidates.end(),
                     [&key](const Candidate& a, const Candidate& b) { return key(a) < key(b); });
}

constexpr int kMaxRenames = 3;

QString changeTitle(const QString& to)
{
    return QCoreApplication::translate("hako::pdl::QuickFix", "Change to `%1`").arg(to);
}

void addRenames(std::vector<Candidate> candidates, const Lines& lines, const YamlValue& node,
                const QString& written, std::vector<QuickFix>& out)
{
    rank(candidates, written);
    int added = 0;
    for (const Candidate& c : candidates) {
        if (added == kMaxRenames)
            break;
        if (auto edit = replaceScalar(lines, node, written, c.name)) {
            out.push_back({QuickFix::Kind::Rename, changeTitle(c.name), {*edit}});
            ++added;
        }
    }
}

int fieldLimit(const std::string& name)
{
    return std::max<int>(1, int(name.size()) / 3);
}

// --- misspelt field, misspelt kind -------------------------------------------------------

void fieldFixes(const Program& program, const Lines& lines, const Diagnostic& d,
                std::vector<QuickFix>& out)
{
    const FoundEntry f = entryAt(*program.document, d.span.line, d.span.column);
    if (!f.entry || !f.entry->key.isString() || !isBlockNode(program, f.mapping))
        return;
    const std::string& name = f.entry->name;
    bool guessed = false;
    const BlockKind kind = kindOf(*f.mapping, &guessed);
    if (isIgnoredField(name) || isCommonField(name) || (isKindField(kind, name) && !guessed))
        return;
    std::vector<std::string_view> names;
    if (kind != BlockKind::Empty)
        names = kindFields(kind);
    for (std::string_view c : commonFieldNames())
        names.push_back(c);
    // The kind keywords last: with no keyword (or one guessed from the other fields) the
    // keyword is the likely typo, and a misspelt `call` next to `args` reads as a code block.
    for (std::string_view c : kindKeywords())
        names.push_back(c);
    std::vector<Candidate> candidates;
    QSet<QString> seen;
    for (std::string_view c : names) {
        const QString cand = qs(c);
        // Trace bookkeeping (`result`, `scope`, …) is never offered: the checker would then ignore
        // the field without a word.
        if (c == name || f.mapping->find(c) || seen.contains(cand) ||
            (isIgnoredField(c) && c != "kind"))
            continue;
        seen.insert(cand);
        const int distance = fieldNameDistance(name, c);
        if (distance <= fieldLimit(name))
            candidates.push_back({cand, distance, int(candidates.size())});
    }
    addRenames(std::move(candidates), lines, f.entry->key, qs(name), out);
}

void kindFixes(const Program& program, const Lines& lines, const Diagnostic& d,
               std::vector<QuickFix>& out)
{
    const FoundEntry f = entryAt(*program.document, d.span.line, d.span.column, true);
    if (!f.entry || f.entry->name != "kind" || !f.entry->value.isString() ||
        !isBlockNode(program, f.mapping))
        return;
    const std::string written = f.entry->value.scalar().asString();
    if (kindFromName(written, *f.mapping))
        return;
    std::vector<std::string_view> names;
    for (std::string_view k : kindKeywords())
        if (k != "content" && k != "args")
            names.push_back(k);
    names.push_back("message");
    names.push_back("empty");
    std::vector<Candidate> candidates;
    for (std::string_view c : names) {
        const int distance = fieldNameDistance(written, c);
        if (distance <= fieldLimit(written))
            candidates.push_back({qs(c), distance, int(candidates.size())});
    }
    addRenames(std::move(candidates), lines, f.entry->value, qs(written), out);
}

// --- indent under ------------------------------------------------------------------------

int errorCount(const std::vector<Diagnostic>& diagnostics)
{
    return int(std::count_if(diagnostics.begin(), diagnostics.end(),
                             [](const Diagnostic& d) { return d.severity == Severity::Error; }));
}

const QRegularExpression& keyLine()
{
    // `key:` at the start of a line's content (after any `- ` items), a plain name.
    static const QRegularExpression re(QStringLiteral("^([^\\s#'\"\\-\\[\\]{},:&*!|>%@`?]"
                                                      "[^\\s:#]*)[ \\t]*:(?:[ \\t]|$)"),
                                       QRegularExpression::UseUnicodePropertiesOption);
    return re;
}

// The 0-based column of the key a line starts (after any `- `), or -1.
int keyColumn(const Lines& lines, int l, QString* name = nullptr)
{
    const QStringView s = lines.line(l);
    int i = lines.indent(l);
    while (i < s.size() && s.at(i) == QLatin1Char('-') &&
           (i + 1 == s.size() || s.at(i + 1) == QLatin1Char(' '))) {
        ++i;
        while (i < s.size() && s.at(i) == QLatin1Char(' '))
            ++i;
    }
    const QRegularExpressionMatch m = keyLine().match(s.mid(i).toString());
    if (!m.hasMatch())
        return -1;
    if (name)
        *name = m.captured(1);
    return i;
}

bool isDashLine(const Lines& lines, int l)
{
    const QStringView s = lines.line(l).mid(lines.indent(l));
    return s == QLatin1String("-") || s.startsWith(QLatin1String("- "));
}

// `key:` with nothing after it but a comment.
bool opensEmptyField(const Lines& lines, int l)
{
    if (isDashLine(lines, l))
        return false;
    const QStringView s = lines.line(l);
    const int k = keyColumn(lines, l);
    if (k < 0)
        return false;
    const qsizetype colon = s.indexOf(QLatin1Char(':'), k);
    const QStringView rest = s.mid(colon + 1).trimmed();
    return rest.isEmpty() || rest.startsWith(QLatin1Char('#'));
}

// The last line of the field whose key is on line `l` at 0-based `indent`: the lines indented
// deeper below it, and the items of a list written at the key's own indentation (`key:` then
// `- item`, which YAML allows). Comment lines count only with `withComments`.
int fieldEnd(const Lines& lines, int l, int indent, bool withComments)
{
    const bool compact = opensEmptyField(lines, l);
    int last = l;
    for (int k = l + 1; k <= lines.count(); ++k) {
        if (withComments ? lines.blank(k) : lines.blankOrComment(k))
            continue;
        const int i = lines.indent(k);
        if (i > indent || (i == indent && compact && isDashLine(lines, k)))
            last = k;
        else
            break;
    }
    return last;
}

void indentFixes(const ProgramReport& report, const Lines& lines, const Diagnostic& d,
                 std::vector<QuickFix>& out)
{
    if (d.severity != Severity::Error)
        return;
    const int line = d.span.line;
    if (line < 1 || line > lines.count() || isDashLine(lines, line))
        return;
    QString name;
    const int column = keyColumn(lines, line, &name);
    if (column < 0 || column != lines.indent(line))
        return;
    // With a readable program only a key the checker refuses where it stands is a candidate.
    if (const Program* program = report.parse.program.get()) {
        const FoundEntry f = entryAt(*program->document, line, column + 1);
        if (!f.entry)
            return;
        if (isBlockNode(*program, f.mapping)) {
            bool guessed = false;
            const BlockKind kind = kindOf(*f.mapping, &guessed);
            if (isIgnoredField(f.entry->name) || isCommonField(f.entry->name) ||
                (isKindField(kind, f.entry->name) && !guessed))
                return;
        }
    }

    const int last = fieldEnd(lines, line, column, true);

    // Where it could go: the key columns of the lines above, nearest first, up to the first
    // line of the mapping the field is in now; or under an empty `key:` just above. Each is
    // kept only when the re-checked text reads the field there with fewer errors.
    std::vector<int> targets;
    bool nearest = true;
    int outermost = std::numeric_limits<int>::max();
    for (int l = line - 1; l >= 1; --l) {
        if (lines.blankOrComment(l))
            continue;
        const int indent = lines.indent(l);
        const bool dash = isDashLine(lines, l);
        const int key = keyColumn(lines, l);
        if (!dash && indent <= column) {
            if (nearest && indent == column && opensEmptyField(lines, l))
                targets.push_back(column + lines.indentUnit());
            break;
        }
        nearest = false;
        // Only the mappings still open just above the field (the last line and the lines it
        // is nested in, each less indented than everything below it) can take it.
        if (indent >= outermost)
            continue;
        outermost = indent;
        if (key > column && std::find(targets.begin(), targets.end(), key) == targets.end())
            targets.push_back(key);
        if (dash && indent < column)
            break;
    }

    // A field of some block kind goes into a block that takes it before anywhere else (under
    // `parameters:` it would be read as a parameter).
    std::vector<QuickFix> intoBlock, elsewhere;
    const int before = errorCount(report.parse.diagnostics);
    const QString file = report.parse.program ? report.parse.program->file : d.span.file;
    int tried = 0;
    for (const int target : targets) {
        if (++tried > 6)
            break;
        QuickFix fix;
        fix.kind = QuickFix::Kind::Indent;
        const QString pad(target - column, QLatin1Char(' '));
        for (int l = line; l <= last; ++l) {
            if (!lines.blank(l))
                fix.edits.push_back({lines.start(l), 0, pad});
        }
        const QString fixed = applyQuickFix(lines.text(), fix);
        const ParseResult check = checkProgramText(fixed.toUtf8(), file);
        if (!check.program || errorCount(check.diagnostics) >= before)
            continue;
        if (std::any_of(check.diagnostics.begin(), check.diagnostics.end(),
                        [line](const Diagnostic& x) {
                            return x.severity == Severity::Error && x.span.line == line;
                        }))
            continue;
        const FoundEntry moved = entryAt(*check.program->document, line, target + 1);
        if (!moved.entry || qs(moved.entry->name) != name)
            continue;
        const bool block = isBlockNode(*check.program, moved.mapping);
        if (block)
            fix.title = QCoreApplication::translate("hako::pdl::QuickFix",
                                                    "Indent `%1:` under the %2 block above")
                            .arg(name, QString::fromLatin1(blockKindName(kindOf(*moved.mapping))));
        else if (moved.parent)
            fix.title =
                QCoreApplication::translate("hako::pdl::QuickFix", "Indent `%1:` under `%2:`")
                    .arg(name, qs(moved.parent->name));
        else
            fix.title =
                QCoreApplication::translate("hako::pdl::QuickFix", "Indent `%1:` under the line "
                                                                   "above")
                    .arg(name);
        const BlockKind kind = block ? kindOf(*moved.mapping) : BlockKind::Empty;
        const std::string key = name.toStdString();
        (block && (isKindField(kind, key) || isCommonField(key)) ? intoBlock : elsewhere)
            .push_back(std::move(fix));
    }
    for (auto* list : {&intoBlock, &elsewhere})
        for (QuickFix& f : *list)
            out.push_back(std::move(f));
}

// --- variables -----------------------------------------------------------------------------

const VariableUse* undefinedUseAt(const ProgramReport& report, const Diagnostic& d)
{
    if (!report.scopes)
        return nullptr;
    for (const VariableUse& use : report.scopes->uses) {
        if (use.definition < 0 && startsAt(use.span, d.span.line, d.span.column))
            return &use;
    }
    return nullptr;
}

void variableFixes(const ProgramReport& report, const Lines& lines, const VariableUse& use,
                   std::vector<QuickFix>& out)
{
    const QString written = QString::fromStdString(use.name);
    const qsizetype offset = lines.offset(use.span.line, use.span.column);
    if (QStringView(lines.text()).mid(offset, written.size()) != written)
        return;
    const int limit = std::max<int>(1, int(written.toUcs4().size()) / 3);
    std::vector<Candidate> candidates;
    QSet<QString> seen;
    for (const VariableDefinition* def :
         report.scopes->namesInReach(use.span.line, use.span.column)) {
        const QString name = QString::fromStdString(def->name);
        if (name == written || seen.contains(name))
            continue;
        seen.insert(name);
        const int distance = nameDistance(written, name);
        // A one-letter name is not misspelt into another one.
        if (distance <= limit && distance < written.toUcs4().size())
            candidates.push_back({name, distance, int(candidates.size())});
    }
    rank(candidates, written);
    for (int i = 0; i < int(candidates.size()) && i < kMaxRenames; ++i)
        out.push_back({QuickFix::Kind::Rename,
                       changeTitle(candidates[size_t(i)].name),
                       {{offset, written.size(), candidates[size_t(i)].name}}});
}

// `${　name　}`: a Japanese input method's space (U+3000) is no space to an expression, so the
// name read is `　name　`. Each full-width space of the name becomes an ordinary one.
std::optional<QuickFix> spacesFix(const Lines& lines, const VariableUse& use)
{
    const QString written = QString::fromStdString(use.name);
    const QChar ideographicSpace(0x3000);
    if (!written.contains(ideographicSpace))
        return std::nullopt;
    const qsizetype offset = lines.offset(use.span.line, use.span.column);
    if (QStringView(lines.text()).mid(offset, written.size()) != written)
        return std::nullopt;
    QuickFix fix;
    fix.kind = QuickFix::Kind::Spaces;
    fix.title = QCoreApplication::translate("hako::pdl::QuickFix",
                                            "Replace the full-width spaces with ordinary spaces");
    for (qsizetype i = 0; i < written.size(); ++i)
        if (written.at(i) == ideographicSpace)
            fix.edits.append({offset + i, 1, QStringLiteral(" ")});
    return fix;
}

// Inserts whole lines before 1-based `line` (after the last line when past the end).
QuickFixEdit insertLines(const Lines& lines, int line, const QString& body)
{
    if (line <= lines.count())
        return {lines.start(line), 0, body + lines.eol()};
    const QString& text = lines.text();
    const bool endsWithBreak = text.isEmpty() || text.endsWith(QLatin1Char('\n'));
    return {text.size(), 0, (endsWithBreak ? QString() : lines.eol()) + body + lines.eol()};
}

std::optional<QuickFix> defineFix(const ProgramReport& report, const Lines& lines,
                                  const VariableUse& use)
{
    const Program* program = report.parse.program.get();
    if (!program || !program->document || !program->document->isMapping())
        return std::nullopt;
    const YamlValue& top = *program->document;
    const QString& text = lines.text();
    auto isFlow = [&](const YamlValue& node) {
        const qsizetype s = lines.offset(node.span().line, node.span().column);
        return s < text.size() && text.at(s) == QLatin1Char('{');
    };
    if (top.entries().empty() || isFlow(top))
        return std::nullopt; // a one-line program: no block to put `defs:` in
    const QString name = QString::fromStdString(use.name);
    const QString entry = name + QStringLiteral(": \"\"");
    const int topIndent = top.entries().front().key.span().column - 1;
    const int unit = lines.indentUnit();

    QuickFix fix;
    fix.kind = QuickFix::Kind::DefineInput;
    fix.title =
        QCoreApplication::translate("hako::pdl::QuickFix", "Define `%1` as an input of the program")
            .arg(name);
    if (const YamlValue::Entry* defs = top.find("defs")) {
        const YamlValue& v = defs->value;
        if (v.isMapping() && isFlow(v)) {
            const qsizetype end = lines.offset(v.span().endLine, v.span().endColumn);
            if (end >= text.size() || text.at(end) != QLatin1Char('}'))
                return std::nullopt;
            qsizetype at = end;
            while (at > 0 && text.at(at - 1) == QLatin1Char(' '))
                --at;
            const bool empty = v.entries().empty();
            fix.edits.push_back({at, 0, (empty ? QString() : QStringLiteral(", ")) + entry});
            return fix;
        }
        if (v.isMapping() && !v.entries().empty()) {
            const int indent = v.entries().front().key.span().column - 1;
            // After the last entry; before the entry whose value uses the name (a def reads
            // only the defs above it).
            for (const YamlValue::Entry& e : v.entries()) {
                const int first = e.key.span().line;
                const int lastLine = fieldEnd(lines, first, indent, false);
                if (use.span.line >= first && use.span.line <= lastLine) {
                    fix.edits.push_back(
                        insertLines(lines, first, QString(indent, QLatin1Char(' ')) + entry));
                    return fix;
                }
            }
            const int lastKey = v.entries().back().key.span().line;
            fix.edits.push_back(insertLines(lines, fieldEnd(lines, lastKey, indent, false) + 1,
                                            QString(indent, QLatin1Char(' ')) + entry));
            return fix;
        }
        if (v.isNull() && opensEmptyField(lines, defs->key.span().line) &&
            keyColumn(lines, defs->key.span().line) == defs->key.span().column - 1) {
            fix.edits.push_back(insertLines(lines, defs->key.span().line + 1,
                                            QString(topIndent + unit, QLatin1Char(' ')) + entry));
            return fix;
        }
        return std::nullopt;
    }
    // A new `defs:` before the program's first field other than its description (and the
    // comment lines right above that field, which are about it).
    const YamlValue::Entry* before = nullptr;
    for (const YamlValue::Entry& e : top.entries()) {
        if (e.name != "description") {
            before = &e;
            break;
        }
    }
    int line = before ? before->key.span().line
                      : fieldEnd(lines, top.entries().back().key.span().line, topIndent, false) + 1;
    if (before && keyColumn(lines, line) != topIndent)
        return std::nullopt;
    int above = line;
    while (before && above > 1 && !lines.blank(above - 1) && lines.blankOrComment(above - 1))
        --above;
    if (above > 1) // a comment block opening the file is about the file, not the field
        line = above;
    const QString pad(topIndent, QLatin1Char(' '));
    fix.edits.push_back(insertLines(lines, line,
                                    pad + QStringLiteral("defs:") + lines.eol() + pad +
                                        QString(unit, QLatin1Char(' ')) + entry));
    return fix;
}

void append(std::vector<QuickFix>& out, std::vector<QuickFix> more)
{
    for (QuickFix& f : more) {
        if (std::find(out.begin(), out.end(), f) == out.end())
            out.push_back(std::move(f));
    }
}

} // namespace

std::vector<QuickFix> quickFixes(const ProgramReport& report, const QString& text,
                                 const Diagnostic& diagnostic)
{
    std::vector<QuickFix> out;
    if (!diagnostic.span.isValid())
        return out;
    const Program* program = report.parse.program.get();
    if (program && !diagnostic.span.file.isEmpty() && !program->file.isEmpty() &&
        diagnostic.span.file != program->file)
        return out; // about an included file
    if (std::vector<QuickFix> texts = textQuickFixes(report, text, diagnostic); !texts.empty())
        return texts;
    const Lines lines(text);
    if (const VariableUse* use = undefinedUseAt(report, diagnostic)) {
        if (auto spaces = spacesFix(lines, *use)) {
            out.push_back(std::move(*spaces));
            return out; // the name is right once its spaces are
        }
        variableFixes(report, lines, *use, out);
        if (auto define = defineFix(report, lines, *use))
            out.push_back(std::move(*define));
        return out;
    }
    // A field that is a field of another kind most likely lost its indentation; a name close
    // to one of its own block's fields is most likely misspelt.
    std::vector<QuickFix> renames;
    if (program && program->document) {
        fieldFixes(*program, lines, diagnostic, renames);
        kindFixes(*program, lines, diagnostic, renames);
    }
    std::vector<QuickFix> indents;
    indentFixes(report, lines, diagnostic, indents);
    bool bestIsRename = !renames.empty();
    if (bestIsRename && !indents.empty()) {
        // Keep a one-letter slip first unless the name as written is some block's field.
        bool known = false;
        const QString written = lines.text().mid(renames.front().edits.front().offset,
                                                 renames.front().edits.front().length);
        for (int k = 0; k < int(BlockKind::Empty); ++k)
            known = known || isKindField(BlockKind(k), written.toStdString());
        bestIsRename = !known;
    }
    if (bestIsRename) {
        append(out, std::move(renames));
        append(out, std::move(indents));
    } else {
        append(out, std::move(indents));
        append(out, std::move(renames));
    }
    return out;
}

std::vector<QuickFix> modelNameFixes(const ProgramReport& report, const QString& text, int line,
                                     const QStringList& modelNames)
{
    std::vector<QuickFix> out;
    const Program* program = report.parse.program.get();
    if (!program || modelNames.isEmpty())
        return out;
    const Lines lines(text);
    QStringList full, prefixes;
    for (const QString& n : modelNames) {
        if (n.endsWith(QLatin1Char('/')))
            prefixes << n;
        else if (!n.isEmpty())
            full << n;
    }
    for (const YamlValue* node : program->blockNodes) {
        if (!node->isMapping())
            continue;
        const YamlValue* value = node->value("model");
        if (!value || !value->isString() || value->span().line != line ||
            kindOf(*node) != BlockKind::Model)
            continue;
        const QString written = qs(value->scalar().asString());
        if (written.isEmpty() || written.contains(QLatin1String("${")) ||
            modelNames.contains(written))
            continue;
        std::vector<Candidate> candidates;
        auto add = [&candidates](const QString& name, int distance) {
            for (Candidate& c : candidates) {
                if (c.name == name) {
                    c.distance = std::min(c.distance, distance);
                    return;
                }
            }
            candidates.push_back({name, distance, int(candidates.size())});
        };
        const int limit = std::max<int>(1, int(written.toUcs4().size()) / 4);
        for (const QString& n : full) {
            const int distance = nameDistance(written, n);
            if (distance <= limit)
                add(n, distance);
        }
        const qsizetype slash = written.indexOf(QLatin1Char('/'));
        if (slash > 0) {
            // A provider prefix no endpoint has: the same model under a prefix spelt close.
            const QString prefix = written.left(slash + 1);
            const bool knownPrefix =
                prefixes.contains(prefix) ||
                std::any_of(full.begin(), full.end(),
                            [&prefix](const QString& n) { return n.startsWith(prefix); });
            if (!knownPrefix) {
                QStringList all = prefixes;
                for (const QString& n : full) {
                    const qsizetype s = n.indexOf(QLatin1Char('/'));
                    if (s > 0 && !all.contains(n.left(s + 1)))
                        all << n.left(s + 1);
                }
                for (const QString& p : all) {
                    const int distance = nameDistance(prefix, p);
                    if (distance <= std::max<int>(1, int(prefix.size() - 1) / 3))
                        add(p + written.mid(slash + 1), distance);
                }
            }
        } else {
            // A bare name one endpoint serves: the name with that endpoint's prefix.
            for (const QString& n : full) {
                if (n.endsWith(QLatin1Char('/') + written))
                    add(n, limit + 1);
            }
        }
        addRenames(std::move(candidates), lines, *value, written, out);
    }
    return out;
}

std::vector<QuickFix> quickFixesOnLine(const ProgramReport& report, const QString& text, int line,
                                       const QStringList& modelNames)
{
    std::vector<QuickFix> out;
    for (const Diagnostic& d : report.diagnostics) {
        if (d.span.line == line)
            append(out, quickFixes(report, text, d));
    }
    append(out, modelNameFixes(report, text, line, modelNames));
    return out;
}

QString applyQuickFix(const QString& text, const QuickFix& fix)
{
    QString out = text;
    QList<QuickFixEdit> edits = fix.edits;
    std::stable_sort(edits.begin(), edits.end(), [](const QuickFixEdit& a, const QuickFixEdit& b) {
        return a.offset > b.offset;
    });
    for (const QuickFixEdit& e : edits)
        out.replace(e.offset, e.length, e.replacement);
    return out;
}

} // namespace hako::pdl
