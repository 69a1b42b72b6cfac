#pragma once

#include <QLoggingCategory>

namespace hako {
Q_DECLARE_LOGGING_CATEGORY(lcPdl)
Q_DECLARE_LOGGING_CATEGORY(lcModels)
Q_DECLARE_LOGGING_CATEGORY(lcDocs)
Q_DECLARE_LOGGING_CATEGORY(lcMemory)
Q_DECLARE_LOGGING_CATEGORY(lcApp)
} // namespace hako
