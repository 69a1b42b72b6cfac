#pragma once

#include <QWidget>

#include <memory>

class QItemSelectionModel;
class QLabel;
class QLayout;
class QModelIndex;
class QPushButton;
class QStackedWidget;
class QTextBrowser;
class QToolButton;
class QTreeView;

namespace hako {

class MessageBar;
class TraceDiffTint;

namespace pdl {
class TraceDiff;
class TraceDiffModel;
} // namespace pdl

/// Two traces side by side: the left trace's tree and the right trace's tree over one
/// TraceDiffModel, row for row aligned (an inserted block has an empty row on the left, a
/// deleted one on the right), changed rows tinted yellow, inserted green, deleted red. The two
/// trees share one selection model (selecting a block selects its counterpart), expand and
/// scroll together. Below, the selected pair's result as a word diff, its prompt message by
/// message, and its duration, token and cost deltas. Without a diff it says what to do and
/// offers "Compare Traces…" (compareRequested). Presentation only; GUI thread.
class TraceDiffView : public QWidget {
    Q_OBJECT
public:
    explicit TraceDiffView(QWidget* parent = nullptr);
    ~TraceDiffView() override;

    /// Shows `diff` (null: the empty state); the names title the two trees. The first
    /// difference is revealed and selected.
    void setDiff(std::shared_ptr<const pdl::TraceDiff> diff, const QString& leftName,
                 const QString& rightName);
    void clear();
    /// Shows a problem (a trace that could not be read) above the view, non-modally.
    void showError(const QString& message);
    /// Says that a comparison is being prepared (cleared by setDiff/showError).
    void showBusy(const QString& message);

    pdl::TraceDiffModel* model() const { return m_model; }
    QTreeView* leftTree() const { return m_left; }
    QTreeView* rightTree() const { return m_right; }
    QTextBrowser* detail() const { return m_detail; }
    QItemSelectionModel* selectionModel() const { return m_selection; }
    MessageBar* messageBar() const { return m_message; }
    /// True while the empty state ("Choose two traces to compare") is shown.
    bool isEmptyStateShown() const;
    QString emptyStateText() const;

    /// Selects (and reveals) the diff's row `diffRow` in both trees.
    void selectDiffRow(int diffRow);
    /// The diff's row of the current selection, or -1.
    int currentDiffRow() const;

public Q_SLOTS:
    /// Selects the next (previous) changed, inserted or deleted block in tree order.
    void nextDifference();
    void previousDifference();

Q_SIGNALS:
    /// The empty state's button was pressed: the owner asks for two traces.
    void compareRequested();

private:
    QWidget* buildEmptyPage();
    QWidget* buildComparisonPage();
    QLayout* buildNavigationBar(QWidget* content);
    void onCurrentChanged(const QModelIndex& current);
    void updateDetail(int diffRow);
    void updateSummary();
    void stepDifference(int direction);

    pdl::TraceDiffModel* m_model;
    TraceDiffTint* m_tint;
    QItemSelectionModel* m_selection;
    QStackedWidget* m_stack;
    QLabel* m_empty;
    QPushButton* m_compare;
    MessageBar* m_message;
    QLabel* m_summary;
    QToolButton* m_next;
    QToolButton* m_previous;
    QTreeView* m_left;
    QTreeView* m_right;
    QTextBrowser* m_detail;
    bool m_syncing = false;
};

} // namespace hako
