#pragma once

// OTLP/JSON agent runs for the Runs list's tests and benchmark: small, readable, deterministic.

#include <nlohmann/json.hpp>

#include <cstdint>
#include <cstdio>
#include <string>
#include <utility>
#include <vector>

namespace hako::test {

struct FixtureSpan {
    std::string traceId, spanId, parentSpanId, name;
    int64_t startNanos = 0, endNanos = 0;
    int statusCode = 0; ///< 2: error
    std::vector<std::pair<std::string, nlohmann::json>> attributes;
};

/// `v` as an OTLP/JSON AnyValue (int64 as a string, lists and maps as arrayValue and
/// kvlistValue, null as an empty value), built as a document of `v`'s own kind (an
/// ordered_json keeps its members' order).
template <typename Json> Json otlpValue(const Json& v)
{
    if (v.is_string())
        return {{"stringValue", v}};
    if (v.is_boolean())
        return {{"boolValue", v}};
    if (v.is_number_integer())
        return {{"intValue", std::to_string(v.template get<int64_t>())}};
    if (v.is_number_float())
        return {{"doubleValue", v}};
    Json values = Json::array();
    if (v.is_array()) {
        for (const Json& e : v)
            values.push_back(otlpValue(e));
        return {{"arrayValue", {{"values", values}}}};
    }
    if (v.is_object()) {
        for (auto it = v.begin(); it != v.end(); ++it)
            values.push_back({{"key", it.key()}, {"value", otlpValue(it.value())}});
        return {{"kvlistValue", {{"values", values}}}};
    }
    return Json::object();
}

/// One ExportTraceServiceRequest (one line of a Collector file export) holding `spans`.
inline std::string otlpRequest(const std::vector<FixtureSpan>& spans)
{
    nlohmann::json list = nlohmann::json::array();
    for (const FixtureSpan& s : spans) {
        nlohmann::json attrs = nlohmann::json::array();
        for (const auto& [key, value] : s.attributes)
            attrs.push_back({{"key", key}, {"value", otlpValue(value)}});
        nlohmann::json span = {{"traceId", s.traceId},
                               {"spanId", s.spanId},
                               {"name", s.name},
                               {"kind", 1},
                               {"startTimeUnixNano", std::to_string(s.startNanos)},
                               {"endTimeUnixNano", std::to_string(s.endNanos)},
                               {"attributes", attrs},
                               {"status", {{"code", s.statusCode}}}};
        if (!s.parentSpanId.empty())
            span["parentSpanId"] = s.parentSpanId;
        list.push_back(span);
    }
    nlohmann::json request = {
        {"resourceSpans",
         {{{"resource",
            {{"attributes",
              {{{"key", "service.name"}, {"value", {{"stringValue", "fixture-agent"}}}}}}}},
           {"scopeSpans", {{{"scope", {{"name", "fixture"}}}, {"spans", list}}}}}}}};
    return request.dump();
}

inline std::string hexId(uint64_t n, int digits)
{
    char buf[40];
    std::snprintf(buf, sizeof buf, "%0*llx", digits, static_cast<unsigned long long>(n));
    return buf;
}

/// Run `index` of an agent: a root AGENT span with input and output, an LLM span with tokens
/// (prompt 100+index, completion 20) and cost 0.5, and a TOOL span (an error when `failed`).
/// `session`/`user` empty: none.
inline std::vector<FixtureSpan> agentRun(int index, const std::string& session,
                                         const std::string& user, bool failed = false)
{
    const std::string trace = hexId(0xabc000 + uint64_t(index), 32);
    const std::string root = hexId(0x100000 + uint64_t(index) * 16, 16);
    const int64_t t0 = 1764300000000000000LL + int64_t(index) * 60000000000LL;
    FixtureSpan a{trace, root, "", "agent " + std::to_string(index), t0, t0 + 3000000000LL, 0, {}};
    a.attributes = {{"openinference.span.kind", "AGENT"},
                    {"input.value", "question " + std::to_string(index)},
                    {"output.value", "answer " + std::to_string(index)}};
    if (!session.empty())
        a.attributes.push_back({"session.id", session});
    if (!user.empty())
        a.attributes.push_back({"user.id", user});
    FixtureSpan llm{trace,
                    hexId(0x100000 + uint64_t(index) * 16 + 1, 16),
                    root,
                    "chat",
                    t0 + 100000000LL,
                    t0 + 1500000000LL,
                    0,
                    {}};
    llm.attributes = {{"openinference.span.kind", "LLM"},
                      {"llm.model_name", "granite"},
                      {"llm.token_count.prompt", 100 + index},
                      {"llm.token_count.completion", 20},
                      {"llm.cost.total", 0.5}};
    FixtureSpan tool{trace,
                     hexId(0x100000 + uint64_t(index) * 16 + 2, 16),
                     root,
                     "search",
                     t0 + 1600000000LL,
                     t0 + 2500000000LL,
                     failed ? 2 : 0,
                     {}};
    tool.attributes = {{"openinference.span.kind", "TOOL"}, {"tool.name", "search"}};
    return {a, llm, tool};
}

} // namespace hako::test
