// Python's str.format: replacement fields, conversions, nested specs, field access.

#include "core/pdl/expr/builtins_p.h"

#include <algorithm>
#include <cstdio>

namespace hako::pdl::builtins {

using namespace detail;

// --- str.format ----------------------------------------------------------------------------

namespace {

struct FormatState {
    const CallArgs& args;
    int autoIndex = 0;
    bool manual = false;
    bool automatic = false;
};

// Python ascii(): repr with non-ASCII code points escaped.
std::string asciiRepr(const Value& v)
{
    std::string out;
    char buf[16];
    for (char32_t c : u32(v.repr())) {
        if (c < 0x80) {
            out.push_back(static_cast<char>(c));
            continue;
        }
        if (c <= 0xff)
            std::snprintf(buf, sizeof buf, "\\x%02x", static_cast<unsigned>(c));
        else if (c <= 0xffff)
            std::snprintf(buf, sizeof buf, "\\u%04x", static_cast<unsigned>(c));
        else
            std::snprintf(buf, sizeof buf, "\\U%08x", static_cast<unsigned>(c));
        out += buf;
    }
    return out;
}

Value resolveField(std::string_view field, FormatState& st)
{
    size_t end = field.find_first_of(".[");
    std::string_view head = field.substr(0, end);
    Value cur;
    if (head.empty() ||
        std::all_of(head.begin(), head.end(), [](char c) { return c >= '0' && c <= '9'; })) {
        size_t index;
        if (head.empty()) {
            if (st.manual)
                fail("cannot switch from manual field specification to automatic field "
                     "numbering");
            st.automatic = true;
            index = static_cast<size_t>(st.autoIndex++);
        } else {
            if (st.automatic)
                fail("cannot switch from automatic field numbering to manual field "
                     "specification");
            st.manual = true;
            index = static_cast<size_t>(std::stoull(std::string(head)));
        }
        if (index >= st.args.positional.size())
            fail("Replacement index " + std::to_string(index) +
                 " out of range for positional args tuple");
        cur = st.args.positional[index];
    } else {
        const Value* v = st.args.kw(head);
        if (!v)
            fail("KeyError: '" + std::string(head) + "'");
        cur = *v;
    }
    size_t i = end;
    while (i != std::string_view::npos && i < field.size()) {
        if (field[i] == '.') {
            size_t next = field.find_first_of(".[", i + 1);
            std::string name(field.substr(
                i + 1, next == std::string_view::npos ? std::string_view::npos : next - i - 1));
            if (name.empty())
                fail("Empty attribute in format string");
            // Python getattr: methods and data attributes, never dict keys
            Value attr = cur.isDict() && !hasMethod(cur, name) ? Value::undefined(name)
                                                               : getAttribute(cur, name);
            if (attr.isUndefined())
                fail(std::string("'") + cur.typeName() + "' object has no attribute '" + name +
                     "'");
            cur = attr;
            i = next;
        } else {
            size_t close = field.find(']', i);
            if (close == std::string_view::npos)
                fail("Missing ']' in format string");
            std::string key(field.substr(i + 1, close - i - 1));
            if (key.empty())
                fail("Empty attribute in format string");
            Value k =
                std::all_of(key.begin(), key.end(), [](char c) { return c >= '0' && c <= '9'; })
                    ? Value(static_cast<int64_t>(std::stoll(key)))
                    : Value(key);
            Value item = getItem(cur, k);
            if (item.isUndefined() || ((cur.isString() || cur.isList()) && !k.isInt())) {
                if (cur.isDict())
                    fail("KeyError: " + k.repr());
                if (cur.isList() || cur.isString())
                    fail(k.isInt() ? std::string(cur.typeName()) + " index out of range"
                                   : std::string(cur.typeName()) +
                                         " indices must be integers or slices, not str");
                fail(std::string("'") + cur.typeName() + "' object is not subscriptable");
            }
            cur = item;
            i = close + 1;
        }
    }
    return cur;
}

std::string expand(std::string_view fmt, FormatState& st, int depth)
{
    if (depth > 2)
        fail("Max string recursion exceeded");
    std::string out;
    size_t i = 0;
    while (i < fmt.size()) {
        char c = fmt[i];
        if (c == '}') {
            if (i + 1 < fmt.size() && fmt[i + 1] == '}') {
                out.push_back('}');
                i += 2;
                continue;
            }
            fail("Single '}' encountered in format string");
        }
        if (c != '{') {
            out.push_back(c);
            ++i;
            continue;
        }
        if (i + 1 < fmt.size() && fmt[i + 1] == '{') {
            out.push_back('{');
            i += 2;
            continue;
        }
        // find the matching '}' (the spec may hold nested fields)
        size_t j = i + 1;
        int nest = 1;
        while (j < fmt.size()) {
            if (fmt[j] == '{')
                ++nest;
            else if (fmt[j] == '}' && --nest == 0)
                break;
            ++j;
        }
        if (j >= fmt.size())
            fail(i + 1 >= fmt.size() ? "Single '{' encountered in format string"
                                     : "expected '}' before end of string");
        std::string_view inner = fmt.substr(i + 1, j - i - 1);
        // field name ends at '!' or ':' outside brackets
        size_t k = 0;
        bool bracket = false;
        for (; k < inner.size(); ++k) {
            if (inner[k] == '[')
                bracket = true;
            else if (inner[k] == ']')
                bracket = false;
            else if (!bracket && (inner[k] == '!' || inner[k] == ':'))
                break;
        }
        std::string_view field = inner.substr(0, k);
        char conversion = 0;
        std::string_view spec;
        if (k < inner.size() && inner[k] == '!') {
            if (k + 1 >= inner.size())
                fail("end of string while looking for conversion specifier");
            conversion = inner[k + 1];
            k += 2;
            if (k < inner.size() && inner[k] != ':')
                fail("expected ':' after conversion specifier");
        }
        if (k < inner.size() && inner[k] == ':')
            spec = inner.substr(k + 1);
        Value v = resolveField(field, st);
        if (conversion == 'r')
            v = Value(v.repr());
        else if (conversion == 'a')
            v = Value(asciiRepr(v));
        else if (conversion == 's')
            v = Value(v.str());
        else if (conversion)
            fail(std::string("Unknown conversion specifier ") + conversion);
        std::string specText = spec.find('{') != std::string_view::npos
                                   ? expand(spec, st, depth + 1)
                                   : std::string(spec);
        out += formatWithSpec(v, specText);
        i = j + 1;
    }
    return out;
}

} // namespace

std::string strFormat(std::string_view fmt, const CallArgs& args)
{
    FormatState st{args};
    return expand(fmt, st, 0);
}

} // namespace hako::pdl::builtins
