#pragma once

#include "core/pdl/code/codetrust.h"

#include <QString>
#include <QStringList>

#include <memory>
#include <vector>

class QSettings;

namespace hako {

/// What a run would do that the user must allow first: the trust rule shared by the workbench
/// (which asks) and `hako run` (which refuses). A program from a folder the user has not
/// trusted may not run code (unless code runs in the sandbox) nor send requests to servers
/// other than the configured endpoints.
struct RunTrustCheck {
    /// The program's folder (the current folder for an unsaved program): what "trust the
    /// folder" trusts.
    QString folder;
    /// The places that need consent, in program order; empty when the run may go on.
    std::vector<pdl::code::CodeSite> sites;

    /// Whether the user must be asked (or the run refused) before running.
    bool needsConsent() const { return !sites.empty(); }
    /// One line per site (`Python code at x.pdl:3`, `model requests to http://… at x.pdl:7`),
    /// at most `max` of them and a final `… and N more`.
    QStringList describe(int max = 5) const;
};

/// Applies the trust rule to `program`, parsed from `programFile` (empty: an unsaved program,
/// never trusted; its folder is the current one). Trusted folders come from `settings` (not
/// owned; the workbench's, or "Hako"/"Hako" for the command line); the configured endpoints
/// from the user's model configuration (never a file beside the program). Includes and imports
/// are read through the parser. Any thread, but `settings` only from the thread that owns it.
RunTrustCheck checkRunTrust(const pdl::Program& program, const QString& programFile, bool sandbox,
                            QSettings* settings);

/// Remembers `folder` as trusted in `settings` (what "Trust Folder" and `--trust-folder` do).
void trustRunFolder(const QString& folder, QSettings* settings);

/// The trust rule as the command line applies it (core, so that every runner — `hako run`, and
/// later the evaluation runner — shares it): `--trust` once, `--trust-folder` for good.
/// Returns the refusal to print, or an empty string to go on. Reads and writes the same trusted
/// folders as the workbench (QSettings "Hako"/"Hako").
QString trustRefusal(const QString& program, bool sandbox, bool trustOnce, bool trustFolder);

/// The same rule over a program the caller has parsed already (`hako run` parses once and hands
/// that parse to this check and to the run): `programFile` names its file and folder and is not
/// read again; a null `program` (it did not parse) is never refused, the run reports why.
/// Settings as above.
QString trustRefusal(std::shared_ptr<const pdl::Program> program, const QString& programFile,
                     bool sandbox, bool trustOnce, bool trustFolder);

/// The same rule over every program one command runs (`hako eval`: the target and each judge
/// program), so that none of them runs code or reaches a server the user has not allowed.
/// `--trust-folder` trusts each program's folder. `command` names the command in the refusal
/// ("hako eval"). One refusal lists every program that needs consent.
QString trustRefusal(const QStringList& programs, bool sandbox, bool trustOnce, bool trustFolder,
                     const QString& command);

} // namespace hako
