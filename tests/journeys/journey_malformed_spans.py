#!/usr/bin/env python3
"""Journey: an export whose spans name each other as parents.

An engineer opens an OpenTelemetry export from a sender with a bug: two steps name each other as
their parent (a loop), one call names itself, and a tool call hangs below the loop. Every span is
in the Trace Tree, each once (such spans used to vanish: no root reached them); the span where the
loop was cut stands as a root, and picking it, the Detail pane says why it is shown there.
"""
import json
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import journeylib  # noqa: E402
from panes import expect, show_dock, trace_tree_rows  # noqa: E402

NAMES = ["session", "plan", "step A", "step B", "tool under the loop", "self-parented call"]


def write_otlp(path):
    trace = "%032x" % 0x100b
    t0 = 1764300000000000000

    def span(n, name, parent=None):
        s = {"traceId": trace, "spanId": "%016x" % n, "name": name, "kind": 1,
             "startTimeUnixNano": str(t0 + n * 1_000_000),
             "endTimeUnixNano": str(t0 + n * 1_000_000 + 500_000)}
        if parent is not None:
            s["parentSpanId"] = "%016x" % parent
        return s

    spans = [span(1, "session"), span(2, "plan", 1),
             span(3, "step A", 4), span(4, "step B", 3),  # a loop of parents
             span(5, "tool under the loop", 3),
             span(6, "self-parented call", 6)]
    with open(path, "w") as f:
        f.write(json.dumps({"resourceSpans": [{"scopeSpans": [{"spans": spans}]}]}) + "\n")


def tree_view(s):
    dock = show_dock(s, "Trace Tree")
    return s.first(dock, role="tree table") or s.first(dock, role="tree")


def pick(s, name):
    """Clicks the Trace Tree's row named `name`."""
    table = tree_view(s).queryTable()
    row = next(table.getAccessibleAt(r, 0) for r in range(table.nRows)
               if table.getAccessibleAt(r, 0).name == name)
    s.click(row)


def journey(s, args):
    path = os.path.join(s.work, "buggy-sender.otlp.json")
    write_otlp(path)
    s.launch(path)

    def all_rows():
        rows = trace_tree_rows(s)
        if not rows:
            return None
        # Everything unfolded: `*` on the trace's row expands all below it.
        s.click(tree_view(s).queryTable().getAccessibleAt(0, 0))
        s.key("asterisk")
        rows = trace_tree_rows(s)
        names = [cells[0] for _, cells in rows[1:]]
        return rows if all(n in names for n in NAMES) else None

    rows = s.wait_for(all_rows, "every span in the Trace Tree", timeout=60, interval=1)
    s.screenshot("every-span-shown")
    # The first row is the trace itself (named after its first root), the spans below it.
    spans = rows[1:]
    names = [cells[0] for _, cells in spans]
    for n in NAMES:
        expect(names.count(n) == 1, f"{n!r} is in the Trace Tree {names.count(n)} times: {names!r}")
    # The loop is cut at one of its steps: that one is a root like the session, the other below.
    depth = {cells[0]: d for d, cells in spans}
    root = depth["session"]
    cut = [n for n in ("step A", "step B") if depth[n] == root]
    expect(len(cut) == 1, f"not exactly one step of the loop is a root: {rows!r}")
    expect(depth["self-parented call"] == root, f"the self-parented call is not a root: {rows!r}")
    expect(depth["tool under the loop"] > root and depth["plan"] > root,
           f"a child span is not below its parent: {rows!r}")

    # Picking each span cut loose: the Detail pane says why it stands as a root.
    detail = show_dock(s, "Detail")
    for name, why in ((cut[0], "a loop of parents"), ("self-parented call", "names itself")):
        pick(s, name)
        summary = s.wait_for(lambda: s.first(detail, name="Block summary", showing=True),
                             "the Detail pane's summary")
        s.wait_for(lambda: why in s.text_of(summary),
                   f"the Detail pane to say why {name!r} is a root ({why!r})", timeout=20)
        s.screenshot("detail-" + name.replace(" ", "-"))


if __name__ == "__main__":
    sys.exit(journeylib.run(journey))
