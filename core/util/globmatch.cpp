#include "core/util/globmatch.h"

namespace hako {

bool globMatch(std::string_view p, std::string_view s)
{
    size_t pi = 0, si = 0, starP = std::string_view::npos, starS = 0;
    while (si < s.size()) {
        if (pi < p.size() && p[pi] == '[') {
            const size_t close = p.find(']', pi + 1);
            if (close != std::string_view::npos) {
                const std::string_view set = p.substr(pi + 1, close - pi - 1);
                const bool negate = !set.empty() && set[0] == '!';
                bool found = false;
                for (size_t k = negate ? 1 : 0; k < set.size(); ++k) {
                    if (k + 2 < set.size() && set[k + 1] == '-') {
                        found |= s[si] >= set[k] && s[si] <= set[k + 2];
                        k += 2;
                    } else {
                        found |= s[si] == set[k];
                    }
                }
                if (found != negate) {
                    pi = close + 1;
                    ++si;
                    continue;
                }
            }
        } else if (pi < p.size() && (p[pi] == '?' || p[pi] == s[si])) {
            ++pi;
            ++si;
            continue;
        }
        if (pi < p.size() && p[pi] == '*') {
            starP = pi++;
            starS = si;
            continue;
        }
        if (starP != std::string_view::npos) {
            pi = starP + 1;
            si = ++starS;
            continue;
        }
        return false;
    }
    while (pi < p.size() && p[pi] == '*')
        ++pi;
    return pi == p.size();
}

} // namespace hako
