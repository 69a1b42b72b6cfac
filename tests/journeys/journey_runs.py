#!/usr/bin/env python3
"""Journey: the runs of an OTLP file in the Runs dock.

An engineer opens an agent's OpenTelemetry export holding three runs (two of one chat session).
The Runs dock lists all three with their status, tokens, session and user; picking each shows
it in the Trace Tree; "Group by session" puts the session's two runs under it with totals and
picking the session shows its thread (each question and answer in order); two runs selected
with Ctrl+click are compared in the Trace Comparison dock.
"""
# journey-deadline: 300
import json
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import journeylib  # noqa: E402
from panes import expect, show_dock, trace_tree_rows, view_in  # noqa: E402

RUNS = [("chat-7", "kei", False), ("chat-7", "kei", False), ("", "mio", True)]


def value(v):
    if isinstance(v, str):
        return {"stringValue": v}
    return {"intValue": str(v)} if isinstance(v, int) else {"doubleValue": v}


def span(trace, sid, parent, name, start, end, attrs, code=0):
    s = {"traceId": trace, "spanId": sid, "name": name, "kind": 1,
         "startTimeUnixNano": str(start), "endTimeUnixNano": str(end),
         "attributes": [{"key": k, "value": value(v)} for k, v in attrs.items()],
         "status": {"code": code}}
    if parent:
        s["parentSpanId"] = parent
    return s


def write_otlp(path):
    """Three agent runs, one OTLP/JSON request line each (the Collector's file export)."""
    lines = []
    for i, (session, user, failed) in enumerate(RUNS):
        trace = "%032x" % (0xabc000 + i)
        root = "%016x" % (0x1000 + i * 16)
        t0 = 1764300000000000000 + i * 60_000_000_000
        top = {"openinference.span.kind": "AGENT", "input.value": f"question {i}",
               "output.value": f"answer {i}", "user.id": user}
        if session:
            top["session.id"] = session
        spans = [
            span(trace, root, "", f"agent {i}", t0, t0 + 3_000_000_000, top),
            span(trace, "%016x" % (0x1000 + i * 16 + 1), root, "chat", t0 + 100_000_000,
                 t0 + 1_500_000_000,
                 {"openinference.span.kind": "LLM", "llm.model_name": "granite",
                  "llm.token_count.prompt": 100 + i, "llm.token_count.completion": 20}),
            span(trace, "%016x" % (0x1000 + i * 16 + 2), root, "search", t0 + 1_600_000_000,
                 t0 + 2_500_000_000, {"openinference.span.kind": "TOOL", "tool.name": "search"},
                 2 if failed else 0),
        ]
        lines.append(json.dumps({"resourceSpans": [{
            "resource": {"attributes": [{"key": "service.name",
                                         "value": {"stringValue": "support-agent"}}]},
            "scopeSpans": [{"scope": {"name": "journey"}, "spans": spans}]}]}))
    with open(path, "w") as f:
        f.write("\n".join(lines) + "\n")


def runs_view(s):
    dock = show_dock(s, "Runs")
    return view_in(s, dock, ("tree table", "tree"))


def runs_rows(s):
    view = runs_view(s)
    return s.table_rows(view) if view is not None else []


def cell(s, row, column=0):
    table = runs_view(s).queryTable()
    return table.getAccessibleAt(row, column)


def control(s, role, name):
    dock = show_dock(s, "Runs")
    return s.wait_for(lambda: s.first(dock, role=role, name=name), f"the {name} {role}",
                      timeout=10)


def journey(s, args):
    path = os.path.join(s.work, "agent-runs.otlp.json")
    write_otlp(path)
    s.launch(path)
    rows = s.wait_for(lambda: len(runs_rows(s)) == 3 and runs_rows(s),
                      "the Runs dock to list the file's 3 runs", timeout=40)
    s.screenshot("runs-listed")
    names = [cells[0] for _, cells in rows]
    expect(names == ["agent 0", "agent 1", "agent 2"], f"the Runs dock lists {names!r}")
    first = rows[0][1]
    expect("120" in first and "chat-7" in first and "kei" in first,
           f"the first run's row lacks its tokens, session or user: {first!r}")
    expect("error" in rows[2][1], f"the failed run is not marked: {rows[2][1]!r}")

    # Pick each run: the Trace Tree shows it.
    for i in range(3):
        s.click(cell(s, i, 0))
        s.wait_for(lambda i=i: (t := trace_tree_rows(s)) and f"agent {i}" in " ".join(t[0][1]),
                   f"the Trace Tree to show agent {i}", timeout=20)
        s.screenshot(f"run-{i}-picked")

    # Sessions: the two runs of chat-7 under it, with totals; its thread.
    s.click(control(s, "check box", "Group by session"))
    grouped = s.wait_for(lambda: (r := runs_rows(s)) and len(r) == 4 and r,
                         "the runs grouped by session", timeout=15)
    session_row = next((i for i, (d, c) in enumerate(grouped) if "chat-7" in c[0]), None)
    expect(session_row is not None, f"no session row: {grouped!r}")
    under = [c[0] for d, c in grouped[session_row + 1:] if d == 1]
    expect(under == ["agent 0", "agent 1"], f"the session holds {under!r}")
    expect("241" in grouped[session_row][1], f"the session's total tokens: {grouped[session_row]}")
    s.click(cell(s, session_row, 0))
    thread = s.wait_for(lambda: s.first(show_dock(s, "Runs"), name="Session thread",
                                        showing=True), "the session's thread", timeout=15)
    text = s.text_of(thread)
    expect(text.find("question 0") < text.find("answer 0") < text.find("question 1"),
           f"the thread is not in order: {text[:300]!r}")
    s.screenshot("session-thread")
    s.click(control(s, "check box", "Group by session"))
    s.wait_for(lambda: len(runs_rows(s)) == 3, "the flat list again", timeout=15)

    # Select two runs and compare them.
    s.click(cell(s, 0, 0))
    x, y = s.center(cell(s, 1, 0))
    s.xdotool("mousemove", "--sync", str(x), str(y), "keydown", "ctrl", "click", "1",
              "keyup", "ctrl")
    compare = control(s, "push button", "Compare runs")
    s.wait_for(lambda: compare.getState().contains(s.pyatspi.STATE_ENABLED),
               "Compare to be enabled with two runs selected", timeout=10)
    s.click(compare)
    s.wait_for(lambda: (d := s.dock("Trace Comparison")) and s.on_screen(d),
               "the Trace Comparison dock", timeout=30)
    s.screenshot("runs-compared")


if __name__ == "__main__":
    sys.exit(journeylib.run(journey))
