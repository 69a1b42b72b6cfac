#pragma once

#include "core/eval/experiment.h"
#include "core/util/latestjob.h"

#include <QWidget>

#include <memory>

class QCheckBox;
class QComboBox;
class QLabel;
class QTextBrowser;
class QSplitter;
class QTableView;

namespace hako::eval {
class EvalStore;
class ExperimentResultsModel;
class FailingResultsFilter;
struct Example;
} // namespace hako::eval

namespace hako {

/// The Evaluation results pane: an experiment's grid of examples × evaluators (scores ✓/✗
/// with the change against a baseline, tokens, cost, latency), a filter to the failures, and
/// below it the text behind the selected cell — a score's reasoning (what "clicking a score
/// shows why" means), or an output beside the reference and the baseline's output with the
/// words that differ marked. Experiments are read from an EvalStore off the GUI thread; the
/// newest request wins. GUI thread only. Not docked anywhere yet: MainWindow decides.
class EvalResultsPane : public QWidget {
    Q_OBJECT
public:
    explicit EvalResultsPane(QWidget* parent = nullptr);
    ~EvalResultsPane() override;

    /// The store whose experiments the pane lists (shared; read off the GUI thread).
    void setStore(std::shared_ptr<eval::EvalStore> store);
    /// Lists the store's experiments again (newest first) and shows the newest.
    void refresh();
    /// Shows an experiment of the store (and compares with `baselineId` when not empty).
    void showExperiment(const QString& id, const QString& baselineId = {});
    /// Shows results directly (a run in progress feeds more with addResults()).
    void setResults(const QList<eval::Example>& examples, const QStringList& evaluators,
                    const QList<eval::ExampleResult>& results,
                    const QList<eval::ExampleResult>& baseline = {});
    void addResults(const QList<eval::ExampleResult>& results);

    /// Puts `widget` (the form that starts experiments) above the results.
    void setSetupWidget(QWidget* widget);

    QTableView* resultsView() const { return m_view; }
    QTextBrowser* detailView() const { return m_detail; }
    QCheckBox* failuresOnly() const { return m_failuresOnly; }
    QComboBox* experimentBox() const { return m_experiments; }
    QComboBox* baselineBox() const { return m_baseline; }
    QLabel* summaryLabel() const { return m_summary; }
    eval::ExperimentResultsModel* model() const { return m_model; }

protected:
    void resizeEvent(QResizeEvent* event) override;

Q_SIGNALS:
    /// The user asked to open an example's trace (double click on its row).
    void traceRequested(const QString& tracePath);

private:
    /// Asks for a new name for the experiment shown and stores it.
    void renameExperiment();
    void showDetail(const QModelIndex& proxyIndex);
    /// The detail of example `row` (0-based): its inputs, output and differences, as HTML.
    QString exampleHtml(int row) const;
    void updateSummary();

    std::shared_ptr<eval::EvalStore> m_store;
    eval::ExperimentResultsModel* m_model;
    eval::FailingResultsFilter* m_filter;
    QTableView* m_view;
    QTextBrowser* m_detail;
    QCheckBox* m_failuresOnly;
    QComboBox* m_experiments;
    QComboBox* m_baseline;
    QLabel* m_summary;
    QSplitter* m_outer = nullptr;
    int m_formHeight = 0;
    QList<eval::Example> m_examples;
    LatestJob m_latest;
};

} // namespace hako
