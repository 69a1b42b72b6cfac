#!/usr/bin/env python3
"""Journey: unsaved work survives a crash.

A user types into a program without saving; Hako is killed (kill -9, as a crash or a power cut
would end it). The next start asks to restore the unsaved changes, and restoring puts the typed
text back in the editor (issue 11 §1; the README promises it).
"""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import journeylib  # noqa: E402
from panes import expect  # noqa: E402

TYPED = "# unsaved words 42"


def autosaved(recovery):
    """Whether a recovery file under `recovery` holds the typed text."""
    if not os.path.isdir(recovery):
        return False
    for root, _, files in os.walk(recovery):
        for name in files:
            try:
                with open(os.path.join(root, name), encoding="utf-8", errors="replace") as f:
                    if TYPED in f.read():
                        return True
            except OSError:
                continue
    return False


def journey(s, args):
    program = os.path.join(s.work, "draft.pdl")
    with open(program, "w") as f:
        f.write("text: first line\n")
    s.launch(program)
    s.wait_for(lambda: "draft.pdl" in (s.window.name or ""), "draft.pdl to open", timeout=20)
    s.focus_editor()
    s.key("ctrl+End")
    s.type(TYPED)
    s.wait_for(lambda: TYPED in s.editor_text(), "the typed text in the editor", timeout=20)
    s.screenshot("typed-unsaved")
    recovery = os.path.join(s.env["XDG_DATA_HOME"], "Hako", "Hako", "recovery")
    s.wait_for(lambda: autosaved(recovery), "the unsaved buffer to be kept for recovery",
               timeout=40)

    # The crash: no chance to save or clean up.
    s.hako_proc.kill()
    s.hako_proc.wait(timeout=10)
    with open(program) as f:
        expect(TYPED not in f.read(), "the typed text reached the program file without a save")

    s.launch()
    question = s.wait_for(
        lambda: s.first(s.app, name_contains="Restore Unsaved", showing=True),
        "the question to restore the unsaved changes", timeout=30)
    s.screenshot("restore-question")
    yes = s.wait_for(lambda: s.first(question, role="push button", name_contains="Yes"),
                     "the Yes button", timeout=10)
    s.click(yes)
    s.wait_for(lambda: TYPED in s.editor_text(), "the restored text in the editor", timeout=30)
    s.screenshot("restored")


if __name__ == "__main__":
    sys.exit(journeylib.run(journey))
