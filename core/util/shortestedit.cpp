#include "core/util/shortestedit.h"

#include <algorithm>

namespace hako {

bool shortestEdit(const uint64_t* a, int n, const uint64_t* b, int m, int aOff, int bOff,
                  std::vector<EditMatch>& out)
{
    int head = 0;
    while (head < n && head < m && a[head] == b[head])
        ++head;
    int tail = 0;
    while (tail < n - head && tail < m - head && a[n - 1 - tail] == b[m - 1 - tail])
        ++tail;
    for (int i = 0; i < head; ++i)
        out.emplace_back(aOff + i, bOff + i);
    auto emitTail = [&] {
        for (int i = 0; i < tail; ++i)
            out.emplace_back(aOff + n - tail + i, bOff + m - tail + i);
    };
    const uint64_t* x = a + head;
    const uint64_t* y = b + head;
    const int N = n - head - tail;
    const int M = m - head - tail;
    if (N == 0 || M == 0) {
        emitTail();
        return true;
    }
    // Past this many edits (or this much work) the lists are too different for an exact script
    // to be worth its time and memory (the walk keeps O(edits²) numbers).
    const int maxD = std::min(N + M, 2000);
    const int64_t budget = 50'000'000;
    const int offset = maxD + 1;
    std::vector<int> v(size_t(2 * maxD + 3), 0);
    // history[d] holds v[-d..d] as it was before step d (for the walk back).
    std::vector<std::vector<int>> history;
    int found = -1;
    int64_t work = 0;
    for (int d = 0; d <= maxD && found < 0; ++d) {
        history.emplace_back(v.begin() + (offset - d), v.begin() + (offset + d + 1));
        for (int k = -d; k <= d; k += 2) {
            int px;
            if (k == -d || (k != d && v[size_t(offset + k - 1)] < v[size_t(offset + k + 1)]))
                px = v[size_t(offset + k + 1)];
            else
                px = v[size_t(offset + k - 1)] + 1;
            int py = px - k;
            const int startX = px;
            while (px < N && py < M && x[px] == y[py]) {
                ++px;
                ++py;
            }
            work += 1 + (px - startX);
            v[size_t(offset + k)] = px;
            if (px >= N && py >= M) {
                found = d;
                break;
            }
        }
        if (found < 0 && work > budget)
            break;
    }
    if (found < 0) {
        emitTail();
        return false;
    }
    // Walk back from (N, M), collecting the diagonal runs.
    std::vector<EditMatch> rev;
    int px = N, py = M;
    for (int d = found; d >= 0; --d) {
        const int k = px - py;
        if (d == 0) {
            while (px > 0 && py > 0) {
                --px;
                --py;
                rev.emplace_back(px, py);
            }
            break;
        }
        const std::vector<int>& h = history[size_t(d)];
        auto at = [&](int kk) {
            return h[size_t(kk + d)];
        };
        const bool down = k == -d || (k != d && at(k - 1) < at(k + 1));
        const int prevK = down ? k + 1 : k - 1;
        const int prevX = at(prevK);
        const int prevY = prevX - prevK;
        const int startX = down ? prevX : prevX + 1;
        while (px > startX) {
            --px;
            --py;
            rev.emplace_back(px, py);
        }
        px = prevX;
        py = prevY;
    }
    for (auto it = rev.rbegin(); it != rev.rend(); ++it)
        out.emplace_back(aOff + head + it->first, bOff + head + it->second);
    emitTail();
    return true;
}

} // namespace hako
