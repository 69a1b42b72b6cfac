#pragma once

#include "core/util/diagnostic.h"

#include <QString>
#include <QStringList>

#include <cstdint>

namespace hako::pdl {
struct TraceNode;
}

namespace hako::eval {

/// One step of a run, as trajectory evaluators see it: a model call, a code block or a
/// function call, in execution order.
struct TrajectoryStep {
    QString kind; ///< `model`, `code`, `call`
    /// The block's `def`, else its `description`, else (models) the model's name, else its
    /// trace id.
    QString name;
    QString id; ///< `pdl__id`
    int64_t promptTokens = 0;
    int64_t completionTokens = 0;
};

/// A run's trajectory: its steps, and every block's `def`/`description`/id that ran.
struct Trajectory {
    QList<TrajectoryStep> steps;
    QStringList blocks;
    int modelCalls = 0;
    int64_t tokens = 0;

    static Trajectory fromTrace(const pdl::TraceNode& root);
    /// Reads a trace file (Hako's or the reference's JSON).
    static Result<Trajectory> load(const QString& tracePath);
};

} // namespace hako::eval
