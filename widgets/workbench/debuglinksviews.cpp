// DebugLinks, continued: the Debug toolbar, and the Debug pane's call stack, watch expressions
// and breakpoints list, and the editor's value hover, wired to the current program.
#include "widgets/workbench/debuglinks.h"

#include "core/run/debugsession.h"
#include "core/workbench/runcontroller.h"
#include "widgets/debug/debugpane.h"
#include "widgets/debug/debugviews.h"
#include "widgets/editor/editorpane.h"
#include "widgets/editor/pdleditor.h"
#include "widgets/workbench/runactions.h"

#include <QAction>
#include <QFileInfo>
#include <QRegularExpression>
#include <QSettings>
#include <QToolBar>

namespace hako {

namespace {

// Watch expressions are kept per program file (an untitled program shares one list).
constexpr auto kWatchesKey = "debug/watches";

} // namespace

void DebugLinks::setUpViews()
{
    m_stop = new QAction(tr("&Stop"), this);
    m_stop->setToolTip(tr("Stop the run (Shift+F5)"));
    m_stop->setEnabled(false);
    connect(m_stop, &QAction::triggered, this, [this] { m_runActions->stopProgram(); });
    m_toolBar = new QToolBar(tr("Debug"));
    m_toolBar->setObjectName(QStringLiteral("debugToolBar"));
    m_toolBar->setAccessibleName(tr("Debug toolbar"));
    m_toolBar->setToolButtonStyle(Qt::ToolButtonTextOnly);
    m_continue->setToolTip(tr("Go on until the next breakpoint (F5 or F8)"));
    m_stepOver->setToolTip(tr("Run the current block and pause at the next one (F10)"));
    m_stepInto->setToolTip(tr("Pause at the first block inside the current one (F11)"));
    m_stepOut->setToolTip(tr("Finish the enclosing block and pause after it (Shift+F11)"));
    m_pause->setToolTip(tr("Pause the running program before its next block"));
    for (QAction* a : {m_debug, m_continue, m_stepOver, m_stepInto, m_stepOut, m_pause, m_stop})
        m_toolBar->addAction(a);
    // Each button is named by its action's text (without the mnemonic) for screen readers.
    for (QAction* a : m_toolBar->actions())
        if (QWidget* button = m_toolBar->widgetForAction(a))
            button->setAccessibleName(a->text()
                                          .remove(QRegularExpression(QStringLiteral("\\(&.\\)")))
                                          .remove(QLatin1Char('&')));

    CallStackView* stack = m_pane->callStackView();
    connect(stack, &CallStackView::frameSelected, this, [this](int i) { selectFrame(i); });
    WatchView* watches = m_pane->watchView();
    connect(watches, &WatchView::expressionsChanged, this, [this](const QStringList& list) {
        saveWatches(list);
        m_run->setWatchExpressions(list);
    });
    BreakpointsView* list = m_pane->breakpointsView();
    connect(list, &BreakpointsView::breakpointChanged, this,
            [this](int line, const pdl::BreakpointSpec& spec) { changeBreakpoint(line, spec); });
    connect(list, &BreakpointsView::removeRequested, this,
            [this](int line) { m_editor->editor()->removeBreakpoint(line); });
    connect(list, &BreakpointsView::removeAllRequested, this,
            [this] { m_editor->editor()->clearBreakpoints(); });
    connect(list, &BreakpointsView::lineActivated, this, [this](int line) {
        m_editor->editor()->setCursorPosition(line - 1, 0);
        m_editor->editor()->ensureLineVisible(line - 1);
    });
}

// The current program's editor and run: its breakpoints in the list, its watches, its hover.
void DebugLinks::linkViews()
{
    QPointer<RunController> run(m_run);
    m_editor->editor()->setValueHover([this, run](const QString& word) {
        return run && run == m_run ? hoverValue(word) : QString();
    });
    connect(m_editor, &EditorPane::filePathChanged, m_link, [this] {
        loadWatches();
        showBreakpointList();
    });
    loadWatches();
    showBreakpointList();
}

void DebugLinks::showBreakpointList()
{
    if (m_pane)
        m_pane->breakpointsView()->showBreakpoints(m_editor->filePath(),
                                                   m_editor->editor()->breakpointSpecs());
}

void DebugLinks::changeBreakpoint(int line, const pdl::BreakpointSpec& spec)
{
    // A condition that does not parse is refused where it was typed.
    if (const QString problem = conditionProblem(spec.condition); !problem.isEmpty()) {
        Q_EMIT statusMessage(problem, 8000);
        showBreakpointList();
        return;
    }
    m_editor->editor()->setBreakpointSpec(line, spec);
}

void DebugLinks::selectFrame(int index)
{
    const std::vector<pdl::StackFrame>& stack = m_pane->callStackView()->stack();
    if (index < 0 || size_t(index) >= stack.size())
        return;
    m_run->selectFrame(index);
    // The editor shows the frame's block when it is in this program.
    const SourceSpan& span = stack[size_t(index)].span;
    if (span.line > 0 &&
        QFileInfo(span.file).absoluteFilePath() == QFileInfo(programFile()).absoluteFilePath()) {
        m_editor->editor()->setCursorPosition(span.line - 1, std::max(0, span.column - 1));
        m_editor->editor()->ensureLineVisible(span.line - 1);
    }
    Q_EMIT statusMessage(tr("Showing the frame %1").arg(stack[size_t(index)].describe()), 5000);
}

void DebugLinks::loadWatches()
{
    const QVariantMap all = QSettings().value(QLatin1String(kWatchesKey)).toMap();
    const QStringList list = all.value(programFile()).toStringList();
    if (m_pane)
        m_pane->watchView()->setExpressions(list);
    m_run->setWatchExpressions(list);
}

void DebugLinks::saveWatches(const QStringList& expressions)
{
    QSettings settings;
    QVariantMap all = settings.value(QLatin1String(kWatchesKey)).toMap();
    if (expressions.isEmpty())
        all.remove(programFile());
    else
        all.insert(programFile(), expressions);
    settings.setValue(QLatin1String(kWatchesKey), all);
}

QString DebugLinks::hoverValue(const QString& word) const
{
    if (!m_run->isPaused() || word.isEmpty())
        return {};
    const pdl::Value* v = m_run->snapshot().variables.find(word.toStdString());
    if (!v)
        return {};
    QString text = DebugSession::valueText(*v);
    if (text.size() > 600)
        text = text.left(600) + QStringLiteral("…");
    return QStringLiteral("%1 = %2").arg(word, text);
}

} // namespace hako
