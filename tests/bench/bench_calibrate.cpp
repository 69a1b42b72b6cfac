// The machine's speed right now, for the guard (scripts/benchcompare.py): a fixed piece of
// ordinary work — sorting, hashing strings, building text — timed several times. On a shared
// machine every figure moves with the load of the moment; dividing the time figures by how much
// slower this one is than when the baseline was taken keeps the comparison about the code.
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <random>
#include <string>
#include <unordered_map>
#include <vector>

namespace {

double workMs()
{
    const auto start = std::chrono::steady_clock::now();
    std::mt19937 rng(42);
    std::vector<unsigned> numbers(200000);
    for (unsigned& n : numbers)
        n = rng();
    std::sort(numbers.begin(), numbers.end());
    std::unordered_map<std::string, unsigned> counts;
    std::string text;
    for (int i = 0; i < 50000; ++i) {
        const std::string key = "key" + std::to_string(numbers[i] % 50000);
        ++counts[key];
        text += key;
        text += ' ';
    }
    volatile std::size_t sink = counts.size() + text.size();
    (void)sink;
    return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start)
        .count();
}

} // namespace

int main()
{
    std::vector<double> times;
    for (int i = 0; i < 5; ++i)
        times.push_back(workMs());
    std::sort(times.begin(), times.end());
    std::printf("BENCH calibration %.2f ms\n", times[times.size() / 2]);
    return 0;
}
