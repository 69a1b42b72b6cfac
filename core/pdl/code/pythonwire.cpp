#include "core/pdl/code/pythonwire.h"

#include "core/pdl/code/pythonsession.h"

#include <cmath>
#include <string_view>

namespace hako::pdl::code {

namespace {

const std::string& tagKey()
{
    static const std::string key(kWireTag, 5);
    return key;
}

nlohmann::ordered_json tagged(const char* kind)
{
    nlohmann::ordered_json j = nlohmann::ordered_json::object();
    j[tagKey()] = kind;
    return j;
}

bool encode(const Value& v, nlohmann::ordered_json& out, const PythonSessionState* state,
            uint64_t generation, std::string* error, bool* handles, int depth,
            std::vector<std::shared_ptr<const Callable>>* callables)
{
    if (depth > 500) {
        *error = "value nested too deeply to pass to Python";
        return false;
    }
    switch (v.type()) {
    case Value::Type::Undefined:
    case Value::Type::Null:
        out = nullptr;
        return true;
    case Value::Type::Bool:
        out = v.asBool();
        return true;
    case Value::Type::Int:
        out = v.asInt();
        return true;
    case Value::Type::Float:
        if (std::isfinite(v.asFloat())) {
            out = v.asFloat();
        } else {
            out = tagged("float");
            out["v"] = formatFloat(v.asFloat());
        }
        return true;
    case Value::Type::String:
        out = v.asString();
        return true;
    case Value::Type::List: {
        nlohmann::ordered_json items = nlohmann::ordered_json::array();
        for (const Value& item : v.asList()) {
            items.emplace_back();
            if (!encode(item, items.back(), state, generation, error, handles, depth + 1,
                        callables))
                return false;
        }
        if (v.isTuple()) {
            out = tagged("tuple");
            out["items"] = std::move(items);
        } else {
            out = std::move(items);
        }
        return true;
    }
    case Value::Type::Dict: {
        const Dict& d = v.asDict();
        bool plain = true;
        for (const auto& [k, _] : d)
            if (!k.isString() || k.asString() == tagKey())
                plain = false;
        if (plain) {
            out = nlohmann::ordered_json::object();
            for (const auto& [k, item] : d)
                if (!encode(item, out[k.asString()], state, generation, error, handles, depth + 1,
                            callables))
                    return false;
            return true;
        }
        nlohmann::ordered_json items = nlohmann::ordered_json::array();
        for (const auto& [k, item] : d) {
            nlohmann::ordered_json pair = nlohmann::ordered_json::array({nullptr, nullptr});
            if (!encode(k, pair[0], state, generation, error, handles, depth + 1, callables) ||
                !encode(item, pair[1], state, generation, error, handles, depth + 1, callables))
                return false;
            items.push_back(std::move(pair));
        }
        out = tagged("dict");
        out["items"] = std::move(items);
        return true;
    }
    case Value::Type::Callable: {
        auto fn = v.asCallable();
        if (auto* obj = dynamic_cast<const PythonObject*>(fn.get())) {
            if (!obj->belongsTo(state) || obj->generation() != generation) {
                *error = "the Python object " + obj->repr() +
                         " belongs to an earlier Python session (restarted after a timeout, "
                         "cancel or crash) and is no longer available";
                return false;
            }
            out = tagged("object");
            out["id"] = obj->handle();
            if (handles)
                *handles = true;
            out["repr"] = obj->repr();
            return true;
        }
        out = tagged("opaque");
        out["repr"] = fn ? fn->repr() : std::string("<function>");
        if (callables && fn) {
            // Python may call it back through the session (PythonSession::exec's `callback`).
            out["fid"] = callables->size();
            callables->push_back(fn);
        }
        return true;
    }
    }
    out = nullptr;
    return true;
}

} // namespace

bool encodeWireValue(const Value& value, nlohmann::ordered_json& out,
                     const PythonSessionState* state, uint64_t generation, std::string* error,
                     bool* usedHandles, std::vector<std::shared_ptr<const Callable>>* callables)
{
    return encode(value, out, state, generation, error, usedHandles, 0, callables);
}

Value decodeWireValue(const nlohmann::ordered_json& j,
                      const std::weak_ptr<PythonSessionState>& session, uint64_t generation)
{
    switch (j.type()) {
    case nlohmann::ordered_json::value_t::null:
    case nlohmann::ordered_json::value_t::discarded:
        return Value();
    case nlohmann::ordered_json::value_t::boolean:
        return Value(j.get<bool>());
    case nlohmann::ordered_json::value_t::number_integer:
        return Value(j.get<int64_t>());
    case nlohmann::ordered_json::value_t::number_unsigned: {
        uint64_t u = j.get<uint64_t>();
        return u <= uint64_t(INT64_MAX) ? Value(int64_t(u)) : Value(double(u));
    }
    case nlohmann::ordered_json::value_t::number_float:
        return Value(j.get<double>());
    case nlohmann::ordered_json::value_t::string:
        return Value(j.get_ref<const std::string&>());
    case nlohmann::ordered_json::value_t::array: {
        List items;
        items.reserve(j.size());
        for (const auto& item : j)
            items.push_back(decodeWireValue(item, session, generation));
        return Value(std::move(items));
    }
    case nlohmann::ordered_json::value_t::object: {
        auto tag = j.find(tagKey());
        if (tag == j.end()) {
            Dict d;
            for (const auto& [k, item] : j.items())
                d.set(k, decodeWireValue(item, session, generation));
            return Value(std::move(d));
        }
        const std::string kind = tag->is_string() ? tag->get<std::string>() : std::string();
        if (kind == "float") {
            std::string text = j.value("v", std::string("nan"));
            if (text == "inf")
                return Value(HUGE_VAL);
            if (text == "-inf")
                return Value(-HUGE_VAL);
            return Value(std::nan(""));
        }
        if (kind == "dict") {
            Dict d;
            for (const auto& pair : j.value("items", nlohmann::ordered_json::array()))
                if (pair.is_array() && pair.size() == 2) {
                    Value key = decodeWireValue(pair[0], session, generation);
                    // Python tuple keys arrive as lists; PDL needs them hashable again.
                    if (key.isList())
                        key = Value::tuple(key.asList());
                    d.set(std::move(key), decodeWireValue(pair[1], session, generation));
                }
            return Value(std::move(d));
        }
        if (kind == "object") {
            auto obj = std::make_shared<PythonObject>(
                session, generation, j.value("id", int64_t(0)), j.value("repr", std::string()),
                j.value("type", std::string("object")), j.value("callable", false));
            return Value(std::shared_ptr<const Callable>(std::move(obj)));
        }
        return Value();
    }
    case nlohmann::ordered_json::value_t::binary:
        break;
    }
    return Value();
}

} // namespace hako::pdl::code
