#pragma once

#include <QList>
#include <QStyledItemDelegate>
#include <QWidget>

namespace hako {

/// A small bar chart of values over time buckets (the Prompt Log's "Over time" charts): a title,
/// the highest value, and one bar per bucket, oldest on the left; a missing value (NaN) leaves a
/// gap. Its accessible description says the same in words. GUI thread.
class TimeChart : public QWidget {
    Q_OBJECT
public:
    explicit TimeChart(const QString& title, QWidget* parent = nullptr);

    /// `format` turns a value into the text of the highest one ("1,234", "85%", "2.4 s");
    /// `bucketLabels` name the buckets (tooltips), as many as `values`.
    void setValues(const QList<double>& values, const QStringList& bucketLabels,
                   std::function<QString(double)> format);
    const QList<double>& values() const { return m_values; }

    QSize sizeHint() const override;
    QSize minimumSizeHint() const override;

protected:
    void paintEvent(QPaintEvent* event) override;
    bool event(QEvent* event) override;

private:
    int bucketAt(const QPoint& pos) const;
    QRect plotRect() const;

    QString m_title;
    QList<double> m_values;
    QStringList m_labels;
    std::function<QString(double)> m_format;
};

/// Paints the StatsTableModel's Trend column (StatsTableModel::SeriesRole) as a sparkline of
/// bars; falls back to the text for anything else.
class SparklineDelegate : public QStyledItemDelegate {
    Q_OBJECT
public:
    using QStyledItemDelegate::QStyledItemDelegate;
    void paint(QPainter* painter, const QStyleOptionViewItem& option,
               const QModelIndex& index) const override;
    QSize sizeHint(const QStyleOptionViewItem& option, const QModelIndex& index) const override;
};

} // namespace hako
