#include "core/pdl/expr/operators.h"

#include <cmath>
#include <optional>
#include <string>

namespace hako::pdl::expr {

namespace {

const char* opSymbol(Op op)
{
    switch (op) {
    case Op::Add:
        return "+";
    case Op::Sub:
        return "-";
    case Op::Mul:
        return "*";
    case Op::Div:
        return "/";
    case Op::FloorDiv:
        return "//";
    case Op::Mod:
        return "%";
    case Op::Pow:
        return "** or pow()";
    case Op::Concat:
        return "~";
    case Op::Lt:
        return "<";
    case Op::Le:
        return "<=";
    case Op::Gt:
        return ">";
    case Op::Ge:
        return ">=";
    default:
        return "?";
    }
}

[[noreturn]] void unsupported(Op op, const Value& a, const Value& b)
{
    throw EvalError(std::string("unsupported operand type(s) for ") + opSymbol(op) + ": '" +
                    a.typeName() + "' and '" + b.typeName() + "'");
}

[[noreturn]] void overflow()
{
    throw EvalError("integer overflow: the result does not fit in 64 bits");
}

// Python treats bool as an int subclass in arithmetic.
bool isIntLike(const Value& v)
{
    return v.isInt() || v.isBool();
}
int64_t intOf(const Value& v)
{
    return v.isBool() ? (v.asBool() ? 1 : 0) : v.asInt();
}
bool isNumeric(const Value& v)
{
    return v.isNumber() || v.isBool();
}

int64_t floorDiv(int64_t a, int64_t b)
{
    if (b == 0)
        throw EvalError("integer division or modulo by zero");
    if (a == INT64_MIN && b == -1)
        overflow();
    int64_t q = a / b;
    if ((a % b != 0) && ((a < 0) != (b < 0)))
        --q;
    return q;
}

int64_t floorMod(int64_t a, int64_t b)
{
    if (b == 0)
        throw EvalError("integer modulo by zero");
    if (b == -1)
        return 0;
    int64_t r = a % b;
    if (r != 0 && ((r < 0) != (b < 0)))
        r += b;
    return r;
}

// CPython's float divmod, so that signs and rounding match Python exactly.
void floatDivMod(double vx, double wx, double& floordiv, double& mod)
{
    mod = std::fmod(vx, wx);
    double div = (vx - mod) / wx;
    if (mod != 0.0) {
        if ((wx < 0) != (mod < 0)) {
            mod += wx;
            div -= 1.0;
        }
    } else {
        mod = std::copysign(0.0, wx);
    }
    if (div != 0.0) {
        floordiv = std::floor(div);
        if (div - floordiv > 0.5)
            floordiv += 1.0;
    } else {
        floordiv = std::copysign(0.0, vx / wx);
    }
}

Value intPow(int64_t base, int64_t exp)
{
    if (exp < 0) {
        if (base == 0)
            throw EvalError("0.0 cannot be raised to a negative power");
        return Value(std::pow(static_cast<double>(base), static_cast<double>(exp)));
    }
    int64_t result = 1;
    int64_t b = base;
    while (exp > 0) {
        if (exp & 1) {
            if (__builtin_mul_overflow(result, b, &result))
                overflow();
        }
        exp >>= 1;
        if (exp > 0 && __builtin_mul_overflow(b, b, &b))
            overflow();
    }
    return Value(result);
}

Value floatPow(double a, double b)
{
    if (a == 0.0 && b < 0)
        throw EvalError("0.0 cannot be raised to a negative power");
    if (a < 0 && std::isfinite(b) && std::floor(b) != b)
        throw EvalError("complex results are not supported (negative number raised to a "
                        "fractional power)");
    double r = std::pow(a, b);
    if (std::isinf(r) && std::isfinite(a) && std::isfinite(b))
        throw EvalError("(34, 'Numerical result out of range')");
    return Value(r);
}

Value repeat(const Value& seq, int64_t n)
{
    if (n <= 0)
        return seq.isString() ? Value(std::string()) : Value(List{}, seq.isTuple());
    if (seq.isString()) {
        const std::string& s = seq.asString();
        if (!s.empty() && n > kMaxResultSize / static_cast<int64_t>(s.size()))
            throw EvalError("repetition result too large");
        std::string out;
        out.reserve(s.size() * static_cast<size_t>(n));
        for (int64_t i = 0; i < n; ++i)
            out += s;
        return Value(std::move(out));
    }
    const List& items = seq.asList();
    if (!items.empty() && n > kMaxResultSize / static_cast<int64_t>(items.size() * 16))
        throw EvalError("repetition result too large");
    List out;
    out.reserve(items.size() * static_cast<size_t>(n));
    for (int64_t i = 0; i < n; ++i)
        out.insert(out.end(), items.begin(), items.end());
    return Value(std::move(out), seq.isTuple());
}

Value add(const Value& a, const Value& b)
{
    if (a.isString() && b.isString()) {
        const std::string& x = a.asString();
        const std::string& y = b.asString();
        std::string out;
        out.reserve(x.size() + y.size());
        out += x;
        out += y;
        return Value(std::move(out));
    }
    if (a.isList() && b.isList() && a.isTuple() == b.isTuple()) {
        List out = a.asList();
        const List& y = b.asList();
        out.insert(out.end(), y.begin(), y.end());
        return Value(std::move(out), a.isTuple());
    }
    if (a.isString() && !b.isString())
        throw EvalError(std::string("can only concatenate str (not \"") + b.typeName() +
                        "\") to str");
    if (a.isList() && !a.isTuple())
        throw EvalError(std::string("can only concatenate list (not \"") + b.typeName() +
                        "\") to list");
    if (a.isTuple())
        throw EvalError(std::string("can only concatenate tuple (not \"") + b.typeName() +
                        "\") to tuple");
    unsupported(Op::Add, a, b);
}

// `x op y` into `*r` for +, - and * (an OverflowError past int64, as Python's ints would need
// more); false for any other operator.
inline bool checkedIntOp(Op op, int64_t x, int64_t y, int64_t* r)
{
    bool over = false;
    switch (op) {
    case Op::Add:
        over = __builtin_add_overflow(x, y, r);
        break;
    case Op::Sub:
        over = __builtin_sub_overflow(x, y, r);
        break;
    case Op::Mul:
        over = __builtin_mul_overflow(x, y, r);
        break;
    default:
        return false;
    }
    if (over)
        overflow();
    return true;
}

} // namespace

Value binaryOp(Op op, const Value& a, const Value& b)
{
    // The common case first, before any other test: two ints added, subtracted or multiplied.
    if (int64_t r; a.isInt() && b.isInt() && checkedIntOp(op, a.asInt(), b.asInt(), &r))
        return Value(r);
    if (op == Op::Concat) {
        std::string out = a.isString() ? a.asString() : a.str();
        out += b.isString() ? b.asString() : b.str();
        return Value(std::move(out));
    }
    if (isNumeric(a) && isNumeric(b)) {
        if (isIntLike(a) && isIntLike(b)) {
            int64_t x = intOf(a);
            int64_t y = intOf(b);
            if (int64_t r; checkedIntOp(op, x, y, &r))
                return Value(r);
            switch (op) {
            case Op::Div:
                if (y == 0)
                    throw EvalError("division by zero");
                return Value(static_cast<double>(x) / static_cast<double>(y));
            case Op::FloorDiv:
                return Value(floorDiv(x, y));
            case Op::Mod:
                return Value(floorMod(x, y));
            case Op::Pow:
                return intPow(x, y);
            default:
                break;
            }
        }
        double x = a.toDouble();
        double y = b.toDouble();
        switch (op) {
        case Op::Add:
            return Value(x + y);
        case Op::Sub:
            return Value(x - y);
        case Op::Mul:
            return Value(x * y);
        case Op::Div:
            if (y == 0)
                throw EvalError("float division by zero");
            return Value(x / y);
        case Op::FloorDiv:
        case Op::Mod: {
            if (y == 0)
                throw EvalError(op == Op::Mod ? "float modulo" : "float floor division by zero");
            double q;
            double m;
            floatDivMod(x, y, q, m);
            return Value(op == Op::Mod ? m : q);
        }
        case Op::Pow:
            return floatPow(x, y);
        default:
            break;
        }
    }
    switch (op) {
    case Op::Add:
        return add(a, b);
    case Op::Mul:
        if ((a.isString() || a.isList()) && isIntLike(b))
            return repeat(a, intOf(b));
        if (isIntLike(a) && (b.isString() || b.isList()))
            return repeat(b, intOf(a));
        if (a.isString() || b.isString())
            throw EvalError(std::string("can't multiply sequence by non-int of type '") +
                            (a.isString() ? b.typeName() : a.typeName()) + "'");
        break;
    case Op::Mod:
        if (a.isString())
            return Value(builtins::percentFormat(a.asString(), b));
        break;
    default:
        break;
    }
    unsupported(op, a, b);
}

Value unaryOp(Op op, const Value& a)
{
    if (a.isInt()) {
        if (op == Op::Pos)
            return a;
        if (a.asInt() == INT64_MIN)
            overflow();
        return Value(-a.asInt());
    }
    if (a.isBool())
        return Value(op == Op::Neg ? -intOf(a) : intOf(a));
    if (a.isFloat())
        return op == Op::Neg ? Value(-a.asFloat()) : a;
    throw EvalError(std::string("bad operand type for unary ") + (op == Op::Neg ? "-" : "+") +
                    ": '" + a.typeName() + "'");
}

namespace {

bool contains(const Value& container, const Value& item)
{
    if (container.isString()) {
        if (!item.isString())
            throw EvalError(std::string("'in <string>' requires string as left operand, not ") +
                            item.typeName());
        return container.asString().find(item.asString()) != std::string::npos;
    }
    if (container.isList()) {
        for (const Value& v : container.asList())
            if (v == item)
                return true;
        return false;
    }
    if (container.isDict()) {
        if (!item.isHashable())
            throw EvalError(std::string("unhashable type: '") + item.typeName() + "'");
        return container.asDict().contains(item);
    }
    throw EvalError(std::string("argument of type '") + container.typeName() + "' is not iterable");
}

// An ordering or equality operator on two numbers of one type; nullopt for other operators.
template <typename Number> std::optional<bool> compareNumbers(Op op, Number x, Number y)
{
    switch (op) {
    case Op::Eq:
        return x == y;
    case Op::Ne:
        return x != y;
    case Op::Lt:
        return x < y;
    case Op::Le:
        return x <= y;
    case Op::Gt:
        return x > y;
    case Op::Ge:
        return x >= y;
    default:
        return std::nullopt;
    }
}

} // namespace

bool compareOp(Op op, const Value& a, const Value& b)
{
    if (isNumeric(a) && isNumeric(b)) {
        if (isIntLike(a) && isIntLike(b)) {
            if (const std::optional<bool> r = compareNumbers(op, intOf(a), intOf(b)))
                return *r;
        } else if (const std::optional<bool> r = compareNumbers(op, a.toDouble(), b.toDouble())) {
            return *r;
        }
    }
    switch (op) {
    case Op::Eq:
        return a == b;
    case Op::Ne:
        return a != b;
    case Op::In:
        return contains(b, a);
    case Op::NotIn:
        return !contains(b, a);
    default:
        break;
    }
    bool orderable =
        (a.isString() && b.isString()) || (a.isList() && b.isList() && a.isTuple() == b.isTuple());
    if (!orderable)
        throw EvalError(std::string("'") + opSymbol(op) + "' not supported between instances of '" +
                        a.typeName() + "' and '" + b.typeName() + "'");
    switch (op) {
    case Op::Lt:
        return Value::less(a, b);
    case Op::Le:
        return !Value::less(b, a);
    case Op::Gt:
        return Value::less(b, a);
    case Op::Ge:
        return !Value::less(a, b);
    default:
        return false;
    }
}

} // namespace hako::pdl::expr
