#!/usr/bin/env python3
"""Journey: open a trace from the command line.

`hako functions.trace.json` opens the trace in the trace panes (Trace Tree lists its blocks)
and the program it names beside it in the editor, instead of opening the JSON as a program.
Needs the workbench's file-kind detection (helper "workbench", issue 11 §1).
"""
import os
import shutil
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import journeylib  # noqa: E402
from panes import trace_tree_rows  # noqa: E402


def journey(s, args):
    shutil.copy(os.path.join(args.source, "resources/examples/functions.pdl"), s.work)
    program = os.path.join(s.work, "functions.pdl")
    trace = os.path.join(s.work, "functions.trace.json")
    s.hako_cli("run", "--trace", trace, program)
    written = journeylib.read_json(trace)

    s.launch(trace)
    s.screenshot("started-with-trace")
    rows = s.wait_for(lambda: trace_tree_rows(s), "the Trace Tree to list the trace's blocks",
                      timeout=40)
    s.screenshot("trace-tree")
    top = rows[0]
    # The root row is the program's top block, labelled by its description or kind.
    root_label = written.get("description") or written.get("kind")
    if root_label not in top[1][0] and written.get("kind") not in " ".join(top[1]):
        raise journeylib.JourneyError(f"the Trace Tree's first row is {top[1]!r}, not the "
                                      f"trace's root ({root_label!r})")
    # The call's body is inside the call, not a top-level row.
    if sum(1 for depth, _ in rows if depth == rows[0][0]) != 1:
        raise journeylib.JourneyError(f"the Trace Tree has several top-level rows: {rows!r}")
    # The editor shows the program the trace names, not the trace's JSON.
    title = s.wait_for(lambda: "functions.pdl" in (s.window.name or "") and s.window.name,
                       "the window title to name functions.pdl", timeout=15)
    editor_text = s.editor_text()
    if editor_text.lstrip().startswith("{"):
        raise journeylib.JourneyError("the trace's JSON was opened in the editor")
    if "greet" not in editor_text:
        raise journeylib.JourneyError(f"the editor does not show functions.pdl ({title!r})")


if __name__ == "__main__":
    sys.exit(journeylib.run(journey))
