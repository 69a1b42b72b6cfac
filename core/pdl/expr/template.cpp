#include "core/pdl/expr/template.h"
#include "core/util/chars.h"

#include "core/pdl/expr/jinjatemplate.h"
#include "core/pdl/expr/parser.h"

#include <algorithm>
#include <array>
#include <charconv>
#include <cstring>
#include <mutex>
#include <unordered_map>

// How the reference PDL interpreter evaluates a string (IBM/prompt-declaration-language,
// src/pdl/pdl_interpreter.py, `_process_expr`), which this file reproduces:
// - It builds a plain jinja2 Environment (not NativeEnvironment) with variable delimiters
//   `${` / `}`, block delimiters set to a string meant to be unmatchable (so `{% %}` is
//   literal text; a string that does hold kPdlBlockStart runs as a whole Jinja template),
//   the default comment delimiters `{# #}` and StrictUndefined, and parses the string with it
//   first, so every string must be a syntactically valid template (syntax errors come from
//   this template parse).
// - When the parse gives a single output node holding a single node, and the string starts
//   with `${` and ends with `}`, it evaluates `expr[2:-1]` with `compile_expression` (which
//   parses one expression, no bare tuple, "chunk after expression" if text remains) and
//   returns the Python value itself: typed, and a string stays a string. An Undefined result
//   is an error. Because the inner text is re-parsed, `${-1}` is -1 here while `a ${-1}` is
//   "a1" (in a template `${-` is whitespace control).
// - When that single node is template data (no expression), the string is returned as is.
// - Otherwise it renders a Template with keep_trailing_newline=True (a final newline is kept;
//   Jinja's default would drop it) and autoescape off: data with newlines normalized to \n,
//   values through Python str(). Checked with python3-jinja2 3.1: `a {# c #} b` → "a  b",
//   `'x ${x}\n'` keeps its newline, `a ${ 1 if 0 }` renders "a " (an if-expression without
//   else renders as empty text, while as the single `${ }` it is an undefined error).
// Jinja's lexer ends `${` at the first `}` outside brackets, so `${ {'a': 1} }` works; the
// expression lexer here keeps the same bracket balance.

namespace hako::pdl::expr {

const std::string_view kPdlBlockStart = "{%%%%%PDL%%%%%%%%%%";
const std::string_view kPdlBlockEnd = "%%%%%PDL%%%%%%%%%%}";

namespace {

void rstrip(std::string& s)
{
    while (!s.empty() && isAsciiSpace(s.back()))
        s.pop_back();
}

// A comma outside brackets makes the `${ }` body a bare tuple, which the single-expression
// form refuses.
bool hasTopLevelComma(const std::vector<Token>& tokens)
{
    int depth = 0;
    for (const Token& t : tokens) {
        if (t.type != Tok::Operator)
            continue;
        if (t.text == "(" || t.text == "[" || t.text == "{")
            ++depth;
        else if (t.text == ")" || t.text == "]" || t.text == "}")
            --depth;
        else if (t.text == "," && depth == 0)
            return true;
    }
    return false;
}

std::shared_ptr<CompiledTemplate> errorTemplate(const SyntaxError& e)
{
    auto t = std::make_shared<CompiledTemplate>();
    t->mode = CompiledTemplate::Mode::Error;
    t->error = e.what();
    t->errorOffset = e.offset();
    return t;
}

TemplatePtr compile(std::string_view text)
{
    auto tpl = std::make_shared<CompiledTemplate>();
    // Jinja's template body: each non-empty data chunk and each `${ }` is one node.
    int nodeCount = 0;
    bool onlyNodeIsText = false;
    std::string pending;
    bool stripNext = false;
    size_t i = 0;
    const Node* reusable = nullptr; // the `${ }` node when it is also the bare expression
    auto flushText = [&]() {
        if (!pending.empty()) {
            if (!tpl->parts.empty() && !tpl->parts.back().expr)
                tpl->parts.back().text += pending;
            else
                tpl->parts.push_back({std::move(pending), nullptr});
            pending.clear();
        }
    };
    auto addData = [&](std::string_view data, bool stripRight) {
        // CRLF and CR as LF, by the same rule as a Jinja source.
        std::string d = normalizeJinjaSource(data, true);
        if (stripNext) {
            size_t k = 0;
            while (k < d.size() && isAsciiSpace(d[k]))
                ++k;
            d.erase(0, k);
            stripNext = false;
        }
        if (stripRight)
            rstrip(d);
        if (!d.empty()) {
            ++nodeCount;
            onlyNodeIsText = nodeCount == 1;
            pending += d;
        }
    };
    // The next `${` and `{#` at or after i, searched again only once passed: searching both
    // from every i made a text with many `${ }` and no comment quadratic.
    size_t nextExpr = 0, nextComment = 0;
    auto nextFrom = [&](size_t& cached, const char* what) {
        if (cached != std::string_view::npos && cached < i)
            cached = text.find(what, i);
        return cached;
    };
    try {
        nextExpr = text.find("${");
        nextComment = text.find("{#");
        while (true) {
            size_t k = std::min(nextFrom(nextExpr, "${"), nextFrom(nextComment, "{#"));
            if (k == std::string_view::npos) {
                addData(text.substr(i), false);
                break;
            }
            if (text[k] == '{') { // a comment `{# ... #}`
                bool stripBefore = k + 2 < text.size() && text[k + 2] == '-';
                size_t end = text.find("#}", k + 2);
                if (end == std::string_view::npos)
                    throw SyntaxError("Missing end of comment tag", k);
                addData(text.substr(i, k - i), stripBefore);
                i = end + 2;
                if (end > k + 2 && text[end - 1] == '-')
                    stripNext = true;
                continue;
            }
            // `${`, optionally `${-` (strip whitespace before) or `${+`.
            size_t begin = k + 2;
            bool stripBefore = false;
            if (begin < text.size() && (text[begin] == '-' || text[begin] == '+')) {
                stripBefore = text[begin] == '-';
                ++begin;
            }
            addData(text.substr(i, k - i), stripBefore);
            stripNext = false;
            flushText();
            LexedExpression lexed = lexExpression(text, begin, true);
            NodePtr node = parseTemplateExpression(lexed);
            ++nodeCount;
            onlyNodeIsText = false;
            if (k == 0 && begin == 2 && !lexed.stripAfter && lexed.next == text.size() &&
                !hasTopLevelComma(lexed.tokens))
                reusable = node.get();
            tpl->parts.push_back({std::string(), std::move(node)});
            i = lexed.next;
            if (i >= text.size())
                break;
        }
        flushText();
        if (nodeCount == 1 && onlyNodeIsText) {
            tpl->mode = CompiledTemplate::Mode::Unchanged;
            tpl->parts.clear();
        } else if (nodeCount == 1 && text.size() >= 3 && text.substr(0, 2) == "${" &&
                   text.back() == '}') {
            tpl->mode = CompiledTemplate::Mode::Single;
            if (reusable) {
                // Same tokens as the bare expression: no whitespace control, no bare tuple.
                tpl->single = std::move(tpl->parts[0].expr);
            } else {
                // PDL re-parses the inside of the braces as one bare expression.
                LexedExpression lexed = lexExpression(text.substr(0, text.size() - 1), 2, false);
                tpl->single = parseBareExpression(lexed);
            }
            tpl->parts.clear();
        } else {
            tpl->mode = CompiledTemplate::Mode::Render;
        }
    } catch (const SyntaxError& e) {
        return errorTemplate(e);
    }
    return tpl;
}

struct Cache;

struct RecentSlot {
    const Cache* owner = nullptr;
    std::string text;
    TemplatePtr tpl;
};
constexpr size_t kRecentSlots = 64;
using RecentSlots = std::array<RecentSlot, kRecentSlots>;

// The thread's front-cache slots, made on its first evaluation and freed when it ends. Only a
// plain pointer is thread-local: reading it is one __tls_get_addr call, with no guard.
thread_local RecentSlots* t_recentSlots = nullptr;

struct RecentSlotsOwner {
    ~RecentSlotsOwner()
    {
        delete t_recentSlots;
        t_recentSlots = nullptr;
    }
};

RecentSlots& recentSlots()
{
    RecentSlots*& slots = t_recentSlots;
    if (!slots) [[unlikely]] {
        static thread_local RecentSlotsOwner owner;
        (void)owner; // constructed here: frees the slots when the thread ends
        slots = new RecentSlots;
    }
    return *slots;
}

struct Cache {
    static constexpr size_t kShards = 16;
    static constexpr size_t kMaxPerShard = 2048;
    // Long prompt templates are cached too, but bounded in bytes (64 MiB over all shards).
    static constexpr size_t kMaxBytesPerShard = size_t(4) << 20;

    struct Hash {
        using is_transparent = void;
        size_t operator()(std::string_view s) const { return std::hash<std::string_view>{}(s); }
    };
    struct Shard {
        std::mutex mutex;
        std::unordered_map<std::string, TemplatePtr, Hash, std::equal_to<>> map;
        size_t bytes = 0;
    };
    std::array<Shard, kShards> shards;

    TemplatePtr get(std::string_view text, TemplatePtr (*make)(std::string_view))
    {
        // A small per-thread front cache answers hot templates without taking a lock, and
        // without hashing their text: a program's strings stay where they are while it runs,
        // so the slot is chosen by the text's address and confirmed by comparing the text.
        // Entries are immutable and keyed by their text, so a stale entry is still a correct
        // one.
        RecentSlot& slot =
            recentSlots()[(reinterpret_cast<uintptr_t>(text.data()) >> 4) % kRecentSlots];
        if (slot.owner == this && slot.text == text)
            return slot.tpl;
        TemplatePtr tpl = getShared(text, Hash{}(text), make);
        if (text.size() <= 4096) {
            slot.owner = this;
            slot.text.assign(text);
            slot.tpl = tpl;
        }
        return tpl;
    }

    TemplatePtr getShared(std::string_view text, size_t h, TemplatePtr (*make)(std::string_view))
    {
        Shard& shard = shards[(h >> 7) % kShards];
        {
            std::lock_guard lock(shard.mutex);
            auto it = shard.map.find(text);
            if (it != shard.map.end())
                return it->second;
        }
        // Parse outside the lock; two threads may parse the same text, which is harmless.
        TemplatePtr tpl = make(text);
        std::lock_guard lock(shard.mutex);
        if (shard.map.size() >= kMaxPerShard || shard.bytes + text.size() > kMaxBytesPerShard) {
            shard.map.clear(); // crude but bounded; hot templates come back at once
            shard.bytes = 0;
        }
        if (shard.map.emplace(std::string(text), tpl).second)
            shard.bytes += text.size();
        return tpl;
    }
    void clear()
    {
        for (Shard& s : shards) {
            std::lock_guard lock(s.mutex);
            s.map.clear();
            s.bytes = 0;
        }
    }
};

Cache& templateCache()
{
    static Cache cache;
    return cache;
}

Cache& expressionCache()
{
    static Cache cache;
    return cache;
}

// Python's repr of a container in which Jinja's Undefined objects print as `Undefined`
// (Value::repr refuses undefined values).
void appendReprWithUndefined(std::string& out, const Value& v, int depth = 0)
{
    if (v.isUndefined()) {
        out += "Undefined";
    } else if (depth > 1000) {
        throw EvalError("value nested too deeply to print");
    } else if (v.isList()) {
        const List& items = v.asList();
        out += v.isTuple() ? '(' : '[';
        for (size_t i = 0; i < items.size(); ++i) {
            if (i > 0)
                out += ", ";
            appendReprWithUndefined(out, items[i], depth + 1);
        }
        if (v.isTuple() && items.size() == 1)
            out += ',';
        out += v.isTuple() ? ')' : ']';
    } else if (v.isDict()) {
        out += '{';
        bool first = true;
        for (const auto& [key, item] : v.asDict()) {
            if (!first)
                out += ", ";
            first = false;
            out += key.repr();
            out += ": ";
            appendReprWithUndefined(out, item, depth + 1);
        }
        out += '}';
    } else {
        out += v.repr();
    }
}

void collectNames(const Node* node, std::vector<std::pair<uint32_t, const std::string*>>& out)
{
    if (!node)
        return;
    if (node->kind == NodeKind::Name)
        out.emplace_back(node->pos, &node->name);
    for (const auto& c : node->children)
        collectNames(c.get(), out);
    for (const auto& c : node->args.positional)
        collectNames(c.get(), out);
    for (const auto& c : node->args.keyword)
        collectNames(c.get(), out);
    collectNames(node->args.starArgs.get(), out);
    collectNames(node->args.starKwargs.get(), out);
}

} // namespace

bool isPlainText(std::string_view text)
{
    for (size_t k = text.find('{'); k != std::string_view::npos; k = text.find('{', k + 1)) {
        if ((k > 0 && text[k - 1] == '$') || (k + 1 < text.size() && text[k + 1] == '#') ||
            text.substr(k, kPdlBlockStart.size()) == kPdlBlockStart)
            return false;
    }
    return true;
}

namespace {

// The reference's environment for PDL strings, as Jinja options.
const JinjaOptions& pdlStringJinja()
{
    static const JinjaOptions options = [] {
        JinjaOptions o;
        o.keepTrailingNewline = true;
        o.variableStart = "${";
        o.variableEnd = "}";
        o.blockStart = std::string(kPdlBlockStart);
        o.blockEnd = std::string(kPdlBlockEnd);
        return o;
    }();
    return options;
}

} // namespace

TemplatePtr compileTemplate(std::string_view text)
{
    if (text.find(kPdlBlockStart) == std::string_view::npos)
        return compile(text);
    auto tpl = std::make_shared<CompiledTemplate>();
    JinjaTemplatePtr jinja = compileJinja(text, pdlStringJinja());
    if (!jinja->error.empty()) {
        tpl->mode = CompiledTemplate::Mode::Error;
        tpl->error = jinja->error;
        tpl->errorOffset = jinja->errorOffset;
        return tpl;
    }
    tpl->mode = CompiledTemplate::Mode::Jinja;
    tpl->jinja = std::move(jinja);
    return tpl;
}

TemplatePtr compileExpression(std::string_view text)
{
    try {
        auto tpl = std::make_shared<CompiledTemplate>();
        tpl->mode = CompiledTemplate::Mode::Single;
        tpl->single = parseBareExpression(lexExpression(text, 0, false));
        return tpl;
    } catch (const SyntaxError& e) {
        return errorTemplate(e);
    }
}

TemplatePtr cachedTemplate(std::string_view text)
{
    return templateCache().get(text, &compileTemplate);
}

TemplatePtr cachedExpression(std::string_view text)
{
    return expressionCache().get(text, &compileExpression);
}

void clearTemplateCache()
{
    templateCache().clear();
    expressionCache().clear();
}

Value runTemplate(const CompiledTemplate& tpl, std::string_view source, EvalContext& ctx)
{
    switch (tpl.mode) {
    case CompiledTemplate::Mode::Unchanged:
        return Value(source);
    case CompiledTemplate::Mode::Single: {
        Value v = evaluate(*tpl.single, ctx);
        // Like Jinja, undefined values nested in lists and dicts are returned as they are
        // (Value::json() makes them null); only an undefined result is an error.
        if (v.isUndefined()) {
            ctx.at = tpl.single->pos;
            throw EvalError(undefinedMessage(v));
        }
        return v;
    }
    case CompiledTemplate::Mode::Render: {
        std::string out;
        for (const auto& part : tpl.parts) {
            if (!part.expr) {
                out += part.text;
                continue;
            }
            Value v = evaluate(*part.expr, ctx);
            if (v.isUndefined()) {
                // Jinja renders the plain Undefined of an if-expression without else as
                // nothing; the strict ones are errors.
                if (v.undefinedName() == kMissingElse)
                    continue;
                ctx.at = part.expr->pos;
                throw EvalError(undefinedMessage(v));
            }
            ctx.at = part.expr->pos;
            if (v.isString()) {
                out += v.asString();
            } else if (v.isInt()) {
                // Python's str() of an int, written in place (`${ i }` in a loop's text).
                char digits[24];
                const auto [end, ec] = std::to_chars(digits, digits + sizeof digits, v.asInt());
                out.append(digits, end);
            } else if (ctx.mayHoldUndefined && findUndefined(v))
                appendReprWithUndefined(out, v);
            else
                out += v.str();
        }
        return Value(std::move(out));
    }
    case CompiledTemplate::Mode::Jinja:
        return Value(renderCompiledJinja(*tpl.jinja, ctx, pdlStringJinja()));
    case CompiledTemplate::Mode::Error:
        break;
    }
    throw EvalError(tpl.error);
}

std::vector<std::string> freeVariables(const CompiledTemplate& tpl)
{
    std::vector<std::pair<uint32_t, const std::string*>> names;
    collectNames(tpl.single.get(), names);
    for (const auto& p : tpl.parts)
        collectNames(p.expr.get(), names);
    std::stable_sort(names.begin(), names.end(),
                     [](const auto& a, const auto& b) { return a.first < b.first; });
    std::vector<std::string> out;
    for (const auto& [pos, name] : names) {
        if (std::find(out.begin(), out.end(), *name) != out.end())
            continue;
        if (builtins::findGlobal(*name))
            continue;
        out.push_back(*name);
    }
    return out;
}

} // namespace hako::pdl::expr
