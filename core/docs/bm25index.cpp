#include "core/docs/bm25index.h"

#include <algorithm>
#include <cmath>

namespace hako::docs {

namespace {

inline bool isJapanese(char32_t c)
{
    return (c >= 0x3041 && c <= 0x30FF) || (c >= 0x3400 && c <= 0x4DBF) ||
           (c >= 0x4E00 && c <= 0x9FFF) || (c >= 0xF900 && c <= 0xFAFF) || c == 0x3005 ||
           c == 0x3006 || (c >= 0x20000 && c <= 0x3FFFF);
}

constexpr uint64_t kBigramTag = uint64_t(1) << 63;

inline uint64_t wordKey(const std::u32string& w)
{
    uint64_t h = 1469598103934665603ull;
    for (char32_t c : w) {
        h ^= uint64_t(c);
        h *= 1099511628211ull;
    }
    h &= ~kBigramTag;
    return h == 0 ? 1 : h;
}

inline void putVarint(std::vector<uint8_t>& out, uint64_t v)
{
    while (v >= 0x80) {
        out.push_back(uint8_t(v | 0x80));
        v >>= 7;
    }
    out.push_back(uint8_t(v));
}

inline uint64_t getVarint(const uint8_t*& p)
{
    uint64_t v = 0;
    int shift = 0;
    while (*p & 0x80) {
        v |= uint64_t(*p++ & 0x7F) << shift;
        shift += 7;
    }
    v |= uint64_t(*p++) << shift;
    return v;
}

// The slot of the open-addressing term table (a power of two in size, 0 = empty) that holds
// `key`, or the empty slot where it belongs.
size_t probe(const std::vector<uint64_t>& keys, uint64_t key)
{
    const size_t mask = keys.size() - 1;
    size_t slot = size_t((key * 0x9E3779B97F4A7C15ull) >> 20) & mask;
    while (keys[slot] != 0 && keys[slot] != key)
        slot = (slot + 1) & mask;
    return slot;
}

} // namespace

void Bm25Index::Postings::add(uint32_t passage, uint32_t tf)
{
    const uint64_t delta = count == 0 ? passage : passage - last;
    putVarint(bytes, delta << 1 | (tf > 1 ? 1 : 0));
    if (tf > 1)
        putVarint(bytes, tf);
    last = passage;
    ++count;
}

template <typename F> void Bm25Index::Postings::forEach(F&& f) const
{
    const uint8_t* p = bytes.data();
    uint32_t passage = 0;
    for (uint32_t i = 0; i < count; ++i) {
        const uint64_t head = getVarint(p);
        passage += uint32_t(head >> 1);
        const uint32_t tf = (head & 1) ? uint32_t(getVarint(p)) : 1;
        f(passage, tf);
    }
}

qsizetype Bm25Index::passageCount() const
{
    return m_chunks ? qsizetype(m_passages.size()) : m_index->unitCount();
}

Passage Bm25Index::passage(int index) const
{
    if (m_chunks)
        return m_passages[size_t(index)];
    const Unit unit = m_index->unit(index);
    return {unit.normStart, unit.normEnd, unit.line, index};
}

size_t Bm25Index::postingBytes() const
{
    size_t total = 0;
    for (const Postings& p : m_postings)
        total += p.bytes.capacity() + sizeof(Postings);
    return total;
}

void Bm25Index::tokenize(QStringView text, std::vector<uint64_t>& out, bool unigrams)
{
    const qsizetype n = text.size();
    char32_t prev = 0; // previous Japanese character in the current run, 0 outside runs
    bool runHasBigram = false;
    std::u32string word;
    auto endRun = [&] {
        if (prev != 0 && !runHasBigram && !unigrams)
            out.push_back(kBigramTag | (uint64_t(prev) << 21)); // lone character: unigram
        prev = 0;
        runHasBigram = false;
    };
    auto endWord = [&] {
        if (!word.empty()) {
            out.push_back(wordKey(word));
            word.clear();
        }
    };
    for (qsizetype i = 0; i < n; ++i) {
        char32_t c = text[i].unicode();
        if (QChar::isHighSurrogate(c) && i + 1 < n && text[i + 1].isLowSurrogate()) {
            c = QChar::surrogateToUcs4(char16_t(c), text[i + 1].unicode());
            ++i;
        }
        if (isJapanese(c)) {
            endWord();
            if (unigrams)
                out.push_back(kBigramTag | (uint64_t(c) << 21));
            if (prev != 0) {
                out.push_back(kBigramTag | (uint64_t(prev) << 21) | uint64_t(c));
                runHasBigram = true;
            }
            prev = c;
            continue;
        }
        endRun();
        if (QChar::isLetterOrNumber(c)) {
            word.push_back(QChar::toLower(c));
        } else {
            endWord();
        }
    }
    endRun();
    endWord();
}

int Bm25Index::termId(uint64_t key) const
{
    if (m_keys.empty())
        return -1;
    const size_t slot = probe(m_keys, key);
    return m_keys[slot] != 0 ? m_ids[slot] : -1;
}

int Bm25Index::addTerm(uint64_t key)
{
    if (m_free * 2 < m_keys.size() + 2) {
        // Grow to keep the table at most half full.
        std::vector<uint64_t> keys = std::move(m_keys);
        std::vector<int> ids = std::move(m_ids);
        const size_t cap = std::max<size_t>(1024, keys.size() * 2);
        m_keys.assign(cap, 0);
        m_ids.assign(cap, -1);
        m_free = cap;
        for (size_t i = 0; i < keys.size(); ++i) {
            if (keys[i] == 0)
                continue;
            const size_t slot = probe(m_keys, keys[i]);
            m_keys[slot] = keys[i];
            m_ids[slot] = ids[i];
            --m_free;
        }
    }
    const size_t slot = probe(m_keys, key);
    if (m_keys[slot] != 0)
        return m_ids[slot];
    m_keys[slot] = key;
    m_ids[slot] = int(m_postings.size());
    --m_free;
    m_postings.emplace_back();
    return m_ids[slot];
}

std::shared_ptr<const Bm25Index> Bm25Index::build(std::shared_ptr<const DocumentIndex> index,
                                                  std::optional<ChunkPreset> chunks,
                                                  const CancelToken& cancel)
{
    auto bm = std::shared_ptr<Bm25Index>(new Bm25Index);
    bm->m_index = index;
    bm->m_chunks = chunks;
    const QStringView norm(index->normalized().text);
    if (chunks) {
        const qsizetype size = std::max(16, chunks->size);
        const qsizetype step =
            std::max<qsizetype>(1, size - std::clamp(chunks->overlap, 0, int(size) - 1));
        for (qsizetype s = 0; s < norm.size(); s += step) {
            const qsizetype e = std::min(norm.size(), s + size);
            const qsizetype u = index->unitAtNorm(s);
            bm->m_passages.push_back({s, e, index->unit(u).line, -1});
            if (e == norm.size())
                break;
        }
    } else {
        // Passages are the units: passage() reads them from the index instead of a copy.
    }
    std::vector<uint64_t> tokens;
    const size_t count = size_t(bm->passageCount());
    bm->m_lengths.reserve(count);
    double totalLength = 0;
    for (size_t p = 0; p < count; ++p) {
        if ((p & 1023) == 0 && cancel.isCancelled())
            return nullptr;
        const Passage passage = bm->passage(int(p));
        tokens.clear();
        tokenize(norm.sliced(passage.normStart, passage.normEnd - passage.normStart), tokens, true);
        bm->m_lengths.push_back(uint32_t(tokens.size()));
        totalLength += double(tokens.size());
        std::sort(tokens.begin(), tokens.end());
        for (size_t i = 0; i < tokens.size();) {
            size_t j = i + 1;
            while (j < tokens.size() && tokens[j] == tokens[i])
                ++j;
            const int id = bm->addTerm(tokens[i]);
            bm->m_postings[size_t(id)].add(uint32_t(p), uint32_t(j - i));
            i = j;
        }
    }
    // Growing vectors keep up to half their room unused: give it back.
    for (Postings& postings : bm->m_postings)
        postings.bytes.shrink_to_fit();
    bm->m_avgLength = count == 0 ? 1 : totalLength / double(count);
    if (bm->m_avgLength <= 0)
        bm->m_avgLength = 1;
    return bm;
}

std::vector<std::pair<int, int>> Bm25Index::queryTerms(QStringView query) const
{
    std::vector<uint64_t> tokens;
    tokenize(m_index->normalizeTerm(query), tokens);
    std::sort(tokens.begin(), tokens.end());
    std::vector<std::pair<int, int>> terms; // (term id, query frequency)
    for (size_t i = 0; i < tokens.size();) {
        size_t j = i + 1;
        while (j < tokens.size() && tokens[j] == tokens[i])
            ++j;
        const int id = termId(tokens[i]);
        if (id >= 0)
            terms.emplace_back(id, int(j - i));
        i = j;
    }
    return terms;
}

void Bm25Index::accumulate(QStringView query, std::vector<double>& scores,
                           std::vector<uint32_t>& touched) const
{
    const auto terms = queryTerms(query);
    const double n = double(m_lengths.size());
    for (const auto& [id, qf] : terms) {
        const Postings& postings = m_postings[size_t(id)];
        const double df = double(postings.count);
        const double idf = std::log((n - df + 0.5) / (df + 0.5) + 1.0);
        const double weight = qf * idf * (k1 + 1);
        postings.forEach([&](uint32_t passage, uint32_t tf) {
            const double norm = k1 * (1 - b + b * m_lengths[passage] / m_avgLength);
            if (scores[passage] == 0.0)
                touched.push_back(passage);
            scores[passage] += weight * tf / (tf + norm);
        });
    }
}

std::vector<ScoredPassage> Bm25Index::rank(QStringView query, int topK) const
{
    // Dense accumulators: a hash map is several times slower for frequent bigrams.
    std::vector<double> scores(m_lengths.size(), 0.0);
    std::vector<uint32_t> touched;
    accumulate(query, scores, touched);
    std::vector<ScoredPassage> out;
    out.reserve(touched.size());
    for (uint32_t p : touched)
        out.push_back({int(p), scores[p]});
    const size_t k = std::min<size_t>(out.size(), size_t(std::max(0, topK)));
    auto better = [](const ScoredPassage& a, const ScoredPassage& b) {
        return a.score != b.score ? a.score > b.score : a.passage < b.passage;
    };
    std::partial_sort(out.begin(), out.begin() + qsizetype(k), out.end(), better);
    out.resize(k);
    return out;
}

double Bm25Index::score(QStringView query, int passage) const
{
    const auto terms = queryTerms(query);
    const double n = double(m_lengths.size());
    double total = 0;
    for (const auto& [id, qf] : terms) {
        const Postings& postings = m_postings[size_t(id)];
        const double df = double(postings.count);
        uint32_t found = 0;
        postings.forEach([&](uint32_t p, uint32_t tf) {
            if (p == uint32_t(passage))
                found = tf;
        });
        if (found == 0)
            continue;
        const double idf = std::log((n - df + 0.5) / (df + 0.5) + 1.0);
        const double tf = found;
        const double norm = k1 * (1 - b + b * m_lengths[size_t(passage)] / m_avgLength);
        total += qf * idf * tf * (k1 + 1) / (tf + norm);
    }
    return total;
}

std::vector<ScoredPassage> Bm25Index::rankExpanded(const QStringList& queries, int topKPerQuery,
                                                   double threshold) const
{
    std::vector<int> candidates;
    for (const QString& q : queries) {
        for (const ScoredPassage& s : rank(q, topKPerQuery))
            candidates.push_back(s.passage);
    }
    std::sort(candidates.begin(), candidates.end());
    candidates.erase(std::unique(candidates.begin(), candidates.end()), candidates.end());
    // Each query scored over all passages once: looking passages up in compressed postings
    // one by one would scan them again for every candidate.
    std::vector<double> best(candidates.size(), 0.0);
    std::vector<double> scores(m_lengths.size(), 0.0);
    std::vector<uint32_t> touched;
    for (const QString& q : queries) {
        accumulate(q, scores, touched);
        for (size_t i = 0; i < candidates.size(); ++i)
            best[i] = std::max(best[i], scores[size_t(candidates[i])]);
        for (uint32_t p : touched)
            scores[p] = 0.0;
        touched.clear();
    }
    std::vector<ScoredPassage> out;
    for (size_t i = 0; i < candidates.size(); ++i) {
        if (best[i] >= threshold)
            out.push_back({candidates[i], best[i]});
    }
    std::sort(out.begin(), out.end(), [](const ScoredPassage& a, const ScoredPassage& b) {
        return a.score != b.score ? a.score > b.score : a.passage < b.passage;
    });
    return out;
}

} // namespace hako::docs
