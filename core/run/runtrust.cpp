#include "core/run/runtrust.h"

#include "core/models/modelconfig.h"
#include "core/pdl/code/codetrust.h"
#include "core/pdl/parser/programparser.h"

#include <QCoreApplication>
#include <QDir>
#include <QFileInfo>
#include <QProcessEnvironment>
#include <QSet>
#include <QSettings>
#include <QStringList>
#include <QUrl>

#include <algorithm>
#include <functional>
#include <memory>

namespace hako {

namespace {

// "host:port" of a URL, for comparing a block's server with the configured endpoints.
QString hostOf(const QString& url)
{
    const QUrl u(url);
    if (u.host().isEmpty())
        return {};
    return u.host().toLower() + QLatin1Char(':') +
           QString::number(u.port(u.scheme() == QLatin1String("http") ? 80 : 443));
}

// Translated: the workbench shows these in its trust question.
QString siteText(const pdl::code::CodeSite& site)
{
    using Kind = pdl::code::CodeSite::Kind;
    const QString at =
        QStringLiteral("%1:%2").arg(QFileInfo(site.span.file).fileName()).arg(site.span.line);
    switch (site.kind) {
    case Kind::Python:
        return QCoreApplication::translate("hako::RunTrustCheck", "Python code at %1").arg(at);
    case Kind::Command:
        return QCoreApplication::translate("hako::RunTrustCheck", "a command at %1").arg(at);
    case Kind::Pdl:
        return QCoreApplication::translate("hako::RunTrustCheck",
                                           "a program built at run time at %1")
            .arg(at);
    case Kind::Include:
        return QCoreApplication::translate("hako::RunTrustCheck",
                                           "an include that cannot be checked (%1) at %2")
            .arg(QString::fromStdString(site.detail), at);
    case Kind::Host:
        return site.detail.empty() ? QCoreApplication::translate(
                                         "hako::RunTrustCheck",
                                         "model requests to a server chosen at run time at %1")
                                         .arg(at)
                                   : QCoreApplication::translate("hako::RunTrustCheck",
                                                                 "model requests to %1 at %2")
                                         .arg(QString::fromStdString(site.detail), at);
    }
    return at;
}

} // namespace

QStringList RunTrustCheck::describe(int max) const
{
    QStringList lines;
    const size_t shown = std::min<size_t>(sites.size(), size_t(std::max(max, 0)));
    for (size_t i = 0; i < shown; ++i)
        lines << siteText(sites[i]);
    if (sites.size() > shown)
        lines << QCoreApplication::translate("hako::RunTrustCheck", "… and %1 more")
                     .arg(sites.size() - shown);
    return lines;
}

RunTrustCheck checkRunTrust(const pdl::Program& program, const QString& programFile, bool sandbox,
                            QSettings* settings)
{
    RunTrustCheck check;
    check.folder =
        programFile.isEmpty() ? QDir::currentPath() : QFileInfo(programFile).absolutePath();
    if (!programFile.isEmpty() && settings &&
        pdl::code::CodeTrustStore(settings).isTrusted(QFileInfo(programFile).absoluteFilePath()))
        return check;
    auto loader = [](const QString& file) {
        return pdl::parseProgram(file).program;
    };
    if (!sandbox)
        check.sites = pdl::code::findCodeSites(program, loader);
    // Servers the user configured (environment, the user's own model settings; not a file
    // beside this program).
    QSet<QString> known;
    if (Result<models::ModelConfig> config =
            models::ModelConfig::load(QString(), QProcessEnvironment::systemEnvironment(), nullptr,
                                      models::ModelConfig::userFile());
        config.ok())
        for (const auto& listed : config->listedEndpoints())
            known.insert(hostOf(listed.endpoint.baseUrl));
    // A hako-models.yaml beside the program routes model names to servers of its choosing: the
    // program's own choice, like `parameters: {base_url: …}`. With a `read:` of any file it
    // could send that file's content there without running code.
    if (Result<models::ModelConfig> project =
            models::ModelConfig::load(check.folder, QProcessEnvironment::systemEnvironment(),
                                      nullptr, QString(), models::WorkspaceKeys::Refused);
        project.ok()) {
        for (const auto& endpoint : project->projectEndpoints()) {
            if (known.contains(hostOf(endpoint.url)))
                continue;
            pdl::code::CodeSite site{
                pdl::code::CodeSite::Kind::Host, {}, endpoint.url.toStdString()};
            site.span.file = endpoint.file;
            site.span.line = endpoint.line;
            check.sites.push_back(site);
        }
    }
    for (const pdl::code::CodeSite& site : pdl::code::findModelHosts(program, loader)) {
        if (site.kind == pdl::code::CodeSite::Kind::Include && !sandbox)
            continue; // reported by findCodeSites already
        if (site.kind == pdl::code::CodeSite::Kind::Host && !site.detail.empty() &&
            known.contains(hostOf(QString::fromStdString(site.detail))))
            continue;
        check.sites.push_back(site);
    }
    return check;
}

void trustRunFolder(const QString& folder, QSettings* settings)
{
    pdl::code::CodeTrustStore(settings).trustFolder(folder);
    settings->sync();
}

namespace {

using ProgramReader = std::function<std::shared_ptr<const pdl::Program>(const QString& path)>;

// The refusal for `programs`, each read through `read` (null: it does not parse; the run
// reports that).
QString refusalFor(const QStringList& programs, const ProgramReader& read, bool sandbox,
                   bool trustOnce, bool trustFolder, const QString& command)
{
    // Same settings as the workbench (organization and application "Hako").
    QSettings settings(QStringLiteral("Hako"), QStringLiteral("Hako"));
    if (trustFolder) {
        for (const QString& program : programs)
            trustRunFolder(QFileInfo(program).absolutePath(), &settings);
        return {};
    }
    if (trustOnce)
        return {};
    QStringList parts;
    QSet<QString> seen;
    for (const QString& program : programs) {
        const QString path = QFileInfo(program).absoluteFilePath();
        if (seen.contains(path))
            continue;
        seen.insert(path);
        const std::shared_ptr<const pdl::Program> parsed = read(program);
        if (!parsed)
            continue;
        const RunTrustCheck check = checkRunTrust(*parsed, path, sandbox, &settings);
        if (!check.needsConsent())
            continue;
        QStringList lines = check.describe();
        for (QString& line : lines)
            line.prepend(QStringLiteral("  "));
        parts << QStringLiteral("%1: %2 is in a folder you have not trusted (%3) and would run:\n"
                                "%4\n")
                     .arg(command, QFileInfo(program).fileName(),
                          QDir::toNativeSeparators(check.folder), lines.join(QLatin1Char('\n')));
    }
    if (parts.isEmpty())
        return {};
    return parts.join(QString()) +
           QStringLiteral("Run it only if you trust where it comes from: add --trust to run it "
                          "once, or --trust-folder to trust the folder from now on%1.\n")
               .arg(sandbox ? QString() : QStringLiteral("; --sandbox runs its code in a sandbox"));
}

} // namespace

// Refuses rather than asks: `hako run` is used in scripts, and a question on a terminal is easy
// to answer without reading.
QString trustRefusal(const QString& program, bool sandbox, bool trustOnce, bool trustFolder)
{
    return trustRefusal(QStringList{program}, sandbox, trustOnce, trustFolder,
                        QStringLiteral("hako run"));
}

QString trustRefusal(std::shared_ptr<const pdl::Program> program, const QString& programFile,
                     bool sandbox, bool trustOnce, bool trustFolder)
{
    // The run's own parse: the file is not read again (and cannot change in between).
    const ProgramReader given = [program](const QString&) {
        return program;
    };
    return refusalFor(QStringList{programFile}, given, sandbox, trustOnce, trustFolder,
                      QStringLiteral("hako run"));
}

QString trustRefusal(const QStringList& programs, bool sandbox, bool trustOnce, bool trustFolder,
                     const QString& command)
{
    const ProgramReader parse = [](const QString& path) {
        return pdl::parseProgram(path).program;
    };
    return refusalFor(programs, parse, sandbox, trustOnce, trustFolder, command);
}

} // namespace hako
