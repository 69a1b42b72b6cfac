#include "core/reports/reportindex.h"

#include "core/docs/document.h"
#include "core/docs/documentindex.h"
#include "core/memory/annindex.h"
#include "core/pdl/model/modelprovider.h"
#include "core/reports/companyname.h"
#include "core/util/outputfile.h"

#include <QCryptographicHash>
#include <QDataStream>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QHash>

#include <algorithm>
#include <cmath>

namespace hako::reports {

namespace {

constexpr size_t kEmbedBatch = 64;

void normalise(std::vector<float>& v)
{
    double sum = 0;
    for (float x : v)
        sum += double(x) * x;
    const double norm = std::sqrt(sum);
    if (norm > 0)
        for (float& x : v)
            x = float(x / norm);
}

QString presetName(docs::ChunkPreset p)
{
    return QStringLiteral("%1/%2").arg(p.size).arg(p.overlap);
}

// Where the embeddings of `chunks` (one report, one chunking) by `model` are kept.
QString vectorFile(const QString& cacheFolder, const QString& model, docs::ChunkPreset preset,
                   const std::vector<ReportChunk>& chunks, size_t from, size_t to)
{
    QCryptographicHash hash(QCryptographicHash::Sha256);
    hash.addData((model + QLatin1Char('\n') + presetName(preset)).toUtf8());
    for (size_t i = from; i < to; ++i) {
        hash.addData(QByteArrayView("\x1f", 1));
        hash.addData(chunks[i].text.toUtf8());
    }
    return QDir(cacheFolder)
        .filePath(QStringLiteral("vectors/%1.vec").arg(QString::fromLatin1(hash.result().toHex())));
}

std::optional<std::vector<std::vector<float>>> readVectors(const QString& path, size_t count)
{
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly))
        return std::nullopt;
    QDataStream in(&file);
    quint32 n = 0;
    quint32 dim = 0;
    in >> n >> dim;
    if (n != count || dim == 0 || dim > 65536)
        return std::nullopt;
    in.setFloatingPointPrecision(QDataStream::SinglePrecision);
    std::vector<std::vector<float>> out(n, std::vector<float>(dim));
    for (auto& v : out)
        for (float& x : v)
            in >> x;
    if (in.status() != QDataStream::Ok)
        return std::nullopt;
    return out;
}

QByteArray vectorBytes(const std::vector<std::vector<float>>& vectors)
{
    QByteArray bytes;
    QDataStream out(&bytes, QIODevice::WriteOnly);
    out.setFloatingPointPrecision(QDataStream::SinglePrecision);
    out << quint32(vectors.size()) << quint32(vectors.empty() ? 0 : vectors.front().size());
    for (const auto& v : vectors)
        for (float x : v)
            out << x;
    return bytes;
}

} // namespace

struct ReportIndex::Store {
    docs::ChunkPreset preset;
    std::vector<ReportChunk> chunks;
    std::vector<std::vector<float>> vectors;
    // One index per company (the chunks' company), labels being chunk numbers.
    std::map<QString, std::unique_ptr<memory::AnnIndex>> byCompany;
};

ReportIndex::~ReportIndex() = default;

std::vector<std::pair<qsizetype, qsizetype>> chunkRanges(const QString& text, int size, int overlap)
{
    std::vector<std::pair<qsizetype, qsizetype>> out;
    if (text.isEmpty() || size <= 0)
        return out;
    const qsizetype step = std::max<qsizetype>(1, size - std::max(0, overlap));
    // Never start or end between the halves of a surrogate pair.
    auto snap = [&](qsizetype i) {
        return (i > 0 && i < text.size() && text.at(i).isLowSurrogate()) ? i + 1 : i;
    };
    for (qsizetype start = 0; start < text.size(); start += step) {
        const qsizetype s = snap(start);
        const qsizetype e = snap(std::min<qsizetype>(text.size(), start + size));
        if (s < e)
            out.emplace_back(s, e);
        if (start + size >= text.size())
            break;
    }
    return out;
}

std::vector<ReportChunk> chunkReport(const ReportFile& report, docs::ChunkPreset chunking)
{
    QString text;
    std::vector<qsizetype> pageStarts;
    for (const QString& page : report.pages) {
        if (!text.isEmpty())
            text += QStringLiteral("\n\n");
        pageStarts.push_back(text.size());
        text += page.trimmed();
    }
    std::vector<ReportChunk> out;
    for (const auto& [start, end] : chunkRanges(text, chunking.size, chunking.overlap)) {
        const QString piece = text.mid(start, end - start).trimmed();
        if (piece.isEmpty())
            continue;
        const auto page = std::upper_bound(pageStarts.begin(), pageStarts.end(), start);
        out.push_back({piece, report.file, int(page - pageStarts.begin()), report.company});
    }
    return out;
}

Result<std::shared_ptr<ReportIndex>>
ReportIndex::build(const std::vector<ReportFile>& reports,
                   std::shared_ptr<models::IModelProvider> provider, const QString& embeddingModel,
                   const QString& cacheFolder, const std::vector<docs::ChunkPreset>& chunkings,
                   const CancelToken& cancel)
{
    std::shared_ptr<ReportIndex> index(new ReportIndex);
    index->m_provider = std::move(provider);
    index->m_model = embeddingModel;
    for (const ReportFile& r : reports)
        if (!r.company.isEmpty() && !index->m_companies.contains(r.company))
            index->m_companies.append(r.company);
    for (docs::ChunkPreset preset : chunkings) {
        auto store = std::make_unique<Store>();
        store->preset = preset;
        for (const ReportFile& r : reports) {
            std::vector<ReportChunk> chunks = chunkReport(r, preset);
            store->chunks.insert(store->chunks.end(), chunks.begin(), chunks.end());
        }
        Result<bool> embedded = index->embedStore(*store, cacheFolder, cancel);
        if (!embedded.ok())
            return embedded.error();
        index->m_stores.push_back(std::move(store));
    }
    return index;
}

Result<bool> ReportIndex::embedStore(Store& store, const QString& cacheFolder,
                                     const CancelToken& cancel)
{
    const auto& chunks = store.chunks;
    store.vectors.assign(chunks.size(), {});
    // The chunks of each report are kept as one file: [from, to) runs of the same file.
    for (size_t from = 0; from < chunks.size();) {
        size_t to = from;
        while (to < chunks.size() && chunks[to].file == chunks[from].file)
            ++to;
        const QString path = vectorFile(cacheFolder, m_model, store.preset, chunks, from, to);
        std::optional<std::vector<std::vector<float>>> kept = readVectors(path, to - from);
        if (!kept) {
            std::vector<std::vector<float>> made;
            for (size_t b = from; b < to; b += kEmbedBatch) {
                if (cancel.isCancelled())
                    return makeError(QStringLiteral("cancelled"));
                std::vector<std::string> texts;
                for (size_t i = b; i < std::min(to, b + kEmbedBatch); ++i)
                    texts.push_back(chunks[i].text.toStdString());
                auto vectors = m_provider->embed(m_model.toStdString(), texts, cancel);
                if (!vectors.ok())
                    return vectors.error();
                if (vectors->size() != texts.size())
                    return makeError(QStringLiteral("embedding model '%1' gave %2 vectors for %3 "
                                                    "texts")
                                         .arg(m_model)
                                         .arg(vectors->size())
                                         .arg(texts.size()));
                m_embedded += int(texts.size());
                made.insert(made.end(), vectors->begin(), vectors->end());
            }
            QString error;
            if (makeOutputFolder(QFileInfo(path).absolutePath(), &error))
                writeOutputFile(path, vectorBytes(made),
                                &error); // a cache: losing it costs time only
            kept = std::move(made);
        }
        for (size_t i = from; i < to; ++i) {
            std::vector<float> v = std::move((*kept)[i - from]);
            normalise(v);
            if (v.empty() || (i > 0 && v.size() != store.vectors[0].size()))
                return makeError(QStringLiteral("embedding model '%1' gave vectors of different "
                                                "sizes")
                                     .arg(m_model));
            store.vectors[i] = std::move(v);
        }
        from = to;
    }
    for (size_t i = 0; i < chunks.size(); ++i) {
        auto& ann = store.byCompany[chunks[i].company];
        if (!ann)
            ann = std::make_unique<memory::AnnIndex>(int(store.vectors[i].size()));
        ann->add(int64_t(i), store.vectors[i].data());
    }
    return true;
}

QStringList ReportIndex::companies() const
{
    return m_companies;
}

std::vector<std::pair<docs::ChunkPreset, int>> ReportIndex::chunkCounts() const
{
    std::vector<std::pair<docs::ChunkPreset, int>> out;
    for (const auto& s : m_stores)
        out.emplace_back(s->preset, int(s->chunks.size()));
    return out;
}

Result<std::vector<ContextChunk>> ReportIndex::context(const QStringList& queries,
                                                       const QStringList& companies, int topK,
                                                       double threshold,
                                                       const CancelToken& cancel) const
{
    std::vector<std::string> texts;
    for (const QString& q : queries)
        if (!q.trimmed().isEmpty())
            texts.push_back(q.toStdString());
    if (texts.empty())
        return std::vector<ContextChunk>{};
    auto queryVectors = m_provider->embed(m_model.toStdString(), texts, cancel);
    if (!queryVectors.ok())
        return queryVectors.error();
    // The companies asked about, as the index writes them; all when none of them is indexed.
    QStringList wanted;
    for (const QString& c : m_companies)
        for (const QString& asked : companies)
            if (sameCompany(c, asked) && !wanted.contains(c))
                wanted.append(c);
    std::vector<ContextChunk> candidates;
    QHash<QString, size_t> seen;
    for (const auto& store : m_stores) {
        for (std::vector<float> q : *queryVectors) {
            normalise(q);
            for (const auto& [company, ann] : store->byCompany) {
                if (!wanted.isEmpty() && !wanted.contains(company))
                    continue;
                if (q.size() != size_t(ann->dimension()))
                    return makeError(QStringLiteral("embedding model '%1' gave a query vector of "
                                                    "another size than the index's")
                                         .arg(m_model));
                for (int64_t id : ann->nearest(q.data(), size_t(topK))) {
                    const ReportChunk& c = store->chunks[size_t(id)];
                    if (seen.contains(c.text))
                        continue;
                    seen.insert(c.text, candidates.size());
                    candidates.push_back({c, 0, store->preset});
                }
            }
        }
    }
    if (candidates.empty())
        return candidates;
    // BM25 over the candidates, one per line (a line is a passage).
    QString lines;
    for (const ContextChunk& c : candidates) {
        QString line = c.chunk.text;
        line.replace(QLatin1Char('\r'), QLatin1Char(' '))
            .replace(QLatin1Char('\n'), QLatin1Char(' '));
        lines += line + QLatin1Char('\n');
    }
    auto document = std::make_shared<const docs::Document>(lines);
    auto bm25 = docs::Bm25Index::build(docs::DocumentIndex::build(document), std::nullopt, cancel);
    if (!bm25 || bm25->passageCount() != qsizetype(candidates.size()))
        return makeError(QStringLiteral("the context could not be scored"));
    double best = 0;
    for (size_t i = 0; i < candidates.size(); ++i) {
        for (const QString& q : queries)
            candidates[i].score = std::max(candidates[i].score, bm25->score(q, int(i)));
        best = std::max(best, candidates[i].score);
    }
    std::vector<ContextChunk> out;
    for (ContextChunk& c : candidates) {
        c.score = best > 0 ? c.score / best : 0;
        if (c.score >= threshold && c.score > 0)
            out.push_back(std::move(c));
    }
    std::stable_sort(out.begin(), out.end(), [](const ContextChunk& a, const ContextChunk& b) {
        return a.score > b.score;
    });
    return out;
}

} // namespace hako::reports
