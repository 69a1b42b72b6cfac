// Output parsers and Jinja statement templates: tolerant JSON over a 1 MB model-style reply
// (prose, a fence, single quotes, trailing commas, Python literals, comments), strict JSON of
// the same size, regex findall, and a 1,000-item Jinja for loop (loop.*, a filter, an if).
#include "core/pdl/expr/jinjatemplate.h"
#include "core/pdl/parsers/outputparser.h"
#include "core/pdl/parsers/pyregex.h"
#include "core/pdl/parsers/tolerantjson.h"

#include <chrono>
#include <cstdio>
#include <string>

using namespace hako;
using namespace hako::pdl;

namespace {

template <typename F> double secondsPerRun(F&& body, int runs)
{
    auto start = std::chrono::steady_clock::now();
    for (int i = 0; i < runs; ++i)
        body();
    std::chrono::duration<double> elapsed = std::chrono::steady_clock::now() - start;
    return elapsed.count() / runs;
}

std::string llmReply(size_t bytes)
{
    std::string s = "Sure! Here is the data you asked for, as JSON:\n\n```json\n[\n";
    for (int i = 0; s.size() < bytes; ++i) {
        s += "  {'id': " + std::to_string(i) + ", name: 'item " + std::to_string(i) +
             "', \"tags\": [\"a\", \"b\",], 'ok': True, 'note': None, // generated\n"
             "   \"score\": " +
             std::to_string(i % 97) + ".5, \"text\": \"line with \\\"quotes\\\" and \\u00e9\",},\n";
    }
    s += "]\n```\n\nLet me know if you need anything else.";
    return s;
}

std::string strictJson(size_t bytes)
{
    std::string s = "[";
    for (int i = 0; s.size() < bytes; ++i) {
        if (i)
            s += ",";
        s += "{\"id\": " + std::to_string(i) +
             ", \"name\": \"item\", \"tags\": [\"a\", \"b\"], \"ok\": true, \"score\": 1.5}";
    }
    return s + "]";
}

} // namespace

int main()
{
    const std::string reply = llmReply(1 << 20);
    Result<Value> check = parsers::parseTolerantJson(reply);
    if (!check.ok() || !check->isList() || check->asList().size() < 1000) {
        std::fprintf(stderr, "unexpected tolerant result: %s\n",
                     check.ok() ? check->typeName() : qPrintable(check.error().message));
        return 1;
    }
    const double mb = double(reply.size()) / (1 << 20);
    double t = secondsPerRun([&] { (void)parsers::parseTolerantJson(reply); }, 10);
    std::printf("BENCH json_tolerant_1mb_llm_reply %.1f ms\n", t * 1000);
    std::printf("BENCH json_tolerant_throughput %.1f MB/s\n", mb / t);

    const std::string strict = strictJson(1 << 20);
    t = secondsPerRun([&] { (void)parsers::parseTolerantJson(strict); }, 10);
    std::printf("BENCH json_strict_1mb %.1f ms\n", t * 1000);

    std::string numbers;
    for (int i = 0; numbers.size() < (1 << 20); ++i)
        numbers += "value " + std::to_string(i) + " and ";
    ParserSpec findall;
    findall.kind = ParserSpec::Kind::Regex;
    findall.regex = "[0-9]+";
    findall.mode = "findall";
    t = secondsPerRun([&] { (void)parseOutput(findall, numbers); }, 5);
    std::printf("BENCH regex_findall_1mb %.1f ms\n", t * 1000);

    List items;
    for (int i = 0; i < 1000; ++i) {
        Dict item;
        item.set("name", Value("item " + std::to_string(i)));
        item.set("price", Value(i * 0.25));
        items.emplace_back(std::move(item));
    }
    MapScope scope;
    scope.set("items", Value(std::move(items)));
    const std::string loop = "Items:\n{% for it in items %}\n  {{ loop.index }}. {{ it.name | "
                             "upper }}{% if not loop.last %},{% endif %} {{ it.price }}\n"
                             "{% endfor %}\nTotal: {{ items | length }}\n";
    JinjaOptions trim;
    trim.trimBlocks = true;
    trim.lstripBlocks = true;
    Result<std::string> rendered = renderJinja(loop, scope, trim);
    if (!rendered.ok() || rendered->find("1000. ITEM 999 249.75") == std::string::npos) {
        std::fprintf(stderr, "unexpected render: %s\n",
                     rendered.ok() ? rendered->substr(0, 200).c_str()
                                   : qPrintable(rendered.error().message));
        return 1;
    }
    t = secondsPerRun([&] { (void)renderJinja(loop, scope, trim); }, 200);
    std::printf("BENCH jinja_for_1000_items %.3f ms\n", t * 1000);
    return 0;
}
