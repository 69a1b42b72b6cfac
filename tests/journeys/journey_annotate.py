#!/usr/bin/env python3
"""Journey: annotate a model call in a trace, find it with the filter, see it after a restart.

Opens a trace with a model call, selects the call in the Trace Tree, Ctrl+Shift+A opens the
annotation editor: thumbs down and a note, saved. The row shows ✗, the Detail pane the note,
`annotated` in the tree's search finds the one call. Quits, starts again, opens the trace: the
annotation is still there (kept in <trace>.annotations.json). Issue 28 §3.
"""
import json
import os
import shutil
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import journeylib  # noqa: E402
from panes import expect, show_dock, trace_tree_rows, view_in  # noqa: E402

TRACE = "tests/data/conformance/model/traces/ex_tutorial_calling_llm_with_input_messages_var.json"
NOTE = "Should answer Hola"


def model_row(s, select=False):
    """The Trace Tree's model call row: (its first cell, its text); with `select`, clicks it
    and answers only once it is selected (another pane may come forward at start-up)."""
    dock = show_dock(s, "Trace Tree")
    tab = None
    if select:
        # The tab itself: at start-up another pane of the group may come forward after it.
        tab = next((t for t in s.all(s.window, role="page tab", name="Trace Tree")
                    if s.on_screen(t)), None)
        if tab is not None:
            s.click(tab)
    view = view_in(s, dock, ("tree table", "tree"))
    if view is None:
        return None
    table = view.queryTable()
    for r in range(table.nRows):
        kind = table.getAccessibleAt(r, 1)
        if kind is not None and kind.name == "model":
            cell = table.getAccessibleAt(r, 0)
            if not select:
                return cell, cell.name
            # The first row is drawn above the dock tabs once the Trace Tree is in front; the
            # keyboard walks down from it (the model's row may be scrolled out of sight).
            first = table.getAccessibleAt(0, 0)
            if s.on_screen(first) and (tab is None or s.center(first)[1] < s.center(tab)[1] - 12):
                s.click(first)
                s.key(*["Down"] * r)
                if table.isRowSelected(r):
                    return cell, cell.name
    return None


def open_trace(s, trace):
    s.launch(trace)
    s.wait_for(lambda: trace_tree_rows(s), "the Trace Tree to list the trace's blocks",
               timeout=40)
    return s.wait_for(lambda: model_row(s, select=True), "the model call's row selected",
                      timeout=30, interval=0.5)


def journey(s, args):
    trace = os.path.join(s.work, "translate.json")
    shutil.copy(os.path.join(args.source, TRACE), trace)

    cell, name = open_trace(s, trace)
    expect("✗" not in name, f"the model row is marked before any annotation: {name!r}")
    s.screenshot("model-call-selected")
    s.key("ctrl+shift+a")
    dialog = s.wait_for(lambda: s.first(s.app, role="dialog", name_contains="Annotate",
                                        showing=True), "the annotation editor", timeout=15)
    s.screenshot("annotation-editor")
    s.click(s.wait_for(lambda: s.first(dialog, name="Thumbs down"), "the thumbs down button"))
    note = s.wait_for(lambda: s.first(dialog, name="Note"), "the note field")
    s.focus(note)
    s.type(NOTE)
    s.screenshot("annotation-filled")
    s.click(s.wait_for(lambda: s.first(dialog, role="push button", name="Save annotation"),
                       "the Save button"))
    s.wait_for(lambda: "✗" in (model_row(s) or ("", ""))[1], "the ✗ mark on the model row",
               timeout=15)
    s.wait_for(lambda: s.first(show_dock(s, "Detail"), name_contains=NOTE, showing=True),
               "the note in the Detail pane", timeout=15)
    s.screenshot("annotated")

    search = s.wait_for(lambda: s.first(show_dock(s, "Trace Tree"), role="text",
                                        name="Search blocks"), "the Trace Tree's search field")
    s.focus(search)
    s.type("annotated")
    s.wait_for(lambda: s.first(show_dock(s, "Trace Tree"), name_contains="1 of", showing=True),
               "the filter to count one annotated block", timeout=15)
    s.screenshot("filter-annotated")
    with open(trace + ".annotations.json") as f:
        kept = json.load(f)
    expect(kept["annotations"][0]["note"] == NOTE, f"the sidecar holds {kept!r}")

    s.menu("File", "Quit")
    s.hako_proc.wait(timeout=20)

    cell, name = open_trace(s, trace)
    expect(name.endswith("✗"), f"after a restart the model row reads {name!r}")
    s.wait_for(lambda: s.first(show_dock(s, "Detail"), name_contains=NOTE, showing=True),
               "the note in the Detail pane after a restart", timeout=15)
    s.screenshot("annotation-after-restart")


if __name__ == "__main__":
    sys.exit(journeylib.run(journey))
