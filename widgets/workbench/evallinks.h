#pragma once

#include <QObject>

#include <memory>

class QDockWidget;

namespace hako {

class DatasetPane;
class ProgramTabs;
class EvalResultsPane;
class ExperimentForm;
class ExperimentJob;
class RunActions;
class TraceDocks;

namespace eval {
class EvalStore;
}
namespace promptlog {
struct CallRecord;
}

/// The evaluation panes in the window: the Datasets and Evaluations docks share the user's
/// evaluation store (`EvalStore::defaultPath()`, the one `hako eval` writes), opened when either
/// is first shown; Prompt Log › Add to Dataset adds a call to the dataset being edited; an
/// example's trace opens in the trace panes; the Evaluations pane's form runs the Datasets
/// pane's dataset through a program (the editor's by default) as an experiment (ExperimentJob,
/// composed from the workbench's RunEnvironment), its results streaming into the grid and then
/// compared with the experiment shown before. GUI thread; wiring only.
class EvalLinks : public QObject {
    Q_OBJECT
public:
    EvalLinks(DatasetPane* datasets, QDockWidget* datasetsDock, EvalResultsPane* results,
              QDockWidget* resultsDock, TraceDocks* traces, RunActions* run, ProgramTabs* tabs,
              QObject* parent = nullptr);
    ~EvalLinks() override;

    /// Uses `store` instead of the user's (tests).
    void setStore(std::shared_ptr<eval::EvalStore> store);

public Q_SLOTS:
    /// Adds `calls` to the Datasets pane's dataset (their replies as the references) and shows
    /// it.
    void addToDataset(const QList<hako::promptlog::CallRecord>& calls);
    /// Runs the experiment the form describes (what Run Experiment does); false, and why in
    /// the form's message bar, when it cannot start.
    bool runExperiment();
    /// Runs the Datasets pane's dataset through each of `programs` in turn (versions of one
    /// prompt, the older first) with the form's checks, reusing an experiment that already ran
    /// a version, and shows the last compared with the one before it.
    bool runVersions(const QStringList& programs);
    /// Shows the stored experiment `id` in the Evaluations pane.
    void showExperiment(const QString& id);

public:
    /// The evaluation store, opened when first needed (null when it cannot be).
    std::shared_ptr<eval::EvalStore> store();
    ExperimentForm* form() const { return m_form; }
    ExperimentJob* job() const { return m_job; }

Q_SIGNALS:
    void statusMessage(const QString& text, int timeout);

private:
    /// The inputs of the program under test (the form's, else the editor's), by name.
    QStringList programInputs() const;
    bool ensureStore();
    bool startExperiment(const QString& program, bool reuseFinished);
    /// Whether `program` sets one of the dataset's columns itself (then said in the form's
    /// message bar, with "Make It an Input" when the program is the one being edited).
    bool refuseOverwrittenInputs(const QString& program);
    void experimentOver(const QString& id, bool ok, const QString& error);

    DatasetPane* m_datasets;
    QDockWidget* m_datasetsDock;
    EvalResultsPane* m_results;
    QDockWidget* m_resultsDock;
    RunActions* m_run;
    ProgramTabs* m_tabs;
    ExperimentForm* m_form;
    ExperimentJob* m_job;
    QString m_compareWith;
    QStringList m_queue; ///< versions still to run (runVersions())
    std::shared_ptr<eval::EvalStore> m_store;
    bool m_tried = false;
};

} // namespace hako
