// Python methods of list, tuple and dict values, and the method dispatch.

#include "core/pdl/expr/methods_p.h"

namespace hako::pdl::builtins {

namespace detail {

namespace {

Value seqIndex(const Value& self, const CallArgs& args)
{
    auto p = bindArgs("index", args, {"value", "start", "stop"});
    if (!p[0])
        fail("index expected at least 1 argument, got 0");
    const List& l = self.asList();
    int64_t n = static_cast<int64_t>(l.size());
    auto conv = [&](const Value* v, int64_t dflt) {
        if (!v)
            return dflt;
        int64_t x = toIndex(*v);
        if (x < 0)
            x = std::max<int64_t>(0, x + n);
        return std::min(x, n);
    };
    int64_t a = conv(p[1], 0), b = conv(p[2], n);
    for (int64_t i = a; i < b; ++i) {
        if (l[static_cast<size_t>(i)] == *p[0])
            return Value(i);
    }
    if (self.isTuple())
        fail("tuple.index(x): x not in tuple");
    fail(p[0]->repr() + " is not in list");
}

Value seqCount(const Value& self, const CallArgs& args)
{
    auto p = bindArgs("count", args, {"value"});
    if (!p[0])
        fail("count() takes exactly one argument (0 given)");
    int64_t n = 0;
    for (const Value& v : self.asList())
        n += v == *p[0] ? 1 : 0;
    return Value(n);
}

Value listCopy(const Value& self, const CallArgs& args)
{
    bindArgs("copy", args, {});
    return Value(self.asList());
}

Value dictItems(const Value& self, const CallArgs& args)
{
    bindArgs("items", args, {});
    List out;
    out.reserve(self.asDict().size());
    for (const auto& [k, v] : self.asDict())
        out.push_back(Value::tuple({k, v}));
    return Value(std::move(out));
}

Value dictKeys(const Value& self, const CallArgs& args)
{
    bindArgs("keys", args, {});
    return Value(iterate(self));
}

Value dictValues(const Value& self, const CallArgs& args)
{
    bindArgs("values", args, {});
    List out;
    out.reserve(self.asDict().size());
    for (const auto& item : self.asDict())
        out.push_back(item.second);
    return Value(std::move(out));
}

Value dictGet(const Value& self, const CallArgs& args)
{
    auto p = bindArgs("get", args, {"key", "default"});
    if (!p[0])
        fail("get expected at least 1 argument, got 0");
    requireDefined(*p[0]);
    if (!p[0]->isHashable())
        fail(std::string("unhashable type: '") + p[0]->typeName() + "'");
    if (const Value* v = self.asDict().find(*p[0]))
        return *v;
    return p[1] ? *p[1] : Value();
}

Value dictCopy(const Value& self, const CallArgs& args)
{
    bindArgs("copy", args, {});
    return Value(self.asDict());
}

// `pdl_context.serialize(format)`: the reference's context object turns itself into messages
// for a model API. Hako's context is already a list of messages, which every format (`litellm`,
// the only one the reference defines) takes as it is.
Value contextSerialize(const Value& self, const CallArgs& args)
{
    auto p = bindArgs("serialize", args, {"format"});
    if (p[0] && !p[0]->isString())
        fail("serialize() format must be a string, not " + std::string(p[0]->typeName()));
    return Value(self.asList());
}

} // namespace

const MethodTable& listMethods()
{
    static const MethodTable table = {
        {"index", seqIndex},
        {"count", seqCount},
        {"copy", listCopy},
        {"serialize", contextSerialize},
    };
    return table;
}

const MethodTable& tupleMethods()
{
    static const MethodTable table = {
        {"index", seqIndex},
        {"count", seqCount},
    };
    return table;
}

const MethodTable& dictMethods()
{
    static const MethodTable table = {
        {"items", dictItems}, {"keys", dictKeys}, {"values", dictValues},
        {"get", dictGet},     {"copy", dictCopy},
    };
    return table;
}

namespace {

const MethodTable* tableFor(const Value& v)
{
    switch (v.type()) {
    case Value::Type::String:
        return &strMethods();
    case Value::Type::List:
        return v.isTuple() ? &tupleMethods() : &listMethods();
    case Value::Type::Dict:
        return &dictMethods();
    default:
        return nullptr;
    }
}

} // namespace

} // namespace detail

using namespace detail;

bool hasMethod(const Value& self, std::string_view name)
{
    const MethodTable* t = tableFor(self);
    return t && t->count(name);
}

Value callMethod(const Value& self, std::string_view name, const CallArgs& args)
{
    const MethodTable* t = tableFor(self);
    if (t) {
        auto it = t->find(name);
        if (it != t->end())
            return it->second(self, args);
    }
    requireDefined(self);
    fail(std::string("'") + self.typeName() + "' object has no attribute '" + std::string(name) +
         "'");
}

} // namespace hako::pdl::builtins
