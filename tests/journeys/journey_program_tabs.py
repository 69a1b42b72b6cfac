#!/usr/bin/env python3
"""Journey: several programs open at once, each with its own run, and two side by side.

The user opens a program that asks for a name and runs it (F5): its Console waits. Without
stopping it, File › Open… opens a second program in a new tab and runs it too: the Console and
the Trace show the second program's run, and the first program's tab is marked as running.
Ctrl+PgUp goes back to the first program: its Console is still asking; the user answers and its
run ends with the greeting. View › Split View (Ctrl+\\) puts the two programs side by side; a
click into either makes it the current one (the window title and the Trace follow). Ctrl+\\
again returns to one row of tabs, and Ctrl+W closes a program.
"""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import journeylib  # noqa: E402
from panes import console_text, expect, show_dock  # noqa: E402

ASKING = """description: Greets someone
text:
- read:
  message: "Your name? "
  def: name
- "Hello ${ name }\\n"
"""
PLAIN = """description: Says one thing
text: "Beta result\\n"
"""


def program_tabs(s):
    """The names on the program tabs (left group, then right), read from the tab bars."""
    names = []
    for group_name in ("Programs", "Programs on the right"):
        group = next((a for a, _ in s.walk(s.window, into=lambda acc: acc.getRoleName() != "frame"
                                           or acc == s.window)
                      if s.matches(a, role="filler", name=group_name, showing=True)), None)
        bar = s.first(group, role="page tab list") if group is not None else None
        if bar is None:
            continue
        names += [t.name for t in s.all(bar, role="page tab") if t.name]
    return names


def central_editors(s):
    """The program editors on screen (one, or two in the split view)."""
    def into(acc):  # the central area only: not the docks (frames), bars or big views
        try:
            role = acc.getRoleName()
        except Exception:
            return False
        return (acc == s.window or role != "frame") and s._no_big_views(acc) and \
            role not in ("menu bar", "status bar", "page tab list")
    found = []
    for acc, _ in s.walk(s.window, into=into):
        try:
            if acc.getRoleName() == "text" and \
                    acc.getState().contains(s.pyatspi.STATE_MULTI_LINE) and s.on_screen(acc):
                ext = acc.queryComponent().getExtents(s.pyatspi.DESKTOP_COORDS)
                if ext.width * ext.height > 60000:
                    found.append((ext.x, acc))
        except Exception:
            continue
    return [a for _, a in sorted(found, key=lambda p: p[0])]


def title(s):
    return s.window.name or ""


def journey(s, args):
    first = os.path.join(s.work, "greet.pdl")
    second = os.path.join(s.work, "beta.pdl")
    with open(first, "w") as f:
        f.write(ASKING)
    with open(second, "w") as f:
        f.write(PLAIN)
    s.launch(first)
    s.wait_for(lambda: "greet.pdl" in title(s), "greet.pdl to open", timeout=20)
    s.focus_editor()
    s.key("F5")
    s.wait_for(lambda: "Your name?" in console_text(s), "greet.pdl's Console to ask", timeout=40)
    s.screenshot("first-program-waits")

    # A second program, in its own tab, runs while the first still waits.
    s.menu("File", "Open…")
    s.file_dialog(second)
    s.wait_for(lambda: "beta.pdl" in title(s), "beta.pdl to open", timeout=20)
    tabs = s.wait_for(lambda: program_tabs(s) if len(program_tabs(s)) == 2 else None,
                      "two program tabs", timeout=10)
    expect(any(t.startswith("▶") and "greet.pdl" in t for t in tabs),
           f"the running program's tab is not marked as running: {tabs!r}")
    s.focus_editor()
    s.key("F5")
    s.wait_for(lambda: "Beta result" in console_text(s), "beta.pdl's output", timeout=40)
    console = console_text(s)
    expect("Your name?" not in console,
           f"the second program's Console shows the first one's run:\n{console}")
    s.wait_for(lambda: s.dock("Trace — run of beta.pdl"), "the Trace to show beta.pdl's run",
               timeout=10)
    s.screenshot("second-program-ran")

    # Back to the first: its run is still waiting; answering ends it.
    s.focus_editor()
    s.key("ctrl+Prior")
    s.wait_for(lambda: "greet.pdl" in title(s), "greet.pdl to come back", timeout=10)
    s.wait_for(lambda: "Your name?" in console_text(s), "greet.pdl's Console", timeout=10)
    dock = show_dock(s, "Console")
    line = s.wait_for(lambda: s.first(dock, role="text", name="Program input", showing=True),
                      "the Console's input line", timeout=10)
    s.focus(line)
    s.type("Ada")
    s.key("Return")
    s.wait_for(lambda: "Hello Ada" in console_text(s), "the greeting", timeout=30)
    s.wait_for(lambda: not any(t.startswith("▶") for t in program_tabs(s)),
               "no tab marked as running", timeout=10)
    s.screenshot("first-program-answered")

    # Side by side: Ctrl+\ splits; a click chooses the current program.
    s.focus_editor()
    s.key("ctrl+backslash")
    editors = s.wait_for(lambda: central_editors(s) if len(central_editors(s)) == 2 else None,
                         "two editors side by side", timeout=10)
    s.screenshot("split-view")
    s.focus(editors[0])
    s.wait_for(lambda: "beta.pdl" in title(s), "the left program (beta.pdl) to be current",
               timeout=10)
    s.wait_for(lambda: s.dock("Trace — run of beta.pdl"), "the Trace to follow the left side",
               timeout=10)
    s.focus(editors[1])
    s.wait_for(lambda: "greet.pdl" in title(s), "the right program (greet.pdl) to be current",
               timeout=10)
    s.wait_for(lambda: s.dock("Trace — run of greet.pdl"), "the Trace to follow the right side",
               timeout=10)
    s.key("ctrl+backslash")
    s.wait_for(lambda: len(central_editors(s)) == 1, "one editor again", timeout=10)
    s.screenshot("tabs-again")

    # Ctrl+W closes the current program (nothing to save).
    s.key("ctrl+w")
    s.wait_for(lambda: len(program_tabs(s)) == 1, "one program tab left", timeout=10)
    s.wait_for(lambda: "beta.pdl" in title(s), "beta.pdl to be current", timeout=10)
    s.screenshot("closed-one")


if __name__ == "__main__":
    sys.exit(journeylib.run(journey))
