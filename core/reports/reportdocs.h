#pragma once

#include "core/pdl/lang/builtindocs.h"

#include <QList>

namespace hako::reports {

/// Hover and completion help for the `report` object (registered by
/// RunEnvironment::registerBindingDocs).
QList<pdl::BuiltinDoc> reportBuiltinDocs();

} // namespace hako::reports
