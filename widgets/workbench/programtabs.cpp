#include "widgets/workbench/programtabs.h"

#include "core/workbench/runcontroller.h"
#include "widgets/editor/editorpane.h"
#include "widgets/editor/pdleditor.h"

#include <QAction>
#include <QApplication>
#include <QDir>
#include <QPointer>
#include <QSplitter>
#include <QTabBar>
#include <QTabWidget>
#include <QVBoxLayout>

#include <memory>

namespace hako {

ProgramTabs::ProgramTabs(WorkbenchContext* context, QWidget* parent)
    : QWidget(parent), m_context(context), m_splitter(new QSplitter(Qt::Horizontal, this))
{
    setObjectName(QStringLiteral("programTabs"));
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(m_splitter);
    m_splitter->setChildrenCollapsible(false);
    m_groups[0] = makeGroup(0);
    m_groups[1] = makeGroup(1);
    m_groups[1]->hide();

    auto action = [this](const QString& text, const QList<QKeySequence>& keys) {
        auto* a = new QAction(text, this);
        a->setShortcuts(keys);
        a->setShortcutContext(Qt::WindowShortcut);
        return a;
    };
    m_closeAction = action(tr("&Close Program"), {QKeySequence(Qt::CTRL | Qt::Key_W)});
    m_closeAction->setToolTip(tr("Close the program's tab (asks to save changes)"));
    connect(m_closeAction, &QAction::triggered, this, [this] {
        if (m_current)
            Q_EMIT closeRequested(m_current);
    });
    m_nextAction = action(tr("&Next Program"), {QKeySequence(Qt::CTRL | Qt::Key_PageDown),
                                                QKeySequence(Qt::CTRL | Qt::Key_Tab)});
    connect(m_nextAction, &QAction::triggered, this, [this] { step(1); });
    m_previousAction =
        action(tr("&Previous Program"), {QKeySequence(Qt::CTRL | Qt::Key_PageUp),
                                         QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_Backtab)});
    connect(m_previousAction, &QAction::triggered, this, [this] { step(-1); });
    m_splitAction = action(tr("&Split View"), {QKeySequence(Qt::CTRL | Qt::Key_Backslash)});
    m_splitAction->setCheckable(true);
    m_splitAction->setToolTip(tr("Show two programs side by side, each with its own run"));
    connect(m_splitAction, &QAction::triggered, this, [this](bool on) { setSplit(on); });
    m_moveAction = action(tr("&Move Program to Other Side"),
                          {QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_Backslash)});
    connect(m_moveAction, &QAction::triggered, this, &ProgramTabs::moveToOtherSide);

    connect(qApp, &QApplication::focusChanged, this,
            [this](QWidget*, QWidget* now) { onFocusChanged(now); });
    addProgram();
}

ProgramTabs::~ProgramTabs()
{
    // The editors go with their tab widgets; the runs are children of this object and stop
    // (waiting for their workers) when it is destroyed.
    disconnect(qApp, nullptr, this, nullptr);
}

QTabWidget* ProgramTabs::makeGroup(int side)
{
    auto* group = new QTabWidget(m_splitter);
    group->setObjectName(side == 0 ? QStringLiteral("programTabsLeft")
                                   : QStringLiteral("programTabsRight"));
    group->setAccessibleName(side == 0 ? tr("Programs") : tr("Programs on the right"));
    group->setDocumentMode(true);
    group->setTabsClosable(true);
    group->setMovable(true);
    group->setElideMode(Qt::ElideMiddle);
    group->tabBar()->setUsesScrollButtons(true);
    // Focus stays in the program, not on the tab bar (Ctrl+PgDown switches).
    group->setFocusPolicy(Qt::NoFocus);
    group->tabBar()->setFocusPolicy(Qt::NoFocus);
    m_splitter->addWidget(group);
    connect(group, &QTabWidget::currentChanged, this,
            [this, side](int) { onGroupCurrentChanged(side); });
    connect(group, &QTabWidget::tabBarClicked, this, [this, group](int index) {
        if (auto* editor = qobject_cast<EditorPane*>(group->widget(index)))
            setCurrentEditor(editor);
    });
    connect(group, &QTabWidget::tabCloseRequested, this, [this, group](int index) {
        if (auto* editor = qobject_cast<EditorPane*>(group->widget(index)))
            Q_EMIT closeRequested(editor);
    });
    return group;
}

RunController* ProgramTabs::currentRun() const
{
    return runOf(m_current);
}

const ProgramTabs::Session* ProgramTabs::sessionOf(const EditorPane* editor) const
{
    for (const Session& s : m_sessions)
        if (s.editor == editor)
            return &s;
    return nullptr;
}

RunController* ProgramTabs::runOf(const EditorPane* editor) const
{
    const Session* s = sessionOf(editor);
    return s ? s->run : nullptr;
}

QList<EditorPane*> ProgramTabs::editors() const
{
    QList<EditorPane*> list;
    for (QTabWidget* group : m_groups)
        for (int i = 0; i < group->count(); ++i)
            if (auto* editor = qobject_cast<EditorPane*>(group->widget(i)))
                list.append(editor);
    return list;
}

bool ProgramTabs::anyRunning() const
{
    return std::any_of(m_sessions.begin(), m_sessions.end(),
                       [](const Session& s) { return s.run->isRunning(); });
}

EditorPane* ProgramTabs::editorOf(const QString& path) const
{
    if (path.isEmpty())
        return nullptr;
    for (const Session& s : m_sessions)
        if (s.editor->isThisFile(path))
            return s.editor;
    return nullptr;
}

bool ProgramTabs::isBlank(const EditorPane* editor)
{
    return editor && editor->filePath().isEmpty() && !editor->isModified() &&
           editor->editor()->length() == 0;
}

int ProgramTabs::sideOf(const EditorPane* editor) const
{
    for (int side = 0; side < 2; ++side)
        if (m_groups[side]->indexOf(const_cast<EditorPane*>(editor)) >= 0)
            return side;
    return -1;
}

QTabWidget* ProgramTabs::group(int side) const
{
    return m_groups[side == 1 ? 1 : 0];
}

bool ProgramTabs::isSplit() const
{
    return m_groups[1]->count() > 0;
}

EditorPane* ProgramTabs::addProgram()
{
    auto* editor = new EditorPane(m_context);
    editor->setActive(false);
    auto* run = new RunController(this);
    m_sessions.push_back({editor, run});
    connect(editor, &EditorPane::modificationChanged, this, [this, editor](bool modified) {
        updateTab(editor);
        if (editor == m_current)
            Q_EMIT currentModificationChanged(modified);
    });
    connect(editor, &EditorPane::filePathChanged, this, [this, editor](const QString& path) {
        updateTab(editor);
        if (editor == m_current)
            Q_EMIT currentFilePathChanged(path);
    });
    connect(editor, &EditorPane::cursorPositionChanged, this, [this, editor](int line, int column) {
        if (editor == m_current)
            Q_EMIT currentCursorPositionChanged(line, column);
    });
    connect(editor, &EditorPane::diagnosticsChanged, this,
            [this, editor](int errors, int warnings) {
                for (Session& s : m_sessions)
                    if (s.editor == editor) {
                        s.errors = errors;
                        s.warnings = warnings;
                    }
                if (editor == m_current)
                    Q_EMIT currentDiagnosticsChanged(errors, warnings);
            });
    connect(editor->editor(), &QsciScintilla::textChanged, this, [this, editor] {
        if (editor == m_current)
            Q_EMIT currentTextChanged();
    });
    connect(run, &RunController::started, this, [this, editor] { updateTab(editor); });
    connect(run, &RunController::finished, this, [this, editor] { updateTab(editor); });

    const int side = m_current ? std::max(0, sideOf(m_current)) : 0;
    Q_EMIT programAdded(editor, run);
    m_moving = true;
    m_groups[side]->addTab(editor, editor->displayName());
    m_moving = false;
    updateTab(editor);
    setCurrentEditor(editor);
    return editor;
}

void ProgramTabs::updateTab(EditorPane* editor)
{
    const int side = sideOf(editor);
    if (side < 0)
        return;
    QTabWidget* group = m_groups[side];
    const int index = group->indexOf(editor);
    const RunController* run = runOf(editor);
    const bool running = run && run->isRunning();
    QString text = editor->displayName();
    text.replace(QLatin1Char('&'), QLatin1String("&&"));
    if (editor->isModified())
        text += QStringLiteral(" ●");
    if (running)
        text = QStringLiteral("▶ ") + text;
    group->setTabText(index, text);
    QString tip = editor->filePath().isEmpty() ? tr("Not saved yet")
                                               : QDir::toNativeSeparators(editor->filePath());
    if (editor->isModified())
        tip += QLatin1Char('\n') + tr("Unsaved changes");
    if (running)
        tip += QLatin1Char('\n') + tr("Running");
    group->setTabToolTip(index, tip);
    if (QWidget* close = group->tabBar()->tabButton(index, QTabBar::RightSide)) {
        close->setAccessibleName(tr("Close %1").arg(editor->displayName()));
        close->setToolTip(tr("Close %1 (Ctrl+W)").arg(editor->displayName()));
    }
}

void ProgramTabs::setCurrentEditor(EditorPane* editor)
{
    const int side = sideOf(editor);
    if (side < 0)
        return;
    if (m_groups[side]->currentWidget() != editor) {
        m_moving = true;
        m_groups[side]->setCurrentWidget(editor);
        m_moving = false;
    }
    if (editor == m_current)
        return;
    if (m_current)
        m_current->setActive(false);
    m_current = editor;
    m_current->setActive(true);
    updateActions();
    Q_EMIT currentChanged(editor, runOf(editor));
    Q_EMIT currentFilePathChanged(editor->filePath());
    Q_EMIT currentModificationChanged(editor->isModified());
    const auto [line, column] = editor->editor()->cursorLineColumn();
    Q_EMIT currentCursorPositionChanged(line, column);
    if (const Session* s = sessionOf(editor))
        Q_EMIT currentDiagnosticsChanged(s->errors, s->warnings);
}

void ProgramTabs::onGroupCurrentChanged(int side)
{
    if (m_moving)
        return;
    // A tab chosen in the current program's group (or the only group left) becomes current.
    auto* editor = qobject_cast<EditorPane*>(m_groups[side]->currentWidget());
    if (editor && (sideOf(m_current) == side || sideOf(m_current) < 0))
        setCurrentEditor(editor);
}

void ProgramTabs::onFocusChanged(QWidget* now)
{
    for (QWidget* w = now; w; w = w->parentWidget()) {
        if (auto* editor = qobject_cast<EditorPane*>(w)) {
            if (sessionOf(editor))
                setCurrentEditor(editor);
            return;
        }
        if (w == this)
            return;
    }
}

void ProgramTabs::removeProgram(EditorPane* editor)
{
    const auto it = std::find_if(m_sessions.begin(), m_sessions.end(),
                                 [editor](const Session& s) { return s.editor == editor; });
    if (it == m_sessions.end())
        return;
    const Session session = *it;
    const int side = sideOf(editor);
    Q_EMIT programRemoved(session.editor, session.run);
    m_sessions.erase(it);
    m_moving = true;
    m_groups[side]->removeTab(m_groups[side]->indexOf(editor));
    m_moving = false;
    editor->setActive(false);
    editor->hide();
    editor->setParent(this);
    if (m_current == editor)
        m_current = nullptr;
    if (session.run->isRunning()) {
        // Its worker may be inside a model call: the run ends at its next boundary and both go.
        connect(session.run, &RunController::finished, editor, &QObject::deleteLater);
        connect(session.run, &RunController::finished, session.run, &QObject::deleteLater);
        session.run->stop();
    } else {
        editor->deleteLater();
        session.run->deleteLater();
    }
    // An emptied left group takes the right one's tabs; an emptied right group goes.
    if (m_groups[0]->count() == 0 && m_groups[1]->count() > 0)
        setSplit(false);
    if (m_groups[1]->count() == 0)
        m_groups[1]->hide();
    if (m_sessions.empty()) {
        addProgram();
        return;
    }
    if (!m_current) {
        QTabWidget* group = m_groups[side]->count() > 0 ? m_groups[side] : m_groups[0];
        setCurrentEditor(qobject_cast<EditorPane*>(group->currentWidget()));
        m_current->setFocus();
    }
    updateActions();
}

void ProgramTabs::moveTo(EditorPane* editor, int side)
{
    const int from = sideOf(editor);
    if (from < 0 || from == side)
        return;
    const int index = m_groups[from]->indexOf(editor);
    const QString text = m_groups[from]->tabText(index);
    m_moving = true;
    m_groups[from]->removeTab(index);
    m_groups[side]->addTab(editor, text);
    m_groups[side]->setCurrentWidget(editor);
    m_moving = false;
    m_groups[side]->setVisible(m_groups[side]->count() > 0);
    m_groups[from]->setVisible(from == 0 || m_groups[from]->count() > 0);
    updateTab(editor);
}

void ProgramTabs::setSplit(bool split)
{
    if (split == isSplit()) {
        updateActions();
        return;
    }
    if (split) {
        EditorPane* moving = m_current;
        if (count() < 2)
            moving = addProgram();
        moveTo(moving, 1);
        m_groups[1]->show();
        m_splitter->setSizes({1, 1});
        setCurrentEditor(moving);
        moving->setFocus();
    } else {
        EditorPane* current = m_current;
        while (m_groups[1]->count() > 0)
            moveTo(qobject_cast<EditorPane*>(m_groups[1]->widget(0)), 0);
        m_groups[1]->hide();
        m_splitter->setSizes({m_splitter->width(), 0});
        if (current) {
            m_moving = true;
            m_groups[0]->setCurrentWidget(current);
            m_moving = false;
        }
    }
    updateActions();
}

void ProgramTabs::moveToOtherSide()
{
    if (!m_current)
        return;
    const int side = sideOf(m_current);
    if (side == 0 && !isSplit()) {
        setSplit(true);
        return;
    }
    EditorPane* editor = m_current;
    moveTo(editor, 1 - side);
    if (m_groups[0]->count() == 0)
        setSplit(false); // the whole view went right: it is one group again
    setCurrentEditor(editor);
    editor->setFocus();
    updateActions();
}

void ProgramTabs::step(int delta)
{
    const QList<EditorPane*> all = editors();
    if (all.size() < 2 || !m_current)
        return;
    const int at = int(all.indexOf(m_current));
    EditorPane* next = all.at((at + delta + int(all.size())) % int(all.size()));
    setCurrentEditor(next);
    next->setFocus();
}

QAction* ProgramTabs::mirror(std::function<QAction*(EditorPane*)> of)
{
    auto* proxy = new QAction(this);
    proxy->setShortcutContext(Qt::WindowShortcut);
    auto adopt = [of, proxy](EditorPane* editor) {
        QAction* own = of(editor);
        if (!own)
            return;
        if (proxy->shortcuts().isEmpty())
            proxy->setShortcuts(own->shortcuts());
        own->setShortcuts({});
    };
    for (EditorPane* editor : editors())
        adopt(editor);
    connect(this, &ProgramTabs::programAdded, proxy, adopt);
    // The connections to the current program's action, replaced when another becomes current.
    auto link = std::make_shared<QPointer<QObject>>();
    auto follow = [of, proxy, link](EditorPane* editor) {
        delete link->data();
        QAction* own = editor ? of(editor) : nullptr;
        if (!own)
            return;
        *link = new QObject(proxy);
        auto sync = [proxy, own] {
            proxy->setText(own->text());
            proxy->setToolTip(own->toolTip());
            proxy->setCheckable(own->isCheckable());
            proxy->setChecked(own->isChecked());
            proxy->setEnabled(own->isEnabled());
        };
        sync();
        connect(own, &QAction::changed, link->data(), sync);
        connect(own, &QAction::toggled, link->data(), sync);
    };
    follow(m_current);
    connect(this, &ProgramTabs::currentChanged, proxy, follow);
    connect(proxy, &QAction::triggered, this, [this, of, proxy] {
        if (QAction* own = m_current ? of(m_current) : nullptr) {
            own->trigger();
            proxy->setChecked(own->isChecked());
        }
    });
    return proxy;
}

void ProgramTabs::updateActions()
{
    // Side by side, the other side's tabs are dimmed: the bright one is what the panes show.
    const int currentSide = sideOf(m_current);
    for (int side = 0; side < 2; ++side) {
        QTabBar* bar = m_groups[side]->tabBar();
        const QColor color = isSplit() && side != currentSide
                                 ? palette().color(QPalette::Disabled, QPalette::WindowText)
                                 : QColor();
        for (int i = 0; i < bar->count(); ++i)
            bar->setTabTextColor(i, color);
    }
    m_splitAction->setChecked(isSplit());
    m_nextAction->setEnabled(count() > 1);
    m_previousAction->setEnabled(count() > 1);
}

} // namespace hako
