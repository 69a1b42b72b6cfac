#include "core/memory/candidatemodel.h"

#include <algorithm>

namespace hako::memory {

CandidateModel::CandidateModel(QObject* parent) : QAbstractTableModel(parent) {}

void CandidateModel::setResult(RetrievalResult result, QHash<int64_t, QString> texts,
                               std::optional<RetrievalResult> baseline)
{
    beginResetModel();
    m_result = std::move(result);
    m_texts = std::move(texts);
    m_hasBaseline = baseline.has_value();
    m_diff = baseline ? diffRetrievals(*baseline, m_result) : RetrievalDiff{};
    // Relevance rank beside prompt order shows how far GA weighting or the seed's re-sort by
    // time moved each memory from where similarity alone would put it.
    std::vector<int> order(m_result.candidates.size());
    for (size_t i = 0; i < order.size(); ++i)
        order[i] = int(i);
    const auto& cs = m_result.candidates;
    std::stable_sort(order.begin(), order.end(), [&cs](int a, int b) {
        return cs[size_t(a)].input.relevance > cs[size_t(b)].input.relevance;
    });
    m_relevanceRank.assign(order.size(), 0);
    for (size_t r = 0; r < order.size(); ++r)
        m_relevanceRank[size_t(order[r])] = int(r) + 1;
    endResetModel();
}

std::array<double, 3> CandidateModel::weighted(const Candidate& c, const RetrievalParams& p)
{
    switch (p.mode) {
    case RetrievalMode::Ga:
        return {p.weights[0] * c.recencyNorm, p.weights[1] * c.importanceNorm,
                p.weights[2] * c.relevanceNorm};
    case RetrievalMode::Seed:
        return {0, 0, std::max(0.0f, c.input.relevance)};
    case RetrievalMode::Recent:
        return {c.score, 0, 0};
    }
    return {0, 0, 0};
}

QString CandidateModel::changeOf(int64_t id) const
{
    if (!m_hasBaseline)
        return {};
    auto has = [id](const std::vector<int64_t>& v) {
        return std::find(v.begin(), v.end(), id) != v.end();
    };
    if (has(m_diff.added))
        return tr("added");
    if (has(m_diff.removed))
        return tr("removed");
    for (const auto& m : m_diff.moved) {
        if (m.id == id)
            return tr("moved %1 → %2").arg(m.fromRank).arg(m.toRank);
    }
    return {};
}

int CandidateModel::rowCount(const QModelIndex& parent) const
{
    return parent.isValid() ? 0 : int(m_result.candidates.size());
}

int CandidateModel::columnCount(const QModelIndex& parent) const
{
    return parent.isValid() ? 0 : ColumnCount;
}

QVariant CandidateModel::data(const QModelIndex& index, int role) const
{
    if (!index.isValid() || size_t(index.row()) >= m_result.candidates.size())
        return {};
    const Candidate& c = m_result.candidates[size_t(index.row())];
    if (role == IdRole)
        return qint64(c.input.id);
    if (role == SelectedRole)
        return c.selected();
    if (role == ComponentsRole) {
        const auto w = weighted(c, m_result.params);
        return QVariantList{w[0], w[1], w[2]};
    }
    if (role == Qt::ToolTipRole) {
        return tr("recency %1 (raw %2, %3 h since access)\nimportance %4 (raw %5)\nrelevance %6 "
                  "(cosine %7)")
            .arg(c.recencyNorm, 0, 'f', 3)
            .arg(c.recency, 0, 'f', 4)
            .arg(c.input.hoursSinceAccess, 0, 'f', 1)
            .arg(c.importanceNorm, 0, 'f', 3)
            .arg(c.input.importance)
            .arg(c.relevanceNorm, 0, 'f', 3)
            .arg(c.input.relevance, 0, 'f', 4);
    }
    if (role != Qt::DisplayRole)
        return {};
    switch (index.column()) {
    case Rank:
        return c.rank;
    case RelevanceRank:
        return m_relevanceRank[size_t(index.row())];
    case PromptOrder:
        return c.promptOrder ? QVariant(c.promptOrder) : QVariant(QStringLiteral("–"));
    case Id:
        return qint64(c.input.id);
    case Score:
        return QString::number(c.score, 'f', 3);
    case Components:
        return {};
    case Change:
        return changeOf(c.input.id);
    case Cut:
        return cutReasonText(c.cut, m_result.params.k);
    case Text:
        return m_texts.value(c.input.id, tr("(memory %1)").arg(c.input.id));
    }
    return {};
}

QVariant CandidateModel::headerData(int section, Qt::Orientation o, int role) const
{
    if (o != Qt::Horizontal || role != Qt::DisplayRole)
        return {};
    static const char* names[] = {
        QT_TR_NOOP("Rank"),   QT_TR_NOOP("Relevance rank"),
        QT_TR_NOOP("Prompt"), QT_TR_NOOP("Id"),
        QT_TR_NOOP("Score"),  QT_TR_NOOP("Recency | Importance | Relevance"),
        QT_TR_NOOP("Change"), QT_TR_NOOP("Cut"),
        QT_TR_NOOP("Text")};
    static_assert(sizeof(names) / sizeof(names[0]) == ColumnCount);
    return section >= 0 && section < ColumnCount ? tr(names[section]) : QVariant();
}

} // namespace hako::memory
