#pragma once

#include "core/eval/dataset.h"
#include "core/eval/experiment.h"
#include "core/eval/suite.h"

#include <QByteArray>
#include <QList>
#include <QString>
#include <QStringList>

#include <optional>

namespace hako {

/// One requirement of a suite and whether an experiment met it.
struct EvalCheck {
    QString name;
    bool ok = true;
    QString detail;
};

/// What `hako eval` reports about one experiment: what ran, the figures, the requirements.
struct EvalOutcome {
    eval::Suite suite;
    eval::ExperimentInfo info;
    eval::Dataset dataset;
    QList<eval::ExampleResult> results;
    QStringList evaluatorNames;
    /// The baseline's results and what it is called (an experiment id, a file, NAME@VERSION).
    QList<eval::ExampleResult> baseline;
    QString baselineName;
    double seconds = 0;
    int ranNow = 0;

    // Filled by judge():
    QList<eval::EvaluatorAggregate> aggregates;
    std::optional<eval::Comparison> comparison;
    QList<EvalCheck> checks;
    bool passed = true;

    /// The aggregates, the comparison with the baseline (when there is one) and every
    /// requirement of the suite checked.
    void judge(bool hasBaseline);
    /// The summary table `hako eval` prints.
    QString summary() const;
    /// The `--json` report.
    QByteArray json() const;
    /// The `--junit` report: one test case per example and evaluator, one per requirement.
    QByteArray junit() const;
};

} // namespace hako
