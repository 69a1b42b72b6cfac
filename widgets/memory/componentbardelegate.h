#pragma once

#include <QStyledItemDelegate>

namespace hako {

/// Paints a candidate's weighted components (CandidateModel::ComponentsRole: recency,
/// importance, relevance) as one stacked horizontal bar scaled to `maxTotal`; cut candidates
/// are drawn faded. GUI thread only.
class ComponentBarDelegate : public QStyledItemDelegate {
    Q_OBJECT
public:
    explicit ComponentBarDelegate(QObject* parent = nullptr);

    /// The sum of weights, i.e. the largest possible score (bars are drawn relative to it).
    void setMaxTotal(double total) { m_maxTotal = total > 0 ? total : 1.0; }
    static QColor colorOf(int component);

    void paint(QPainter* painter, const QStyleOptionViewItem& option,
               const QModelIndex& index) const override;
    QSize sizeHint(const QStyleOptionViewItem& option, const QModelIndex& index) const override;

private:
    double m_maxTotal = 3.0;
};

} // namespace hako
