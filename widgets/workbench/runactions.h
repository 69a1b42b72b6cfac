#pragma once

#include "core/pdl/interp/tracenode.h"
#include "core/run/runenvironment.h"

#include "core/pdl/parser/programparser.h"
#include "core/run/runtrust.h"
#include "core/util/diagnostic.h"
#include "widgets/workbench/trustdialog.h"

#include <QHash>
#include <QObject>
#include <QSet>
#include <QString>

#include <functional>

class QAction;
class QInputDialog;
class QMenu;
class QSettings;
class QWidget;

namespace hako {

class EditorPane;
class ProgramTabs;
class RunController;
class TraceDocks;
class WorkbenchContext;
/// The workbench's Run menu and what it sets going: runs the current program (F5; each program
/// of ProgramTabs has its own run, and several may run at once) in the
/// environment of the open panes (their document and memory store, the sandbox choice),
/// after asking when the trust rule of core (checkRunTrust) holds it back; stops it (Shift+F5);
/// reports the end in the status bar and a failure in the editor's message bar (which clears
/// once the error is fixed), showing the failing block; saves the run's trace. GUI thread.
class RunActions : public QObject {
    Q_OBJECT
public:
    using TrustChoice = TrustDialog::Choice;
    /// Replaces the trust dialog; receives the program file (empty for an unsaved program)
    /// and its folder.
    using TrustQuestion = std::function<TrustChoice(const QString& file, const QString& folder)>;

    /// `settings` (not owned) keeps the trusted folders and the sandbox choice; `window` is
    /// the parent of dialogs. Follows `tabs`' current program.
    RunActions(WorkbenchContext* context, ProgramTabs* tabs, TraceDocks* traces,
               QSettings* settings, QWidget* window);

    /// Adds Run, Stop, Save Trace As…, the sandbox switch and Forget Trusted Folders to `menu`.
    void populateMenu(QMenu* menu);
    void setTrustQuestion(TrustQuestion question) { m_trustQuestion = std::move(question); }

    /// Runs the editor's program. The program is parsed and the trust rule applied on a worker
    /// (they read its includes and model files); then the question is asked, when one is
    /// needed, and the run starts. True when that began; false when the program already runs
    /// or is being prepared. A declined question ends in runDeclined().
    bool runProgram();
    /// Whether a run of the current program is being prepared (parsed, checked for trust).
    bool isPreparing() const { return m_preparing.contains(m_run); }
    /// Re-run from here: runs the editor's program again with every block that finished before
    /// the node `nodeId` of the last run replayed from that run (nothing sent), and the node and
    /// what follows live; false (and why in the message bar) without a finished run.
    bool rerunFrom(const QString& nodeId);
    void stopProgram();
    /// Run › Re-run from Selected Block (Ctrl+Shift+F5; also in the Trace Tree's context menu):
    /// rerunFrom() the trace node selected in the panes. Enabled when the last run's trace has
    /// a selected node and nothing runs.
    QAction* rerunSelectedAction() const { return m_rerunSelectedAction; }
    /// Writes the last run's trace to `path`; false with the reason shown when it cannot.
    bool saveTrace(const QString& path);

    /// The tags every run of this window gives its model calls in the prompt log (Run › Run
    /// Tags…, remembered), besides HAKO_TAGS and the folder's tags.
    QStringList runTags() const;
    /// The environment a run of the program at `path` gets in the workbench (what F5 uses,
    /// and experiments started from the window): its folder, the sandbox choice, the open
    /// document and memory store, the prompt log with HAKO_TAGS and the run tags, the trace
    /// archive. `logWarning` receives the prompt log's problem, if any.
    /// Asks the trust question for `check` (a program at `path`, or a notebook's cells) unless
    /// nothing needs consent; remembers a trusted folder. True: the run may go on.
    bool askConsent(const QString& path, const RunTrustCheck& check);
    RunEnvironment environmentFor(const QString& path, QString* logWarning = nullptr) const;
    /// The Run › Run Tags… dialog, filled with runTags() (deletes itself when closed; the
    /// caller opens it and connects textValueSelected).
    QInputDialog* createTagsDialog(QWidget* parent);
    /// Sets them from text separated by spaces or commas.
    void setRunTags(const QString& tags);

Q_SIGNALS:
    /// A run started (the console comes forward).
    void runStarted();
    /// The user declined the trust question: nothing ran.
    void runDeclined();
    /// The user asked to configure the models from a model failure's message bar.
    void configureModelsRequested();
    void statusMessage(const QString& text, int timeout);
    /// From a re-run's message bar: compare the run it replayed (`original`) with the re-run.
    void compareRunsRequested(pdl::TracePtr original, pdl::TracePtr rerun,
                              const QString& originalName, const QString& rerunName);

private:
    // What a program's last run left: the run a re-run replays and where it forked; the failed
    // run's message and the program text it ran (the message goes once the text has changed
    // and the live check finds no error, not at the next run only).
    struct ProgramRun {
        EditorPane* editor = nullptr;
        pdl::TracePtr forkOrigin;
        QString forkOriginRun;
        int forkLine = 0;
        QString runError;
        QString runText;
    };
    void addProgram(EditorPane* editor, RunController* run);
    void showCurrent();
    void updateRerunAction();
    void reportFork(RunController* run);
    /// Starts a run, or (with a node id) a re-run from that node of the last run: prepares it
    /// on a worker, then launch().
    bool startRun(const QString& rerunNode);
    /// What the worker hands back: the parse the run uses and the trust rule's verdict on it.
    struct Prepared {
        pdl::ParseResult parsed;
        RunTrustCheck trust;
    };
    /// On the GUI thread, once prepared: asks consent when needed, then starts the run.
    void launch(RunController* run, Prepared prepared, const QByteArray& text, const QString& path,
                const QString& rerunNode);
    bool startPrepared(RunController* run, pdl::ParseResult parsed, const QByteArray& text,
                       const QString& path, const QString& rerunNode);
    RunEnvironment environmentOf(RunController* run, EditorPane* editor, const QString& path,
                                 QString* logWarning) const;
    void onFinished(RunController* run, bool ok, const Diagnostic& error);

    WorkbenchContext* m_context;
    ProgramTabs* m_tabs;
    RunController* m_run = nullptr;
    EditorPane* m_editor = nullptr;
    QHash<RunController*, ProgramRun> m_programs;
    QSet<RunController*> m_preparing;
    TraceDocks* m_traces;
    QSettings* m_settings;
    QWidget* m_window;
    QAction* m_runAction = nullptr;
    QAction* m_stopAction = nullptr;
    QAction* m_saveTraceAction = nullptr;
    QAction* m_sandboxAction = nullptr;
    QAction* m_forgetAction = nullptr;
    QAction* m_tagsAction = nullptr;
    QAction* m_rerunSelectedAction = nullptr;
    TrustQuestion m_trustQuestion;
};

} // namespace hako
