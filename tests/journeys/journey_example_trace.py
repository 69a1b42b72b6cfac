#!/usr/bin/env python3
"""Journey: run an example with functions and compare the live trace with the written one.

Help › Examples › Functions and closures opens the example; F5 runs it; the Console says it
finished; the Trace Tree shows the live run. Run › Save Trace As… writes the trace, File › Open
Trace… opens that file, and the Trace Tree built from the file must list the same blocks (label,
kind, result, nesting) as the live one. Needs the one-structure live trace (helper "workbench",
issue 11 §1: today a call's body appears as extra top-level rows).
"""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import journeylib  # noqa: E402
from panes import console_text, expect, trace_tree_rows  # noqa: E402


def comparable(rows):
    # Block, kind and result; durations differ between a run and its file.
    return [(depth, tuple(cells[:3])) for depth, cells in rows]


def journey(s, args):
    s.launch()
    s.screenshot("started")
    s.menu("Help", "Examples", "Functions and closures")
    s.wait_for(lambda: "functions.pdl" in (s.window.name or ""),
               "the example to open (window title)", timeout=20)
    s.screenshot("example-open")
    s.focus_editor()
    s.key("F5")
    s.wait_for(lambda: "Finished" in console_text(s), "the Console to say the run finished",
               timeout=60)
    s.screenshot("run-finished")
    # The view takes the run's last blocks in a coalesced update: read it once it is stable.
    live = s.wait_for(lambda: settled(s), "the live Trace Tree", timeout=20)
    s.screenshot("live-trace-tree")

    saved = os.path.join(s.work, "functions_trace.json")
    s.menu("Run", "Save Trace As…")
    s.file_dialog(saved)
    s.wait_for(lambda: os.path.exists(saved), "the trace file to be written", timeout=20)
    written = journeylib.read_json(saved)
    expect(written.get("kind"), "the saved trace has no root block")

    s.menu("File", "Open Trace…")
    # Opening a trace puts the file's model in the trace panes as the dialog returns; it fills
    # when the file is read: wait for two equal, non-empty reads in a row.
    s.file_dialog(saved)
    _last.clear()
    from_file = s.wait_for(lambda: settled(s), "the Trace Tree of the opened file", timeout=30)
    s.screenshot("file-trace-tree")
    if comparable(from_file) != comparable(live):
        raise journeylib.JourneyError(
            "the live Trace Tree differs from the tree of the trace it wrote:\n"
            f"live: {comparable(live)!r}\nfile: {comparable(from_file)!r}")
    # A call's body sits inside the call: one top-level row.
    tops = [r for r in live if r[0] == live[0][0]]
    expect(len(tops) == 1, f"the live Trace Tree has {len(tops)} top-level rows: {tops!r}")


_last = []


def settled(s):
    rows = trace_tree_rows(s)
    same = bool(rows) and rows == (_last[0] if _last else None)
    _last[:] = [rows]
    return rows if same else None


if __name__ == "__main__":
    sys.exit(journeylib.run(journey))
