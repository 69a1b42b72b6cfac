#pragma once

namespace hako {

class EditorPane;

/// Makes `pane`'s Problems list name where each problem is in the Prompt view's terms (the card
/// and field, a value, a text: playground::describePlace) while the Prompt view is shown, and
/// the line and column while the YAML is; it follows the view switch and the Prompt view's
/// document. What the main window does for every program's pane. GUI thread only.
void showPromptPlaces(EditorPane* pane);

} // namespace hako
