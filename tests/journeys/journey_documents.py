#!/usr/bin/env python3
"""Journey: open a document and play the seed commands in the Documents pane.

File › Open Document… opens a text file; in the pane's command line `search`, `show` and
`answer` are typed as a user types them, and the transcript answers each with the output the
README promises (a hit line, the whole line, "Answer recorded.") and the cost grows.
"""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import journeylib  # noqa: E402
from panes import expect, show_dock  # noqa: E402

TEXT = "".join(f"Line {i}: the night train runs past quiet fields.\n" for i in range(1, 40))
TEXT = TEXT.replace("Line 17: the night train runs past quiet fields.",
                    "Line 17: the swan station clock shows eleven.")


def command_line(s, dock):
    """The pane's command line: a one-line field named for commands, or whose placeholder shows
    the commands (Qt gives a line edit's placeholder as its description)."""
    fields = [a for a in s.all(dock, role="text")
              if a.getState().contains(s.pyatspi.STATE_EDITABLE) and
              not a.getState().contains(s.pyatspi.STATE_MULTI_LINE) and s.on_screen(a)]
    for a in fields:
        words = f"{a.name or ''} {a.description or ''}".lower()
        if "command" in words or "search" in words:
            return a
    return fields[0] if len(fields) == 1 else None


def transcript_text(s, dock):
    parts = []
    for acc, _ in s.walk(dock, max_nodes=3000):
        if acc.getRoleName() in ("table cell", "label", "list item") and acc.name:
            parts.append(acc.name)
    return "\n".join(parts)


def run_command(s, dock, command, expected):
    field = s.wait_for(lambda: command_line(s, dock), "the Documents command line", timeout=20)
    s.focus(field)
    s.key("ctrl+a")
    s.type(command)
    s.key("Return")
    s.wait_for(lambda: expected in transcript_text(s, dock),
               f"the transcript to answer {command!r} with {expected!r}", timeout=30)
    s.screenshot(command.split()[0])


def journey(s, args):
    path = os.path.join(s.work, "night_train.txt")
    with open(path, "w") as f:
        f.write(TEXT)
    s.launch()
    s.menu("File", "Open Document…")
    s.file_dialog(path)
    dock = show_dock(s, "Documents")
    # The viewer paints the text itself; commands typed while the document is still being
    # indexed run when it is ready, so the journey goes on at once.
    s.screenshot("document-open")
    run_command(s, dock, "search swan station", "line17")
    run_command(s, dock, "show 17", "the swan station clock shows eleven")
    run_command(s, dock, "answer eleven", "Answer recorded.")
    costs = [a.name for a in s.all(dock, role="label") if (a.name or "").startswith("Cost")]
    expect(costs and costs[0] != "Cost: 0", f"the cost did not grow: {costs!r}")


if __name__ == "__main__":
    sys.exit(journeylib.run(journey))
