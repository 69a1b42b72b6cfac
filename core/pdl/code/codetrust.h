#pragma once

#include "core/pdl/ast/block.h"
#include "core/util/diagnostic.h"

#include <QString>
#include <QStringList>

#include <functional>
#include <memory>
#include <string>
#include <vector>

class QSettings;

namespace hako::pdl::code {

/// A place in a program that runs code on the user's machine.
struct CodeSite {
    enum class Kind {
        Python,  ///< `lang: python` (also the default lang)
        Command, ///< `lang: command` or the `args: […]` form
        Pdl,     ///< `lang: pdl`: a program built at run time, which may run anything
        Include, ///< an include/import that could not be checked (no loader, or unreadable)
        Host     ///< a model block choosing its own server (`parameters: {base_url: …}`)
    };
    Kind kind;
    SourceSpan span;
    /// For Include: the path as written. For Host: the URL ("" when it is computed at run
    /// time, or the whole `parameters` is).
    std::string detail;
};

/// Loads an included/imported program by absolute path for the check; null when it cannot.
/// (`parseProgram(path).program` is the usual implementation.)
using ProgramLoader = std::function<std::shared_ptr<const Program>(const QString& path)>;

/// Every code site in `program` and, through `loader`, in the files it includes or imports
/// (paths relative to the including file, `.pdl` added to imports as the interpreter does; each
/// file checked once). Without a loader, or when a file cannot be loaded, each include/import
/// is itself reported as a site: what it would run is unknown, so the answer errs on the side of
/// asking. `lang: jinja` is not a site (templates run in Hako's own engine). Pure; thread-safe.
std::vector<CodeSite> findCodeSites(const Program& program, const ProgramLoader& loader = {});

/// The model blocks of `program` (and of the files it includes or imports) that send their
/// requests to a server of their own choosing: `parameters` with `base_url` or `api_base`, or
/// `parameters` computed at run time (which may set them). Unloadable includes are reported as
/// Include sites, as in findCodeSites(). Pure; thread-safe.
std::vector<CodeSite> findModelHosts(const Program& program, const ProgramLoader& loader = {});

/// Whether running `program` may run python, commands or a run-time PDL program.
bool programRunsCode(const Program& program, const ProgramLoader& loader = {});

/// The folders whose programs the user allowed to run code without asking, remembered in
/// QSettings (key `codeTrust/folders`). Trusting a folder trusts everything below it. Paths are
/// compared after resolving symbolic links.
///
/// The QSettings is not owned and must outlive the store (tests pass one on a temporary file).
/// Use from one thread (normally the GUI thread), like the QSettings it wraps.
class CodeTrustStore {
public:
    explicit CodeTrustStore(QSettings* settings);

    /// Whether the program file's folder (or a folder above it) is trusted.
    bool isTrusted(const QString& programFile) const;
    void trustFolder(const QString& folder);
    /// Removes exactly this folder (not the folders above it); returns whether it was there.
    bool revokeFolder(const QString& folder);
    QStringList trustedFolders() const;

    /// The GUI's question: ask before running `program` when it runs code and its file is not
    /// trusted.
    bool needsConfirmation(const Program& program, const ProgramLoader& loader = {}) const;

private:
    QSettings* m_settings;
};

} // namespace hako::pdl::code
