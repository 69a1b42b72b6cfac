#!/usr/bin/env python3
"""Journey: a trace whose root has thousands of children.

An engineer opens an agent's OpenTelemetry export: one session span holding 3,000 calls. The
window shows the Trace Tree and the boxes at once; the boxes draw the first hundred calls and the
last twenty around a "… more blocks" box instead of 3,000 boxes (a million-span export drew a
million). Finding a call in the middle with the Trace Tree's search and picking it draws that call
among them; the screen reader's description of the boxes says how much is drawn, before and after.
"""
# journey-deadline: 240
import json
import os
import re
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import journeylib  # noqa: E402
from panes import expect, show_dock, view_in  # noqa: E402

CALLS = 3000


def write_otlp(path):
    trace = "%032x" % 0xb16
    t0 = 1764300000000000000
    spans = [{"traceId": trace, "spanId": "%016x" % 1, "name": "session", "kind": 1,
              "startTimeUnixNano": str(t0), "endTimeUnixNano": str(t0 + CALLS * 1_000_000 + 1),
              "attributes": [{"key": "openinference.span.kind",
                              "value": {"stringValue": "AGENT"}}]}]
    for i in range(CALLS):
        start = t0 + i * 1_000_000
        spans.append({"traceId": trace, "spanId": "%016x" % (i + 2), "parentSpanId": "%016x" % 1,
                      "name": "call %04d" % i, "kind": 1,
                      "startTimeUnixNano": str(start), "endTimeUnixNano": str(start + 900_000),
                      "attributes": [{"key": "output.value",
                                      "value": {"stringValue": "answer %d" % i}}]})
    with open(path, "w") as f:
        f.write(json.dumps({"resourceSpans": [{"scopeSpans": [{"spans": spans}]}]}) + "\n")


def boxes_description(s):
    boxes = s.first(s.window, name="Trace boxes")
    return (boxes.description or "") if boxes is not None else ""


def drawn(s):
    """(blocks drawn, blocks behind "more" boxes) as the boxes' description says."""
    numbers = [int(n.replace(",", "")) for n in re.findall(r"\d[\d,]*", boxes_description(s))]
    return tuple(numbers[:2]) if len(numbers) >= 2 else None


def journey(s, args):
    path = os.path.join(s.work, "session.otlp.json")
    write_otlp(path)
    s.launch(path)
    before = s.wait_for(lambda: drawn(s), "the boxes to be laid out", timeout=60)
    s.screenshot("boxes-collapsed")
    # The session, its first 100 and last 20 calls; 2,880 behind one "more" box.
    expect(before == (121, 2880), f"the boxes say {boxes_description(s)!r}")

    # Find call 1500 with the Trace Tree's search and pick it.
    dock = show_dock(s, "Trace Tree")
    search = s.wait_for(lambda: s.first(dock, name="Search blocks", showing=True),
                        "the Trace Tree's search field")
    s.focus(search)
    s.type("call 1500")

    def picked_row():
        tree = view_in(s, dock, ("tree table", "tree"))
        if tree is None:
            return None
        table = tree.queryTable()
        for r in range(min(table.nRows, 10)):
            cell = table.getAccessibleAt(r, 0)
            if cell is not None and cell.name == "call 1500":
                return cell
        return None

    row = s.wait_for(picked_row, "the search to find call 1500", timeout=30)
    s.screenshot("call-found")
    s.click(row)
    after = s.wait_for(lambda: (d := drawn(s)) and d[0] == 122 and d,
                       "the picked call to be drawn among the boxes", timeout=30)
    expect(after == (122, 2879), f"after picking, the boxes say {boxes_description(s)!r}")
    s.screenshot("picked-call-drawn")


if __name__ == "__main__":
    sys.exit(journeylib.run(journey))
