#pragma once

#include "core/pdl/trace/tracediff.h"

#include <QAbstractItemModel>

#include <memory>

namespace hako::pdl {

/// A TraceDiff as one tree model whose rows are the aligned pairs: the left trace's columns,
/// the status, the right trace's columns and the deltas. A row inserted on the right has empty
/// left columns and the other way round, so two tree views over this model (one showing the
/// left columns, one the right) stay aligned row for row and can share a selection model —
/// selecting a node in one selects its counterpart in the other. GUI thread; the diff is an
/// immutable snapshot, replaced as a whole (setDiff resets the model).
class TraceDiffModel : public QAbstractItemModel {
    Q_OBJECT
public:
    enum Column {
        LeftNameColumn,
        LeftResultColumn,
        LeftDurationColumn,
        StatusColumn,
        RightNameColumn,
        RightResultColumn,
        RightDurationColumn,
        TokensDeltaColumn,   ///< tokens of the subtree, right minus left
        DurationDeltaColumn, ///< right minus left
        ColumnCount
    };
    enum Role {
        StatusRole = Qt::UserRole + 1, ///< int (TraceDiff::Status)
        ChangesRole,                   ///< uint (TraceDiff::Change bits)
        DiffersRole,                   ///< bool: the row or something below it differs
        DiffRowRole,                   ///< int: the row's index in TraceDiff::nodes()
        PathRole,                      ///< QString
    };
    Q_ENUM(Role)

    explicit TraceDiffModel(QObject* parent = nullptr);
    ~TraceDiffModel() override;

    /// Shows `diff` (null: empty). `leftName`/`rightName` title the left and right columns.
    void setDiff(std::shared_ptr<const TraceDiff> diff, const QString& leftName = {},
                 const QString& rightName = {});
    void clear() { setDiff(nullptr); }
    const std::shared_ptr<const TraceDiff>& diff() const { return m_diff; }
    QString leftName() const { return m_leftName; }
    QString rightName() const { return m_rightName; }

    /// The model index of the diff's row `diffRow` (see TraceDiff::nodes()).
    QModelIndex indexOfDiffRow(int diffRow, int column = 0) const;
    /// The diff's row of `index`, or -1.
    int diffRow(const QModelIndex& index) const;

    QModelIndex index(int row, int column, const QModelIndex& parent = {}) const override;
    QModelIndex parent(const QModelIndex& child) const override;
    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation,
                        int role = Qt::DisplayRole) const override;

private:
    std::shared_ptr<const TraceDiff> m_diff;
    QString m_leftName;
    QString m_rightName;
};

} // namespace hako::pdl
