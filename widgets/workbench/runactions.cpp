#include "widgets/workbench/runactions.h"

#include "core/pdl/analysis/plainerror.h"
#include "core/pdl/code/codetrust.h"
#include "core/pdl/parser/programparser.h"
#include "core/pdl/programcheck.h"
#include "core/pdl/trace/tracemodel.h"
#include "core/pdl/trace/tracewriter.h"
#include "core/run/runenvironment.h"
#include "core/run/runtrust.h"
#include "core/util/whenready.h"
#include "core/workbench/runarchive.h"
#include "core/workbench/runcontroller.h"
#include "core/workbench/workbenchcontext.h"
#include "widgets/common/messagebar.h"
#include "widgets/editor/editorpane.h"
#include "widgets/editor/pdleditor.h"
#include "widgets/promptview/promptreplies.h"
#include "widgets/promptview/promptview.h"
#include "widgets/settings/modelfailure.h"
#include "widgets/workbench/programtabs.h"
#include "widgets/workbench/tracedocks.h"

#include <QAction>
#include <QDir>
#include <QFileDialog>
#include <QFileInfo>
#include <QInputDialog>
#include <QLineEdit>
#include <QMenu>
#include <QRegularExpression>
#include <QSettings>
#include <QtConcurrent/QtConcurrentRun>

namespace hako {

namespace {
const char* const kSandboxKey = "run/sandbox";
const char* const kTagsKey = "run/tags";
} // namespace

RunActions::RunActions(WorkbenchContext* context, ProgramTabs* tabs, TraceDocks* traces,
                       QSettings* settings, QWidget* window)
    : QObject(window), m_context(context), m_tabs(tabs), m_run(tabs->currentRun()),
      m_editor(tabs->currentEditor()), m_traces(traces), m_settings(settings), m_window(window)
{
    m_runAction = new QAction(QIcon::fromTheme(QStringLiteral("media-playback-start")),
                              tr("&Run Program"), this);
    m_runAction->setShortcut(QKeySequence(Qt::Key_F5));
    m_runAction->setToolTip(tr("Run the program in the editor (F5)"));
    connect(m_runAction, &QAction::triggered, this, [this] { runProgram(); });
    m_stopAction =
        new QAction(QIcon::fromTheme(QStringLiteral("media-playback-stop")), tr("&Stop"), this);
    m_stopAction->setShortcut(QKeySequence(Qt::SHIFT | Qt::Key_F5));
    m_stopAction->setEnabled(false);
    connect(m_stopAction, &QAction::triggered, this, &RunActions::stopProgram);
    m_saveTraceAction = new QAction(tr("Save &Trace As…"), this);
    m_saveTraceAction->setEnabled(false);
    connect(m_saveTraceAction, &QAction::triggered, this, [this] {
        const QFileInfo program(m_editor->filePath());
        const QString suggested = m_editor->filePath().isEmpty()
                                      ? QStringLiteral("trace.json")
                                      : program.path() + QLatin1Char('/') +
                                            program.completeBaseName() +
                                            QStringLiteral("_trace.json");
        const QString path = QFileDialog::getSaveFileName(m_window, tr("Save Trace"), suggested,
                                                          tr("Traces (*.json)"));
        if (!path.isEmpty())
            saveTrace(path);
    });
    m_sandboxAction = new QAction(tr("Run Code Blocks in a &Sandbox"), this);
    m_sandboxAction->setCheckable(true);
    m_sandboxAction->setToolTip(
        tr("Run python and command blocks under bubblewrap: no network, read-only files"));
    m_sandboxAction->setChecked(m_settings->value(QLatin1String(kSandboxKey), false).toBool());
    connect(m_sandboxAction, &QAction::toggled, this,
            [this](bool on) { m_settings->setValue(QLatin1String(kSandboxKey), on); });
    m_tagsAction = new QAction(tr("Run &Tags…"), this);
    m_tagsAction->setToolTip(tr("Tags the prompt log gives the model calls of this window's runs"));
    connect(m_tagsAction, &QAction::triggered, this, [this] {
        // Window-modal and non-blocking: the dialog answers through its signal.
        QInputDialog* dialog = createTagsDialog(m_window);
        connect(dialog, &QInputDialog::textValueSelected, this,
                [this](const QString& tags) { setRunTags(tags); });
        dialog->open();
    });
    m_forgetAction = new QAction(tr("&Forget Trusted Folders"), this);
    connect(m_forgetAction, &QAction::triggered, this, [this] {
        pdl::code::CodeTrustStore store(m_settings);
        for (const QString& folder : store.trustedFolders())
            store.revokeFolder(folder);
        Q_EMIT statusMessage(tr("Programs will ask again before running code"), 4000);
    });

    m_rerunSelectedAction = new QAction(tr("Re-run from &Selected Block"), this);
    m_rerunSelectedAction->setShortcut(QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_F5));
    m_rerunSelectedAction->setToolTip(
        tr("Run the program again: what came before the block selected in the trace is "
           "replayed from the last run, the block and the rest run live"));
    connect(m_rerunSelectedAction, &QAction::triggered, this,
            [this] { rerunFrom(m_context->currentNode()); });
    connect(m_context, &WorkbenchContext::currentNodeChanged, this,
            [this] { updateRerunAction(); });
    connect(m_context, &WorkbenchContext::runningChanged, this, [this] { updateRerunAction(); });
    updateRerunAction();

    connect(m_context, &WorkbenchContext::runningChanged, this, [this](bool running) {
        m_runAction->setEnabled(!running);
        m_stopAction->setEnabled(running);
    });
    for (EditorPane* e : m_tabs->editors())
        addProgram(e, m_tabs->runOf(e));
    connect(m_tabs, &ProgramTabs::programAdded, this, &RunActions::addProgram);
    connect(m_tabs, &ProgramTabs::programRemoved, this, [this](EditorPane*, RunController* run) {
        m_programs.remove(run);
        m_preparing.remove(run);
    });
    connect(m_tabs, &ProgramTabs::currentChanged, this,
            [this](EditorPane* editor, RunController* run) {
                m_editor = editor;
                m_run = run;
                showCurrent();
            });
}

void RunActions::addProgram(EditorPane* editor, RunController* run)
{
    m_programs[run].editor = editor;
    connect(run, &RunController::finished, this,
            [this, run](bool ok, const QString&, const Diagnostic& error) {
                onFinished(run, ok, error);
            });
    connect(editor, &EditorPane::diagnosticsChanged, this, [this, editor, run](int errors, int) {
        if (!m_programs.contains(run))
            return;
        ProgramRun& p = m_programs[run];
        MessageBar* bar = editor->messageBar();
        if (errors == 0 && !p.runError.isEmpty() && bar->text() == p.runError &&
            editor->editor()->text() != p.runText) {
            bar->clearMessage();
            p.runError.clear();
        }
    });
}

void RunActions::showCurrent()
{
    // The panes show the current program's run: its trace, and whether it runs.
    m_traces->setRun(m_run);
    m_context->setRunning(m_run->isRunning());
    m_runAction->setEnabled(!m_run->isRunning());
    m_stopAction->setEnabled(m_run->isRunning());
    m_saveTraceAction->setEnabled(bool(m_run->lastTrace()));
    updateRerunAction();
}

void RunActions::updateRerunAction()
{
    m_rerunSelectedAction->setEnabled(!m_run->isRunning() && m_run->lastTrace() &&
                                      !m_context->currentNode().isEmpty());
}

void RunActions::populateMenu(QMenu* menu)
{
    menu->addAction(m_runAction);
    menu->addAction(m_stopAction);
    menu->addAction(m_rerunSelectedAction);
    menu->addSeparator();
    menu->addAction(m_saveTraceAction);
    menu->addSeparator();
    menu->addAction(m_sandboxAction);
    menu->addAction(m_forgetAction);
    menu->addSeparator();
    menu->addAction(m_tagsAction);
}

QInputDialog* RunActions::createTagsDialog(QWidget* parent)
{
    auto* dialog = new QInputDialog(parent);
    dialog->setObjectName(QStringLiteral("runTagsDialog"));
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    dialog->setWindowTitle(tr("Run Tags"));
    dialog->setLabelText(
        tr("Tags for the model calls of the next runs, separated by spaces or commas\n"
           "(for example prompt:summary env:test). The Prompt Log filters by them."));
    dialog->setTextValue(runTags().join(QLatin1Char(' ')));
    return dialog;
}

RunEnvironment RunActions::environmentFor(const QString& path, QString* logWarning) const
{
    return environmentOf(m_run, m_editor, path, logWarning);
}

RunEnvironment RunActions::environmentOf(RunController* run, EditorPane* editor,
                                         const QString& path, QString* logWarning) const
{
    RunEnvironment environment = run->environment();
    environment.baseFolder = path.isEmpty() ? QDir::currentPath() : QFileInfo(path).absolutePath();
    environment.sandbox = m_sandboxAction->isChecked();
    environment.documentSession = m_context->documentSession();
    environment.memoryStore = m_context->memoryStore();
    // Every model call is recorded in the prompt log, tagged as HAKO_TAGS says.
    environment.promptLog = m_context->promptLog(logWarning);
    environment.traceArchiveFolder = RunArchive::defaultFolder();
    environment.runLog = RunLogInfo();
    environment.runLog.programPath = path;
    // The values of the Prompt view's inputs form are the program's input variables (and are
    // logged with each call, so a call added to a dataset keeps them).
    if (path == editor->filePath())
        environment.runLog.inputs = editor->promptView()->inputValues();
    environment.runLog.tags = tagsFromEnvironment();
    for (const QString& t : runTags())
        if (!environment.runLog.tags.contains(t))
            environment.runLog.tags.append(t);
    return environment;
}

QStringList RunActions::runTags() const
{
    return m_settings->value(QLatin1String(kTagsKey)).toStringList();
}

void RunActions::setRunTags(const QString& tags)
{
    static const QRegularExpression separators(QStringLiteral("[,\\s]+"));
    QStringList list;
    for (const QString& t : tags.split(separators, Qt::SkipEmptyParts))
        if (!list.contains(t))
            list.append(t);
    m_settings->setValue(QLatin1String(kTagsKey), list);
    Q_EMIT statusMessage(list.isEmpty() ? tr("Runs are not tagged")
                                        : tr("Runs are tagged %1").arg(list.join(QLatin1Char(' '))),
                         4000);
}

bool RunActions::askConsent(const QString& path, const RunTrustCheck& check)
{
    if (!check.needsConsent())
        return true;
    const TrustChoice choice = m_trustQuestion ? m_trustQuestion(path, check.folder)
                                               : TrustDialog(path, check, m_window).ask();
    if (choice == TrustChoice::TrustFolder && !path.isEmpty())
        trustRunFolder(check.folder, m_settings);
    return choice != TrustChoice::Cancel;
}

bool RunActions::runProgram()
{
    return startRun(QString());
}

bool RunActions::rerunFrom(const QString& nodeId)
{
    if (!m_run->isRunning() && !m_run->lastTrace()) {
        m_editor->messageBar()->showMessage(
            tr("Run the program first: Re-run from Here replays that run up to the block."),
            MessageBar::Kind::Information);
        return false;
    }
    return startRun(nodeId);
}

bool RunActions::startRun(const QString& rerunNode)
{
    if (m_run->isRunning() || m_preparing.contains(m_run))
        return false;
    // What was just typed in the Prompt view runs too.
    m_editor->promptView()->commitPendingEdits();
    const QString path = m_editor->filePath();
    // Prompt ids are written when the program is saved, never when it runs: a run must not
    // move the author's lines (breakpoints, errors, the trace's source lines).
    const QByteArray text = m_editor->editor()->text().toUtf8();
    const QString fileName = RunController::programFileName(path);
    const bool sandbox = m_sandboxAction->isChecked();
    // The trusted folders are settings of this thread; the rest of the rule reads the
    // program's includes and model files, so it is applied on the worker, to the one parse the
    // run will use.
    const bool trusted =
        !path.isEmpty() &&
        pdl::code::CodeTrustStore(m_settings).isTrusted(QFileInfo(path).absoluteFilePath());
    RunController* run = m_run;
    m_preparing.insert(run);
    whenReady(this, QtConcurrent::run([text, fileName, path, sandbox, trusted] {
                  Prepared prepared;
                  prepared.parsed = pdl::parseProgramText(text, fileName);
                  if (prepared.parsed.program && !trusted)
                      prepared.trust =
                          checkRunTrust(*prepared.parsed.program, path, sandbox, nullptr);
                  return prepared;
              }),
              [this, run, text, path, rerunNode](Prepared prepared) {
                  // The program's tab may have been closed meanwhile (its run is gone with it).
                  if (m_preparing.remove(run) && m_programs.contains(run))
                      launch(run, std::move(prepared), text, path, rerunNode);
              });
    return true;
}

void RunActions::launch(RunController* run, Prepared prepared, const QByteArray& text,
                        const QString& path, const QString& rerunNode)
{
    if (prepared.parsed.program && !askConsent(path, prepared.trust)) {
        Q_EMIT runDeclined();
        return;
    }
    if (!startPrepared(run, std::move(prepared.parsed), text, path, rerunNode))
        return;
    if (run == m_run) {
        m_context->setRunning(run->isRunning());
        m_traces->updateTitle();
        Q_EMIT runStarted();
    }
}

bool RunActions::startPrepared(RunController* run, pdl::ParseResult parsed, const QByteArray& text,
                               const QString& path, const QString& rerunNode)
{
    // A re-run replays the last run: keep it before anything replaces it.
    const pdl::TracePtr previous = run->lastTrace();
    const QString previousRun = run->lastRunId();
    ProgramRun& program = m_programs[run];
    EditorPane* editor = program.editor;
    program.forkOrigin.reset();
    program.forkOriginRun.clear();
    program.forkLine = 0;
    if (!rerunNode.isEmpty() && previous) {
        program.forkOrigin = previous;
        program.forkOriginRun = previousRun;
        const std::string id = rerunNode.toStdString();
        const std::function<const pdl::TraceNode*(const pdl::TraceNode&)> find =
            [&](const pdl::TraceNode& n) -> const pdl::TraceNode* {
            if (n.id == id)
                return &n;
            for (const auto& field : n.children)
                for (const pdl::TracePtr& c : field.nodes)
                    if (const pdl::TraceNode* hit = c ? find(*c) : nullptr)
                        return hit;
            return nullptr;
        };
        if (const pdl::TraceNode* node = find(*previous))
            program.forkLine = node->span.line;
    }

    editor->messageBar()->clearMessage();
    program.runError.clear();
    program.runText = QString::fromUtf8(text);
    // The document and memory store open in their panes are the program's `doc`, `memory` and
    // `thread` (as `hako run --document/--memory`): the same session, so what the program asks
    // shows in the Documents pane. The provider is made on the run's worker.
    QString logWarning;
    RunEnvironment environment = environmentOf(run, editor, path, &logWarning);
    if (!logWarning.isEmpty())
        editor->messageBar()->showMessage(tr("The prompt log: %1").arg(logWarning),
                                          MessageBar::Kind::Warning);
    run->setEnvironment(std::move(environment));
    if (run == m_run)
        m_traces->showRunTrace();
    // Said before starting: a program that cannot be parsed finishes inside start(), and its
    // "Run failed" must not be replaced by a "Running…" that nothing would clear.
    if (rerunNode.isEmpty()) {
        Q_EMIT statusMessage(tr("Running…"), 0);
        return run->start(std::move(parsed), path);
    }
    Q_EMIT statusMessage(tr("Re-running from %1 (what came before is replayed)…").arg(rerunNode),
                         0);
    QString error;
    if (!previous ||
        !run->startRerun(std::move(parsed), path, *previous, previousRun, rerunNode, &error)) {
        editor->messageBar()->showMessage(tr("Cannot re-run from here: %1").arg(error));
        Q_EMIT statusMessage(QString(), 0);
        return false;
    }
    return true;
}

void RunActions::reportFork(RunController* run)
{
    const ProgramRun& program = m_programs[run];
    if (!program.forkOrigin || run->forkedFromRun().isEmpty() || !run->lastTrace())
        return;
    const QString originalName = program.forkOriginRun.isEmpty()
                                     ? tr("the previous run")
                                     : tr("run %1").arg(program.forkOriginRun.left(8));
    // A re-run whose program changed before the chosen block says where the replay ended.
    const QString text =
        !run->rerunDivergedAt().isEmpty()
            ? tr("Forked from %1: the program changed at line %2 since that run, so it was "
                 "replayed up to there and the rest ran live.")
                  .arg(originalName)
                  .arg(run->rerunDivergedSpan().line)
            : tr("Forked from %1 at line %2: what came before was replayed from that run, "
                 "the rest ran live.")
                  .arg(originalName)
                  .arg(program.forkLine);
    const pdl::TracePtr original = program.forkOrigin;
    const pdl::TracePtr rerun = run->lastTrace();
    const QString rerunName = tr("re-run from line %1").arg(program.forkLine);
    program.editor->messageBar()->showMessage(
        text, MessageBar::Kind::Information, tr("Compare with the Original"),
        [this, original, rerun, originalName, rerunName] {
            Q_EMIT compareRunsRequested(original, rerun, originalName, rerunName);
        });
}

void RunActions::stopProgram()
{
    m_run->stop();
}

void RunActions::onFinished(RunController* run, bool ok, const Diagnostic& error)
{
    if (!m_programs.contains(run))
        return; // its program was closed
    ProgramRun& program = m_programs[run];
    EditorPane* editor = program.editor;
    const bool current = run == m_run;
    if (current) {
        m_context->setRunning(false);
        m_traces->updateTitle();
        m_saveTraceAction->setEnabled(bool(run->lastTrace()));
        updateRerunAction();
    }
    // Each card of the Prompt view shows its block's latest reply (or error).
    if (const pdl::TracePtr trace = run->lastTrace())
        editor->promptView()->setReplies(repliesFromTrace(*trace, editor->filePath()));
    // A program in the background names itself.
    const QString name = current ? QString() : editor->displayName() + QStringLiteral(": ");
    if (ok || run->wasStopped()) {
        reportFork(run);
        Q_EMIT statusMessage(name + (ok ? tr("Run finished") : tr("Stopped")), 4000);
        return;
    }
    Q_EMIT statusMessage(name + tr("Run failed"), 4000);
    const bool inEditor = error.span.file == editor->filePath() || editor->filePath().isEmpty();
    MessageBar* bar = editor->messageBar();
    if (isModelCallFailure(error, inEditor ? editor->editor()->text() : QString())) {
        program.runError = modelCallFailureText(error);
        bar->showMessage(program.runError, MessageBar::Kind::Error, tr("Configure models…"),
                         [this] { Q_EMIT configureModelsRequested(); });
        bar->setDetail(error.message);
    } else {
        const QString where =
            error.span.isValid()
                ? tr("Line %1, column %2: ").arg(error.span.line).arg(error.span.column)
                : QString();
        // Plain words first (a misspelt name gets its "did you mean"), the interpreter's own
        // wording folded under Details.
        const auto report = editor->editor()->report();
        const pdl::PlainError plain =
            pdl::plainRunError(error, inEditor && report ? report->scopes.get() : nullptr);
        program.runError = where + plain.text;
        bar->showMessage(program.runError, MessageBar::Kind::Error);
        bar->setDetail(plain.detail);
    }
    // The failing block is shown in the editor (when it is in this file) and in the trace.
    if (error.span.isValid() && inEditor && current)
        m_context->revealSource(error.span, this);
}

bool RunActions::saveTrace(const QString& path)
{
    const pdl::TracePtr trace = m_run->lastTrace();
    if (!trace) {
        m_editor->messageBar()->showMessage(tr("There is no run whose trace could be saved."));
        return false;
    }
    QString error;
    if (!pdl::writeTraceFile(*trace, path, &error)) {
        m_editor->messageBar()->showMessage(
            tr("Cannot save the trace to %1: %2").arg(QDir::toNativeSeparators(path), error));
        return false;
    }
    Q_EMIT statusMessage(tr("Saved trace %1").arg(QDir::toNativeSeparators(path)), 4000);
    return true;
}

} // namespace hako
