// Throughput of common builtins called directly (no parsing): prints BENCH lines.

#include "core/pdl/expr/builtins.h"

#include <chrono>
#include <cstdio>
#include <functional>

using namespace hako::pdl;

namespace {

void bench(const char* name, int iterations, const std::function<void()>& fn)
{
    fn(); // warm up static tables
    auto start = std::chrono::steady_clock::now();
    for (int i = 0; i < iterations; ++i)
        fn();
    double secs = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    std::printf("BENCH %s %.0f ops/s\n", name, iterations / secs);
}

} // namespace

int main()
{
    Value text("The quick brown fox jumps over the lazy dog");
    List people;
    for (int i = 0; i < 100; ++i)
        people.push_back(Value(Dict{{Value("name"), Value("p" + std::to_string(i % 37))},
                                    {Value("age"), Value(i % 50)}}));
    Value list(people);

    auto upper = builtins::findFilter("upper");
    bench("builtins_filter_upper", 500000, [&] { upper(text, {}); });

    CallArgs sortArgs;
    sortArgs.keyword.emplace_back("attribute", Value("name"));
    auto sort = builtins::findFilter("sort");
    bench("builtins_filter_sort_100_dicts", 5000, [&] { sort(list, sortArgs); });

    CallArgs splitArgs;
    splitArgs.positional.push_back(Value(" "));
    bench("builtins_method_split", 200000, [&] { builtins::callMethod(text, "split", splitArgs); });

    CallArgs fmtArgs;
    fmtArgs.positional = {Value(3.14159), Value("x"), Value(42)};
    bench("builtins_str_format", 200000,
          [&] { builtins::strFormat("{:.2f} {!r} {:>5d}", fmtArgs); });

    bench("builtins_percent_format", 200000, [&] {
        builtins::percentFormat("%s-%05.1f", Value::tuple({Value("a"), Value(2.5)}));
    });

    CallArgs tojsonArgs;
    auto tojson = builtins::findFilter("tojson");
    bench("builtins_filter_tojson_100_dicts", 5000, [&] { tojson(list, tojsonArgs); });
    return 0;
}
