#include "cli/notebookcommand.h"

#include "cli/optionparser.h"
#include "cli/output.h"
#include "core/pdl/programcheck.h"
#include "core/run/loggingprovider.h"
#include "core/run/promptlogopener.h"
#include "core/run/runtrust.h"
#include "core/workbench/notebook.h"

#include <QFileInfo>
#include <QSettings>

namespace hako {

namespace {

const char kUsage[] =
    "usage: hako notebook run [--trust] [--sandbox] [--no-log] FILE.ipynb\n"
    "       hako notebook new FILE.ipynb\n"
    "\n"
    "run   runs every %%pdl cell of a Jupyter notebook in order (each sees the variables and\n"
    "      the context the earlier cells left) and writes the outputs back into the file;\n"
    "      stops at the first failing cell (exit 1)\n"
    "new   writes an empty notebook for PDL (opens in Jupyter with the reference's extension)\n"
    "\n"
    "  --trust     run cells that run code or reach servers other than the configured ones\n"
    "              although the notebook's folder is not trusted\n"
    "  --sandbox   run code blocks in the sandbox (bubblewrap)\n"
    "  --no-log    do not record the model calls in the prompt log\n";

struct NotebookArguments {
    QString action;
    QString file;
    bool trust = false;
    bool sandbox = false;
    bool noLog = false;
};

// The trust rule of `hako run` over every PDL cell: one refusal lists every place that needs
// consent, or an empty string.
QString cellsRefusal(const Notebook& notebook, const QString& path, bool sandbox)
{
    QSettings settings(QStringLiteral("Hako"), QStringLiteral("Hako"));
    QStringList sites;
    for (size_t i = 0; i < notebook.cells.size(); ++i) {
        const NotebookCell& cell = notebook.cells[i];
        if (!cell.isPdl())
            continue;
        const QString name = path + QStringLiteral("#%1").arg(i + 1);
        const pdl::ParseResult parsed = pdl::checkProgramText(cell.program().toUtf8(), name);
        if (!parsed.program)
            continue;
        const RunTrustCheck check = checkRunTrust(*parsed.program, path, sandbox, &settings);
        if (check.needsConsent())
            sites += check.describe();
    }
    if (sites.isEmpty())
        return {};
    return QStringLiteral("hako notebook: %1 is in a folder you have not trusted, and it would "
                          "run:\n  %2\nRun it with --trust (once) or --sandbox (code only), or "
                          "trust the folder with `hako run --trust-folder`.\n")
        .arg(QFileInfo(path).fileName(), sites.join(QStringLiteral("\n  ")));
}

int runNotebook(const NotebookArguments& a)
{
    Result<Notebook> read = Notebook::read(a.file);
    if (!read) {
        writeText(stderr, QStringLiteral("hako notebook: %1\n").arg(read.error().toString()));
        return 1;
    }
    Notebook notebook = std::move(read).value();
    if (!a.trust) {
        if (const QString refusal = cellsRefusal(notebook, a.file, a.sandbox); !refusal.isEmpty()) {
            writeText(stderr, refusal);
            return 1;
        }
    }
    RunEnvironment environment;
    environment.sandbox = a.sandbox;
    if (!a.noLog) {
        environment.openPromptLog = lazyPromptLog({}, [](const QString& error) {
            writeText(stderr, QStringLiteral("hako notebook: prompt log: %1\n").arg(error));
        });
        environment.runLog.programPath = QFileInfo(a.file).absoluteFilePath();
        environment.runLog.tags = tagsFromEnvironment() << QStringLiteral("notebook");
    }
    NotebookKernel kernel(environment, a.file);
    int exit = 0;
    int ran = 0;
    for (size_t i = 0; i < notebook.cells.size(); ++i) {
        if (!notebook.cells[i].isPdl())
            continue;
        const NotebookKernel::CellRun run = kernel.run(notebook, int(i));
        ++ran;
        if (!run.ok) {
            writeText(stderr, QStringLiteral("hako notebook: cell %1: %2\n")
                                  .arg(i + 1)
                                  .arg(run.error.toString()));
            exit = 1;
            break;
        }
        writeText(stdout, QStringLiteral("[%1] %2\n").arg(i + 1).arg(run.text));
    }
    QString error;
    if (!notebook.write(a.file, &error)) {
        writeText(stderr,
                  QStringLiteral("hako notebook: cannot write %1: %2\n").arg(a.file, error));
        return 1;
    }
    if (ran == 0)
        writeText(stderr, QStringLiteral("hako notebook: %1 has no %%pdl cells\n").arg(a.file));
    return exit;
}

} // namespace

int notebookCommand(const QStringList& args)
{
    NotebookArguments a;
    OptionParser parser;
    parser.addFlag({QStringLiteral("--trust")}, [&a] { a.trust = true; });
    parser.addFlag({QStringLiteral("--sandbox")}, [&a] { a.sandbox = true; });
    parser.addFlag({QStringLiteral("--no-log")}, [&a] { a.noLog = true; });
    parser.setPositional(
        [&a](const QString& word) {
            (a.action.isEmpty() ? a.action : a.file) = word;
            return QString();
        },
        2);
    const OptionParser::Parsed parsed = parser.parse(args);
    if (std::optional<int> exit =
            OptionParser::finish(parsed, QStringLiteral("hako notebook"), kUsage))
        return *exit;
    if (a.file.isEmpty() ||
        (a.action != QLatin1String("run") && a.action != QLatin1String("new"))) {
        writeText(stderr, QString::fromLatin1(kUsage));
        return 2;
    }
    if (a.action == QLatin1String("new")) {
        if (QFileInfo::exists(a.file)) {
            writeText(stderr, QStringLiteral("hako notebook: %1 exists already\n").arg(a.file));
            return 1;
        }
        Notebook notebook = Notebook::forPdl();
        notebook.cells.push_back(NotebookCell::pdl(QStringLiteral("text: Hello from PDL\n")));
        QString error;
        if (!notebook.write(a.file, &error)) {
            writeText(stderr,
                      QStringLiteral("hako notebook: cannot write %1: %2\n").arg(a.file, error));
            return 1;
        }
        return 0;
    }
    return runNotebook(a);
}

} // namespace hako
