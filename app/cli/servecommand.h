#pragma once

#include <QStringList>

namespace hako {
/// `hako serve --otlp [ADDR] [--token T] [--log URL|FILE]`: an OTLP/HTTP receiver that writes
/// every received LLM span (OpenInference or GenAI) to the prompt log, until SIGINT/SIGTERM.
/// Exit 0 after a signal, 1 when it cannot listen or open the log, 2 on bad usage.
int serveCommand(const QStringList& args);
} // namespace hako
