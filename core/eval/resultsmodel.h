#pragma once

#include "core/eval/dataset.h"
#include "core/eval/experiment.h"

#include <QAbstractTableModel>
#include <QHash>
#include <QJsonObject>
#include <QSortFilterProxyModel>
#include <QStringList>

#include <functional>

namespace hako::eval {

/// The results grid: one row per example of an experiment's dataset version, columns for the
/// inputs, reference, output, one score per evaluator, tokens, cost and latency. Fed a snapshot
/// (setExperiment) and then results as they complete (addResults: a row without a result shows
/// as pending until its result comes). With a baseline (setBaseline) the score cells also carry
/// the change against it. GUI thread only; results from the runner's workers arrive through a
/// queued connection.
class ExperimentResultsModel : public QAbstractTableModel {
    Q_OBJECT
public:
    enum FixedColumn { Index, Inputs, Reference, Output, FixedColumns };
    enum Role {
        SortRole = Qt::UserRole + 1,
        ReasoningRole,      ///< a score cell: the evaluator's reasoning; Output: the target's error
        PassRole,           ///< a score cell: true/false, invalid while pending
        ErrorRole,          ///< a score cell: the evaluator could not judge
        DeltaRole,          ///< a score cell: score − baseline score (invalid without a baseline)
        BaselineOutputRole, ///< Output: the baseline's output for the example
        FailingRole,        ///< any column: the row has a failing score or a target error
    };

    explicit ExperimentResultsModel(QObject* parent = nullptr);

    void setExperiment(const QList<Example>& examples, const QStringList& evaluators,
                       const QList<ExampleResult>& results = {});
    /// Adds or replaces results (matched by index), one dataChanged per contiguous run.
    void addResults(const QList<ExampleResult>& results);
    /// Compares with another experiment on the same dataset (matched by example id); empty:
    /// no comparison.
    void setBaseline(const QList<ExampleResult>& baseline);

    QStringList evaluators() const { return m_evaluators; }
    /// The plain-language name of an evaluator in headers and summaries: the experiment form's
    /// name for a kind it offers (`exact_match` → "Same as the reference"), else `name` itself.
    static QString evaluatorTitle(const QString& name);
    /// An example's inputs as a person reads them: `name: value` (texts as they are, lists and
    /// records as JSON), on one line joined by " · ", or each on its own lines.
    static QString readableInputs(const QJsonObject& inputs, bool multiLine);
    /// The column of evaluator `name`, or -1.
    int columnOf(const QString& evaluator) const;
    const ExampleResult* resultAt(int row) const;
    int completed() const { return int(m_results.size()); }

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation o, int role = Qt::DisplayRole) const override;

private:
    int tokensColumn() const { return FixedColumns + int(m_evaluators.size()); }
    bool failing(int row) const;

    QList<Example> m_examples;
    QStringList m_evaluators;
    QHash<int, ExampleResult> m_results;
    QHash<QString, ExampleResult> m_baseline;
};

/// Keeps the rows that fail (a failing score or a target error) when `onlyFailures` is set.
class FailingResultsFilter : public QSortFilterProxyModel {
    Q_OBJECT
public:
    explicit FailingResultsFilter(QObject* parent = nullptr);
    void setOnlyFailures(bool on);
    bool onlyFailures() const { return m_onlyFailures; }

protected:
    bool filterAcceptsRow(int row, const QModelIndex& parent) const override;

private:
    bool m_onlyFailures = false;
};

/// A dataset as an editable table: one row per example, a column per input field (in the
/// schema's order, then any others) and the reference. Cells hold JSON text for non-string
/// values; an edit that does not fit the schema is refused and reported (shapeProblem). Every
/// change is kept in memory; save it as a new version with EvalStore::saveDataset(dataset()).
/// GUI thread only.
class DatasetTableModel : public QAbstractTableModel {
    Q_OBJECT
public:
    explicit DatasetTableModel(QObject* parent = nullptr);

    void setDataset(const Dataset& dataset);
    const Dataset& dataset() const { return m_dataset; }
    /// Whether an edit has not been saved (cleared by setDataset and markSaved).
    bool isModified() const { return m_modified; }
    void markSaved(int version);
    QStringList fields() const { return m_fields; }
    /// Input columns, each change one edit of the table (Dataset::addInput, renameInput,
    /// removeInput); an error says why nothing changed.
    Result<bool> addInput(const QString& name);
    Result<bool> renameInput(const QString& from, const QString& to);
    Result<bool> removeInput(const QString& name);
    /// For a dataset that has no examples and no columns yet: the columns `names` (the inputs
    /// of the prompt it is for). Returns whether columns were added.
    bool suggestInputs(const QStringList& names);

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    bool setData(const QModelIndex& index, const QVariant& value, int role = Qt::EditRole) override;
    Qt::ItemFlags flags(const QModelIndex& index) const override;
    QVariant headerData(int section, Qt::Orientation o, int role = Qt::DisplayRole) const override;
    /// New examples are copies of the row above (or empty), so they fit the schema's shape.
    bool insertRows(int row, int count, const QModelIndex& parent = {}) override;
    bool removeRows(int row, int count, const QModelIndex& parent = {}) override;

Q_SIGNALS:
    /// An edit was refused: why.
    void shapeProblem(const hako::eval::ShapeProblem& problem);

private:
    void computeFields();
    Result<bool> editColumns(const std::function<Result<bool>(Dataset&)>& edit);

    Dataset m_dataset;
    QStringList m_fields;
    bool m_modified = false;
};

} // namespace hako::eval
