#pragma once
// What the benchmarks read of their own process: memory figures from /proc and scale knobs from
// the environment.

#include <cstdlib>
#include <fstream>
#include <string>

namespace hako::benchproc {

/// A field of /proc/self/status in kB (`VmRSS`: now; `VmHWM`: peak since resetPeak()).
inline long statusKb(const char* key)
{
    std::ifstream f("/proc/self/status");
    std::string line;
    const std::string prefix = std::string(key) + ":";
    while (std::getline(f, line))
        if (line.rfind(prefix, 0) == 0)
            return std::stol(line.substr(prefix.size()));
    return 0;
}

/// Resets the peak RSS (VmHWM) so that a later reading covers only what follows.
inline void resetPeak()
{
    std::ofstream f("/proc/self/clear_refs");
    f << "5";
}

/// The integer in environment variable `name`, or `fallback` when it is unset or empty.
inline int envInt(const char* name, int fallback)
{
    const char* v = std::getenv(name);
    return v && *v ? std::atoi(v) : fallback;
}

} // namespace hako::benchproc
