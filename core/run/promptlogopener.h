#pragma once

#include <QString>

#include <functional>
#include <memory>

namespace hako::promptlog {
class PromptLog;
}

namespace hako {

/// For RunEnvironment::openPromptLog: opens the prompt log at `location` (the user's log when
/// empty) when first called, on whatever thread makes the run's first model call, and hands it
/// to the application's main thread (when there is an application) so that it is closed there.
/// A log that cannot be opened is told to `onError` once and the run goes on unrecorded.
/// What `hako run` and the SDK do.
std::function<std::shared_ptr<promptlog::PromptLog>()>
lazyPromptLog(const QString& location, std::function<void(const QString&)> onError);

} // namespace hako
