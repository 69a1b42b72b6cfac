#include "core/run/promptlogopener.h"

#include "core/promptlog/promptlog.h"

#include <QCoreApplication>

namespace hako {

std::function<std::shared_ptr<promptlog::PromptLog>()>
lazyPromptLog(const QString& location, std::function<void(const QString&)> onError)
{
    return [location, onError = std::move(onError)]() -> std::shared_ptr<promptlog::PromptLog> {
        QString error;
        std::unique_ptr<promptlog::PromptLog> log =
            location.isEmpty()
                ? promptlog::PromptLog::openDefault(&error)
                : promptlog::PromptLog::open(location, &error,
                                             promptlog::PromptLogOptions::fromUserSettings());
        if (!error.isEmpty() && onError)
            onError(error);
        // Opened on the run's thread, closed by the main thread when the run's options go.
        if (log && QCoreApplication::instance())
            log->moveToThread(QCoreApplication::instance()->thread());
        return log;
    };
}

} // namespace hako
