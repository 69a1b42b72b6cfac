#pragma once

// OTLP/JSON requests for tst_otlpjsonfast (kept out of the test's source, whose raw string
// literals moc does not read).
#include <string>

inline std::string span(const std::string& extra = {})
{
    return R"({"traceId":"0AF7651916CD43DD8448EB211C80319C","spanId":"b7ad6b7169203331",)"
           R"("name":"chat","kind":3,"startTimeUnixNano":"1700000000000000000",)"
           R"("endTimeUnixNano":1700000000900000000,"attributes":[)"
           R"({"key":"gen_ai.request.model","value":{"stringValue":"gpt-4o"}},)"
           R"({"key":"n","value":{"intValue":"42"}},{"key":"t","value":{"doubleValue":0.5}},)"
           R"({"key":"b","value":{"boolValue":true}},)"
           R"({"key":"list","value":{"arrayValue":{"values":[{"stringValue":"a"},)"
           R"({"intValue":7}]}}},{"key":"kv","value":{"kvlistValue":{"values":[)"
           R"({"key":"x","value":{"doubleValue":"NaN"}}]}}},)"
           R"({"key":"raw","value":{"bytesValue":"AAEC"}},{"key":"empty","value":{}}],)"
           R"("events":[{"name":"exception","timeUnixNano":"1700000000100000000",)"
           R"("attributes":[{"key":"exception.message","value":{"stringValue":"boom"}}]}],)"
           R"("status":{"code":"STATUS_CODE_ERROR","message":"failed"})" +
           extra + "}";
}
inline std::string request(const std::string& spans, const std::string& resourceFirst = "1")
{
    const std::string resource =
        R"("resource":{"attributes":[{"key":"service.name","value":{"stringValue":"svc"}}]})";
    const std::string scopes =
        R"("scopeSpans":[{"scope":{"name":"lib","version":"1.0"},"spans":[)" + spans + "]}]";
    return R"({"resourceSpans":[{)" +
           (resourceFirst == "1" ? resource + "," + scopes : scopes + "," + resource) + "}]}";
}
