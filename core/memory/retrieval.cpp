#include "core/memory/retrieval.h"

#include <QJsonArray>
#include <QtEndian>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>

namespace hako::memory {

QString modeName(RetrievalMode m)
{
    switch (m) {
    case RetrievalMode::Seed:
        return QStringLiteral("seed");
    case RetrievalMode::Ga:
        return QStringLiteral("ga");
    case RetrievalMode::Recent:
        return QStringLiteral("recent");
    }
    return {};
}

std::optional<RetrievalMode> modeFromName(const QString& name)
{
    if (name == QLatin1String("seed"))
        return RetrievalMode::Seed;
    if (name == QLatin1String("ga"))
        return RetrievalMode::Ga;
    if (name == QLatin1String("recent"))
        return RetrievalMode::Recent;
    return std::nullopt;
}

QString cutReasonText(CutReason r, int k)
{
    switch (r) {
    case CutReason::None:
        return {};
    case CutReason::BelowTopK:
        return QStringLiteral("below top %1").arg(k);
    case CutReason::NoEmbedding:
        return QStringLiteral("no embedding from the query's model");
    case CutReason::NotNearest:
        return QStringLiteral("not among the approximate index's nearest");
    }
    return {};
}

QJsonObject RetrievalParams::toJson() const
{
    QJsonObject o;
    o[QStringLiteral("mode")] = modeName(mode);
    o[QStringLiteral("k")] = k;
    o[QStringLiteral("decay")] = decay;
    o[QStringLiteral("weights")] = QJsonArray{weights[0], weights[1], weights[2]};
    if (!agent.isEmpty())
        o[QStringLiteral("agent")] = agent;
    o[QStringLiteral("what_if")] = whatIf;
    o[QStringLiteral("now")] = formatTime(now);
    return o;
}

RetrievalParams RetrievalParams::fromJson(const QJsonObject& o)
{
    RetrievalParams p;
    p.mode = modeFromName(o.value(QStringLiteral("mode")).toString()).value_or(RetrievalMode::Seed);
    p.k = o.value(QStringLiteral("k")).toInt(defaultK(p.mode));
    p.decay = o.value(QStringLiteral("decay")).toDouble(0.995);
    const QJsonArray w = o.value(QStringLiteral("weights")).toArray();
    for (int i = 0; i < 3 && i < w.size(); ++i)
        p.weights[size_t(i)] = w.at(i).toDouble(1.0);
    p.agent = o.value(QStringLiteral("agent")).toString();
    p.whatIf = o.value(QStringLiteral("what_if")).toBool();
    p.now = parseTime(o.value(QStringLiteral("now")).toString()).value_or(0);
    return p;
}

const Candidate* RetrievalResult::find(int64_t id) const
{
    for (const Candidate& c : candidates) {
        if (c.input.id == id)
            return &c;
    }
    return nullptr;
}

namespace {

// Min-max normalisation as Generative Agents does it, with max == min giving the midpoint.
struct Range {
    double lo = std::numeric_limits<double>::infinity();
    double hi = -std::numeric_limits<double>::infinity();
    void add(double v)
    {
        lo = std::min(lo, v);
        hi = std::max(hi, v);
    }
    float norm(double v) const { return hi - lo > 0 ? float((v - lo) / (hi - lo)) : 0.5f; }
};

} // namespace

RetrievalResult rankCandidates(std::vector<CandidateInput> inputs, const RetrievalParams& params)
{
    RetrievalResult result;
    result.params = params;
    const size_t n = inputs.size();
    const bool needsEmbedding = params.mode != RetrievalMode::Recent;
    result.candidates.resize(n);
    Range rel, rec, imp, created;
    for (size_t i = 0; i < n; ++i) {
        Candidate& c = result.candidates[i];
        c.input = inputs[i];
        c.recency = float(std::pow(params.decay, double(c.input.hoursSinceAccess)));
        if (c.input.hasEmbedding)
            rel.add(c.input.relevance);
        rec.add(c.recency);
        imp.add(c.input.importance);
        created.add(double(c.input.createdAt));
        if (needsEmbedding && !c.input.hasEmbedding)
            c.cut = CutReason::NoEmbedding;
        else if (needsEmbedding && !c.input.nearest)
            c.cut = CutReason::NotNearest;
    }
    const auto& w = params.weights;
    for (Candidate& c : result.candidates) {
        c.relevanceNorm = c.input.hasEmbedding ? rel.norm(c.input.relevance) : 0.0f;
        c.recencyNorm = rec.norm(c.recency);
        c.importanceNorm = imp.norm(c.input.importance);
        switch (params.mode) {
        case RetrievalMode::Seed:
            c.score = c.input.relevance;
            break;
        case RetrievalMode::Ga:
            c.score =
                float(w[0] * c.recencyNorm + w[1] * c.importanceNorm + w[2] * c.relevanceNorm);
            break;
        case RetrievalMode::Recent:
            c.score = created.norm(double(c.input.createdAt));
            break;
        }
    }
    // Eligible candidates first; then by score (recent: by time), lowest id on ties so that a
    // replay ranks exactly as the original did. Sorting small indices and permuting once is
    // much cheaper than moving whole candidates around at 100,000 of them.
    const bool recent = params.mode == RetrievalMode::Recent;
    std::vector<uint32_t> order(n);
    for (size_t i = 0; i < n; ++i)
        order[i] = uint32_t(i);
    const std::vector<Candidate>& cs = result.candidates;
    std::sort(order.begin(), order.end(), [&cs, recent](uint32_t ia, uint32_t ib) {
        const Candidate& a = cs[ia];
        const Candidate& b = cs[ib];
        const bool ea = a.cut == CutReason::None, eb = b.cut == CutReason::None;
        if (ea != eb)
            return ea;
        if (recent) {
            if (a.input.createdAt != b.input.createdAt)
                return a.input.createdAt > b.input.createdAt;
            return a.input.id > b.input.id;
        }
        if (a.score != b.score)
            return a.score > b.score;
        return a.input.id < b.input.id;
    });
    {
        std::vector<Candidate> sorted;
        sorted.reserve(n);
        for (uint32_t i : order)
            sorted.push_back(cs[i]);
        result.candidates = std::move(sorted);
    }
    const int k = std::max(0, params.k);
    std::vector<Candidate*> selected;
    for (size_t i = 0; i < n; ++i) {
        Candidate& c = result.candidates[i];
        c.rank = int(i) + 1;
        if (c.cut != CutReason::None)
            continue;
        if (int(selected.size()) < k)
            selected.push_back(&c);
        else
            c.cut = CutReason::BelowTopK;
    }
    if (params.mode != RetrievalMode::Ga) {
        // Seed and recent: the prompt reads oldest first.
        std::stable_sort(selected.begin(), selected.end(),
                         [](const Candidate* a, const Candidate* b) {
                             if (a->input.createdAt != b->input.createdAt)
                                 return a->input.createdAt < b->input.createdAt;
                             return a->input.id < b->input.id;
                         });
    }
    for (size_t i = 0; i < selected.size(); ++i) {
        selected[i]->promptOrder = int(i) + 1;
        result.promptOrder.push_back(selected[i]->input.id);
    }
    return result;
}

RetrievalDiff diffRetrievals(const RetrievalResult& before, const RetrievalResult& after)
{
    auto selectedByRank = [](const RetrievalResult& r) {
        std::vector<int64_t> ids;
        for (const Candidate& c : r.candidates) {
            if (c.selected())
                ids.push_back(c.input.id);
        }
        return ids;
    };
    const std::vector<int64_t> a = selectedByRank(before);
    const std::vector<int64_t> b = selectedByRank(after);
    RetrievalDiff d;
    for (size_t j = 0; j < b.size(); ++j) {
        const auto it = std::find(a.begin(), a.end(), b[j]);
        if (it == a.end())
            d.added.push_back(b[j]);
        else if (size_t(it - a.begin()) != j)
            d.moved.push_back({b[j], int(it - a.begin()) + 1, int(j) + 1});
        else
            d.kept.push_back(b[j]);
    }
    for (int64_t id : a) {
        if (std::find(b.begin(), b.end(), id) == b.end())
            d.removed.push_back(id);
    }
    return d;
}

namespace {

constexpr int kRowSize = 8 + 8 + 4 * 8 + 4 + 4 + 1 + 1; // + flags byte

template <typename T> void put(char*& p, T v)
{
    if constexpr (std::is_floating_point_v<T>) {
        uint32_t bits;
        std::memcpy(&bits, &v, 4);
        qToLittleEndian(bits, p);
        p += 4;
    } else {
        qToLittleEndian(v, p);
        p += sizeof(T);
    }
}

template <typename T> T get(const char*& p)
{
    if constexpr (std::is_floating_point_v<T>) {
        const uint32_t bits = qFromLittleEndian<uint32_t>(p);
        p += 4;
        float f;
        std::memcpy(&f, &bits, 4);
        return f;
    } else {
        const T v = qFromLittleEndian<T>(p);
        p += sizeof(T);
        return v;
    }
}

} // namespace

QByteArray encodeCandidates(const std::vector<Candidate>& candidates)
{
    QByteArray out(qsizetype(candidates.size()) * kRowSize, Qt::Uninitialized);
    char* p = out.data();
    for (const Candidate& c : candidates) {
        put<int64_t>(p, c.input.id);
        put<int64_t>(p, c.input.createdAt);
        put<float>(p, c.input.hoursSinceAccess);
        put<float>(p, c.input.relevance);
        put<float>(p, c.input.importance);
        put<float>(p, c.recency);
        put<float>(p, c.relevanceNorm);
        put<float>(p, c.recencyNorm);
        put<float>(p, c.importanceNorm);
        put<float>(p, c.score);
        put<int32_t>(p, c.rank);
        put<int32_t>(p, c.promptOrder);
        put<uint8_t>(p, uint8_t(c.cut));
        put<uint8_t>(p, uint8_t((c.input.hasEmbedding ? 1 : 0) | (c.input.nearest ? 2 : 0)));
    }
    return out;
}

std::vector<Candidate> decodeCandidates(const QByteArray& data)
{
    std::vector<Candidate> out(size_t(data.size() / kRowSize));
    const char* p = data.constData();
    for (Candidate& c : out) {
        c.input.id = get<int64_t>(p);
        c.input.createdAt = get<int64_t>(p);
        c.input.hoursSinceAccess = get<float>(p);
        c.input.relevance = get<float>(p);
        c.input.importance = get<float>(p);
        c.recency = get<float>(p);
        c.relevanceNorm = get<float>(p);
        c.recencyNorm = get<float>(p);
        c.importanceNorm = get<float>(p);
        c.score = get<float>(p);
        c.rank = get<int32_t>(p);
        c.promptOrder = get<int32_t>(p);
        const uint8_t cut = get<uint8_t>(p);
        c.cut = cut <= uint8_t(CutReason::NotNearest) ? CutReason(cut) : CutReason::BelowTopK;
        const uint8_t flags = get<uint8_t>(p);
        c.input.hasEmbedding = flags & 1;
        c.input.nearest = flags & 2;
    }
    return out;
}

QJsonObject candidateToJson(const Candidate& c, const RetrievalParams& params)
{
    QJsonObject o;
    o[QStringLiteral("id")] = qint64(c.input.id);
    o[QStringLiteral("created_at")] = formatTime(c.input.createdAt);
    o[QStringLiteral("rank")] = c.rank;
    o[QStringLiteral("prompt_order")] =
        c.promptOrder == 0 ? QJsonValue() : QJsonValue(c.promptOrder);
    o[QStringLiteral("selected")] = c.selected();
    if (!c.selected())
        o[QStringLiteral("cut")] = cutReasonText(c.cut, params.k);
    o[QStringLiteral("score")] = double(c.score);
    QJsonObject raw;
    raw[QStringLiteral("recency")] = double(c.recency);
    raw[QStringLiteral("hours_since_access")] = double(c.input.hoursSinceAccess);
    raw[QStringLiteral("importance")] = double(c.input.importance);
    raw[QStringLiteral("relevance")] =
        c.input.hasEmbedding ? QJsonValue(double(c.input.relevance)) : QJsonValue();
    o[QStringLiteral("raw")] = raw;
    QJsonObject norm;
    norm[QStringLiteral("recency")] = double(c.recencyNorm);
    norm[QStringLiteral("importance")] = double(c.importanceNorm);
    norm[QStringLiteral("relevance")] = double(c.relevanceNorm);
    o[QStringLiteral("normalised")] = norm;
    return o;
}

// Compiled twice, picked at load time by CPU: the AVX2/FMA copy halves the scoring time on
// machines that have it, the default keeps the binary portable.
__attribute__((target_clones("avx2,fma", "default"))) float dot(const float* a, const float* b,
                                                                size_t n)
{
    // GCC vector types: two independent 8-wide sums the compiler maps onto whatever SIMD the
    // target has, without -ffast-math (which it would need to reassociate a single sum).
    typedef float v8 __attribute__((vector_size(32)));
    v8 s0 = {0, 0, 0, 0, 0, 0, 0, 0};
    v8 s1 = s0;
    size_t i = 0;
    for (; i + 16 <= n; i += 16) {
        v8 a0, b0, a1, b1;
        std::memcpy(&a0, a + i, sizeof(v8));
        std::memcpy(&b0, b + i, sizeof(v8));
        std::memcpy(&a1, a + i + 8, sizeof(v8));
        std::memcpy(&b1, b + i + 8, sizeof(v8));
        s0 += a0 * b0;
        s1 += a1 * b1;
    }
    const v8 s = s0 + s1;
    float total = ((s[0] + s[1]) + (s[2] + s[3])) + ((s[4] + s[5]) + (s[6] + s[7]));
    for (; i < n; ++i)
        total += a[i] * b[i];
    return total;
}

float cosine(const float* a, const float* b, size_t n)
{
    const float na = std::sqrt(dot(a, a, n));
    const float nb = std::sqrt(dot(b, b, n));
    if (na == 0 || nb == 0)
        return 0;
    return dot(a, b, n) / (na * nb);
}

std::vector<float> normalized(std::vector<float> v)
{
    const float len = std::sqrt(dot(v.data(), v.data(), v.size()));
    if (len > 0) {
        for (float& f : v)
            f /= len;
    }
    return v;
}

} // namespace hako::memory
