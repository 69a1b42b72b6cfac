#!/usr/bin/env python3
"""Journey: stop a run.

A program waits for input; Shift+F5 stops it. The Console and the status bar say "Stopped"
(not a red failure) and no block in the Trace Tree is left "running". Needs the final states
on Stop (helper "workbench", issue 11 §1).
"""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import journeylib  # noqa: E402
from panes import console_text, expect, status_text, trace_tree_rows  # noqa: E402

PROGRAM = """description: Waits for a name
text:
- "Before the question\\n"
- read:
  message: "Your name? "
  def: name
- "Hello ${ name }\\n"
"""


def journey(s, args):
    program = os.path.join(s.work, "wait.pdl")
    with open(program, "w") as f:
        f.write(PROGRAM)
    s.launch(program)
    s.wait_for(lambda: "wait.pdl" in (s.window.name or ""), "wait.pdl to open", timeout=20)
    s.screenshot("program-open")
    s.focus_editor()
    s.key("F5")
    s.wait_for(lambda: "Your name?" in console_text(s), "the Console to ask for input",
               timeout=40)
    s.screenshot("waiting-for-input")
    s.focus_editor()
    s.key("shift+F5")
    s.wait_for(lambda: "Stopped" in console_text(s), "the Console to say Stopped", timeout=30)
    s.wait_for(lambda: "Stopped" in status_text(s), "the status bar to say Stopped", timeout=10)
    s.screenshot("stopped")
    console = console_text(s)
    expect("Failed" not in console, f"the Console reports a failure after Stop:\n{console}")
    rows = trace_tree_rows(s)
    s.screenshot("trace-after-stop")
    running = [r for r in rows if any("running" in c.lower() for c in r[1])]
    expect(not running, f"blocks still shown as running after Stop: {running!r}")


if __name__ == "__main__":
    sys.exit(journeylib.run(journey))
