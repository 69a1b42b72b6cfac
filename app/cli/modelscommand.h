#pragma once

#include <QStringList>

namespace hako {
/// `hako models [--json] [--workspace DIR]`: lists the models each configured endpoint serves
/// (environment and DIR/hako-models.yaml, DIR defaulting to the current folder). Exit code 0
/// when at least one endpoint answered, 1 when none did, 2 on bad usage or a broken file.
int modelsCommand(const QStringList& args);
} // namespace hako
