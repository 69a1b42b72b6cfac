#pragma once

#include <QStringList>

namespace hako {
/// `hako search [--mode seed|context] [--units lines|sentences|paragraphs] [--max-unit N]
/// [--kana] [--expect ANSWER] FILE [COMMAND …]`: runs one command of the document game
/// (`search`, `show`, `answer`, `rank`, `page`, `memo`) on FILE and prints its output; without
/// a command reads commands from stdin, one per line, and after each prints the seed's block
/// (cost so far, input, output). Exit 1 when the file cannot be opened, 2 on bad usage.
int searchCommand(const QStringList& args);
} // namespace hako
