#include "core/util/logging.h"

namespace hako {
Q_LOGGING_CATEGORY(lcPdl, "hako.pdl")
Q_LOGGING_CATEGORY(lcModels, "hako.models")
Q_LOGGING_CATEGORY(lcDocs, "hako.docs")
Q_LOGGING_CATEGORY(lcMemory, "hako.memory")
Q_LOGGING_CATEGORY(lcApp, "hako.app")
} // namespace hako
