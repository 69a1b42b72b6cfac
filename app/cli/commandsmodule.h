#pragma once
// libhako_cli holds the command line and `hako run`, on the floors a run needs (core/run); every
// other subcommand, and what only some runs use, lives in libhako_commands (the whole of core/),
// loaded from the same folder the first time one is asked for. So `hako run PROGRAM` of most
// programs loads neither the document, memory, report, evaluation, OpenTelemetry nor library
// floors.

#include "core/util/diagnostic.h"

#include <QString>
#include <QStringList>

#include <memory>

namespace hako::docs {
class DocumentSession;
}
namespace hako::memory {
class MemoryStore;
}
namespace hako::pdl {
struct TraceNode;
}

namespace hako {

/// What `hako run` asks of libhako_commands for the options that need another floor. Any of
/// them on the main thread.
struct RunFeatures {
    /// The file to run for `NAME@LABEL` / `NAME@VERSION` of the prompt library `library` (""
    /// : the default one); `*version` receives the version's commit (--library, hako_library).
    Result<QString> (*libraryFile)(const QString& spec, const QString& library, QString* version);
    /// A document session over `file` (--document), its warnings appended to `*warnings`.
    Result<std::shared_ptr<docs::DocumentSession>> (*openDocument)(const QString& file,
                                                                   QStringList* warnings);
    /// The agent-memory store at `path`, created when missing (--memory).
    Result<std::shared_ptr<memory::MemoryStore>> (*openMemoryStore)(const QString& path);
    /// Why `NAME=VALUE` cannot be sent as a header (--otel-header), or an empty string.
    QString (*otelHeaderProblem)(const QString& header);
    /// Sends the trace as OTLP to `endpoint` with `headers` (--otel-endpoint), or, with an
    /// empty `endpoint`, writes it to `file` (--otel); false with `*error` saying why.
    bool (*exportOtlp)(const pdl::TraceNode& trace, const QString& endpoint,
                       const QStringList& headers, const QString& file, bool content,
                       const QString& programPath, QString* error);
};

using CommandsModuleEntry = int (*)(const QString& name, const QStringList& args);
using RunFeaturesEntry = const RunFeatures* (*)();
inline constexpr const char* kCommandsModuleFile = "libhako_commands.so";
inline constexpr const char* kCommandsModuleEntry = "hakoCommandMain";
inline constexpr const char* kRunFeaturesEntry = "hakoRunFeatures";

/// Runs the subcommand `name` of libhako_commands with `args` (under the QCoreApplication
/// CommandRegistry::run() made); 127 with the reason on stderr when the module cannot be loaded.
int runInCommandsModule(const QString& name, const QStringList& args);
/// libhako_commands' features for `hako run`, loaded on the first call; null with `*error`
/// saying why.
const RunFeatures* runFeatures(QString* error);

} // namespace hako
