#include "widgets/editor/problemplaces.h"

#include "core/playground/promptdocplace.h"
#include "widgets/editor/editorpane.h"
#include "widgets/editor/pdleditor.h"
#include "widgets/editor/problemsview.h"
#include "widgets/promptview/promptview.h"

#include <QPointer>

namespace hako {

void showPromptPlaces(EditorPane* pane)
{
    ProblemsView* problems = pane->problemsView();
    PromptView* prompt = pane->promptView();
    if (!problems || !prompt)
        return;
    QPointer<EditorPane> guard(pane);
    problems->setPlaceResolver([guard](const SourceSpan& span) -> QString {
        if (!guard || !guard->isPromptMode() || !guard->promptView())
            return {};
        // A problem in an included file is in no card of this program.
        if (!span.file.isEmpty() && !guard->filePath().isEmpty() && span.file != guard->filePath())
            return {};
        // The document shown (the last good one while the YAML has an error).
        return playground::describePlace(playground::placeAt(
            guard->promptView()->document(), guard->editor()->text(), span.line, span.column));
    });
    QObject::connect(pane, &EditorPane::promptModeChanged, problems, &ProblemsView::refreshPlaces);
    QObject::connect(prompt, &PromptView::documentChanged, problems, &ProblemsView::refreshPlaces);
}

} // namespace hako
