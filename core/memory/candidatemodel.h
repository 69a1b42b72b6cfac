#pragma once

#include "core/memory/retrieval.h"

#include <QAbstractTableModel>
#include <QHash>

namespace hako::memory {

/// The candidates of one retrieval (or a what-if re-run): rank, prompt order, score, the three
/// weighted components, cut reason and text. With a baseline set, a Change column says what
/// moved. GUI thread only; fed whole results.
class CandidateModel : public QAbstractTableModel {
    Q_OBJECT
public:
    enum Column {
        Rank,
        RelevanceRank,
        PromptOrder,
        Id,
        Score,
        Components,
        Change,
        Cut,
        Text,
        ColumnCount
    };
    /// Components: QVariantList of the weighted recency, importance and relevance (or, in seed
    /// mode, just the relevance) for the stacked bar.
    enum Role { ComponentsRole = Qt::UserRole + 1, IdRole, SelectedRole };

    explicit CandidateModel(QObject* parent = nullptr);

    /// `texts` maps memory ids to their text (missing ones show as "(memory N)").
    void setResult(RetrievalResult result, QHash<int64_t, QString> texts,
                   std::optional<RetrievalResult> baseline = std::nullopt);
    const RetrievalResult& result() const { return m_result; }
    const RetrievalDiff& diff() const { return m_diff; }

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation o, int role = Qt::DisplayRole) const override;

    /// The three weighted components of `c` under `params` (recency, importance, relevance).
    static std::array<double, 3> weighted(const Candidate& c, const RetrievalParams& params);

private:
    QString changeOf(int64_t id) const;

    RetrievalResult m_result;
    std::vector<int> m_relevanceRank; // per row: 1-based rank by cosine similarity alone
    QHash<int64_t, QString> m_texts;
    bool m_hasBaseline = false;
    RetrievalDiff m_diff;
};

} // namespace hako::memory
