#pragma once

#include <QStringList>

namespace hako {
/// `hako traces FILE [--json] [--filter TEXT] [--sort COLUMN]`: lists the runs of a trace file
/// (every trace of an OTLP file, the one run of a Hako or reference trace): name, status,
/// start, duration, spans, tokens, cost, errors, session and user; with --json a JSON array of
/// one object per run. Exit 0 when listed, 1 when the file cannot be read (the message says
/// where), 2 on bad usage. Never creates a GUI application.
int tracesCommand(const QStringList& args);
} // namespace hako
