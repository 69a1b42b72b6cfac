#include "core/otel/spanvalue_p.h"

#include "core/util/threadslot.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <string_view>
#include <unordered_map>

namespace hako::otel {

namespace {

// Short strings of spans as shared Values: the keys of every message and dict, roles, model
// and service names, a parent's id repeat in thousands of spans, and a Value shares its text,
// so that a million spans do not hold a million copies of "role" (per thread, bounded).
class StringPool {
public:
    pdl::Value get(std::string_view s)
    {
        if (s.size() > kLongest)
            return pdl::Value(s);
        auto it = m_values.find(s);
        if (it != m_values.end())
            return it->second;
        if (m_values.size() >= kMostStrings)
            m_values.clear();
        return m_values.emplace(std::string(s), pdl::Value(s)).first->second;
    }

private:
    /// Hashes a std::string or a view alike, so that a lookup makes no string. The strings are
    /// short (at most kLongest bytes): eight bytes at a time, inline, rather than the library's
    /// general hash (a span's thirty-odd strings each pass here).
    struct Hash {
        using is_transparent = void;
        size_t operator()(std::string_view s) const
        {
            constexpr uint64_t k = 0x9e3779b97f4a7c15ULL;
            uint64_t h = s.size() * k;
            size_t i = 0;
            for (; i + 8 <= s.size(); i += 8) {
                uint64_t w;
                std::memcpy(&w, s.data() + i, 8);
                h = (h ^ w) * k;
                h ^= h >> 29;
            }
            if (i < s.size()) {
                uint64_t w = 0;
                std::memcpy(&w, s.data() + i, s.size() - i);
                h = (h ^ w) * k;
                h ^= h >> 29;
            }
            return size_t(h ^ (h >> 32));
        }
    };
    static constexpr size_t kLongest = 64;
    static constexpr size_t kMostStrings = 1 << 14;
    std::unordered_map<std::string, pdl::Value, Hash, std::equal_to<>> m_values;
};

} // namespace

pdl::Value sharedText(std::string_view s)
{
    return ThreadSlot<StringPool>::get().get(s); // the thread's pool, made by its first span
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

namespace {

// Text of a span as Qt reads nlohmann's writing of it: U+FFFD where it is not UTF-8 as
// nlohmann replaces it (not as QString::fromUtf8 would).
QString spanQString(const std::string& s)
{
    if (isValidUtf8(s))
        return QString::fromUtf8(s.data(), qsizetype(s.size()));
    const QByteArray text = QByteArray::fromStdString(
        "[" + Attributes(s).dump(-1, ' ', false, Attributes::error_handler_t::replace) + "]");
    return QJsonDocument::fromJson(text).array().first().toString();
}

} // namespace

QJsonValue spanQJson(const Attributes& j)
{
    // A list or object (a call's messages) as Qt reads nlohmann's writing of it, which is what
    // it is defined as: Qt's reader builds the document in one go, where inserting member by
    // member took twice the time. Member by member where the reader refuses it (nested
    // deeper than it goes).
    if (j.is_array() || j.is_object()) {
        const std::string text = j.dump(-1, ' ', false, Attributes::error_handler_t::replace);
        QJsonParseError error;
        const QJsonDocument doc = QJsonDocument::fromJson(
            QByteArray::fromRawData(text.data(), qsizetype(text.size())), &error);
        if (error.error == QJsonParseError::NoError)
            return doc.isArray() ? QJsonValue(doc.array()) : QJsonValue(doc.object());
    }
    switch (j.type()) {
    case Attributes::value_t::boolean:
        return j.get<bool>();
    case Attributes::value_t::number_integer:
        return qint64(j.get<int64_t>());
    case Attributes::value_t::number_unsigned: {
        const uint64_t u = j.get<uint64_t>();
        if (u <= uint64_t(std::numeric_limits<qint64>::max()))
            return qint64(u);
        return double(u);
    }
    case Attributes::value_t::number_float: {
        const double d = j.get<double>();
        return std::isfinite(d) ? QJsonValue(d) : QJsonValue(QJsonValue::Null);
    }
    case Attributes::value_t::string:
        return spanQString(j.get_ref<const std::string&>());
    case Attributes::value_t::array: {
        QJsonArray a;
        for (const Attributes& e : j)
            a.append(spanQJson(e));
        return a;
    }
    case Attributes::value_t::object: {
        QJsonObject o;
        for (auto it = j.begin(); it != j.end(); ++it)
            o.insert(spanQString(it.key()), spanQJson(it.value()));
        return o;
    }
    default:
        return QJsonValue(QJsonValue::Null);
    }
}

} // namespace hako::otel
