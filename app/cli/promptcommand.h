#pragma once

#include <QStringList>

namespace hako {
/// `hako prompt list|history|diff|label|get|save|init`: the prompt library (a git repository of
/// programs) from the command line: its prompts, each prompt's versions, a word diff of two
/// versions, labels, and a prompt at a label or version (its program, or its rendered
/// messages). Exit 0, 1 when something asked for does not exist, 2 on bad usage.
int promptCommand(const QStringList& args);
} // namespace hako
