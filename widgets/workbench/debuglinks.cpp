#include "widgets/workbench/debuglinks.h"

#include "core/pdl/expr/expression.h"

#include "core/pdl/trace/tracemodel.h"
#include "core/workbench/runcontroller.h"
#include "core/workbench/workbenchcontext.h"
#include "widgets/debug/debugpane.h"
#include "widgets/editor/editorpane.h"
#include "widgets/editor/pdleditor.h"
#include "widgets/workbench/programtabs.h"
#include "widgets/workbench/runactions.h"

#include <QAction>
#include <QDockWidget>
#include <QFileInfo>
#include <QInputDialog>
#include <QLineEdit>
#include <QMenu>
#include <QToolBar>

namespace hako {

DebugLinks::DebugLinks(ProgramTabs* tabs, RunActions* runActions, QObject* parent)
    : QObject(parent), m_run(tabs->currentRun()), m_runActions(runActions),
      m_editor(tabs->currentEditor()), m_pane(new DebugPane)
{
    m_pane->setObjectName(QStringLiteral("debugPane"));
    auto action = [this](const QString& text, const QKeySequence& key, auto slot) {
        auto* a = new QAction(text, this);
        a->setShortcut(key);
        connect(a, &QAction::triggered, this, slot);
        return a;
    };
    m_debug = action(tr("&Debug Program"), QKeySequence(Qt::Key_F6), [this] { debugProgram(); });
    m_debug->setToolTip(tr("Run the program in the editor under the debugger (F6)"));
    m_continue =
        action(tr("&Continue"), QKeySequence(Qt::Key_F8), [this] { m_run->continueRun(); });
    // F5 as well, as in VS Code: Run (F5) is off while the program runs, Continue only on
    // while it is paused, so they never share the key.
    m_continue->setShortcuts({QKeySequence(Qt::Key_F8), QKeySequence(Qt::Key_F5)});
    m_stepOver = action(tr("Step &Over"), QKeySequence(Qt::Key_F10), [this] { m_run->stepOver(); });
    m_stepInto = action(tr("Step &Into"), QKeySequence(Qt::Key_F11), [this] { m_run->stepInto(); });
    m_stepOut = action(tr("Step O&ut"), QKeySequence(Qt::SHIFT | Qt::Key_F11),
                       [this] { m_run->stepOut(); });
    m_pause = action(tr("&Pause"), QKeySequence(), [this] { m_run->pauseRun(); });
    m_toggleBreakpoint = action(tr("Toggle &Breakpoint"), QKeySequence(Qt::Key_F9), [this] {
        int line = 0, index = 0;
        m_editor->editor()->getCursorPosition(&line, &index);
        m_editor->editor()->toggleBreakpoint(line + 1);
    });
    m_runToCursor = action(tr("Run to &Cursor"), QKeySequence(Qt::CTRL | Qt::Key_F10), [this] {
        m_run->runToLine(programFile(), m_editor->editor()->cursorLineColumn().first);
    });
    m_runToCursor->setToolTip(tr("Go on until the block on the cursor's line (Ctrl+F10)"));
    m_condition = action(tr("Breakpoint Con&dition…"), QKeySequence(), [this] {
        const int line = m_editor->editor()->cursorLineColumn().first;
        const QString current = m_editor->editor()->breakpointCondition(line);
        const std::optional<QString> condition =
            m_askCondition ? m_askCondition(line, current) : askCondition(line, current);
        if (!condition)
            return;
        // Refused at once, where the person typed it, rather than at the next run.
        if (const QString problem = conditionProblem(*condition); !problem.isEmpty()) {
            Q_EMIT statusMessage(problem, 8000);
            return;
        }
        m_editor->editor()->setBreakpointCondition(line, *condition);
    });
    m_condition->setToolTip(
        tr("Pause on the cursor's line only when an expression is true, e.g. i == 3"));
    m_pauseOnError = new QAction(tr("Pause on &Errors"), this);
    m_pauseOnError->setCheckable(true);
    m_pauseOnError->setChecked(true);
    connect(m_pauseOnError, &QAction::toggled, this,
            [this](bool on) { m_run->setPauseOnError(on); });
    m_pauseBeforeModel = new QAction(tr("Pause Before &Model Calls"), this);
    m_pauseBeforeModel->setCheckable(true);
    connect(m_pauseBeforeModel, &QAction::toggled, this,
            [this](bool on) { m_run->setPauseBeforeModelCalls(on); });
    connect(m_pane, &DebugPane::setVariableRequested, this,
            [this](const QString& name, const QString& value) { m_run->setVariable(name, value); });
    connect(
        m_pane, &DebugPane::setContextMessageRequested, this,
        [this](int index, const QString& content) { m_run->setContextMessage(index, content); });
    connect(m_pane, &DebugPane::answerRequested, this,
            [this](const QString& reply) { m_run->answerModelCall(reply); });
    // The run is prepared off the GUI thread; when its trust question is declined, nothing is
    // debugged.
    connect(m_runActions, &RunActions::runDeclined, this, [this] {
        if (m_run->isRunning() || !m_run->isDebugging())
            return;
        m_run->setDebugging(false);
        if (m_pane)
            m_pane->showRunning(QString());
        updateActions();
    });
    setUpViews();
    RunController* first = std::exchange(m_run, nullptr);
    setProgram(m_editor, first);
    connect(tabs, &ProgramTabs::currentChanged, this, &DebugLinks::setProgram);
}

void DebugLinks::setProgram(EditorPane* editor, RunController* run)
{
    if (run == m_run)
        return;
    const bool first = !m_link;
    delete m_link;
    m_link = new QObject(this);
    m_editor = editor;
    m_run = run;
    m_run->setPauseOnError(m_pauseOnError->isChecked());
    m_run->setPauseBeforeModelCalls(m_pauseBeforeModel->isChecked());
    connect(m_editor->editor(), &PdlEditor::breakpointsChanged, m_link,
            [this] { syncBreakpoints(); });
    connect(m_run, &RunController::paused, m_link, [this] { onPaused(); });
    connect(m_run, &RunController::resumed, m_link, [this] { onResumed(); });
    connect(m_run, &RunController::started, m_link, [this] { updateActions(); });
    connect(m_run, &RunController::finished, m_link, [this] { onFinished(); });
    connect(m_run, &RunController::debugError, m_link,
            [this](const QString& message) { Q_EMIT statusMessage(message, 5000); });
    linkViews();
    // The Debug pane shows this program's pause, if it is paused.
    if (m_run->isPaused())
        onPaused();
    else if (m_pane && !first)
        m_pane->showRunning(m_run->isRunning() && m_run->isDebugging()
                                ? tr("Running under the debugger…")
                                : QString());
    updateActions();
}

DebugLinks::~DebugLinks()
{
    if (m_pane && !m_pane->parent())
        delete m_pane.data();
    if (m_toolBar && !m_toolBar->parent())
        delete m_toolBar;
}

void DebugLinks::setWorkbenchContext(WorkbenchContext* context)
{
    m_context = context;
}

void DebugLinks::populateMenu(QMenu* menu)
{
    menu->addAction(m_debug);
    menu->addAction(m_continue);
    menu->addAction(m_stepOver);
    menu->addAction(m_stepInto);
    menu->addAction(m_stepOut);
    menu->addAction(m_pause);
    menu->addSeparator();
    menu->addAction(m_runToCursor);
    menu->addSeparator();
    menu->addAction(m_toggleBreakpoint);
    menu->addAction(m_condition);
    menu->addAction(m_pauseOnError);
    menu->addAction(m_pauseBeforeModel);
}

std::optional<QString> DebugLinks::askCondition(int line, const QString& current)
{
    bool ok = false;
    const QString text = QInputDialog::getText(
        m_editor, tr("Breakpoint Condition"),
        tr("Pause at line %1 only when this is true (for example  i == 3  or  "
           "topic == \"owls\"); leave it empty to pause every time:")
            .arg(line),
        QLineEdit::Normal, current, &ok);
    if (!ok)
        return std::nullopt;
    return text;
}

QString DebugLinks::conditionProblem(const QString& condition)
{
    if (condition.trimmed().isEmpty())
        return {};
    const std::string text = condition.toStdString();
    const std::string expression =
        text.find("${") == std::string::npos ? "${ " + text + " }" : text;
    if (const std::optional<Diagnostic> bad = pdl::checkTemplate(expression))
        return tr("The condition '%1' cannot be read: %2. The breakpoint is unchanged.")
            .arg(condition, bad->message);
    return {};
}

QString DebugLinks::programFile() const
{
    return RunController::programFileName(m_editor->filePath());
}

void DebugLinks::syncBreakpoints()
{
    m_run->setBreakpoints(programFile(), m_editor->editor()->breakpointSpecs());
    showBreakpointList();
}

bool DebugLinks::debugProgram()
{
    if (m_run->isRunning() || m_runActions->isPreparing())
        return false;
    syncBreakpoints();
    m_run->setDebugging(true);
    if (!m_runActions->runProgram()) {
        m_run->setDebugging(false);
        return false;
    }
    if (m_pane)
        m_pane->showRunning(tr("Running under the debugger…"));
    updateActions();
    return true;
}

void DebugLinks::onPaused()
{
    const RunController::DebugSnapshot& s = m_run->snapshot();
    const bool here = QFileInfo(s.location.span.file).absoluteFilePath() ==
                      QFileInfo(programFile()).absoluteFilePath();
    m_editor->editor()->setPausedLine(here ? s.location.span.line : 0);
    // The paused block drawn as the current box: its own once it has started, else the
    // nearest enclosing one. The editor already shows the paused line (it is the origin).
    if (m_context && m_context->traceModel()) {
        QString id = QString::fromStdString(s.location.id);
        while (!id.isEmpty() && !m_context->traceModel()->findById(id)) {
            const qsizetype dot = id.lastIndexOf(QLatin1Char('.'));
            id = dot > 0 ? id.left(dot) : QString();
        }
        if (!id.isEmpty())
            m_context->setCurrentNode(id, m_editor);
        // The paused block itself, once it has started (before, its box does not exist yet).
        m_context->setPausedNode(id == QString::fromStdString(s.location.id) ? id : QString());
    }
    if (m_pane) {
        m_pane->showSnapshot(s);
        if (auto* dock = qobject_cast<QDockWidget*>(m_pane->parentWidget())) {
            dock->show();
            dock->raise();
        }
    }
    Q_EMIT statusMessage(tr("Paused at %1").arg(s.location.describe()), 0);
    updateActions();
}

void DebugLinks::onResumed()
{
    m_editor->editor()->setPausedLine(0);
    if (m_context)
        m_context->setPausedNode(QString());
    if (m_pane && m_run->isRunning())
        m_pane->showRunning(tr("Running under the debugger…"));
    updateActions();
}

void DebugLinks::onFinished()
{
    if (m_context)
        m_context->setPausedNode(QString());
    if (m_run->isDebugging()) {
        m_run->setDebugging(false);
        m_editor->editor()->setPausedLine(0);
        if (m_pane)
            m_pane->showRunning(tr("The debugged run ended."));
    }
    updateActions();
}

void DebugLinks::updateActions()
{
    const bool paused = m_run->isPaused();
    const bool debugging = m_run->isDebugging() && m_run->isRunning();
    m_debug->setEnabled(!m_run->isRunning());
    for (QAction* a : {m_continue, m_stepOver, m_stepInto, m_stepOut, m_runToCursor})
        a->setEnabled(paused);
    m_pause->setEnabled(debugging && !paused);
    m_stop->setEnabled(m_run->isRunning());
    // As in other debuggers, the steps are on screen while a program is debugged; otherwise the
    // row goes to the editor and the trace (Run › Debug Program, F6, starts one).
    m_toolBar->setVisible(debugging);
}

} // namespace hako
