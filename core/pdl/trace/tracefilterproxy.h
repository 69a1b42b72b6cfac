#pragma once

#include <QSet>
#include <QSortFilterProxyModel>
#include <QString>

#include <functional>

namespace hako::pdl {

class TraceModel;
struct TraceItem;

/// Filters a TraceModel for the trace tree: a row is shown when it matches every active
/// criterion (text, kinds, def) or when one of its descendants does (recursive filtering), so a
/// hit is always shown with the path that leads to it. With no criteria every row is shown.
/// GUI thread only, like the model it filters; the source must be a TraceModel.
class TraceFilterProxy : public QSortFilterProxyModel {
    Q_OBJECT
public:
    explicit TraceFilterProxy(QObject* parent = nullptr);

    /// Case-insensitive substring of the label (def or kind), the `pdl__id`, the description or
    /// the result text (the error message of a failed block). Empty: no text criterion.
    void setText(const QString& text);
    QString text() const { return m_text; }
    /// Block kind names (`model`, `code`, …) a row may have. Empty: every kind.
    void setKinds(const QSet<QString>& kinds);
    QSet<QString> kinds() const { return m_kinds; }
    /// Case-insensitive substring of the block's `def`. Empty: no def criterion; a non-empty
    /// value never matches blocks without a def.
    void setDef(const QString& def);
    QString def() const { return m_def; }
    /// Only blocks that failed (and their ancestors).
    void setFailedOnly(bool failedOnly);
    bool failedOnly() const { return m_failedOnly; }
    /// A further test a row must pass (annotations: `annotated`, `score:`); null: none.
    using Criterion = std::function<bool(const TraceItem*)>;
    void setCriterion(Criterion criterion);
    /// A short mark after each row's name (an annotation's 👍), in its display text too (what
    /// screen readers read); null or empty: none.
    using Marker = std::function<QString(const TraceItem*)>;
    void setMarker(Marker marker);
    /// The mark of `item` (empty: none).
    QString markerOf(const TraceItem* item) const;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;

    /// Whether `item` itself satisfies the criteria (ignoring its descendants).
    bool matches(const TraceItem* item) const;
    bool isFiltering() const;

    /// The trace item behind a proxy index (null when invalid).
    const TraceItem* itemAt(const QModelIndex& proxyIndex) const;

protected:
    bool filterAcceptsRow(int sourceRow, const QModelIndex& sourceParent) const override;

private:
    QString m_text;
    QSet<QString> m_kinds;
    QString m_def;
    bool m_failedOnly = false;
    Criterion m_criterion;
    Marker m_marker;
};

} // namespace hako::pdl
