#include "core/util/version.h"

namespace hako {
QString versionString()
{
    return QStringLiteral(HAKO_VERSION);
}
} // namespace hako
