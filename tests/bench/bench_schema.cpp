// Validates a 1,000-element array of 10-property objects against a compiled JSON Schema.

#include "core/pdl/types/jsonschema.h"

#include <nlohmann/json.hpp>

#include <chrono>
#include <cstdio>

using namespace hako::pdl;

namespace {

const char* kSchema = R"({
    "type": "array",
    "items": {
        "type": "object",
        "required": ["id", "name", "email", "age", "score", "active", "role", "tags"],
        "properties": {
            "id": {"type": "integer", "minimum": 1},
            "name": {"type": "string", "minLength": 1, "maxLength": 100},
            "email": {"type": "string", "pattern": "^[^@\\s]+@[^@\\s]+\\.[a-z]+$"},
            "age": {"type": "integer", "minimum": 0, "maximum": 150},
            "score": {"type": "number", "minimum": 0, "maximum": 100},
            "active": {"type": "boolean"},
            "role": {"enum": ["admin", "user", "guest"]},
            "tags": {"type": "array", "items": {"type": "string"}, "maxItems": 10,
                     "uniqueItems": true},
            "rating": {"type": "number", "multipleOf": 0.5},
            "created": {"type": "string", "format": "date"}
        },
        "additionalProperties": false
    }
})";

Value makeInstance(bool withErrors)
{
    static const char* roles[] = {"admin", "user", "guest"};
    nlohmann::json items = nlohmann::json::array();
    for (int i = 0; i < 1000; ++i) {
        nlohmann::json o = {
            {"id", i + 1},
            {"name", "user number " + std::to_string(i)},
            {"email", "user" + std::to_string(i) + "@example.com"},
            {"age", 18 + i % 80},
            {"score", (i % 1000) / 10.0},
            {"active", i % 2 == 0},
            {"role", roles[i % 3]},
            {"tags", {"t" + std::to_string(i % 7), "common"}},
            {"rating", (i % 10) * 0.5},
            {"created", "2024-01-01"},
        };
        if (withErrors && i % 100 == 0)
            o["age"] = 200;
        items.push_back(o);
    }
    return Value::fromJson(items);
}

template <typename F> double averageMs(int runs, F&& f)
{
    auto start = std::chrono::steady_clock::now();
    for (int i = 0; i < runs; ++i)
        f();
    std::chrono::duration<double, std::milli> elapsed = std::chrono::steady_clock::now() - start;
    return elapsed.count() / runs;
}

} // namespace

int main()
{
    const Value schemaValue = Value::fromJson(nlohmann::json::parse(kSchema));
    const Value valid = makeInstance(false);
    const Value invalid = makeInstance(true);

    auto compiled = JsonSchema::compile(schemaValue);
    if (!compiled) {
        std::fprintf(stderr, "compile failed: %s\n", qPrintable(compiled.error().message));
        return 1;
    }
    if (!compiled->validate(valid).empty() || compiled->validate(invalid).size() != 10) {
        std::fprintf(stderr, "unexpected validation result\n");
        return 1;
    }

    size_t sink = 0; // printed below so the work cannot be optimised away
    const double compileMs =
        averageMs(2000, [&] { sink += JsonSchema::compile(schemaValue).ok(); });
    const double validateMs = averageMs(200, [&] { sink += compiled->validate(valid).size(); });
    const double invalidMs = averageMs(200, [&] { sink += compiled->validate(invalid).size(); });

    std::printf("BENCH schema_compile_10props %.4f ms\n", compileMs);
    std::printf("BENCH schema_validate_1000x10 %.3f ms\n", validateMs);
    std::printf("BENCH schema_validate_1000x10_with_errors %.3f ms\n", invalidMs);
    std::fprintf(stderr, "(checksum %zu)\n", sink);
    return 0;
}
