#pragma once

#include "core/eval/evaluator.h"

#include <QWidget>

class QCheckBox;
class QComboBox;
class QLabel;
class QLineEdit;
class QProgressBar;
class QPushButton;
class QSpinBox;

namespace hako {

class MessageBar;

/// What an experiment run from the window needs, in plain words: the program to test, the
/// checks to apply to each output (same as the reference, contains it, similar to it, valid
/// JSON, at most N characters, a criterion a judge model checks), and how many examples run at
/// once; Run and Stop with progress. The choices are remembered (QSettings `eval/form/…`).
/// Presentation only: runRequested() carries the evaluator specs; EvalLinks runs them.
class ExperimentForm : public QWidget {
    Q_OBJECT
public:
    explicit ExperimentForm(QWidget* parent = nullptr);

    void setProgramPath(const QString& path);
    QString programPath() const;
    /// The dataset the experiment runs over, as said above the checks.
    void setDatasetName(const QString& name);
    /// The checks chosen, as evaluator specs (`eval::createEvaluator`).
    QList<eval::EvaluatorSpec> evaluators() const;
    QString judgeModel() const;
    int concurrency() const;

    /// Running: Run is off, Stop on, the progress bar shows `done` of `total`.
    void setRunning(bool running);
    void setProgress(int done, int total);
    MessageBar* messageBar() const { return m_messages; }
    QPushButton* runButton() const { return m_run; }
    QPushButton* stopButton() const { return m_stop; }
    QCheckBox* check(const QString& type) const;
    QLineEdit* criterionField() const { return m_criterion; }

Q_SIGNALS:
    void runRequested();
    void stopRequested();

private:
    void remember() const;

    MessageBar* m_messages;
    QLineEdit* m_program;
    QLabel* m_dataset;
    QCheckBox* m_exact;
    QCheckBox* m_contains;
    QCheckBox* m_similar;
    QCheckBox* m_json;
    QCheckBox* m_length;
    QSpinBox* m_maxChars;
    QCheckBox* m_judge;
    QLineEdit* m_criterion;
    QComboBox* m_judgeModel;
    QSpinBox* m_concurrency;
    QPushButton* m_run;
    QPushButton* m_stop;
    QProgressBar* m_progress;
};

} // namespace hako
