#pragma once

#include <QString>

namespace hako {
/// The product version, e.g. "0.1.0".
QString versionString();
} // namespace hako
