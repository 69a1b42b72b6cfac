#include "core/pdl/analysis/rename.h"
#include "core/util/chars.h"

#include "core/pdl/check/blockwalk_p.h"
#include "core/pdl/expr/builtins.h"
#include "core/pdl/parser/yamlvalue.h"

#include <QCoreApplication>
#include <QSet>

#include <algorithm>
#include <functional>
#include <optional>
#include <set>

namespace hako::pdl {

using detail::keySpanOf;

namespace {

bool isIdentStart(char c)
{
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_';
}

bool isIdentChar(char c)
{
    return isIdentStart(c) || (c >= '0' && c <= '9');
}

bool sameSite(const VariableDefinition& a, const VariableDefinition& b)
{
    return a.name == b.name && a.span == b.span;
}

bool flows(VariableKind k)
{
    return k == VariableKind::Def || k == VariableKind::Defs || k == VariableKind::ModelResponse;
}

bool within(const SourceSpan& inner, const SourceSpan& outer)
{
    if (!inner.isValid() || !outer.isValid())
        return false;
    const int endLine = outer.endLine > 0 ? outer.endLine : outer.line;
    const int endColumn = outer.endColumn > 0 ? outer.endColumn : outer.column;
    return !positionBefore(inner.line, inner.column, outer.line, outer.column) &&
           !positionBefore(endLine, endColumn, inner.line, inner.column);
}

// Byte offsets of 1-based lines and code-point columns in a UTF-8 text.
class TextIndex {
public:
    explicit TextIndex(const QByteArray& text) : m_text(text)
    {
        m_lineStart.push_back(0);
        for (qsizetype i = 0; i < text.size(); ++i) {
            if (text[i] == '\n')
                m_lineStart.push_back(i + 1);
        }
    }

    /// -1 when the line does not exist or the column is past its end.
    qsizetype byteAt(int line, int column) const
    {
        if (line < 1 || size_t(line) > m_lineStart.size() || column < 1)
            return -1;
        qsizetype off = m_lineStart[size_t(line - 1)];
        for (int c = 1; c < column; ++c) {
            if (off >= m_text.size() || m_text[off] == '\n')
                return -1;
            ++off;
            while (off < m_text.size() && (uchar(m_text[off]) & 0xC0) == 0x80)
                ++off;
        }
        return off;
    }

    qsizetype lineEnd(int line) const
    {
        if (line < 1 || size_t(line) > m_lineStart.size())
            return m_text.size();
        const qsizetype nl = m_text.indexOf('\n', m_lineStart[size_t(line - 1)]);
        return nl < 0 ? m_text.size() : nl;
    }

    std::pair<int, int> lineColumn(qsizetype off) const
    {
        auto it = std::upper_bound(m_lineStart.begin(), m_lineStart.end(), off);
        const int line = int(it - m_lineStart.begin());
        int column = 1;
        for (qsizetype i = m_lineStart[size_t(line - 1)]; i < off; ++i) {
            if ((uchar(m_text[i]) & 0xC0) != 0x80)
                ++column;
        }
        return {line, column};
    }

    bool nameAt(qsizetype off, const QByteArray& name, bool noDotBefore = false) const
    {
        if (off < 0 || off + name.size() > m_text.size())
            return false;
        if (m_text.mid(off, name.size()) != name)
            return false;
        if (off > 0 && (isIdentChar(m_text[off - 1]) || (noDotBefore && m_text[off - 1] == '.')))
            return false;
        const qsizetype end = off + name.size();
        return end >= m_text.size() || !isIdentChar(m_text[end]);
    }

    const QByteArray& text() const { return m_text; }

private:
    const QByteArray& m_text;
    std::vector<qsizetype> m_lineStart;
};

void walkBlocks(const BlockPtr& b, const std::function<void(const Block&)>& fn)
{
    if (!b)
        return;
    fn(*b);
    detail::forEachChildBlock(*b,
                              [&](const BlockPtr& c, const std::string&) { walkBlocks(c, fn); });
}

const QSet<QString>& keywords()
{
    static const QSet<QString> words = {
        // Python
        QStringLiteral("False"), QStringLiteral("None"), QStringLiteral("True"),
        QStringLiteral("and"), QStringLiteral("as"), QStringLiteral("assert"),
        QStringLiteral("async"), QStringLiteral("await"), QStringLiteral("break"),
        QStringLiteral("class"), QStringLiteral("continue"), QStringLiteral("def"),
        QStringLiteral("del"), QStringLiteral("elif"), QStringLiteral("else"),
        QStringLiteral("except"), QStringLiteral("finally"), QStringLiteral("for"),
        QStringLiteral("from"), QStringLiteral("global"), QStringLiteral("if"),
        QStringLiteral("import"), QStringLiteral("in"), QStringLiteral("is"),
        QStringLiteral("lambda"), QStringLiteral("nonlocal"), QStringLiteral("not"),
        QStringLiteral("or"), QStringLiteral("pass"), QStringLiteral("raise"),
        QStringLiteral("return"), QStringLiteral("try"), QStringLiteral("while"),
        QStringLiteral("with"), QStringLiteral("yield"),
        // Jinja literals and names with a meaning inside templates
        QStringLiteral("true"), QStringLiteral("false"), QStringLiteral("none"),
        QStringLiteral("loop"), QStringLiteral("self"), QStringLiteral("caller"),
        QStringLiteral("varargs"), QStringLiteral("kwargs")};
    return words;
}

// Whether `name` occurs as a word in code text outside its `${ … }` expressions (those are
// uses the analysis saw).
bool codeMentions(const std::string& code, const std::string& name)
{
    std::string outside;
    outside.reserve(code.size());
    for (size_t i = 0; i < code.size(); ++i) {
        if (code.compare(i, 2, "${") == 0) {
            int depth = 0;
            size_t j = i + 1;
            for (; j < code.size(); ++j) {
                if (code[j] == '"' ||
                    code[j] == '\'') { // a string literal: its braces do not count
                    const char quote = code[j];
                    for (++j; j < code.size() && code[j] != quote; ++j) {
                        if (code[j] == '\\')
                            ++j;
                    }
                    continue;
                }
                if (code[j] == '{')
                    ++depth;
                else if (code[j] == '}' && --depth == 0)
                    break;
            }
            i = j;
            outside += ' ';
            continue;
        }
        outside += code[i];
    }
    for (size_t at = outside.find(name); at != std::string::npos; at = outside.find(name, at + 1)) {
        const bool startOk = at == 0 || !isIdentChar(outside[at - 1]);
        const size_t end = at + name.size();
        if (startOk && (end >= outside.size() || !isIdentChar(outside[end])))
            return true;
    }
    return false;
}

} // namespace

QString checkVariableName(const QString& name)
{
    if (name.isEmpty())
        return QCoreApplication::translate("hako::pdl::Rename", "The new name is empty.");
    const QByteArray utf8 = name.toUtf8();
    bool ok = isIdentStart(utf8[0]);
    for (char c : utf8)
        ok = ok && isIdentChar(c);
    if (!ok)
        return QCoreApplication::translate(
                   "hako::pdl::Rename",
                   "'%1' is not a valid variable name: use letters, digits and underscores, "
                   "not starting with a digit.")
            .arg(name);
    if (keywords().contains(name))
        return QCoreApplication::translate(
                   "hako::pdl::Rename",
                   "'%1' is a Python or Jinja keyword and cannot name a variable.")
            .arg(name);
    if (name.startsWith(QLatin1String("pdl_")))
        return QCoreApplication::translate(
            "hako::pdl::Rename",
            "Names starting with 'pdl_' are reserved for PDL's built-in variables.");
    if (builtins::findGlobal(utf8.toStdString()))
        return QCoreApplication::translate(
                   "hako::pdl::Rename",
                   "'%1' is a built-in function of expressions; a variable of that name would "
                   "hide it.")
            .arg(name);
    return {};
}

Result<RenameTarget> renameTargetAt(const Program& program, const ScopeAnalysis& scopes, int line,
                                    int column)
{
    int index = -1;
    QString name;
    if (const VariableUse* u = scopes.useAt(line, column)) {
        name = QString::fromStdString(u->name);
        if (u->definition < 0)
            return makeError(QCoreApplication::translate(
                                 "hako::pdl::Rename",
                                 "'%1' is not defined where it is used here, so there is no "
                                 "definition to rename.")
                                 .arg(name));
        index = u->definition;
    } else if (const VariableDefinition* d = scopes.definitionAt(line, column)) {
        index = int(d - scopes.definitions.data());
    }
    if (index < 0)
        return makeError(QCoreApplication::translate(
            "hako::pdl::Rename", "Put the cursor on a variable (where it is defined or used) to "
                                 "rename it."));
    const VariableDefinition& def = scopes.definitions[size_t(index)];
    name = QString::fromStdString(def.name);
    const QString file = program.root ? program.root->span.file : program.file;
    if (def.kind == VariableKind::Builtin)
        return makeError(QCoreApplication::translate(
                             "hako::pdl::Rename", "'%1' is built into PDL and cannot be renamed.")
                             .arg(name));
    if (def.kind == VariableKind::External)
        return makeError(QCoreApplication::translate(
                             "hako::pdl::Rename",
                             "'%1' is provided from outside the program (data given to the run), "
                             "so it cannot be renamed here.")
                             .arg(name));
    if (!def.span.isValid() || def.span.file != file)
        return makeError(QCoreApplication::translate(
                             "hako::pdl::Rename",
                             "'%1' is defined in another file (an included program); rename it "
                             "there.")
                             .arg(name));

    // The alternatives of one `anyOf` pattern may each bind the name: one variable.
    SourceSpan pattern;
    if (def.kind == VariableKind::MatchBinding) {
        walkBlocks(program.root, [&](const Block& b) {
            if (const auto* m = b.as<MatchBlock>()) {
                for (const MatchCase& c : m->cases) {
                    if (c.pattern && within(def.span, c.pattern->span))
                        pattern = c.pattern->span;
                }
            }
        });
    }

    RenameTarget target;
    target.name = name;
    target.kind = def.kind;
    for (int i = 0; i < int(scopes.definitions.size()); ++i) {
        const VariableDefinition& other = scopes.definitions[size_t(i)];
        if (other.name != def.name)
            continue;
        if (sameSite(other, def) || (flows(def.kind) && flows(other.kind)) ||
            (pattern.isValid() && other.kind == VariableKind::MatchBinding &&
             within(other.span, pattern))) {
            if (!other.span.isValid() || other.span.file != file)
                return makeError(QCoreApplication::translate(
                                     "hako::pdl::Rename",
                                     "'%1' is also defined in an included program; renaming it "
                                     "only here would split it in two.")
                                     .arg(name));
            target.definitions.push_back(i);
        }
    }
    return target;
}

namespace {

QString codeLanguageName(CodeBlock::Lang lang)
{
    return lang == CodeBlock::Lang::Python || lang == CodeBlock::Lang::IPython
               ? QStringLiteral("Python")
           : lang == CodeBlock::Lang::Jinja ? QStringLiteral("Jinja")
                                            : QStringLiteral("PDL");
}

// Python, Jinja and PDL code read the scope by name, out of the analysis' sight: a rename that
// such code might depend on is refused rather than left half done.
std::optional<Diagnostic> codeRefusal(const Program& program, const ScopeAnalysis& scopes,
                                      const QString& name)
{
    std::optional<Diagnostic> refusal;
    walkBlocks(program.root, [&](const Block& b) {
        const auto* code = b.as<CodeBlock>();
        if (refusal || !code || !code->code || code->lang == CodeBlock::Lang::Command)
            return;
        std::string source;
        walkBlocks(code->code, [&](const Block& inner) {
            if (const auto* d = inner.as<DataBlock>(); d && d->data.value.isString())
                source += d->data.value.asString() + "\n";
        });
        if (codeMentions(source, name.toStdString()))
            refusal =
                makeError(QCoreApplication::translate("hako::pdl::Rename",
                                                      "'%1' may be read by the %2 code at line %3, "
                                                      "which renaming cannot follow.")
                              .arg(name, codeLanguageName(code->lang))
                              .arg(b.span.line),
                          b.span);
    });
    if (refusal)
        return refusal;
    for (const VariableUse& u : scopes.uses) {
        if (u.name == "pdl_scope")
            return makeError(
                QCoreApplication::translate("hako::pdl::Rename",
                                            "The program reads pdl_scope (line %1), which may "
                                            "name '%2' in ways renaming cannot follow.")
                    .arg(u.span.line)
                    .arg(name),
                u.span);
    }
    return std::nullopt;
}

// The places one rename edits, found step by step over the program's text and its scope
// analysis; each step either adds byte offsets of the old name or refuses the rename.
class RenamePlanner {
public:
    RenamePlanner(const Program& program, const QByteArray& text, const ScopeAnalysis& scopes,
                  const RenameTarget& target, const QString& newName)
        : m_program(program), m_text(text), m_scopes(scopes), m_index(text), m_target(target),
          m_oldName(target.name), m_newName(newName), m_oldUtf8(m_oldName.toUtf8()),
          m_oldStd(m_oldUtf8.toStdString()), m_newStd(newName.toStdString()),
          m_group(target.definitions.begin(), target.definitions.end())
    {}

    /// Definition sites: the name at its span (possibly inside quotes), else after `def:` within
    /// the span (a match pattern's span is the whole pattern).
    std::optional<Diagnostic> addDefinitions()
    {
        std::set<std::pair<int, int>> seenSites;
        for (int i : m_target.definitions) {
            const VariableDefinition& d = m_scopes.definitions[size_t(i)];
            if (!seenSites.insert({d.span.line, d.span.column}).second)
                continue;
            const qsizetype off = definitionSite(d);
            if (off < 0)
                return notFound(d.span);
            m_offsets.push_back(off);
        }
        return std::nullopt;
    }

    /// Uses that resolve to the group, unless the new name would hide them.
    std::optional<Diagnostic> addUses()
    {
        for (const VariableUse& u : m_scopes.uses) {
            if (u.name != m_oldStd || !inGroup(u.definition))
                continue;
            if (const VariableDefinition* n = nearest(u.span.line, u.span.column);
                n && n->name == m_newStd)
                return hidden(*n, u.span.line);
            const qsizetype off = nameOrQuoted(m_index.byteAt(u.span.line, u.span.column), true);
            if (off < 0)
                return notFound(u.span);
            m_offsets.push_back(off);
        }
        return std::nullopt;
    }

    /// Existing uses of the new name must not come within reach of the renamed variable, and a
    /// name given from outside (or built in) is in reach everywhere.
    std::optional<Diagnostic> checkNewNameIsFree() const
    {
        for (const VariableUse& u : m_scopes.uses) {
            if (u.name != m_newStd)
                continue;
            if (const VariableDefinition* n = nearest(u.span.line, u.span.column);
                n && n->name == m_oldStd)
                return makeError(QCoreApplication::translate(
                                     "hako::pdl::Rename",
                                     "'%1' is already used at line %2, where '%3' is in reach; "
                                     "after renaming it would read the renamed variable.")
                                     .arg(m_newName)
                                     .arg(u.span.line)
                                     .arg(m_oldName));
        }
        for (const VariableDefinition& d : m_scopes.definitions) {
            if (d.name == m_newStd &&
                (d.kind == VariableKind::External || d.kind == VariableKind::Builtin))
                return hidden(d, 0);
        }
        return std::nullopt;
    }

    /// A function parameter is also named by the callers: `args:` keys and `f(name=…)`.
    void addParameterCallers()
    {
        if (m_target.kind != VariableKind::Parameter || !m_program.root)
            return;
        m_functionSites = functionSitesOfParameter();
        addArgsKeys();
        for (const VariableUse& u : m_scopes.uses) {
            if (callsFunction(u))
                addKeywordArguments(u);
        }
    }

    /// The edits, one per distinct offset, in text order.
    std::vector<RenameEdit> edits()
    {
        std::sort(m_offsets.begin(), m_offsets.end());
        m_offsets.erase(std::unique(m_offsets.begin(), m_offsets.end()), m_offsets.end());
        std::vector<RenameEdit> out;
        qsizetype lastByte = 0;
        qsizetype lastUtf16 = 0;
        for (qsizetype off : m_offsets) {
            // UTF-16 offsets counted incrementally (the offsets are sorted).
            lastUtf16 += QString::fromUtf8(m_text.constData() + lastByte, off - lastByte).size();
            lastByte = off;
            RenameEdit e;
            e.byteOffset = off;
            e.byteLength = m_oldUtf8.size();
            e.utf16Offset = lastUtf16;
            e.utf16Length = m_oldName.size();
            e.replacement = m_newName;
            const auto [l, c] = m_index.lineColumn(off);
            e.span.file = m_program.root ? m_program.root->span.file : m_program.file;
            e.span.line = e.span.endLine = l;
            e.span.column = c;
            e.span.endColumn = c + int(m_oldName.toUcs4().size()) - 1;
            out.push_back(std::move(e));
        }
        return out;
    }

private:
    bool inGroup(int definition) const { return definition >= 0 && m_group.count(definition); }

    // `off` when the old name stands there, the offset after an opening quote when it stands
    // quoted, else -1.
    qsizetype nameOrQuoted(qsizetype off, bool noDotBefore = false) const
    {
        if (off < 0 || m_index.nameAt(off, m_oldUtf8, noDotBefore))
            return off;
        const char q = off < m_text.size() ? m_text[off] : 0;
        return (q == '"' || q == '\'') && m_index.nameAt(off + 1, m_oldUtf8) ? off + 1 : -1;
    }

    qsizetype definitionSite(const VariableDefinition& d) const
    {
        const qsizetype off = m_index.byteAt(d.span.line, d.span.column);
        if (off < 0)
            return off;
        if (const qsizetype at = nameOrQuoted(off); at >= 0)
            return at;
        return afterDef(off, m_index.lineEnd(d.span.endLine > 0 ? d.span.endLine : d.span.line));
    }

    // The old name after `def:` between `from` and `end`, -1 when there is none.
    qsizetype afterDef(qsizetype from, qsizetype end) const
    {
        for (qsizetype p = m_text.indexOf(m_oldUtf8, from); p >= 0 && p < end;
             p = m_text.indexOf(m_oldUtf8, p + 1)) {
            if (!m_index.nameAt(p, m_oldUtf8))
                continue;
            qsizetype k = p - 1;
            while (k >= from &&
                   (m_text[k] == ' ' || m_text[k] == '\t' || m_text[k] == '"' || m_text[k] == '\''))
                --k;
            if (k >= from + 3 && m_text[k] == ':' && m_text.mid(k - 3, 3) == "def" &&
                (k - 3 == 0 || !isIdentChar(m_text[k - 4])))
                return p;
        }
        return -1;
    }

    // The nearest definition named the old name (of the group) or the new name in reach at a
    // point, walking the scope from the newest definition: which one a name there would read.
    const VariableDefinition* nearest(int l, int c) const
    {
        const auto& snapshots = m_scopes.snapshots;
        auto it =
            std::upper_bound(snapshots.begin(), snapshots.end(), std::make_pair(l, c),
                             [](const std::pair<int, int>& p, const ScopeAnalysis::Snapshot& s) {
                                 return positionBefore(p.first, p.second, s.line, s.column);
                             });
        if (it == snapshots.begin())
            return nullptr;
        for (const ScopeAnalysis::ScopeNode* n = std::prev(it)->scope.get(); n;
             n = n->previous.get()) {
            const VariableDefinition& d = m_scopes.definitions[size_t(n->definition)];
            if (d.name == m_newStd || (d.name == m_oldStd && inGroup(n->definition)))
                return &d;
        }
        return nullptr;
    }

    Diagnostic notFound(const SourceSpan& at) const
    {
        return makeError(QCoreApplication::translate(
                             "hako::pdl::Rename",
                             "Cannot find '%1' exactly at line %2, column %3; nothing was renamed.")
                             .arg(m_oldName)
                             .arg(at.line)
                             .arg(at.column),
                         at);
    }

    Diagnostic hidden(const VariableDefinition& d, int l) const
    {
        if (d.kind == VariableKind::External || d.kind == VariableKind::Builtin)
            return makeError(QCoreApplication::translate(
                                 "hako::pdl::Rename",
                                 "'%1' is already a name given to the program from outside; "
                                 "choose another name.")
                                 .arg(m_newName));
        return makeError(QCoreApplication::translate(
                             "hako::pdl::Rename",
                             "'%1' is already defined (line %2) and in reach at line %3; one name "
                             "would hide the other.")
                             .arg(m_newName)
                             .arg(d.span.line)
                             .arg(l));
    }

    // Where the function whose parameter is renamed is defined (its name's spans).
    std::vector<SourceSpan> functionSitesOfParameter() const
    {
        const VariableDefinition& param = m_scopes.definitions[size_t(m_target.definitions[0])];
        std::vector<SourceSpan> sites;
        const auto declares = [&](const FunctionBlock& f) {
            for (const auto& [p, type] : f.params) {
                if (p == m_oldStd && keySpanOf(f, "function", p) == param.span)
                    return true;
            }
            return false;
        };
        walkBlocks(m_program.root, [&](const Block& b) {
            for (const auto& [name, child] : b.defs) {
                const auto* f = child ? child->as<FunctionBlock>() : nullptr;
                if (f && declares(*f))
                    sites.push_back(keySpanOf(b, "defs", name));
            }
            if (const auto* f = b.as<FunctionBlock>(); f && f->def && declares(*f))
                sites.push_back(f->defSpan);
        });
        return sites;
    }

    bool callsFunction(const VariableUse& u) const
    {
        if (u.definition < 0)
            return false;
        const VariableDefinition& d = m_scopes.definitions[size_t(u.definition)];
        return std::find(m_functionSites.begin(), m_functionSites.end(), d.span) !=
               m_functionSites.end();
    }

    // `call: ${ f }` with `args: {name: …}`.
    void addArgsKeys()
    {
        walkBlocks(m_program.root, [&](const Block& b) {
            const auto* c = b.as<CallBlock>();
            if (!c || !b.node || !b.node->isMapping())
                return;
            const SourceSpan callField = b.fieldSpan("call");
            bool calls = false;
            for (const VariableUse& u : m_scopes.uses)
                calls = calls || (within(u.span, callField) && callsFunction(u));
            if (!calls)
                return;
            const SourceSpan key = keySpanOf(b, "args", m_oldStd);
            if (!key.isValid())
                return;
            if (const qsizetype off = nameOrQuoted(m_index.byteAt(key.line, key.column)); off >= 0)
                m_offsets.push_back(off);
        });
    }

    // `${ f(name=…) }`: keyword arguments at the top level of the call that starts after `u`.
    void addKeywordArguments(const VariableUse& u)
    {
        qsizetype i = m_index.byteAt(u.span.line, u.span.column);
        if (i < 0)
            return;
        i += qsizetype(u.name.size());
        while (i < m_text.size() && (m_text[i] == ' ' || m_text[i] == '\t'))
            ++i;
        if (i >= m_text.size() || m_text[i] != '(')
            return;
        int depth = 1;
        char quote = 0;
        char previous = '(';
        const qsizetype limit = std::min(m_text.size(), i + 20000);
        for (++i; i < limit && depth > 0; ++i) {
            const char ch = m_text[i];
            if (ch == '\\') { // an escape, in a string or in a YAML double-quoted scalar
                ++i;
                continue;
            }
            if (quote) {
                if (ch == quote)
                    quote = 0;
                continue;
            }
            if (ch == '\'' || ch == '"')
                quote = ch;
            else if (ch == '(' || ch == '[' || ch == '{')
                ++depth;
            else if (ch == ')' || ch == ']' || ch == '}')
                --depth;
            else if (depth == 1 && (previous == '(' || previous == ',') && isKeywordArgument(i))
                m_offsets.push_back(i);
            if (ch != ' ' && ch != '\t' && ch != '\n' && ch != '\r')
                previous = ch;
        }
    }

    // The old name at `i` followed by `=` (not `==`).
    bool isKeywordArgument(qsizetype i) const
    {
        if (!m_index.nameAt(i, m_oldUtf8))
            return false;
        qsizetype j = i + m_oldUtf8.size();
        while (j < m_text.size() && (m_text[j] == ' ' || m_text[j] == '\t'))
            ++j;
        return j + 1 < m_text.size() && m_text[j] == '=' && m_text[j + 1] != '=';
    }

    const Program& m_program;
    const QByteArray& m_text;
    const ScopeAnalysis& m_scopes;
    const TextIndex m_index;
    const RenameTarget& m_target;
    const QString m_oldName;
    const QString m_newName;
    const QByteArray m_oldUtf8;
    const std::string m_oldStd;
    const std::string m_newStd;
    const std::set<int> m_group;
    std::vector<SourceSpan> m_functionSites;
    std::vector<qsizetype> m_offsets;
};

} // namespace

Result<RenamePlan> planRename(const Program& program, const QByteArray& text,
                              const ScopeAnalysis& scopes, int line, int column,
                              const QString& newName)
{
    Result<RenameTarget> found = renameTargetAt(program, scopes, line, column);
    if (!found)
        return found.error();
    RenamePlan plan;
    plan.target = std::move(found).value();
    plan.newName = newName;
    if (newName == plan.target.name)
        return makeError(QCoreApplication::translate("hako::pdl::Rename",
                                                     "The new name is the same as the old one."));
    if (const QString why = checkVariableName(newName); !why.isEmpty())
        return makeError(why);
    if (std::optional<Diagnostic> refusal = codeRefusal(program, scopes, plan.target.name))
        return *refusal;

    RenamePlanner planner(program, text, scopes, plan.target, newName);
    if (std::optional<Diagnostic> refusal = planner.addDefinitions())
        return *refusal;
    if (std::optional<Diagnostic> refusal = planner.addUses())
        return *refusal;
    if (std::optional<Diagnostic> refusal = planner.checkNewNameIsFree())
        return *refusal;
    planner.addParameterCallers();
    plan.edits = planner.edits();
    return plan;
}

QByteArray applyRenameEdits(const QByteArray& text, const std::vector<RenameEdit>& edits)
{
    QByteArray out;
    out.reserve(text.size());
    qsizetype at = 0;
    for (const RenameEdit& e : edits) {
        out += text.mid(at, e.byteOffset - at);
        out += e.replacement.toUtf8();
        at = e.byteOffset + e.byteLength;
    }
    out += text.mid(at);
    return out;
}

} // namespace hako::pdl
