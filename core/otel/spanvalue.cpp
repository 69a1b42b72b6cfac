#include "core/otel/spanvalue_p.h"

#include <unordered_map>

namespace hako::otel {

namespace {

// Short strings of spans as shared Values: the keys of every message and dict, roles, model
// and service names, a parent's id repeat in thousands of spans, and a Value shares its text,
// so that a million spans do not hold a million copies of "role" (per thread, bounded).
class StringPool {
public:
    pdl::Value get(const std::string& s)
    {
        if (s.size() > kLongest)
            return pdl::Value(s);
        auto it = m_values.find(s);
        if (it != m_values.end())
            return it->second;
        if (m_values.size() >= kMostStrings)
            m_values.clear();
        return m_values.emplace(s, pdl::Value(s)).first->second;
    }

private:
    static constexpr size_t kLongest = 64;
    static constexpr size_t kMostStrings = 1 << 14;
    std::unordered_map<std::string, pdl::Value> m_values;
};

} // namespace

pdl::Value sharedText(const std::string& s)
{
    thread_local StringPool pool;
    return pool.get(s);
}

namespace {

pdl::Value toValue(const Attributes& j, int depth)
{
    constexpr int kMaxJsonDepth = 1000;
    if (depth > kMaxJsonDepth)
        throw pdl::EvalError("JSON nested deeper than " + std::to_string(kMaxJsonDepth) +
                             " levels");
    switch (j.type()) {
    case Attributes::value_t::string:
        return sharedText(j.get_ref<const std::string&>());
    case Attributes::value_t::array: {
        pdl::List items;
        items.reserve(j.size());
        for (const Attributes& e : j)
            items.push_back(toValue(e, depth + 1));
        return pdl::Value(std::move(items));
    }
    case Attributes::value_t::object: {
        pdl::Dict d;
        for (auto it = j.begin(); it != j.end(); ++it)
            d.set(sharedText(it.key()), toValue(it.value(), depth + 1));
        return pdl::Value(std::move(d));
    }
    default:
        return pdl::Value::fromJson(j);
    }
}

} // namespace

pdl::Value spanValue(const Attributes& j)
{
    return toValue(j, 0);
}

} // namespace hako::otel
