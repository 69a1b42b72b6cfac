// Expression engine throughput: cached template evaluation, pre-parsed evaluation, parsing.
#include "core/pdl/expr/expression.h"
#include "core/pdl/expr/template.h"

#include <chrono>
#include <cstdio>
#include <string>
#include <vector>

using namespace hako;
using namespace hako::pdl;

namespace {

template <typename F> double opsPerSecond(F&& body, int iterations)
{
    auto start = std::chrono::steady_clock::now();
    for (int i = 0; i < iterations; ++i)
        body(i);
    std::chrono::duration<double> elapsed = std::chrono::steady_clock::now() - start;
    return iterations / elapsed.count();
}

} // namespace

int main()
{
    MapScope scope;
    scope.set("x", Value(21));
    scope.set("y", Value(4));
    scope.set("name", Value("hako"));
    const std::string text = "${ (x * 2 + y) ~ name | upper }";

    Result<Value> check = evaluateTemplate(text, scope);
    if (!check.ok() || check.value().asString() != "46HAKO") {
        std::fprintf(stderr, "unexpected result\n");
        return 1;
    }

    size_t sink = 0;
    const int n = 2000000;
    double cached = opsPerSecond(
        [&](int) { sink += evaluateTemplate(text, scope).value().asString().size(); }, n);
    std::printf("BENCH expr_eval_cached %.0f ops/s\n", cached);

    expr::TemplatePtr tpl = expr::compileTemplate(text);
    double direct = opsPerSecond(
        [&](int) {
            expr::EvalContext ctx(scope);
            sink += expr::runTemplate(*tpl, text, ctx).asString().size();
        },
        n);
    std::printf("BENCH expr_eval_preparsed %.0f ops/s\n", direct);

    const std::string mixed = "Hello ${ name }, you are ${ x + y } years old.";
    double render = opsPerSecond(
        [&](int) { sink += evaluateTemplate(mixed, scope).value().asString().size(); }, n / 2);
    std::printf("BENCH expr_render_cached %.0f ops/s\n", render);

    const int m = 200000;
    std::vector<std::string> texts;
    texts.reserve(m);
    for (int i = 0; i < m; ++i)
        texts.push_back("${ (x * " + std::to_string(i) + " + y) ~ name | upper }");
    double parse = opsPerSecond(
        [&](int i) {
            sink += expr::compileTemplate(texts[i])->mode == expr::CompiledTemplate::Mode::Single;
        },
        m);
    std::printf("BENCH expr_parse %.0f ops/s\n", parse);

    for (int i = 0; i < m; ++i)
        texts[i] = "Dear ${ name }, item " + std::to_string(i) + " costs ${ x * 2 } and ${ y }.";
    double parseMixed =
        opsPerSecond([&](int i) { sink += expr::compileTemplate(texts[i])->parts.size(); }, m);
    std::printf("BENCH expr_parse_mixed %.0f ops/s\n", parseMixed);

    return sink == 0 ? 1 : 0;
}
