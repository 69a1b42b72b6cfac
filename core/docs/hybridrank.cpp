#include "core/docs/hybridrank.h"

#include <algorithm>
#include <cmath>

namespace hako::docs {

namespace {

double cosine(const std::vector<float>& a, const std::vector<float>& b)
{
    const size_t n = std::min(a.size(), b.size());
    double dot = 0;
    double na = 0;
    double nb = 0;
    for (size_t i = 0; i < n; ++i) {
        dot += double(a[i]) * b[i];
        na += double(a[i]) * a[i];
        nb += double(b[i]) * b[i];
    }
    if (na <= 0 || nb <= 0)
        return 0;
    return dot / (std::sqrt(na) * std::sqrt(nb));
}

} // namespace

Result<std::vector<ScoredPassage>> hybridRank(const Bm25Index& bm25, QStringView query,
                                              models::IModelProvider& provider,
                                              const std::string& embeddingModel, int topK,
                                              int candidates, const CancelToken& cancel)
{
    const std::vector<ScoredPassage> lexical = bm25.rank(query, candidates);
    if (lexical.empty())
        return lexical;
    std::vector<std::string> texts;
    texts.reserve(lexical.size() + 1);
    texts.push_back(query.toString().toStdString());
    const QString& norm = bm25.index().normalized().text;
    for (const ScoredPassage& s : lexical) {
        const Passage p = bm25.passage(s.passage);
        // The search copy keeps CRLF line ends; the passage is embedded as with LF.
        texts.push_back(QStringView(norm)
                            .sliced(p.normStart, p.normEnd - p.normStart)
                            .toString()
                            .remove(QLatin1Char('\r'))
                            .toStdString());
    }
    Result<std::vector<std::vector<float>>> vectors = provider.embed(embeddingModel, texts, cancel);
    if (!vectors)
        return vectors.error();
    if (vectors->size() != texts.size())
        return makeError(QStringLiteral("the embedding model returned %1 vectors for %2 texts")
                             .arg(vectors->size())
                             .arg(texts.size()));
    std::vector<std::pair<double, size_t>> semantic; // (similarity, index into lexical)
    for (size_t i = 0; i < lexical.size(); ++i)
        semantic.emplace_back(cosine((*vectors)[0], (*vectors)[i + 1]), i);
    std::stable_sort(semantic.begin(), semantic.end(),
                     [](const auto& a, const auto& b) { return a.first > b.first; });
    constexpr double k = 60;
    std::vector<double> fused(lexical.size(), 0.0);
    for (size_t r = 0; r < lexical.size(); ++r)
        fused[r] += 1.0 / (k + double(r + 1));
    for (size_t r = 0; r < semantic.size(); ++r)
        fused[semantic[r].second] += 1.0 / (k + double(r + 1));
    std::vector<ScoredPassage> out;
    for (size_t i = 0; i < lexical.size(); ++i)
        out.push_back({lexical[i].passage, fused[i]});
    std::stable_sort(out.begin(), out.end(), [](const ScoredPassage& a, const ScoredPassage& b) {
        return a.score > b.score;
    });
    if (out.size() > size_t(std::max(0, topK)))
        out.resize(size_t(std::max(0, topK)));
    return out;
}

} // namespace hako::docs
