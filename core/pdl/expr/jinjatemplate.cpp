#include "core/pdl/expr/jinjatemplate.h"

#include "core/pdl/expr/parser.h"

#include <algorithm>
#include <cstring>
#include <functional>
#include <mutex>
#include <unordered_map>

// Compiles Jinja2 statement templates (what `code: … lang: jinja` blocks run). The lexing rules
// follow jinja2/lexer.py: the first of `{{`, `{%`, `{#` opens a tag; `-` after the opener strips
// all whitespace before it, `+` keeps it; lstrip_blocks removes the spaces and tabs that start
// the line of a block or comment tag; `-` before the closer strips whitespace after it and
// trim_blocks removes one newline after a block or comment tag. A statement ends at `%}` outside
// brackets and strings. Without keep_trailing_newline one final newline of the source goes.

namespace hako::pdl::expr {

const std::string_view kJinjaFilterInput = "__jinja_filter_input__";

namespace {

bool isWs(char c)
{
    return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v';
}

struct Chunk {
    enum class Type { Data, Var, Block };
    Type type = Type::Data;
    std::string text;                  ///< Data
    NodePtr expr;                      ///< Var
    size_t pos = 0;                    ///< where the tag starts
    size_t bodyBegin = 0, bodyEnd = 0; ///< Block: the statement between the delimiters
};

class Compiler {
public:
    Compiler(std::string_view src, const JinjaOptions& options) : m_src(src), m_opt(options) {}

    JinjaBody compile()
    {
        lex();
        JinjaBody body = parseBody({});
        return body;
    }

private:
    // --- lexing -------------------------------------------------------------------------

    void emitData(std::string text)
    {
        if (text.empty())
            return;
        if (!m_chunks.empty() && m_chunks.back().type == Chunk::Type::Data)
            m_chunks.back().text += text;
        else
            m_chunks.push_back({Chunk::Type::Data, std::move(text), nullptr, 0, 0, 0});
    }

    size_t skipWs(size_t i) const
    {
        while (i < m_src.size() && isWs(m_src[i]))
            ++i;
        return i;
    }

    // After a block or comment closer: `-` strips whitespace, trim_blocks one newline.
    size_t afterBlockEnd(size_t after, char sign) const
    {
        if (sign == '-')
            return skipWs(after);
        if (sign != '+' && m_opt.trimBlocks && after < m_src.size() && m_src[after] == '\n')
            return after + 1;
        return after;
    }

    // The `%}` closing a statement that starts at `i`, outside strings and brackets; returns
    // its position with `sign` set to the `-`/`+` before it (the position of the sign then).
    size_t findBlockEnd(size_t i, char& sign) const
    {
        int depth = 0;
        while (i < m_src.size()) {
            const char c = m_src[i];
            if (c == '\'' || c == '"') {
                size_t j = i + 1;
                while (j < m_src.size() && m_src[j] != c) {
                    if (m_src[j] == '\\')
                        ++j;
                    ++j;
                }
                i = j + 1;
                continue;
            }
            if (c == '(' || c == '[' || c == '{') {
                ++depth;
            } else if ((c == ')' || c == ']' || c == '}') && depth > 0) {
                --depth;
            } else if (depth == 0) {
                const std::string& end = m_opt.blockEnd;
                if ((c == '-' || c == '+') && m_src.substr(i + 1, end.size()) == end) {
                    sign = c;
                    return i;
                }
                if (m_src.substr(i, end.size()) == end) {
                    sign = 0;
                    return i;
                }
            }
            ++i;
        }
        return std::string_view::npos;
    }

    // The next tag opener at or after `from`: its position and kind ('{' variable, '%' block,
    // '#' comment), or npos. Each opener's next position is remembered, so lexing stays linear.
    size_t nextTag(size_t from, char& kind)
    {
        struct Opener {
            const std::string* text;
            char kind;
            size_t* next;
        };
        const Opener openers[] = {{&m_opt.variableStart, '{', &m_nextVar},
                                  {&m_opt.blockStart, '%', &m_nextBlock},
                                  {&m_opt.commentStart, '#', &m_nextComment}};
        size_t best = std::string_view::npos;
        size_t bestLength = 0;
        for (const Opener& o : openers) {
            if (*o.next == std::string_view::npos)
                continue;
            if (*o.next < from || *o.next == kNotSearched)
                *o.next = o.text->empty() ? std::string_view::npos : m_src.find(*o.text, from);
            // The longest opener wins at one position (Jinja orders its rules so).
            if (*o.next < best || (*o.next == best && o.text->size() > bestLength)) {
                best = *o.next;
                bestLength = o.text->size();
                kind = o.kind;
            }
        }
        return best;
    }

    size_t openerLength(char kind) const
    {
        return kind == '{'   ? m_opt.variableStart.size()
               : kind == '%' ? m_opt.blockStart.size()
                             : m_opt.commentStart.size();
    }

    void lex()
    {
        if (m_opt.variableEnd.empty() || m_opt.variableEnd.front() != '}')
            throw SyntaxError("variable_end_string must start with '}'", 0);
        if (m_opt.blockEnd.empty() || m_opt.commentEnd.empty())
            throw SyntaxError("block_end_string and comment_end_string must not be empty", 0);
        size_t pos = 0;
        bool lineStarting = true;
        while (pos < m_src.size()) {
            char kind = 0;
            const size_t k = nextTag(pos, kind);
            if (k == std::string_view::npos) {
                emitData(std::string(m_src.substr(pos)));
                return;
            }
            const size_t open = openerLength(kind);
            const char sign =
                k + open < m_src.size() && (m_src[k + open] == '-' || m_src[k + open] == '+')
                    ? m_src[k + open]
                    : 0;
            std::string text(m_src.substr(pos, k - pos));
            if (sign == '-') {
                while (!text.empty() && isWs(text.back()))
                    text.pop_back();
            } else if (sign != '+' && m_opt.lstripBlocks && kind != '{') {
                const size_t lpos = text.rfind('\n') + 1; // npos + 1 == 0
                if ((lpos > 0 || lineStarting) && lpos < text.size() &&
                    std::all_of(text.begin() + long(lpos), text.end(), isWs))
                    text.erase(lpos);
            }
            emitData(std::move(text));
            const size_t bodyBegin = k + open + (sign ? 1 : 0);
            size_t after = 0;
            if (kind == '#') {
                const size_t end = m_src.find(m_opt.commentEnd, bodyBegin);
                if (end == std::string_view::npos)
                    throw SyntaxError("Missing end of comment tag", k);
                const char endSign =
                    end > bodyBegin && (m_src[end - 1] == '-' || m_src[end - 1] == '+')
                        ? m_src[end - 1]
                        : 0;
                after = afterBlockEnd(end + m_opt.commentEnd.size(), endSign);
            } else if (kind == '{') {
                LexedExpression lexed = lexExpression(m_src, bodyBegin, true);
                const size_t close = lexed.tokens.back().pos; // the first `}`
                if (lexed.tokens.back().type != Tok::End ||
                    m_src.substr(close, m_opt.variableEnd.size()) != m_opt.variableEnd)
                    throw SyntaxError(lexed.tokens.back().type == Tok::End
                                          ? "unexpected '}'"
                                          : "unexpected end of template, expected 'end of print "
                                            "statement'.",
                                      close);
                Chunk c;
                c.type = Chunk::Type::Var;
                c.pos = k;
                c.expr = parseTemplateExpression(lexed);
                m_chunks.push_back(std::move(c));
                after = close + m_opt.variableEnd.size();
                if (lexed.stripAfter)
                    after = skipWs(after);
            } else {
                char endSign = 0;
                const size_t end = findBlockEnd(bodyBegin, endSign);
                if (end == std::string_view::npos)
                    throw SyntaxError("unexpected end of template, expected 'end of statement "
                                      "block'.",
                                      k);
                after = afterBlockEnd(end + (endSign ? 1 : 0) + m_opt.blockEnd.size(), endSign);
                std::string_view body = m_src.substr(bodyBegin, end - bodyBegin);
                const size_t b = body.find_first_not_of(" \t\n\r\f\v");
                const size_t e = body.find_last_not_of(" \t\n\r\f\v");
                if (b != std::string_view::npos && body.substr(b, e - b + 1) == "raw") {
                    after = lexRaw(after, k);
                } else {
                    Chunk c;
                    c.type = Chunk::Type::Block;
                    c.pos = k;
                    c.bodyBegin = bodyBegin;
                    c.bodyEnd = end;
                    m_chunks.push_back(std::move(c));
                }
            }
            lineStarting = after > 0 && after <= m_src.size() && m_src[after - 1] == '\n';
            pos = after;
        }
    }

    // `{% raw %}`: everything up to `{% endraw %}` is text. Returns the position after it.
    size_t lexRaw(size_t from, size_t rawPos)
    {
        size_t k = from;
        while ((k = m_src.find(m_opt.blockStart, k)) != std::string_view::npos) {
            size_t i = k + m_opt.blockStart.size();
            char sign = 0;
            if (i < m_src.size() && (m_src[i] == '-' || m_src[i] == '+'))
                sign = m_src[i++];
            i = skipWs(i);
            if (m_src.substr(i, 6) == "endraw") {
                size_t j = skipWs(i + 6);
                char endSign = 0;
                if (j < m_src.size() && (m_src[j] == '-' || m_src[j] == '+'))
                    endSign = m_src[j++];
                if (m_src.substr(j, m_opt.blockEnd.size()) == m_opt.blockEnd) {
                    std::string text(m_src.substr(from, k - from));
                    if (sign == '-') {
                        while (!text.empty() && isWs(text.back()))
                            text.pop_back();
                    }
                    emitData(std::move(text));
                    // The lexer's next openers were searched from before the raw text.
                    m_nextVar = m_nextBlock = m_nextComment = kNotSearched;
                    return afterBlockEnd(j + m_opt.blockEnd.size(), endSign);
                }
            }
            k += m_opt.blockStart.size();
        }
        throw SyntaxError("Missing end of raw directive", rawPos);
    }

    // --- statements -----------------------------------------------------------------------

    using Tokens = std::vector<Token>;

    Tokens statementTokens(const Chunk& c) const
    {
        return lexExpression(m_src.substr(0, c.bodyEnd), c.bodyBegin, false).tokens;
    }

    // The index of the first token in [from, to) at bracket depth 0 matching `pred`, or `to`.
    static size_t findTop(const Tokens& t, size_t from, size_t to,
                          const std::function<bool(const Token&)>& pred)
    {
        int depth = 0;
        for (size_t i = from; i < to; ++i) {
            if (t[i].type == Tok::Operator) {
                if (t[i].text == "(" || t[i].text == "[" || t[i].text == "{")
                    ++depth;
                else if (t[i].text == ")" || t[i].text == "]" || t[i].text == "}")
                    --depth;
            }
            if (depth == 0 && pred(t[i]))
                return i;
        }
        return to;
    }

    /// Parses tokens [from, to) as one expression; `tuple` allows a bare tuple (`1, 2`).
    static NodePtr parseSlice(const Tokens& t, size_t from, size_t to, bool tuple)
    {
        LexedExpression le;
        le.tokens.assign(t.begin() + long(from), t.begin() + long(to));
        Token end;
        end.type = tuple ? Tok::End : Tok::Eof;
        end.pos = t[std::min(to, t.size() - 1)].pos;
        le.tokens.push_back(end);
        if (from >= to)
            throw SyntaxError("Expected an expression, got 'end of statement block'", end.pos);
        try {
            return tuple ? parseTemplateExpression(le) : parseBareExpression(le);
        } catch (const SyntaxError& e) {
            std::string m = e.what();
            for (const char* what : {"end of print statement"}) {
                const size_t at = m.find(what);
                if (at != std::string::npos)
                    m.replace(at, std::strlen(what), "end of statement block");
            }
            if (m == "chunk after expression")
                m = "expected token 'end of statement block', got '" +
                    describeToken(t[std::min(to, t.size() - 1)]) + "'";
            throw SyntaxError(m, e.offset());
        }
    }

    // Filters applied to a block's output: `name(args) | other` read as `input | name(args)…`.
    static NodePtr parseFilters(const Tokens& t, size_t from, size_t to, bool leadingPipe)
    {
        Tokens synthetic;
        Token input;
        input.type = Tok::Name;
        input.pos = t[from].pos;
        input.text = kJinjaFilterInput;
        synthetic.push_back(input);
        if (!leadingPipe) {
            Token pipe;
            pipe.type = Tok::Operator;
            pipe.pos = t[from].pos;
            pipe.text = "|";
            synthetic.push_back(pipe);
        }
        synthetic.insert(synthetic.end(), t.begin() + long(from), t.begin() + long(to));
        synthetic.push_back(t[std::min(to, t.size() - 1)]);
        return parseSlice(synthetic, 0, synthetic.size() - 1, false);
    }

    // Assignment targets: `x`, `a, b`, `(a, b), c`.
    static JinjaTarget parseTarget(const Tokens& t, size_t from, size_t to)
    {
        if (from >= to)
            throw SyntaxError("expected a name to assign to", t[std::min(from, t.size() - 1)].pos);
        JinjaTarget target;
        target.pos = t[from].pos;
        const size_t comma = findTop(t, from, to, [](const Token& k) { return k.isOp(","); });
        if (comma == to) {
            if (to - from == 1 && t[from].type == Tok::Name) {
                target.name = std::string(t[from].text);
                return target;
            }
            if (t[from].isOp("(") && t[to - 1].isOp(")"))
                return parseTarget(t, from + 1, to - 1);
            throw SyntaxError("can't assign to '" + describeToken(t[from]) + "'", t[from].pos);
        }
        size_t start = from;
        while (start < to) {
            size_t c = findTop(t, start, to, [](const Token& k) { return k.isOp(","); });
            if (c > start)
                target.items.push_back(parseTarget(t, start, c));
            start = c + 1;
        }
        return target;
    }

    static bool usesName(const Node* n, std::string_view name)
    {
        if (!n)
            return false;
        if (n->kind == NodeKind::Name && n->name == name)
            return true;
        for (const auto& c : n->children)
            if (usesName(c.get(), name))
                return true;
        for (const auto& c : n->args.positional)
            if (usesName(c.get(), name))
                return true;
        for (const auto& c : n->args.keyword)
            if (usesName(c.get(), name))
                return true;
        return usesName(n->args.starArgs.get(), name) || usesName(n->args.starKwargs.get(), name);
    }

    static bool bodyUses(const JinjaBody& body, std::string_view name)
    {
        for (const JinjaNode& n : body) {
            if (usesName(n.expr.get(), name) || usesName(n.condition.get(), name) ||
                bodyUses(n.body, name) || bodyUses(n.elseBody, name))
                return true;
            for (const auto& [cond, b] : n.branches)
                if (usesName(cond.get(), name) || bodyUses(b, name))
                    return true;
            for (const auto& [p, dflt] : n.params)
                if (usesName(dflt.get(), name))
                    return true;
        }
        return false;
    }

    // Parses chunks until one of `ends` (returned in `found` with its tokens) or the end.
    JinjaBody parseBody(std::initializer_list<std::string_view> ends, std::string* found = nullptr,
                        Tokens* foundTokens = nullptr, size_t openPos = 0,
                        std::string_view openTag = {})
    {
        JinjaBody body;
        while (m_index < m_chunks.size()) {
            Chunk& c = m_chunks[m_index++];
            if (c.type == Chunk::Type::Data) {
                JinjaNode n;
                n.kind = JinjaNode::Kind::Text;
                n.pos = uint32_t(c.pos);
                n.text = std::move(c.text);
                body.push_back(std::move(n));
                continue;
            }
            if (c.type == Chunk::Type::Var) {
                JinjaNode n;
                n.kind = JinjaNode::Kind::Output;
                n.pos = uint32_t(c.pos);
                n.expr = std::move(c.expr);
                body.push_back(std::move(n));
                continue;
            }
            Tokens t = statementTokens(c);
            if (t.empty() || t[0].type != Tok::Name)
                throw SyntaxError("tag name expected", c.pos);
            const std::string tag(t[0].text);
            if (std::find(ends.begin(), ends.end(), tag) != ends.end()) {
                if (found)
                    *found = tag;
                if (foundTokens)
                    *foundTokens = std::move(t);
                return body;
            }
            body.push_back(statement(tag, t, c));
        }
        if (ends.size() > 0) {
            std::string names;
            for (std::string_view e : ends)
                names += (names.empty() ? "'" : " or '") + std::string(e) + "'";
            throw SyntaxError("Unexpected end of template. Jinja was looking for the following "
                              "tags: " +
                                  names + ". The innermost block that needs to be closed is '" +
                                  std::string(openTag) + "'.",
                              openPos);
        }
        return body;
    }

    static size_t endOf(const Tokens& t) { return t.size() - 1; } // index of Eof/End

    // An if/elif test: Jinja parses it without the inline if-expression.
    static NodePtr parseTest(const Tokens& t)
    {
        const size_t end = endOf(t);
        const size_t inlineIf = findTop(t, 2, end, [](const Token& k) { return k.isName("if"); });
        if (inlineIf < end)
            throw SyntaxError("expected token 'end of statement block', got 'if'", t[inlineIf].pos);
        return parseSlice(t, 1, end, false);
    }

    static void expectEnd(const Tokens& t, size_t i)
    {
        if (i < endOf(t))
            throw SyntaxError("expected token 'end of statement block', got '" +
                                  describeToken(t[i]) + "'",
                              t[i].pos);
    }

    // The body of a block tag up to its one end tag (`endfilter`...), which takes no arguments.
    JinjaBody closedBody(std::string_view endTag, const Chunk& c, std::string_view openTag)
    {
        std::string found;
        Tokens next;
        JinjaBody body = parseBody({endTag}, &found, &next, c.pos, openTag);
        expectEnd(next, 1);
        return body;
    }

    void ifStatement(JinjaNode& n, const Tokens& t, const Chunk& c)
    {
        n.kind = JinjaNode::Kind::If;
        NodePtr cond = parseTest(t);
        while (true) {
            std::string found;
            Tokens next;
            JinjaBody b = parseBody({"elif", "else", "endif"}, &found, &next, c.pos, "if");
            n.branches.emplace_back(std::move(cond), std::move(b));
            if (found == "endif") {
                expectEnd(next, 1);
                return;
            }
            if (found == "else") {
                expectEnd(next, 1);
                n.branches.emplace_back(nullptr, closedBody("endif", c, "if"));
                return;
            }
            cond = parseTest(next);
        }
    }

    void forStatement(JinjaNode& n, const Tokens& t, const Chunk& c)
    {
        const size_t end = endOf(t);
        n.kind = JinjaNode::Kind::For;
        const size_t in = findTop(t, 1, end, [](const Token& k) { return k.isName("in"); });
        if (in == end)
            throw SyntaxError("expected token 'in', got 'end of statement block'", t[end].pos);
        n.target = parseTarget(t, 1, in);
        size_t iterEnd = findTop(
            t, in + 1, end, [](const Token& k) { return k.isName("if") || k.isName("recursive"); });
        n.expr = parseSlice(t, in + 1, iterEnd, true);
        if (iterEnd < end && t[iterEnd].isName("if")) {
            size_t condEnd =
                findTop(t, iterEnd + 1, end, [](const Token& k) { return k.isName("recursive"); });
            n.condition = parseSlice(t, iterEnd + 1, condEnd, false);
            iterEnd = condEnd;
        }
        if (iterEnd < end && t[iterEnd].isName("recursive"))
            throw SyntaxError("recursive loops are not supported", t[iterEnd].pos);
        std::string found;
        Tokens next;
        n.body = parseBody({"else", "endfor"}, &found, &next, c.pos, "for");
        expectEnd(next, 1);
        if (found == "else")
            n.elseBody = closedBody("endfor", c, "for");
        n.usesLoop = bodyUses(n.body, "loop");
    }

    void setStatement(JinjaNode& n, const Tokens& t, const Chunk& c)
    {
        const size_t end = endOf(t);
        const size_t eq = findTop(t, 1, end, [](const Token& k) { return k.isOp("="); });
        if (eq < end) {
            n.kind = JinjaNode::Kind::Set;
            for (size_t i = 1; i < eq; ++i)
                if (t[i].isOp("."))
                    throw SyntaxError("assignments to namespace attributes are not supported",
                                      t[i].pos);
            n.target = parseTarget(t, 1, eq);
            n.expr = parseSlice(t, eq + 1, end, true);
            return;
        }
        n.kind = JinjaNode::Kind::SetBlock;
        const size_t pipe = findTop(t, 1, end, [](const Token& k) { return k.isOp("|"); });
        n.target = parseTarget(t, 1, pipe);
        if (!n.target.name.size())
            throw SyntaxError("a block set assigns one name", t[1].pos);
        if (pipe < end)
            n.expr = parseFilters(t, pipe, end, true);
        n.body = closedBody("endset", c, "set");
    }

    // `name = default` pairs separated by commas in [from, to): a macro's parameters (where
    // the default is optional) or a with block's assignments.
    static void parseAssignments(const Tokens& t, size_t from, size_t to, bool needValue,
                                 JinjaNode& n)
    {
        size_t j = from;
        while (j < to) {
            size_t comma = findTop(t, j, to, [](const Token& k) { return k.isOp(","); });
            if (needValue && (t[j].type != Tok::Name || j + 1 >= comma || !t[j + 1].isOp("=")))
                throw SyntaxError("expected 'name = value'", t[j].pos);
            if (t[j].type != Tok::Name)
                throw SyntaxError("expected a parameter name", t[j].pos);
            NodePtr dflt;
            if (j + 1 < comma) {
                if (!t[j + 1].isOp("="))
                    throw SyntaxError("expected token ',' or '='", t[j + 1].pos);
                dflt = parseSlice(t, j + 2, comma, false);
            }
            n.params.emplace_back(std::string(t[j].text), std::move(dflt));
            j = comma + 1;
        }
    }

    void macroStatement(JinjaNode& n, const Tokens& t, const Chunk& c)
    {
        const size_t end = endOf(t);
        n.kind = JinjaNode::Kind::Macro;
        if (end < 2 || t[1].type != Tok::Name)
            throw SyntaxError("expected a macro name", t[std::min<size_t>(1, end)].pos);
        n.text = std::string(t[1].text);
        size_t i = 2;
        if (i < end && t[i].isOp("(")) {
            // findTop raises the depth at `(`: the match is where it drops back to 0.
            const size_t stop = findTop(t, i, end, [](const Token& k) { return k.isOp(")"); });
            if (stop == end)
                throw SyntaxError("expected token ')'", t[end].pos);
            parseAssignments(t, i + 1, stop, false, n);
            i = stop + 1;
        }
        expectEnd(t, i);
        n.body = closedBody("endmacro", c, "macro");
    }

    JinjaNode statement(const std::string& tag, const Tokens& t, const Chunk& c)
    {
        JinjaNode n;
        n.pos = uint32_t(c.pos);
        const size_t end = endOf(t);
        if (tag == "if") {
            ifStatement(n, t, c);
        } else if (tag == "for") {
            forStatement(n, t, c);
        } else if (tag == "set") {
            setStatement(n, t, c);
        } else if (tag == "filter") {
            n.kind = JinjaNode::Kind::FilterBlock;
            if (end <= 1)
                throw SyntaxError("expected a filter name", t[end].pos);
            n.expr = parseFilters(t, 1, end, false);
            n.body = closedBody("endfilter", c, "filter");
        } else if (tag == "macro") {
            macroStatement(n, t, c);
        } else if (tag == "with") {
            n.kind = JinjaNode::Kind::With;
            parseAssignments(t, 1, end, true, n);
            n.body = closedBody("endwith", c, "with");
        } else {
            throw SyntaxError("Encountered unknown tag '" + tag + "'.", t[0].pos);
        }
        return n;
    }

    static constexpr size_t kNotSearched = std::string_view::npos - 1;

    std::string_view m_src;
    const JinjaOptions& m_opt;
    std::vector<Chunk> m_chunks;
    // Where the next variable, block and comment openers are (see nextTag).
    size_t m_nextVar = kNotSearched;
    size_t m_nextBlock = kNotSearched;
    size_t m_nextComment = kNotSearched;
    size_t m_index = 0;
};

struct JinjaCache {
    static constexpr size_t kMaxEntries = 1024;
    static constexpr size_t kMaxBytes = size_t(16) << 20;
    std::mutex mutex;
    std::unordered_map<std::string, JinjaTemplatePtr> map;
    size_t bytes = 0;
};

} // namespace

std::string normalizeJinjaSource(std::string_view source, bool keepTrailingNewline)
{
    std::string out;
    if (source.find('\r') == std::string_view::npos) {
        out = std::string(source); // the common case: nothing to change, one copy
    } else {
        out.reserve(source.size());
        for (size_t i = 0; i < source.size(); ++i) {
            if (source[i] == '\r') {
                out += '\n';
                if (i + 1 < source.size() && source[i + 1] == '\n')
                    ++i;
            } else {
                out += source[i];
            }
        }
    }
    if (!keepTrailingNewline && !out.empty() && out.back() == '\n')
        out.pop_back();
    return out;
}

JinjaTemplatePtr compileJinja(std::string_view source, const JinjaOptions& options)
{
    auto tpl = std::make_shared<JinjaTemplate>();
    tpl->source = normalizeJinjaSource(source, options.keepTrailingNewline);
    try {
        tpl->body = Compiler(tpl->source, options).compile();
    } catch (const SyntaxError& e) {
        tpl->body.clear();
        tpl->error = e.what();
        tpl->errorOffset = e.offset();
    }
    return tpl;
}

JinjaTemplatePtr cachedJinja(std::string_view source, const JinjaOptions& options)
{
    static JinjaCache cache;
    std::string key;
    key.reserve(source.size() + 4);
    key += char('0' + options.trimBlocks);
    key += char('0' + options.lstripBlocks);
    key += char('0' + options.keepTrailingNewline);
    for (const std::string* d : {&options.variableStart, &options.variableEnd, &options.blockStart,
                                 &options.blockEnd, &options.commentStart, &options.commentEnd}) {
        key += *d;
        key += '\0';
    }
    key += source;
    {
        std::lock_guard lock(cache.mutex);
        auto it = cache.map.find(key);
        if (it != cache.map.end())
            return it->second;
    }
    JinjaTemplatePtr tpl = compileJinja(source, options);
    std::lock_guard lock(cache.mutex);
    if (cache.map.size() >= JinjaCache::kMaxEntries ||
        cache.bytes + key.size() > JinjaCache::kMaxBytes) {
        cache.map.clear();
        cache.bytes = 0;
    }
    if (cache.map.emplace(key, tpl).second)
        cache.bytes += key.size();
    return tpl;
}

} // namespace hako::pdl::expr
