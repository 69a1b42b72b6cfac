#include "core/pdl/expr/parser.h"

#include <algorithm>

namespace hako::pdl::expr {

namespace {

// The levels of left-associative binary operators, loosest first, as Jinja binds them; `not`
// and the comparisons sit between `and` and `+`/`-` (parseNot), unary signs below `**`.
enum class Level { Or, And, Sum, Concat, Product, Power };

struct BinaryOperator {
    std::string_view token;
    bool isName; ///< a word (`or`) rather than a symbol
    NodeKind kind;
    Op op;
};

// The operators of one level. `or`/`and` nodes carry no operator of their own (Op::Add unused).
const std::vector<BinaryOperator>& operatorsOf(Level level)
{
    static const std::vector<BinaryOperator> levels[] = {
        {{"or", true, NodeKind::Or, Op::Add}},
        {{"and", true, NodeKind::And, Op::Add}},
        {{"+", false, NodeKind::Binary, Op::Add}, {"-", false, NodeKind::Binary, Op::Sub}},
        {{"~", false, NodeKind::Binary, Op::Concat}},
        {{"*", false, NodeKind::Binary, Op::Mul},
         {"/", false, NodeKind::Binary, Op::Div},
         {"//", false, NodeKind::Binary, Op::FloorDiv},
         {"%", false, NodeKind::Binary, Op::Mod}},
        // Jinja's `**` is left-associative and binds looser than unary minus: -2**2 == 4.
        {{"**", false, NodeKind::Binary, Op::Pow}},
    };
    return levels[int(level)];
}

class Parser {
public:
    explicit Parser(const std::vector<Token>& tokens) : m_tokens(tokens) {}

    NodePtr parseTuple(bool explicitParens);
    NodePtr parseExpression() { return parseCondExpr(); }

    const Token& current() const { return m_tokens[m_index]; }
    const Token& look() const { return m_tokens[std::min(m_index + 1, m_tokens.size() - 1)]; }
    bool atEnd() const { return current().type == Tok::End || current().type == Tok::Eof; }

    [[noreturn]] void fail(const std::string& message, const Token& at) const
    {
        throw SyntaxError(message, at.pos);
    }
    [[noreturn]] void failUnexpected() const
    {
        const Token& t = current();
        fail("unexpected '" + describeToken(t) + "'", t);
    }

private:
    struct DepthGuard {
        explicit DepthGuard(Parser& p, const Token& at) : parser(p)
        {
            if (++parser.m_depth > kMaxNesting)
                parser.fail("expression nested too deeply", at);
        }
        ~DepthGuard() { --parser.m_depth; }
        Parser& parser;
    };

    void advance()
    {
        if (m_index + 1 < m_tokens.size())
            ++m_index;
    }
    const Token& expectOp(std::string_view op)
    {
        if (!current().isOp(op)) {
            if (current().type == Tok::Eof)
                fail("unexpected end of template, expected '" + std::string(op) + "'.", current());
            fail("expected token '" + std::string(op) + "', got '" + describeToken(current()) + "'",
                 current());
        }
        const Token& t = current();
        advance();
        return t;
    }
    const Token& expectName()
    {
        if (current().type != Tok::Name)
            fail("expected token 'name', got '" + describeToken(current()) + "'", current());
        const Token& t = current();
        advance();
        return t;
    }

    NodePtr make(NodeKind kind, uint32_t pos)
    {
        auto n = std::make_unique<Node>();
        n->kind = kind;
        n->pos = pos;
        return n;
    }
    // Appends a child, keeping the tree height bounded so evaluation recursion is too.
    void adopt(Node& parent, NodePtr child)
    {
        if (child) {
            parent.depth = std::max(parent.depth, child->depth + 1);
            if (parent.depth > kMaxTreeDepth)
                throw SyntaxError("expression nested too deeply", parent.pos);
        }
        parent.children.push_back(std::move(child));
    }
    void adoptArgs(Node& parent)
    {
        auto bump = [&](const NodePtr& n) {
            if (n)
                parent.depth = std::max(parent.depth, n->depth + 1);
        };
        for (auto& n : parent.args.positional)
            bump(n);
        for (auto& n : parent.args.keyword)
            bump(n);
        bump(parent.args.starArgs);
        bump(parent.args.starKwargs);
        if (parent.depth > kMaxTreeDepth)
            throw SyntaxError("expression nested too deeply", parent.pos);
    }

    NodePtr parseCondExpr();
    NodePtr parseLevel(Level level);
    NodePtr parseOperand(Level level);
    const BinaryOperator* operatorAt(Level level) const;
    NodePtr parseNot();
    NodePtr parseCompare();
    NodePtr parseUnary(bool withFilter);
    NodePtr parsePrimary();
    NodePtr parsePostfix(NodePtr node);
    NodePtr parseCall(NodePtr node);
    NodePtr parseFilterExpr(NodePtr node);
    NodePtr parseSubscript(NodePtr node);
    NodePtr parseSubscribed();
    NodePtr parseDisplay(NodeKind kind, std::string_view open, std::string_view close);
    NodePtr parseFilter(NodePtr node);
    NodePtr parseTest(NodePtr node);
    void parseCallArgs(ArgNodes& args);
    NodePtr binary(NodeKind kind, Op op, NodePtr left, NodePtr right, uint32_t pos);
    static NodePtr foldSequence(NodePtr node);

    const std::vector<Token>& m_tokens;
    size_t m_index = 0;
    int m_depth = 0;
};

NodePtr Parser::binary(NodeKind kind, Op op, NodePtr left, NodePtr right, uint32_t pos)
{
    NodePtr n = make(kind, pos);
    n->op = op;
    adopt(*n, std::move(left));
    adopt(*n, std::move(right));
    return n;
}

NodePtr Parser::parseTuple(bool explicitParens)
{
    uint32_t pos = current().pos;
    std::vector<NodePtr> items;
    bool isTuple = false;
    while (true) {
        if (!items.empty())
            expectOp(",");
        if (atEnd() || current().isOp(")"))
            break;
        items.push_back(parseExpression());
        if (current().isOp(","))
            isTuple = true;
        else
            break;
    }
    if (!isTuple) {
        if (!items.empty())
            return std::move(items[0]);
        if (!explicitParens)
            fail("Expected an expression, got '" + describeToken(current()) + "'", current());
    }
    NodePtr n = make(NodeKind::Tuple, pos);
    for (auto& item : items)
        adopt(*n, std::move(item));
    return foldSequence(std::move(n));
}

NodePtr Parser::parseCondExpr()
{
    NodePtr expr1 = parseLevel(Level::Or);
    while (current().isName("if")) {
        uint32_t pos = current().pos;
        advance();
        NodePtr test = parseLevel(Level::Or);
        NodePtr otherwise;
        if (current().isName("else")) {
            advance();
            DepthGuard guard(*this, current());
            otherwise = parseCondExpr();
        }
        NodePtr n = make(NodeKind::CondExpr, pos);
        adopt(*n, std::move(test));
        adopt(*n, std::move(expr1));
        if (otherwise)
            adopt(*n, std::move(otherwise));
        expr1 = std::move(n);
    }
    return expr1;
}

// A run of operands joined by the operators of one level, grouped from the left.
NodePtr Parser::parseLevel(Level level)
{
    NodePtr left = parseOperand(level);
    while (const BinaryOperator* o = operatorAt(level)) {
        const uint32_t pos = current().pos;
        advance();
        left = binary(o->kind, o->op, std::move(left), parseOperand(level), pos);
    }
    return left;
}

// What the operators of `level` join: the next tighter level.
NodePtr Parser::parseOperand(Level level)
{
    switch (level) {
    case Level::And:
        return parseNot();
    case Level::Power:
        return parseUnary(true);
    default:
        return parseLevel(Level(int(level) + 1));
    }
}

const BinaryOperator* Parser::operatorAt(Level level) const
{
    const Token& t = current();
    for (const BinaryOperator& o : operatorsOf(level)) {
        if (o.isName ? t.isName(o.token) : t.isOp(o.token))
            return &o;
    }
    return nullptr;
}

NodePtr Parser::parseNot()
{
    if (current().isName("not")) {
        DepthGuard guard(*this, current());
        uint32_t pos = current().pos;
        advance();
        NodePtr n = make(NodeKind::Not, pos);
        adopt(*n, parseNot());
        return n;
    }
    return parseCompare();
}

NodePtr Parser::parseCompare()
{
    NodePtr first = parseLevel(Level::Sum);
    NodePtr n;
    while (true) {
        const Token& t = current();
        Op op;
        if (t.isOp("=="))
            op = Op::Eq;
        else if (t.isOp("!="))
            op = Op::Ne;
        else if (t.isOp("<"))
            op = Op::Lt;
        else if (t.isOp("<="))
            op = Op::Le;
        else if (t.isOp(">"))
            op = Op::Gt;
        else if (t.isOp(">="))
            op = Op::Ge;
        else if (t.isName("in"))
            op = Op::In;
        else if (t.isName("not") && look().isName("in"))
            op = Op::NotIn;
        else
            break;
        if (!n) {
            n = make(NodeKind::Compare, t.pos);
            adopt(*n, std::move(first));
        }
        advance();
        if (op == Op::NotIn)
            advance();
        n->compareOps.push_back(op);
        adopt(*n, parseLevel(Level::Sum));
    }
    return n ? std::move(n) : std::move(first);
}

NodePtr Parser::parseUnary(bool withFilter)
{
    NodePtr node;
    if (current().isOp("-") || current().isOp("+")) {
        DepthGuard guard(*this, current());
        Op op = current().isOp("-") ? Op::Neg : Op::Pos;
        uint32_t pos = current().pos;
        advance();
        NodePtr operand = parseUnary(false);
        if (operand->kind == NodeKind::Const && op == Op::Neg &&
            (operand->value.isInt() || operand->value.isFloat())) {
            // Fold negative literals; a literal is at most INT64_MAX so negation cannot overflow.
            operand->value = operand->value.isInt() ? Value(-operand->value.asInt())
                                                    : Value(-operand->value.asFloat());
            operand->pos = pos;
            node = std::move(operand);
        } else {
            node = make(NodeKind::Unary, pos);
            node->op = op;
            adopt(*node, std::move(operand));
        }
    } else {
        node = parsePrimary();
    }
    node = parsePostfix(std::move(node));
    if (withFilter)
        node = parseFilterExpr(std::move(node));
    return node;
}

NodePtr Parser::parsePrimary()
{
    const Token& t = current();
    switch (t.type) {
    case Tok::Name: {
        advance();
        if (t.text == "true" || t.text == "True" || t.text == "false" || t.text == "False") {
            NodePtr n = make(NodeKind::Const, t.pos);
            n->value = Value(t.text[0] == 't' || t.text[0] == 'T');
            return n;
        }
        if (t.text == "none" || t.text == "None")
            return make(NodeKind::Const, t.pos);
        NodePtr n = make(NodeKind::Name, t.pos);
        n->name = std::string(t.text);
        return n;
    }
    case Tok::String: {
        // Adjacent string literals concatenate, as in Python.
        std::string s = t.value.asString();
        advance();
        while (current().type == Tok::String) {
            s += current().value.asString();
            advance();
        }
        NodePtr n = make(NodeKind::Const, t.pos);
        n->value = Value(std::move(s));
        return n;
    }
    case Tok::Int:
    case Tok::Float: {
        advance();
        NodePtr n = make(NodeKind::Const, t.pos);
        n->value = t.value;
        return n;
    }
    case Tok::Operator:
        if (t.text == "(") {
            DepthGuard guard(*this, t);
            advance();
            NodePtr n = parseTuple(true);
            expectOp(")");
            return n;
        }
        if (t.text == "[") {
            DepthGuard guard(*this, t);
            return parseDisplay(NodeKind::List, "[", "]");
        }
        if (t.text == "{") {
            DepthGuard guard(*this, t);
            return parseDisplay(NodeKind::Dict, "{", "}");
        }
        break;
    default:
        break;
    }
    failUnexpected();
}

NodePtr Parser::foldSequence(NodePtr node)
{
    // A literal made only of constants becomes one constant: no allocation per evaluation.
    for (const auto& c : node->children)
        if (c->kind != NodeKind::Const)
            return node;
    if (node->kind == NodeKind::Dict) {
        for (size_t i = 0; i < node->children.size(); i += 2)
            if (!node->children[i]->value.isHashable())
                return node;
        Dict d;
        for (size_t i = 0; i < node->children.size(); i += 2)
            d.set(node->children[i]->value, node->children[i + 1]->value);
        node->value = Value(std::move(d));
    } else {
        List items;
        items.reserve(node->children.size());
        for (const auto& c : node->children)
            items.push_back(c->value);
        node->value = Value(std::move(items), node->kind == NodeKind::Tuple);
    }
    node->kind = NodeKind::Const;
    node->children.clear();
    return node;
}

// A list `[a, b]` or a dict `{k: v}` literal: items separated by commas, one trailing comma
// allowed as in Jinja; a dict's items are `key: value` pairs, kept as two children each.
NodePtr Parser::parseDisplay(NodeKind kind, std::string_view open, std::string_view close)
{
    NodePtr n = make(kind, current().pos);
    expectOp(open);
    while (!current().isOp(close)) {
        if (!n->children.empty())
            expectOp(",");
        if (current().isOp(close))
            break;
        adopt(*n, parseExpression());
        if (kind == NodeKind::Dict) {
            expectOp(":");
            adopt(*n, parseExpression());
        }
    }
    expectOp(close);
    return foldSequence(std::move(n));
}

// `node(args…)`: a call of what was parsed so far.
NodePtr Parser::parseCall(NodePtr node)
{
    NodePtr call = make(NodeKind::Call, node->pos);
    adopt(*call, std::move(node));
    parseCallArgs(call->args);
    adoptArgs(*call);
    return call;
}

NodePtr Parser::parsePostfix(NodePtr node)
{
    while (true) {
        if (current().isOp(".") || current().isOp("["))
            node = parseSubscript(std::move(node));
        else if (current().isOp("("))
            node = parseCall(std::move(node));
        else
            break;
    }
    return node;
}

NodePtr Parser::parseFilterExpr(NodePtr node)
{
    while (true) {
        if (current().isOp("|"))
            node = parseFilter(std::move(node));
        else if (current().isName("is"))
            node = parseTest(std::move(node));
        else if (current().isOp("("))
            node = parseCall(std::move(node));
        else
            break;
    }
    return node;
}

NodePtr Parser::parseSubscript(NodePtr node)
{
    const Token& t = current();
    advance();
    if (t.text == ".") {
        const Token& attr = current();
        if (attr.type == Tok::Name) {
            advance();
            NodePtr n = make(NodeKind::Attr, attr.pos);
            n->name = std::string(attr.text);
            adopt(*n, std::move(node));
            return n;
        }
        if (attr.type != Tok::Int)
            fail("expected name or number", attr);
        advance();
        NodePtr n = make(NodeKind::Item, attr.pos);
        adopt(*n, std::move(node));
        NodePtr key = make(NodeKind::Const, attr.pos);
        key->value = attr.value;
        adopt(*n, std::move(key));
        return n;
    }
    DepthGuard guard(*this, t);
    std::vector<NodePtr> args;
    while (!current().isOp("]")) {
        if (!args.empty())
            expectOp(",");
        args.push_back(parseSubscribed());
    }
    expectOp("]");
    if (args.empty())
        fail("expected an index", t);
    if (args.size() == 1 && args[0]->kind == NodeKind::Slice) {
        NodePtr slice = std::move(args[0]);
        slice->children[0] = std::move(node);
        slice->depth = 1;
        for (auto& c : slice->children)
            if (c)
                slice->depth = std::max(slice->depth, c->depth + 1);
        if (slice->depth > kMaxTreeDepth)
            fail("expression nested too deeply", t);
        return slice;
    }
    NodePtr key;
    if (args.size() == 1) {
        key = std::move(args[0]);
    } else {
        key = make(NodeKind::Tuple, t.pos);
        for (auto& a : args) {
            if (a->kind == NodeKind::Slice)
                fail("slices inside a tuple subscript are not supported", t);
            adopt(*key, std::move(a));
        }
        key = foldSequence(std::move(key));
    }
    NodePtr n = make(NodeKind::Item, t.pos);
    adopt(*n, std::move(node));
    adopt(*n, std::move(key));
    return n;
}

NodePtr Parser::parseSubscribed()
{
    uint32_t pos = current().pos;
    NodePtr start;
    if (current().isOp(":")) {
        advance();
    } else {
        start = parseExpression();
        if (!current().isOp(":"))
            return start;
        advance();
    }
    NodePtr slice = make(NodeKind::Slice, pos);
    slice->children.push_back(nullptr); // the sliced object, filled in by parseSubscript
    NodePtr stop;
    NodePtr step;
    if (!current().isOp(":") && !current().isOp("]") && !current().isOp(","))
        stop = parseExpression();
    if (current().isOp(":")) {
        advance();
        if (!current().isOp("]") && !current().isOp(","))
            step = parseExpression();
    }
    slice->children.push_back(std::move(start));
    slice->children.push_back(std::move(stop));
    slice->children.push_back(std::move(step));
    return slice;
}

void Parser::parseCallArgs(ArgNodes& args)
{
    const Token& open = expectOp("(");
    DepthGuard guard(*this, open);
    bool requireComma = false;
    auto ensure = [&](bool ok) {
        if (!ok)
            fail("invalid syntax for function call expression", current());
    };
    while (!current().isOp(")")) {
        if (requireComma) {
            expectOp(",");
            if (current().isOp(")"))
                break;
        }
        if (current().isOp("*")) {
            ensure(!args.starArgs && !args.starKwargs);
            advance();
            args.starArgs = parseExpression();
        } else if (current().isOp("**")) {
            ensure(!args.starKwargs);
            advance();
            args.starKwargs = parseExpression();
        } else if (current().type == Tok::Name && look().isOp("=")) {
            ensure(!args.starKwargs);
            args.keywordNames.emplace_back(current().text);
            advance();
            advance();
            args.keyword.push_back(parseExpression());
        } else {
            ensure(!args.starArgs && !args.starKwargs && args.keyword.empty());
            args.positional.push_back(parseExpression());
        }
        requireComma = true;
    }
    expectOp(")");
}

NodePtr Parser::parseFilter(NodePtr node)
{
    while (current().isOp("|")) {
        advance();
        const Token& nameTok = expectName();
        std::string name(nameTok.text);
        while (current().isOp(".")) {
            advance();
            name += '.';
            name += expectName().text;
        }
        NodePtr n = make(NodeKind::Filter, nameTok.pos);
        n->filter = builtins::findFilter(name);
        if (!n->filter)
            fail("No filter named '" + name + "'.", nameTok);
        n->acceptsUndefined = builtins::filterAcceptsUndefined(name);
        n->name = std::move(name);
        adopt(*n, std::move(node));
        if (current().isOp("("))
            parseCallArgs(n->args);
        adoptArgs(*n);
        node = std::move(n);
    }
    return node;
}

NodePtr Parser::parseTest(NodePtr node)
{
    advance(); // `is`
    bool negated = false;
    if (current().isName("not")) {
        advance();
        negated = true;
    }
    const Token& nameTok = expectName();
    std::string name(nameTok.text);
    while (current().isOp(".")) {
        advance();
        name += '.';
        name += expectName().text;
    }
    NodePtr n = make(NodeKind::Test, nameTok.pos);
    n->negated = negated;
    n->test = builtins::findTest(name);
    if (!n->test)
        fail("No test named '" + name + "'.", nameTok);
    n->acceptsUndefined = builtins::testAcceptsUndefined(name);
    n->name = std::move(name);
    adopt(*n, std::move(node));
    const Token& t = current();
    if (t.isOp("(")) {
        parseCallArgs(n->args);
    } else if ((t.type == Tok::Name || t.type == Tok::String || t.type == Tok::Int ||
                t.type == Tok::Float || t.isOp("(") || t.isOp("[") || t.isOp("{")) &&
               !t.isName("else") && !t.isName("or") && !t.isName("and")) {
        if (t.isName("is"))
            fail("You cannot chain multiple tests with is", t);
        NodePtr arg = parsePrimary();
        n->args.positional.push_back(parsePostfix(std::move(arg)));
    }
    adoptArgs(*n);
    return n;
}

} // namespace

NodePtr parseTemplateExpression(const LexedExpression& lexed)
{
    Parser p(lexed.tokens);
    if (p.current().type == Tok::Eof)
        p.failUnexpected();
    NodePtr node = p.parseTuple(false);
    if (!p.atEnd())
        p.fail("expected token 'end of print statement', got '" + describeToken(p.current()) + "'",
               p.current());
    if (p.current().type == Tok::Eof)
        p.fail("unexpected end of template, expected 'end of print statement'.", p.current());
    return node;
}

NodePtr parseBareExpression(const LexedExpression& lexed)
{
    Parser p(lexed.tokens);
    NodePtr node = p.parseExpression();
    if (p.current().type != Tok::Eof)
        p.fail("chunk after expression", p.current());
    return node;
}

} // namespace hako::pdl::expr
