// Dict (insertion-ordered, indexed once large), call arguments and lambda callables.
#include "core/pdl/value.h"

#include "core/util/stackguard.h"

#include <algorithm>
#include <cstring>

namespace hako::pdl {

// ---------------------------------------------------------------------------------------------
// Dict

namespace {
constexpr size_t kIndexThreshold = 8;
}

Dict::Dict(std::initializer_list<Item> items)
{
    for (const auto& [k, v] : items)
        set(k, v);
}

long Dict::indexOf(const Value& key) const
{
    if (key.isString())
        return indexOf(std::string_view(key.asString()));
    if (m_index.empty()) {
        for (size_t i = 0; i < m_items.size(); ++i)
            if (m_items[i].first == key)
                return long(i);
        return -1;
    }
    const size_t mask = m_index.size() - 1;
    for (size_t slot = key.hash() & mask;; slot = (slot + 1) & mask) {
        const int32_t i = m_index[slot];
        if (i < 0)
            return -1;
        if (m_items[size_t(i)].first == key)
            return i;
    }
}

long Dict::indexOf(std::string_view key) const
{
    if (m_index.empty()) {
        // Newest first: keys are unique, and the names a program reads most (a loop's index,
        // the last `def`) are the ones it set last, after the standard ones.
        for (size_t i = m_items.size(); i-- > 0;) {
            const Value& k = m_items[i].first;
            if (k.isString() && k.asString() == key)
                return long(i);
        }
        return -1;
    }
    const size_t mask = m_index.size() - 1;
    for (size_t slot = std::hash<std::string_view>{}(key)&mask;; slot = (slot + 1) & mask) {
        const int32_t i = m_index[slot];
        if (i < 0)
            return -1;
        const Value& k = m_items[size_t(i)].first;
        if (k.isString() && k.asString() == key)
            return i;
    }
}

void Dict::rebuildIndex() const
{
    if (m_items.size() <= kIndexThreshold) {
        m_index.clear();
        return;
    }
    size_t cap = 16;
    while (cap < m_items.size() * 2)
        cap <<= 1;
    m_index.assign(cap, -1);
    const size_t mask = cap - 1;
    for (size_t i = 0; i < m_items.size(); ++i) {
        size_t slot = m_items[i].first.hash() & mask;
        while (m_index[slot] >= 0)
            slot = (slot + 1) & mask;
        m_index[slot] = int32_t(i);
    }
}

const Value* Dict::find(const Value& key) const
{
    const long i = indexOf(key);
    return i < 0 ? nullptr : &m_items[size_t(i)].second;
}

const Value* Dict::find(std::string_view key) const
{
    const long i = indexOf(key);
    return i < 0 ? nullptr : &m_items[size_t(i)].second;
}

void Dict::set(Value key, Value value)
{
    if (!key.isHashable())
        throw EvalError(std::string("unhashable type: '") + key.typeName() + "'");
    const long i = indexOf(key);
    if (i >= 0) {
        m_items[size_t(i)].second = std::move(value);
        return;
    }
    m_items.emplace_back(std::move(key), std::move(value));
    // The index is maintained eagerly so that const lookups never mutate (thread safety).
    if (m_items.size() > kIndexThreshold) {
        if (m_index.size() < m_items.size() * 2) {
            rebuildIndex();
        } else {
            const size_t mask = m_index.size() - 1;
            size_t slot = m_items.back().first.hash() & mask;
            while (m_index[slot] >= 0)
                slot = (slot + 1) & mask;
            m_index[slot] = int32_t(m_items.size() - 1);
        }
    }
}

void Dict::set(std::string_view key, Value value)
{
    if (const long i = indexOf(key); i >= 0) {
        m_items[size_t(i)].second = std::move(value);
        return;
    }
    set(Value(key), std::move(value));
}

bool Dict::remove(const Value& key)
{
    const long i = indexOf(key);
    if (i < 0)
        return false;
    m_items.erase(m_items.begin() + i);
    rebuildIndex();
    return true;
}

bool Dict::operator==(const Dict& other) const
{
    // Comparing values nested deeper than the stack allows is an error (see value.cpp).
    if (stackExhausted())
        throw EvalError("maximum recursion depth exceeded: the value is nested too deeply");
    if (size() != other.size())
        return false;
    for (const auto& [k, v] : m_items) {
        const Value* o = other.find(k);
        if (!o || !(*o == v))
            return false;
    }
    return true;
}

const Value* CallArgs::kw(std::string_view name) const
{
    for (const auto& [k, v] : keyword)
        if (k == name)
            return &v;
    return nullptr;
}

namespace {
class LambdaCallable : public Callable {
public:
    LambdaCallable(std::string name, std::function<Value(const CallArgs&)> fn)
        : m_name(std::move(name)), m_fn(std::move(fn))
    {}
    std::string name() const override { return m_name; }
    Value call(const CallArgs& args) const override { return m_fn(args); }

private:
    std::string m_name;
    std::function<Value(const CallArgs&)> m_fn;
};
} // namespace

std::shared_ptr<const Callable> makeCallable(std::string name,
                                             std::function<Value(const CallArgs&)> fn)
{
    return std::make_shared<LambdaCallable>(std::move(name), std::move(fn));
}

} // namespace hako::pdl
