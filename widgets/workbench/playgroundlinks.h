#pragma once

#include "core/util/diagnostic.h"

#include <QObject>
#include <QPointer>

class QDockWidget;
class QJsonObject;

namespace hako {

class EditorPane;
class ProgramTabs;
class FileController;
class PlaygroundPane;
class RunActions;
class RunController;
class WorkbenchContext;

namespace playground {
struct PlaygroundPrompt;
}
namespace promptlog {
struct CallRecord;
}

/// How the Playground dock meets the rest of the window: a logged call or the model block at
/// the editor's cursor opens in it; its runs call the models the program's folder configures,
/// recorded in the prompt log with the run tags and `playground`; "Save to Program" rewrites
/// the block in the editor as one undoable edit (opening the program when another is shown);
/// the pane's sessions are kept in PlaygroundSessionStore::defaultFolder().
/// GUI thread; wiring only.
class PlaygroundLinks : public QObject {
    Q_OBJECT
public:
    PlaygroundLinks(WorkbenchContext* context, ProgramTabs* tabs, RunActions* runActions,
                    FileController* files, PlaygroundPane* pane, QDockWidget* dock,
                    QObject* parent = nullptr);

public Q_SLOTS:
    /// Prompt Log › Open in Playground.
    void openCall(const hako::promptlog::CallRecord& call);
    /// Run › Open Model Block in Playground: the model block around the editor's cursor; false
    /// (and a status message) when the cursor is in none.
    bool openBlockAtCursor();
    /// A Prompt view card's "Try in Playground": the model block at `span` of `editor`'s
    /// program, its variables filled from the Prompt view's inputs.
    bool openCard(hako::EditorPane* editor, const hako::SourceSpan& span);
    /// Writes `prompt` into the model block at `span` of `programPath` in the editor.
    bool saveToProgram(const QString& programPath, const hako::SourceSpan& span,
                       const hako::playground::PlaygroundPrompt& prompt);

Q_SIGNALS:
    void statusMessage(const QString& text, int timeout);

private:
    void showDock();
    /// Save to Program writes into `editor`'s program (the prompt came from it).
    void followSource(EditorPane* editor);
    void fillFirstRow(const QJsonObject& values);

    WorkbenchContext* m_context;
    RunActions* m_runActions;
    ProgramTabs* m_tabs;
    FileController* m_files;
    PlaygroundPane* m_pane;
    QDockWidget* m_dock;
    QString m_programPath; ///< the program the open prompt came from (the log's program)
    /// The program tab the open prompt came from (a card, the cursor): Save to Program writes
    /// into it, saved or not, while it is open.
    QPointer<EditorPane> m_source;
};

} // namespace hako
