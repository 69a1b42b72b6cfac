#include "core/pdl/check/scopeanalysis.h"
#include "core/util/chars.h"

#include "core/pdl/check/blockwalk_p.h"

#include "core/pdl/expr/builtins.h"
#include "core/pdl/expr/template.h"
#include "core/pdl/parser/expressionposition.h"
#include "core/pdl/parser/programparser.h"
#include "core/pdl/parser/yamlvalue.h"

#include <QDir>
#include <QFileInfo>

#include <algorithm>
#include <set>
#include <unordered_map>
#include <unordered_set>

namespace hako::pdl {

QString variableKindName(VariableKind kind)
{
    switch (kind) {
    case VariableKind::Def:
        return QStringLiteral("def");
    case VariableKind::Defs:
        return QStringLiteral("defs entry");
    case VariableKind::Parameter:
        return QStringLiteral("function parameter");
    case VariableKind::LoopVariable:
        return QStringLiteral("loop variable");
    case VariableKind::LoopIndex:
        return QStringLiteral("loop index");
    case VariableKind::MatchBinding:
        return QStringLiteral("match binding");
    case VariableKind::ModelResponse:
        return QStringLiteral("model response");
    case VariableKind::Builtin:
        return QStringLiteral("built-in variable");
    case VariableKind::External:
        return QStringLiteral("external data");
    }
    return {};
}

namespace {

bool covers(const SourceSpan& s, int line, int column)
{
    if (!s.isValid())
        return false;
    const int endLine = s.endLine > 0 ? s.endLine : s.line;
    const int endColumn = s.endColumn > 0 ? s.endColumn : s.column;
    return !positionBefore(line, column, s.line, s.column) &&
           !positionBefore(endLine, endColumn, line, column);
}

// 1-based line and code-point column of byte `offset` inside `text`.
std::pair<int, int> positionInString(const std::string& text, size_t offset)
{
    int line = 1;
    int column = 1;
    const size_t end = std::min(offset, text.size());
    for (size_t i = 0; i < end; ++i) {
        const unsigned char c = static_cast<unsigned char>(text[i]);
        if (c == '\n') {
            ++line;
            column = 1;
        } else if ((c & 0xC0) != 0x80) {
            ++column;
        }
    }
    return {line, column};
}

int codePoints(const std::string& s)
{
    int n = 0;
    for (unsigned char c : s)
        n += (c & 0xC0) != 0x80 ? 1 : 0;
    return n;
}

// Names read by an expression tree, except those only handed to filters and tests that accept
// undefined values (`x is defined`, `x | default(1)`): those guard the name for the whole
// template, since the usual idiom tests first and reads afterwards.
void collectNames(const expr::Node* node, std::vector<const expr::Node*>& names,
                  std::unordered_set<std::string>& guarded)
{
    if (!node)
        return;
    using expr::NodeKind;
    if (node->kind == NodeKind::Name) {
        names.push_back(node);
        return;
    }
    if ((node->kind == NodeKind::Filter || node->kind == NodeKind::Test) &&
        node->acceptsUndefined && !node->children.empty() && node->children[0] &&
        node->children[0]->kind == NodeKind::Name)
        guarded.insert(node->children[0]->name);
    for (const auto& c : node->children)
        collectNames(c.get(), names, guarded);
    for (const auto& c : node->args.positional)
        collectNames(c.get(), names, guarded);
    for (const auto& c : node->args.keyword)
        collectNames(c.get(), names, guarded);
    collectNames(node->args.starArgs.get(), names, guarded);
    collectNames(node->args.starKwargs.get(), names, guarded);
}

class Analyzer {
public:
    Analyzer(ScopeAnalysis& out, const ScopeOptions& options) : m_out(out), m_options(options) {}

    void run(const Program& program, const QByteArray& text)
    {
        m_lines = QString::fromUtf8(text).split(QLatin1Char('\n'));
        for (QString& l : m_lines) {
            if (l.endsWith(QLatin1Char('\r')))
                l.chop(1);
        }
        m_file = program.file;
        m_text = text;
        m_lineStart.assign(1, 0);
        for (qsizetype i = 0; i < text.size(); ++i) {
            if (text[i] == '\n')
                m_lineStart.push_back(i + 1);
        }
        for (const char* name :
             {"pdl_context", "pdl_scope", "pdl_usage", "pdl_model_default_parameters", "stdlib",
              "pdl_particle_id", "pdl_llm_as_judge", "pdl_llm_context_transformer"})
            define(name, VariableKind::Builtin, {});
        for (const QString& name : m_options.externalNames)
            define(name.toStdString(), VariableKind::External, {});
        if (!program.file.isEmpty())
            m_includeStack.insert(QFileInfo(program.file).absoluteFilePath());
        walk(program.root);
        finish();
    }

private:
    struct Frame {
        size_t undo;
        std::shared_ptr<const ScopeAnalysis::ScopeNode> head;
    };

    // --- scope -------------------------------------------------------------------------------

    void define(const std::string& name, VariableKind kind, const SourceSpan& span)
    {
        if (name.empty())
            return;
        const int index = int(m_out.definitions.size());
        m_out.definitions.push_back({name, kind, span});
        auto it = m_scope.find(name);
        m_undo.emplace_back(name, it == m_scope.end() ? -1 : it->second);
        m_scope[name] = index;
        m_head = std::make_shared<const ScopeAnalysis::ScopeNode>(
            ScopeAnalysis::ScopeNode{index, m_head});
    }

    Frame mark() const { return {m_undo.size(), m_head}; }

    void restore(const Frame& f)
    {
        while (m_undo.size() > f.undo) {
            auto& [name, previous] = m_undo.back();
            if (previous < 0)
                m_scope.erase(name);
            else
                m_scope[name] = previous;
            m_undo.pop_back();
        }
        m_head = f.head;
    }

    void snapshot(const SourceSpan& at, bool atEnd = false)
    {
        if (!m_recording || !at.isValid() || at.file != m_file)
            return;
        ScopeAnalysis::Snapshot s;
        s.line = atEnd ? (at.endLine > 0 ? at.endLine : at.line) : at.line;
        s.column = atEnd ? (at.endColumn > 0 ? at.endColumn + 1 : at.column) : at.column;
        s.scope = m_head;
        m_out.snapshots.push_back(std::move(s));
    }

    // --- expressions -------------------------------------------------------------------------

    // The YAML node of an expression value starting at `at`, searched below the block being
    // walked (expression values sit at most a few levels under their block's mapping).
    static const YamlValue* findNode(const YamlValue& v, const SourceSpan& at, int depth)
    {
        const SourceSpan& s = v.span();
        if (s.line == at.line && s.column == at.column)
            return &v;
        if (depth == 0 || s.line > at.line || (s.endLine > 0 && s.endLine < at.line))
            return nullptr;
        for (const YamlValue& item : v.items()) {
            if (const YamlValue* found = findNode(item, at, depth - 1))
                return found;
        }
        for (const auto& e : v.entries()) {
            if (const YamlValue* found = findNode(e.value, at, depth - 1))
                return found;
        }
        return nullptr;
    }

    void analyzeString(const std::string& source, const SourceSpan& span)
    {
        if (!m_recording || expr::isPlainText(source))
            return;
        snapshot(span);
        const expr::TemplatePtr tpl = expr::cachedTemplate(source);
        if (!tpl || tpl->mode == expr::CompiledTemplate::Mode::Error)
            return;
        std::vector<const expr::Node*> names;
        std::unordered_set<std::string> guarded;
        collectNames(tpl->single.get(), names, guarded);
        for (const auto& part : tpl->parts)
            collectNames(part.expr.get(), names, guarded);
        std::sort(names.begin(), names.end(),
                  [](const expr::Node* a, const expr::Node* b) { return a->pos < b->pos; });
        if (names.empty())
            return;
        // Where the string's first character is in the file; later lines of a block scalar
        // start at their indentation (as mapExpressionPosition does, computed once).
        const SourceSpan base = mapExpressionPosition(m_lines, source, span, 1, 1);
        // Escapes (`\n` in a double-quoted scalar) and folded lines make the string's lines
        // differ from the file's: each name is found in the file by the text leading to it
        // (from its `${`), searched in order from the string's start. Where that text is not
        // written as is (an escape inside the expression), the line arithmetic below is used.
        qsizetype rawCursor = byteAt(span.line, span.column);
        const int lastLine =
            span.endLine > 0 ? span.endLine
                             : span.line + int(std::count(source.begin(), source.end(), '\n')) + 2;
        const qsizetype rawEnd =
            std::max(rawCursor, span.endLine > 0 ? byteAt(span.endLine, span.endColumn) + 1
                                                 : byteAt(lastLine + 1, 1));
        for (const expr::Node* n : names) {
            const auto it = m_scope.find(n->name);
            const bool known = it != m_scope.end();
            if (!known && (guarded.count(n->name) || builtins::findGlobal(n->name)))
                continue;
            VariableUse use;
            use.name = n->name;
            const auto [line, column] = positionInString(source, n->pos);
            use.span = base;
            if (const qsizetype raw = findInFile(source, n->pos, n->name, rawCursor, rawEnd);
                raw >= 0) {
                rawCursor = raw + qsizetype(n->name.size());
                const auto [l, c] = lineColumnOf(raw);
                use.span.line = l;
                use.span.column = c;
            } else if (line == 1) {
                use.span.column = base.column + column - 1;
            } else {
                use.span.line = base.line + line - 1;
                const QString target = m_lines.value(use.span.line - 1);
                int indent = 0;
                while (indent < target.size() &&
                       (target[indent] == QLatin1Char(' ') || target[indent] == QLatin1Char('\t')))
                    ++indent;
                use.span.column = indent + column; // indentation is ASCII
            }
            use.span.endLine = use.span.line;
            use.span.endColumn = use.span.column + codePoints(n->name) - 1;
            use.definition = known ? it->second : -1;
            m_out.uses.push_back(std::move(use));
        }
    }

    qsizetype byteAt(int line, int column) const
    {
        if (line < 1 || size_t(line) > m_lineStart.size())
            return m_text.size();
        qsizetype off = m_lineStart[size_t(line - 1)];
        for (int c = 1; c < column && off < m_text.size() && m_text[off] != '\n'; ++c) {
            ++off;
            while (off < m_text.size() && (uchar(m_text[off]) & 0xC0) == 0x80)
                ++off;
        }
        return off;
    }

    std::pair<int, int> lineColumnOf(qsizetype off) const
    {
        auto it = std::upper_bound(m_lineStart.begin(), m_lineStart.end(), off);
        const int line = int(it - m_lineStart.begin());
        int column = 1;
        for (qsizetype i = m_lineStart[size_t(line - 1)]; i < off; ++i)
            column += (uchar(m_text[i]) & 0xC0) != 0x80 ? 1 : 0;
        return {line, column};
    }

    // The file offset of the name at `pos` of `source`: the text from the `${` before it (on
    // its line) to its end, found in [from, to) of the file; -1 when it is not there as is.
    qsizetype findInFile(const std::string& source, size_t pos, const std::string& name,
                         qsizetype from, qsizetype to) const
    {
        if (from < 0 || from >= to || pos + name.size() > source.size())
            return -1;
        const size_t lineStart = pos == 0 ? 0 : source.rfind('\n', pos - 1);
        const size_t begin = lineStart == std::string::npos ? 0 : lineStart + 1;
        const size_t open = pos < 2 ? std::string::npos : source.rfind("${", pos - 2);
        size_t start = open != std::string::npos && open >= begin ? open : begin;
        while (start < pos && (source[start] == ' ' || source[start] == '\t'))
            ++start;
        const QByteArray lead = QByteArray::fromStdString(source.substr(start, pos - start));
        if (lead.isEmpty())
            return -1; // the name alone could be found inside a string literal
        const QByteArray needle = lead + QByteArray::fromStdString(name);
        for (qsizetype at = m_text.indexOf(needle, from); at >= 0 && at + needle.size() <= to;
             at = m_text.indexOf(needle, at + 1)) {
            const qsizetype name0 = at + lead.size();
            const qsizetype end = name0 + qsizetype(name.size());
            const auto ident = [](char c) {
                return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
                       c == '_';
            };
            if (end < m_text.size() && ident(m_text[end]))
                continue;
            return name0;
        }
        return -1;
    }

    void walkYaml(const YamlValue& v)
    {
        if (v.isString()) {
            analyzeString(v.scalar().asString(), v.span());
        } else if (v.isSequence()) {
            for (const YamlValue& item : v.items())
                walkYaml(item);
        } else if (v.isMapping()) {
            if (const YamlValue* src = v.value("pdl__expr")) {
                walkYaml(*src);
                return;
            }
            for (const auto& e : v.entries()) {
                walkYaml(e.key);
                walkYaml(e.value);
            }
        }
    }

    void walkExpr(const Expr& e)
    {
        if (!e || !m_recording)
            return;
        if (e.value.isString()) {
            analyzeString(e.value.asString(), e.span);
            return;
        }
        if (!e.value.isList() && !e.value.isDict())
            return;
        if (!m_block || !m_block->node)
            return;
        if (const YamlValue* node = findNode(*m_block->node, e.span, 4))
            walkYaml(*node);
    }

    void useName(const std::string& name, const SourceSpan& span)
    {
        if (!m_recording || !span.isValid() || name.empty())
            return;
        const auto it = m_scope.find(name);
        VariableUse use;
        use.name = name;
        use.span = span;
        use.definition = it == m_scope.end() ? -1 : it->second;
        m_out.uses.push_back(std::move(use));
    }

    // --- blocks ------------------------------------------------------------------------------

    // The key span of `field.name` in the block's YAML (for where a name is defined).
    static SourceSpan keySpan(const Block& b, std::string_view field, const std::string& name)
    {
        const SourceSpan key = detail::keySpanOf(b, field, name);
        return key.isValid() ? key : b.fieldSpan(field);
    }

    // The span of the value of scalar field `field` (the name in `def: x`).
    static SourceSpan valueSpan(const Block& b, std::string_view field)
    {
        if (b.node && b.node->isMapping()) {
            if (const YamlValue* v = b.node->value(field))
                return v->span();
        }
        return b.fieldSpan(field);
    }

    void walkPattern(const Pattern& p)
    {
        for (const Pattern& item : p.items)
            walkPattern(item);
        for (const auto& [k, sub] : p.fields)
            walkPattern(sub);
        if (p.def)
            define(*p.def, VariableKind::MatchBinding, p.span);
    }

    // Names a block defines anywhere inside it that flow out of it, for loops whose bodies
    // read what an earlier iteration defined.
    void predeclare(const BlockPtr& bp, std::set<const Block*>& seen)
    {
        if (!bp || !seen.insert(bp.get()).second)
            return;
        const Block& b = *bp;
        for (const auto& [name, child] : b.defs) {
            predeclare(child, seen);
            define(name, VariableKind::Defs, keySpan(b, "defs", name));
        }
        // A loop's variables are defined before its body, a model's response after its input.
        if (b.kind == BlockKind::Repeat) {
            const auto& r = static_cast<const RepeatBlock&>(b);
            for (const auto& [name, e] : r.forVars)
                define(name, VariableKind::LoopVariable, keySpan(b, "for", name));
            if (r.index)
                define(*r.index, VariableKind::LoopIndex, valueSpan(b, "index"));
        }
        detail::forEachKindChild(
            b, [&](const BlockPtr& c, const std::string&) { predeclare(c, seen); },
            detail::ChildBlocks::SharedScope);
        if (b.kind == BlockKind::Model) {
            if (const auto& m = static_cast<const ModelBlock&>(b); m.modelResponse)
                define(*m.modelResponse, VariableKind::ModelResponse,
                       valueSpan(b, "modelResponse"));
        }
        predeclare(b.fallback, seen);
        if (b.def)
            define(*b.def, VariableKind::Def, b.defSpan.isValid() ? b.defSpan : b.span);
    }

    void walk(const BlockPtr& bp)
    {
        if (!bp)
            return;
        const Block& b = *bp;
        const Block* saved = m_block;
        snapshot(b.span);
        for (const auto& [name, child] : b.defs) {
            walk(child);
            define(name, VariableKind::Defs, keySpan(b, "defs", name));
        }
        m_block = &b;
        walkKind(b);
        walk(b.fallback);
        walkExpr(b.retry.tries);
        walkExpr(b.retry.delay);
        walkExpr(b.retry.backoff);
        walkExpr(b.retry.maxDelay);
        walkExpr(b.retry.jitter);
        walkExpr(b.traceErrorOnRetry);
        for (const Expectation& e : b.expectations) {
            walkExpr(e.expect);
            walkExpr(e.feedback);
        }
        if (b.contribute) {
            for (const ContributeTarget& t : *b.contribute)
                walkExpr(t.value);
        }
        if (b.def)
            define(*b.def, VariableKind::Def, b.defSpan.isValid() ? b.defSpan : b.span);
        snapshot(b.span, true);
        m_block = saved;
    }

    void walkKind(const Block& b)
    {
        switch (b.kind) {
        case BlockKind::Data: {
            const auto& d = static_cast<const DataBlock&>(b);
            if (!d.raw)
                walkExpr(d.data);
            break;
        }
        case BlockKind::Model:
            walkModel(static_cast<const ModelBlock&>(b));
            break;
        case BlockKind::Read:
            walkExpr(static_cast<const ReadBlock&>(b).read);
            break;
        case BlockKind::Text:
        case BlockKind::LastOf:
        case BlockKind::Array:
            for (const auto& c : static_cast<const ListBlockBase&>(b).children)
                walk(c);
            break;
        case BlockKind::Sequence: {
            const auto& s = static_cast<const SequenceBlock&>(b);
            for (const auto& c : s.children)
                walk(c);
            walkJoin(s.join);
            break;
        }
        case BlockKind::Object: {
            const auto& o = static_cast<const ObjectBlock&>(b);
            for (const auto& [k, c] : o.fields)
                walk(c);
            for (const auto& c : o.items)
                walk(c);
            break;
        }
        case BlockKind::Get: {
            const auto& g = static_cast<const GetBlock&>(b);
            useName(g.get, valueSpan(b, "get"));
            break;
        }
        case BlockKind::Message: {
            const auto& m = static_cast<const MessageBlock&>(b);
            walk(m.content);
            walkExpr(m.name);
            walkExpr(m.toolCallId);
            walkExpr(m.toolCalls);
            break;
        }
        case BlockKind::If: {
            const auto& i = static_cast<const IfBlock&>(b);
            walkExpr(i.condition);
            // Either branch may run: what both define counts as defined afterwards.
            walk(i.then);
            walk(i.elseBlock);
            break;
        }
        case BlockKind::Match:
            walkMatch(static_cast<const MatchBlock&>(b));
            break;
        case BlockKind::Repeat:
        case BlockKind::Map:
            walkLoop(static_cast<const LoopBlockBase&>(b));
            break;
        case BlockKind::Function:
            walkFunction(static_cast<const FunctionBlock&>(b));
            break;
        case BlockKind::Call: {
            const auto& c = static_cast<const CallBlock&>(b);
            walkExpr(c.call);
            walkExpr(c.args);
            break;
        }
        case BlockKind::Code: {
            const auto& c = static_cast<const CodeBlock&>(b);
            walk(c.code);
            walkExpr(c.parameters);
            break;
        }
        case BlockKind::Args:
            for (const Expr& e : static_cast<const ArgsBlock&>(b).args)
                walkExpr(e);
            break;
        case BlockKind::Include:
            walkInclude(static_cast<const IncludeBlock&>(b));
            break;
        case BlockKind::Aggregator: {
            const auto& a = static_cast<const AggregatorBlock&>(b);
            for (const Expr* e : {&a.file, &a.mode, &a.encoding, &a.prefix, &a.suffix, &a.flush})
                walkExpr(*e);
            break;
        }
        case BlockKind::Error:
            walk(static_cast<const ErrorBlock&>(b).program);
            break;
        case BlockKind::Import:
            break;
        case BlockKind::Empty:
            walkExpr(static_cast<const EmptyBlock&>(b).factor);
            walkExpr(static_cast<const EmptyBlock&>(b).resample);
            break;
        }
    }

    void walkModel(const ModelBlock& m)
    {
        walkExpr(m.model);
        walk(m.input);
        walkExpr(m.parameters);
        walkExpr(m.platform);
        walkExpr(m.backend);
        walkExpr(m.processor);
        walkExpr(m.structuredDecoding);
        if (m.modelResponse)
            define(*m.modelResponse, VariableKind::ModelResponse, valueSpan(m, "modelResponse"));
    }

    void walkMatch(const MatchBlock& m)
    {
        walkExpr(m.match);
        for (const MatchCase& c : m.cases) {
            if (c.pattern)
                walkPattern(*c.pattern);
            walkExpr(c.guard);
            walk(c.then);
        }
    }

    void walkFunction(const FunctionBlock& f)
    {
        // The body sees the scope the function was defined in (a snapshot) and its
        // parameters; nothing it defines leaks out.
        const Frame frame = mark();
        for (const auto& [name, type] : f.params)
            define(name, VariableKind::Parameter, keySpan(f, "function", name));
        walk(f.returns);
        restore(frame);
    }

    void walkJoin(const JoinSpec& j)
    {
        walkExpr(j.with);
        walkExpr(j.reduce);
    }

    void walkLoop(const LoopBlockBase& b)
    {
        const bool isMap = b.kind == BlockKind::Map;
        for (const auto& [name, e] : b.forVars)
            walkExpr(e);
        walkExpr(b.maxIterations);
        if (isMap)
            walkExpr(static_cast<const MapBlock&>(b).maxWorkers);
        // Map iterations run in their own copy of the scope; repeat's accumulate and stay.
        const Frame frame = mark();
        for (const auto& [name, e] : b.forVars)
            define(name, VariableKind::LoopVariable, keySpan(b, "for", name));
        if (b.index)
            define(*b.index, VariableKind::LoopIndex, valueSpan(b, "index"));
        if (!isMap) {
            // A later iteration sees what an earlier one defined, so a body may read a name
            // before the line that defines it.
            std::set<const Block*> seen;
            predeclare(b.body, seen);
            const auto& r = static_cast<const RepeatBlock&>(b);
            walkExpr(r.whileCond);
            walk(b.body);
            walkExpr(r.until);
        } else {
            walk(b.body);
        }
        walkJoin(b.join);
        if (isMap)
            restore(frame);
    }

    void walkInclude(const IncludeBlock& inc)
    {
        if (!m_options.followIncludes || inc.include.empty())
            return;
        const QString base = m_file.isEmpty() ? QDir::currentPath() : QFileInfo(m_file).path();
        const QString path =
            QFileInfo(QDir(base).filePath(QString::fromStdString(inc.include))).absoluteFilePath();
        if (m_includeStack.count(path) || m_includeStack.size() > 32)
            return;
        const ParseResult parsed = parseProgram(path);
        if (!parsed.program)
            return;
        m_includeStack.insert(path);
        const bool wasRecording = m_recording;
        // The included program's own uses belong to that file: only its definitions matter.
        m_recording = false;
        walk(parsed.program->root);
        m_recording = wasRecording;
        m_includeStack.erase(path);
    }

    void finish()
    {
        for (VariableUse& use : m_out.uses) {
            if (use.definition >= 0)
                continue;
            QString message = QStringLiteral("variable '%1' is used but never defined")
                                  .arg(QString::fromStdString(use.name));
            // A misspelt name: the nearest defined one.
            {
                std::string best;
                int bestDistance = 1 << 30;
                for (const VariableDefinition& d : m_out.definitions) {
                    if (d.name == use.name)
                        continue;
                    const int distance = fieldNameDistance(use.name, d.name);
                    if (distance < bestDistance) {
                        bestDistance = distance;
                        best = d.name;
                    }
                }
                if (!best.empty() && bestDistance <= std::max<int>(1, int(use.name.size()) / 4))
                    message +=
                        QStringLiteral(" (did you mean '%1'?)").arg(QString::fromStdString(best));
            }
            for (const VariableDefinition& d : m_out.definitions) {
                if (d.name == use.name && d.span.isValid() && d.span.file == m_file &&
                    positionBefore(use.span.line, use.span.column, d.span.line, d.span.column)) {
                    message += QStringLiteral(" before this point (it is defined later, at line "
                                              "%1)")
                                   .arg(d.span.line);
                    break;
                }
            }
            m_out.warnings.push_back(Diagnostic{Severity::Warning, message, use.span});
        }
        std::stable_sort(m_out.snapshots.begin(), m_out.snapshots.end(),
                         [](const ScopeAnalysis::Snapshot& a, const ScopeAnalysis::Snapshot& b) {
                             return positionBefore(a.line, a.column, b.line, b.column);
                         });
        std::stable_sort(
            m_out.uses.begin(), m_out.uses.end(), [](const VariableUse& a, const VariableUse& b) {
                return positionBefore(a.span.line, a.span.column, b.span.line, b.span.column);
            });
    }

    ScopeAnalysis& m_out;
    const ScopeOptions& m_options;
    QStringList m_lines;
    QByteArray m_text;
    std::vector<qsizetype> m_lineStart;
    QString m_file;
    const Block* m_block = nullptr; ///< the block whose fields are being walked
    std::unordered_map<std::string, int> m_scope;
    std::vector<std::pair<std::string, int>> m_undo;
    std::shared_ptr<const ScopeAnalysis::ScopeNode> m_head;
    std::set<QString> m_includeStack;
    bool m_recording = true;
};

} // namespace

const VariableUse* ScopeAnalysis::useAt(int line, int column) const
{
    for (const VariableUse& u : uses) {
        if (covers(u.span, line, column))
            return &u;
    }
    return nullptr;
}

const VariableDefinition* ScopeAnalysis::definitionAt(int line, int column) const
{
    for (const VariableDefinition& d : definitions) {
        if (covers(d.span, line, column))
            return &d;
    }
    return nullptr;
}

const VariableDefinition* ScopeAnalysis::resolveAt(int line, int column) const
{
    if (const VariableUse* u = useAt(line, column)) {
        if (u->definition < 0)
            return nullptr;
        const VariableDefinition* d = &definitions[size_t(u->definition)];
        // A loop body's predeclared twin: prefer the first definition written at that place.
        for (const VariableDefinition& other : definitions) {
            if (other.name == d->name && other.span == d->span)
                return &other;
        }
        return d;
    }
    return definitionAt(line, column);
}

std::vector<const VariableDefinition*> ScopeAnalysis::namesInReach(int line, int column) const
{
    std::shared_ptr<const ScopeNode> head;
    auto it = std::upper_bound(snapshots.begin(), snapshots.end(), std::make_pair(line, column),
                               [](const std::pair<int, int>& p, const Snapshot& s) {
                                   return positionBefore(p.first, p.second, s.line, s.column);
                               });
    if (it != snapshots.begin())
        head = std::prev(it)->scope;
    else if (!snapshots.empty())
        head = snapshots.front().scope;
    std::vector<const VariableDefinition*> out;
    std::unordered_set<std::string> seen;
    for (const ScopeNode* n = head.get(); n; n = n->previous.get()) {
        const VariableDefinition& d = definitions[size_t(n->definition)];
        if (seen.insert(d.name).second)
            out.push_back(&d);
    }
    std::sort(out.begin(), out.end(), [](const VariableDefinition* a, const VariableDefinition* b) {
        return a->name < b->name;
    });
    return out;
}

ScopeAnalysis analyzeScopes(const Program& program, const QByteArray& text,
                            const ScopeOptions& options)
{
    ScopeAnalysis out;
    Analyzer(out, options).run(program, text);
    return out;
}

} // namespace hako::pdl
