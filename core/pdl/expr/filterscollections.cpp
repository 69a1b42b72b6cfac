// Jinja2's filters over sequences and mappings.

#include "core/pdl/expr/filters_p.h"

#include <algorithm>
#include <unordered_set>

namespace hako::pdl::builtins::detail {

namespace {

// Sort keys compared with Python's `<`; stable like sorted().
void sortByKeys(List& items, const std::vector<Value>& keys, bool reverse)
{
    std::vector<size_t> order(items.size());
    for (size_t i = 0; i < order.size(); ++i)
        order[i] = i;
    std::stable_sort(order.begin(), order.end(), [&](size_t a, size_t b) {
        return reverse ? Value::less(keys[b], keys[a]) : Value::less(keys[a], keys[b]);
    });
    List sorted;
    sorted.reserve(items.size());
    for (size_t i : order)
        sorted.push_back(items[i]);
    items = std::move(sorted);
}

// Jinja's make_multi_attrgetter: "a,b" gives a list key.
Value multiKey(const Value& item, const Value* attribute, bool lower)
{
    if (!attribute || attribute->isNull())
        return lower ? ignoreCase(item) : item;
    if (attribute->isString() && attribute->asString().find(',') != std::string::npos) {
        List parts;
        const std::string& a = attribute->asString();
        size_t start = 0;
        while (true) {
            size_t comma = a.find(',', start);
            std::string part = a.substr(start, comma == std::string::npos ? comma : comma - start);
            parts.push_back(getAttrPath(item, Value(part), nullptr, lower));
            if (comma == std::string::npos)
                break;
            start = comma + 1;
        }
        return Value(std::move(parts));
    }
    return getAttrPath(item, *attribute, nullptr, lower);
}

Value aggregate(const Value& v, const CallArgs& args, const char* name, bool max)
{
    auto p = bindArgs(name, args, {"case_sensitive", "attribute"});
    bool lower = !argBool(p[0], false);
    List items = iterate(v);
    if (items.empty())
        return Value::undefined("No aggregated item, sequence was empty.");
    size_t best = 0;
    Value bestKey = p[1] && !p[1]->isNull() ? getAttrPath(items[0], *p[1], nullptr, lower)
                                            : (lower ? ignoreCase(items[0]) : items[0]);
    for (size_t i = 1; i < items.size(); ++i) {
        Value key = p[1] && !p[1]->isNull() ? getAttrPath(items[i], *p[1], nullptr, lower)
                                            : (lower ? ignoreCase(items[i]) : items[i]);
        if (max ? Value::less(bestKey, key) : Value::less(key, bestKey)) {
            best = i;
            bestKey = key;
        }
    }
    return items[best];
}

CallArgs restArgs(const CallArgs& args, size_t from)
{
    CallArgs rest;
    if (args.positional.size() > from)
        rest.positional.assign(args.positional.begin() + static_cast<long>(from),
                               args.positional.end());
    rest.keyword = args.keyword;
    return rest;
}

Value selectOrReject(const Value& v, const CallArgs& args, bool byAttr, bool select)
{
    size_t off = 0;
    Value attr;
    if (byAttr) {
        if (args.positional.empty())
            fail("Missing parameter for attribute name");
        attr = args.positional[0];
        off = 1;
    }
    bool hasTest = args.positional.size() > off;
    std::string testName;
    CallArgs testArgs;
    if (hasTest) {
        requireDefined(args.positional[off]);
        testName = args.positional[off].isString() ? args.positional[off].asString()
                                                   : args.positional[off].str();
        testArgs = restArgs(args, off + 1);
    } else if (!args.keyword.empty()) {
        fail("select() got an unexpected keyword argument '" + args.keyword[0].first + "'");
    }
    TestFn test = hasTest ? findTest(testName) : nullptr;
    if (hasTest && !test)
        fail("No test named '" + testName + "'.");
    List out;
    for (const Value& item : iterate(v)) {
        Value subject = byAttr ? getAttrPath(item, attr) : item;
        bool ok;
        if (hasTest) {
            if (subject.isUndefined() && !testAcceptsUndefined(testName))
                requireDefined(subject);
            ok = test(subject, testArgs);
        } else {
            requireDefined(subject);
            ok = subject.truthy();
        }
        if (ok == select)
            out.push_back(item);
    }
    return Value(std::move(out));
}

} // namespace

Value filterBatch(const Value& v, const CallArgs& args)
{
    auto p = bindArgs("batch", args, {"linecount", "fill_with"});
    if (!p[0])
        fail("do_batch() missing 1 required positional argument: 'linecount'");
    int64_t n = toIndex(*p[0]);
    List out, cur;
    for (const Value& item : iterate(v)) {
        if (static_cast<int64_t>(cur.size()) == n) {
            out.emplace_back(std::move(cur));
            cur = {};
        }
        cur.push_back(item);
    }
    if (!cur.empty()) {
        if (p[1] && !p[1]->isNull()) {
            while (static_cast<int64_t>(cur.size()) < n)
                cur.push_back(*p[1]);
        }
        out.emplace_back(std::move(cur));
    }
    return Value(std::move(out));
}

Value filterDictsort(const Value& v, const CallArgs& args)
{
    auto p = bindArgs("dictsort", args, {"case_sensitive", "by", "reverse"});
    bool lower = !argBool(p[0], false);
    std::string by = argStr(p[1], "key");
    bool reverse = argBool(p[2], false);
    size_t pos;
    if (by == "key")
        pos = 0;
    else if (by == "value")
        pos = 1;
    else
        fail("You can only sort by either 'key' or 'value'");
    requireDefined(v);
    if (!v.isDict())
        fail(std::string("'") + v.typeName() + "' object has no attribute 'items'");
    List items;
    std::vector<Value> keys;
    for (const auto& [k, val] : v.asDict()) {
        items.push_back(Value::tuple({k, val}));
        const Value& key = pos == 0 ? k : val;
        keys.push_back(lower ? ignoreCase(key) : key);
    }
    sortByKeys(items, keys, reverse);
    return Value(std::move(items));
}

Value filterFirst(const Value& v, const CallArgs& args)
{
    bindArgs("first", args, {});
    List items = iterate(v);
    if (items.empty())
        return Value::undefined("No first item, sequence was empty.");
    return items.front();
}

Value filterLast(const Value& v, const CallArgs& args)
{
    bindArgs("last", args, {});
    List items = iterate(v);
    if (items.empty())
        return Value::undefined("No last item, sequence was empty.");
    return items.back();
}

Value filterGroupby(const Value& v, const CallArgs& args)
{
    auto p = bindArgs("groupby", args, {"attribute", "default", "case_sensitive"});
    if (!p[0])
        fail("do_groupby() missing 1 required positional argument: 'attribute'");
    bool lower = !argBool(p[2], false);
    const Value* dflt = p[1] && !p[1]->isNull() ? p[1] : nullptr;
    List items = iterate(v);
    std::vector<Value> keys;
    for (const Value& item : items) {
        Value k = getAttrPath(item, *p[0], dflt, lower);
        requireDefined(k);
        keys.push_back(k);
    }
    std::vector<size_t> order(items.size());
    for (size_t i = 0; i < order.size(); ++i)
        order[i] = i;
    std::stable_sort(order.begin(), order.end(),
                     [&](size_t a, size_t b) { return Value::less(keys[a], keys[b]); });
    List out;
    size_t i = 0;
    while (i < order.size()) {
        size_t j = i;
        List group;
        while (j < order.size() && keys[order[j]] == keys[order[i]]) {
            group.push_back(items[order[j]]);
            ++j;
        }
        // Case-insensitive grouping reports the first item's real key.
        Value grouper = lower ? getAttrPath(group.front(), *p[0], dflt, false) : keys[order[i]];
        out.push_back(Value::tuple({grouper, Value(std::move(group))}));
        i = j;
    }
    return Value(std::move(out));
}

Value filterItems(const Value& v, const CallArgs& args)
{
    bindArgs("items", args, {});
    if (v.isUndefined())
        return Value(List{});
    if (!v.isDict())
        fail("Can only get item pairs from a mapping.");
    return callMethod(v, "items", {});
}

Value filterJoin(const Value& v, const CallArgs& args)
{
    auto p = bindArgs("join", args, {"d", "attribute"});
    std::string sep = argStr(p[0], "");
    std::string out;
    bool first = true;
    for (const Value& item : iterate(v)) {
        Value x = p[1] && !p[1]->isNull() ? getAttrPath(item, *p[1]) : item;
        requireDefined(x);
        if (!first)
            out += sep;
        first = false;
        out += x.isString() ? x.asString() : x.str();
    }
    return Value(out);
}

Value filterLength(const Value& v, const CallArgs& args)
{
    bindArgs("length", args, {});
    requireDefined(v);
    if (!v.isString() && !v.isList() && !v.isDict())
        fail(std::string("object of type '") + v.typeName() + "' has no len()");
    return Value(v.length());
}

Value filterList(const Value& v, const CallArgs& args)
{
    bindArgs("list", args, {});
    return Value(iterate(v));
}

Value filterMap(const Value& v, const CallArgs& args)
{
    List items = iterate(v);
    List out;
    out.reserve(items.size());
    if (args.positional.empty()) {
        const Value* attribute = args.kw("attribute");
        if (!attribute)
            fail("map requires a filter argument");
        const Value* dflt = args.kw("default");
        for (const auto& [k, val] : args.keyword) {
            if (k != "attribute" && k != "default")
                fail("Unexpected keyword argument '" + k + "'");
        }
        if (dflt && dflt->isNull())
            dflt = nullptr;
        for (const Value& item : items)
            out.push_back(getAttrPath(item, *attribute, dflt));
        return Value(std::move(out));
    }
    requireDefined(args.positional[0]);
    std::string name =
        args.positional[0].isString() ? args.positional[0].asString() : args.positional[0].str();
    CallArgs rest = restArgs(args, 1);
    for (const Value& item : items)
        out.push_back(applyFilter(name, item, rest));
    return Value(std::move(out));
}

Value filterMax(const Value& v, const CallArgs& args)
{
    return aggregate(v, args, "max", true);
}

Value filterMin(const Value& v, const CallArgs& args)
{
    return aggregate(v, args, "min", false);
}

Value filterSelect(const Value& v, const CallArgs& args)
{
    return selectOrReject(v, args, false, true);
}

Value filterReject(const Value& v, const CallArgs& args)
{
    return selectOrReject(v, args, false, false);
}

Value filterSelectattr(const Value& v, const CallArgs& args)
{
    return selectOrReject(v, args, true, true);
}

Value filterRejectattr(const Value& v, const CallArgs& args)
{
    return selectOrReject(v, args, true, false);
}

Value filterReverse(const Value& v, const CallArgs& args)
{
    bindArgs("reverse", args, {});
    if (v.isString())
        return getSlice(v, Value(), Value(), Value(int64_t(-1)));
    List items = iterate(v);
    std::reverse(items.begin(), items.end());
    return Value(std::move(items));
}

Value filterSlice(const Value& v, const CallArgs& args)
{
    auto p = bindArgs("slice", args, {"slices", "fill_with"});
    if (!p[0])
        fail("do_slice() missing 1 required positional argument: 'slices'");
    int64_t slices = toIndex(*p[0]);
    List seq = iterate(v);
    int64_t length = static_cast<int64_t>(seq.size());
    if (slices <= 0) {
        if (slices == 0)
            fail("integer division or modulo by zero");
        return Value(List{});
    }
    int64_t per = length / slices, extra = length % slices, offset = 0;
    List out;
    for (int64_t n = 0; n < slices; ++n) {
        int64_t start = offset + n * per;
        if (n < extra)
            ++offset;
        int64_t end = offset + (n + 1) * per;
        List tmp(seq.begin() + start, seq.begin() + std::min(end, length));
        if (p[1] && !p[1]->isNull() && n >= extra)
            tmp.push_back(*p[1]);
        out.emplace_back(std::move(tmp));
    }
    return Value(std::move(out));
}

Value filterSort(const Value& v, const CallArgs& args)
{
    auto p = bindArgs("sort", args, {"reverse", "case_sensitive", "attribute"});
    bool reverse = argBool(p[0], false);
    bool lower = !argBool(p[1], false);
    List items = iterate(v);
    std::vector<Value> keys;
    keys.reserve(items.size());
    for (const Value& item : items) {
        Value k = multiKey(item, p[2], lower);
        requireDefined(k);
        keys.push_back(k);
    }
    sortByKeys(items, keys, reverse);
    return Value(std::move(items));
}

Value addValues(const Value& a, const Value& b)
{
    requireDefined(a);
    requireDefined(b);
    bool aNum = a.isNumber() || a.isBool(), bNum = b.isNumber() || b.isBool();
    if (aNum && bNum) {
        if (a.isFloat() || b.isFloat())
            return Value(a.toDouble() + b.toDouble());
        int64_t r;
        if (__builtin_add_overflow(toIndex(a), toIndex(b), &r))
            fail("integer overflow (PDL integers are 64-bit)");
        return Value(r);
    }
    if (a.isString() && b.isString())
        return Value(a.asString() + b.asString());
    if (a.isList() && b.isList() && a.isTuple() == b.isTuple()) {
        List out = a.asList();
        out.insert(out.end(), b.asList().begin(), b.asList().end());
        return Value(std::move(out), a.isTuple());
    }
    if (b.isString() && !a.isString() && aNum)
        fail(std::string("unsupported operand type(s) for +: '") + a.typeName() + "' and '" +
             b.typeName() + "'");
    if (a.isString())
        fail(std::string("can only concatenate str (not \"") + b.typeName() + "\") to str");
    if (a.isList() && !a.isTuple())
        fail(std::string("can only concatenate list (not \"") + b.typeName() + "\") to list");
    fail(std::string("unsupported operand type(s) for +: '") + a.typeName() + "' and '" +
         b.typeName() + "'");
}

Value filterSum(const Value& v, const CallArgs& args)
{
    auto p = bindArgs("sum", args, {"attribute", "start"});
    Value total = p[1] ? *p[1] : Value(int64_t(0));
    for (const Value& item : iterate(v)) {
        Value x = p[0] && !p[0]->isNull() ? getAttrPath(item, *p[0]) : item;
        total = addValues(total, x);
    }
    return total;
}

Value filterUnique(const Value& v, const CallArgs& args)
{
    auto p = bindArgs("unique", args, {"case_sensitive", "attribute"});
    bool lower = !argBool(p[0], false);
    std::unordered_set<Value> seen;
    List out;
    for (const Value& item : iterate(v)) {
        Value key = p[1] && !p[1]->isNull() ? getAttrPath(item, *p[1], nullptr, lower)
                                            : (lower ? ignoreCase(item) : item);
        requireDefined(key);
        if (!key.isHashable())
            fail(std::string("unhashable type: '") + key.typeName() + "'");
        if (seen.insert(key).second)
            out.push_back(item);
    }
    return Value(std::move(out));
}

Value filterTojson(const Value& v, const CallArgs& args)
{
    auto p = bindArgs("tojson", args, {"indent"});
    requireDefined(v);
    std::string unit;
    const std::string* indent = nullptr;
    if (p[0] && !p[0]->isNull()) {
        // json.dumps takes an int (spaces per level) or the text of one level
        unit = p[0]->isString()
                   ? p[0]->asString()
                   : std::string(static_cast<size_t>(std::max<int64_t>(0, toIndex(*p[0]))), ' ');
        indent = &unit;
    }
    std::string json = dumpJson(v, true, indent);
    std::string out;
    for (char c : json) {
        switch (c) {
        case '<':
            out += "\\u003c";
            break;
        case '>':
            out += "\\u003e";
            break;
        case '&':
            out += "\\u0026";
            break;
        case '\'':
            out += "\\u0027";
            break;
        default:
            out.push_back(c);
        }
    }
    return Value(out);
}

namespace {

std::string urlQuote(const Value& v, bool forQs)
{
    std::string s = v.isString() ? v.asString() : v.str();
    std::string out;
    static const char* hex = "0123456789ABCDEF";
    for (unsigned char c : s) {
        bool safe = (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') ||
                    c == '_' || c == '.' || c == '-' || c == '~' || (!forQs && c == '/');
        if (safe) {
            out.push_back(static_cast<char>(c));
        } else if (forQs && c == ' ') {
            out.push_back('+');
        } else {
            out.push_back('%');
            out.push_back(hex[c >> 4]);
            out.push_back(hex[c & 15]);
        }
    }
    return out;
}

} // namespace

Value filterUrlencode(const Value& v, const CallArgs& args)
{
    bindArgs("urlencode", args, {});
    requireDefined(v);
    if (v.isString())
        return Value(urlQuote(v, false));
    std::vector<std::pair<Value, Value>> pairs;
    if (v.isDict()) {
        for (const auto& [k, val] : v.asDict())
            pairs.emplace_back(k, val);
    } else if (v.isList()) {
        for (const Value& item : v.asList()) {
            List kv = iterate(item);
            if (kv.size() != 2)
                fail("too many values to unpack (expected 2)");
            pairs.emplace_back(kv[0], kv[1]);
        }
    } else {
        return Value(urlQuote(v, false));
    }
    std::string out;
    for (size_t i = 0; i < pairs.size(); ++i) {
        if (i)
            out += "&";
        out += urlQuote(pairs[i].first, true) + "=" + urlQuote(pairs[i].second, true);
    }
    return Value(out);
}

Value filterXmlattr(const Value& v, const CallArgs& args)
{
    auto p = bindArgs("xmlattr", args, {"autospace"});
    bool autospace = argBool(p[0], true);
    requireDefined(v);
    if (!v.isDict())
        fail(std::string("'") + v.typeName() + "' object has no attribute 'items'");
    std::string out;
    for (const auto& [k, val] : v.asDict()) {
        if (val.isNull() || val.isUndefined())
            continue;
        std::string key = k.isString() ? k.asString() : k.str();
        // Jinja rejects attribute names that would break out of the attribute
        if (key.find_first_of(" \t\n\r\f\v/>=") != std::string::npos)
            fail("Invalid character in attribute name: " + k.repr());
        if (!out.empty())
            out += " ";
        out += htmlEscape(key) + "=\"" + htmlEscape(val.isString() ? val.asString() : val.str()) +
               "\"";
    }
    if (autospace && !out.empty())
        out = " " + out;
    return Value(out);
}

} // namespace hako::pdl::builtins::detail
