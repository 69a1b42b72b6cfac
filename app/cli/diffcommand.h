#pragma once

#include <QStringList>

namespace hako {
/// `hako diff TRACE_A TRACE_B [--json]`: compares two traces (Hako's or the reference's JSON,
/// or OpenTelemetry OTLP) and prints the aligned differences, or with --json a JSON document.
/// Exit 0 when the runs are the same apart from timings, 1 when they differ, 2 on errors
/// (a file that cannot be read or is not a trace, bad usage). Never creates a GUI application.
int diffCommand(const QStringList& args);
} // namespace hako
