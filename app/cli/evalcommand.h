#pragma once

#include <QStringList>

namespace hako {
/// `hako eval SUITE.yaml [--dataset D] [--target PROGRAM] [--baseline EXPERIMENT|FILE]
/// [--concurrency N] [--fail-under SCORE] [--json FILE] [--junit FILE] …`: runs an evaluation
/// suite without a display (the target program once per example, every evaluator on each
/// output), records the experiment in the eval store, prints a summary table. Exit 0 when every
/// requirement holds, 1 when a threshold is missed, a regression against the baseline exceeds
/// the allowed drop or the run was cut short, 2 on bad usage or a broken suite or dataset.
int evalCommand(const QStringList& args);
} // namespace hako
