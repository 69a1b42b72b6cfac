#!/usr/bin/env python3
"""Journey: online evaluation of received calls, and their traces kept.

The user picks an online evaluation file with Traces › Evaluate Received Calls… and turns on
Traces › Receive OpenTelemetry. An application sends its spans (OTLP/JSON over HTTP): the two
model calls show in View › Prompt Log with their scores in the Score column, `score:✗` in the
search keeps the calls an evaluator failed, the Over Time tab charts the mean score, and Show in
Trace on a call opens its run. After a restart the scores are still there.
"""
# journey-deadline: 300
import json
import os
import socket
import sys
import urllib.request

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import journeylib  # noqa: E402
from panes import expect, show_dock, status_text, trace_tree_rows, view_in  # noqa: E402

EVALUATION = """sample: 1
filter: {model: gpt-4o}
evaluators:
  - {name: short, type: length_chars, max: 100000}
  - {name: json, type: is_json}
"""


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def post_spans(port, body):
    req = urllib.request.Request(f"http://127.0.0.1:{port}/v1/traces", data=body,
                                 headers={"Content-Type": "application/json"}, method="POST")
    with urllib.request.urlopen(req, timeout=20) as r:
        return r.status


def table_in(s, dock, name):
    return s.wait_for(lambda: s.first(dock, role="table", name=name, showing=True),
                      f"the {name} table", timeout=20)


def score_cells(s, dock):
    rows = s.table_rows(table_in(s, dock, "Model calls"))
    return [cells[-1] for _, cells in rows]


def journey(s, args):
    port = free_port()
    config = os.path.join(s.env["XDG_CONFIG_HOME"], "Hako")
    os.makedirs(config, exist_ok=True)
    with open(os.path.join(config, "Hako.conf"), "w") as f:
        f.write(f"[otel]\nreceiverPort={port}\n")
    spec = os.path.join(s.work, "online.yaml")
    with open(spec, "w") as f:
        f.write(EVALUATION)
    fixture = os.path.join(args.source, "tests", "data", "otel", "genai_agent.json")
    with open(fixture, "rb") as f:
        spans = f.read()
    # And a gpt-4o-mini call, which the evaluation's filter leaves out.
    other = os.path.join(args.source, "tests", "data", "otel", "openinference_agent.jsonl")
    with open(other, "rb") as f:
        mini = f.read().split(b"\n")[0]

    s.launch()
    s.menu("Traces", "Evaluate Received Calls…")
    s.file_dialog(spec)
    s.wait_for(lambda: "evaluated with online.yaml" in status_text(s),
               "the status bar to name the evaluation file", timeout=15)
    s.menu("Traces", "Receive OpenTelemetry")
    s.wait_for(lambda: f"127.0.0.1:{port}" in status_text(s), "the receiver to listen",
               timeout=20)
    expect(post_spans(port, spans) == 200, "the receiver did not accept the spans")
    expect(post_spans(port, mini) == 200, "the receiver did not accept the second spans")

    s.menu("View", "Prompt Log")
    dock = show_dock(s, "Prompt Log")
    s.wait_for(lambda: len(s.table_rows(table_in(s, dock, "Model calls"))) == 3,
               "the three received calls in the Prompt Log", timeout=30)

    def scored():
        cells = score_cells(s, dock)
        return sum("short 1 ✓" in c and "json 0 ✗" in c for c in cells) == 2 and \
            sum(c == "" for c in cells) == 1
    s.wait_for(scored, "the gpt-4o calls' scores in the Score column", timeout=30)
    s.screenshot("scores-in-the-log")

    # score:✗ keeps the calls an evaluator failed (both: neither reply is JSON).
    search = s.wait_for(lambda: s.first(dock, name="Search calls", showing=True), "the search")
    s.focus(search)
    s.type("score:✗")
    s.key("Return")
    s.wait_for(lambda: len(score_cells(s, dock)) == 2 and
               all("json 0 ✗" in c for c in score_cells(s, dock)),
               "the failing calls listed, and only them", timeout=20)
    s.screenshot("failing-calls")

    # The monitor: the mean score over time.
    s.click(s.wait_for(lambda: s.first(dock, role="page tab", name="Over Time", showing=True),
                       "the Over Time tab"))
    s.wait_for(lambda: s.first(dock, name="Mean score", showing=True), "the mean score chart",
               timeout=20)
    expect(s.first(dock, name="Scores status", showing=True) is None,
           "the monitor still says there are no scores")
    s.screenshot("mean-score-chart")

    # Show in Trace on a call opens its run, kept when it was received.
    s.click(s.wait_for(lambda: s.first(dock, role="page tab", name="Calls", showing=True),
                       "the Calls tab"))
    calls = table_in(s, dock, "Model calls")
    s.click(calls.queryTable().getAccessibleAt(0, 1))
    show = s.wait_for(lambda: s.first(dock, role="push button", name="Show in Trace",
                                      showing=True), "the Show in Trace button")
    s.wait_for(lambda: show.getState().contains(s.pyatspi.STATE_ENABLED),
               "Show in Trace to be enabled", timeout=20)
    s.click(show)
    s.wait_for(lambda: "Opened trace" in status_text(s) and ".trace.json" in status_text(s),
               "the kept trace of the call's run to open", timeout=30)
    s.wait_for(lambda: any("chat gpt-4o" in " ".join(cells) for _, cells in trace_tree_rows(s)),
               "the received run in the Trace Tree", timeout=30)
    s.screenshot("trace-shown")

    # Annotating that span in the Trace Tree scores the logged call too (a person's ✗ first).
    tree = view_in(s, show_dock(s, "Trace Tree"), ("tree table", "tree"))
    span = s.wait_for(lambda: next((a for a, _ in s.walk(tree, max_nodes=400)
                                    if "chat gpt-4o" in (a.name or "") and
                                    a.getState().contains(s.pyatspi.STATE_SELECTED)), None),
                      "the call's span selected in the Trace Tree", timeout=20)
    s.click(span)
    s.key("ctrl+shift+a")
    dialog = s.wait_for(lambda: s.first(s.app, role="dialog", name_contains="Annotate",
                                        showing=True), "the annotation editor", timeout=15)
    s.click(s.wait_for(lambda: s.first(dialog, name="Thumbs down"), "the thumbs down button"))
    s.focus(s.wait_for(lambda: s.first(dialog, name="Note"), "the note field"))
    s.type("Not JSON, and the user asked for JSON")
    s.click(s.wait_for(lambda: s.first(dialog, role="push button", name="Save annotation"),
                       "the Save button"))
    dock = show_dock(s, "Prompt Log")
    s.wait_for(lambda: sum(c.startswith("✗ · ") for c in score_cells(s, dock)) == 1,
               "the person's score beside the evaluators' in the Prompt Log", timeout=30)
    s.screenshot("annotated-in-the-log")

    # A restart keeps the scores.
    s.hako_proc.kill()
    s.hako_proc.wait(timeout=10)
    s.launch()
    if s.dock("Prompt Log") is None:  # the layout is restored: it may be open already
        s.menu("View", "Prompt Log")
    dock = show_dock(s, "Prompt Log")
    s.wait_for(scored, "the scores after a restart", timeout=30)
    s.screenshot("scores-after-restart")


if __name__ == "__main__":
    sys.exit(journeylib.run(journey))
