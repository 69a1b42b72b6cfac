#!/usr/bin/env python3
"""Journey: a live agent traced with the real OpenTelemetry JavaScript SDK into the window.

An engineer turns on Traces › Receive OpenTelemetry and runs a small Node.js agent traced the
way real ones are: the OpenTelemetry JS SDK with the OpenInference instrumentation of the
`openai` client (tests/tools/otel-sdk/agent.mjs, calling a local OpenAI-compatible server). While
the agent still runs, its run is already in the Runs dock (running, its root not received yet)
and its spans in the Trace Tree; when it ends the row turns into the finished run. A second run
of the same chat session follows. Group by session puts both runs under the session with its
totals; picking the session shows its thread (both questions and answers in order); picking a
run shows it in the Trace Tree, and View › Graph draws its shape. The receiver logged every model
call: the Runs dock's Prompt log lists both runs again, from the log, and opens their calls.

Skips (exit 77) when node or the test-only npm packages (scripts/dev installs them with npm ci
in tests/tools/otel-sdk) are missing.
"""
# journey-deadline: 400
import os
import re
import shutil
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import journeylib  # noqa: E402
from fakemodel import FakeModelServer  # noqa: E402
from panes import expect, show_dock, status_text, trace_tree_rows, view_in  # noqa: E402

SESSION = "trip-kyoto"
QUESTIONS = ["What should I pack for Kyoto this weekend?", "And where should we eat on Sunday?"]


def sdk_dir(args):
    return os.path.join(args.source, "tests", "tools", "otel-sdk")


def check_sdk(args):
    node = shutil.which("node")
    if node is None:
        journeylib.skip("node is not installed (the live agent runs on Node.js)")
    modules = os.path.join(sdk_dir(args), "node_modules")
    for package in ("openai", "@arizeai/openinference-instrumentation-openai",
                    "@opentelemetry/sdk-trace", "@opentelemetry/exporter-trace-otlp-http"):
        if not os.path.isdir(os.path.join(modules, package)):
            journeylib.skip(f"the test-only npm package {package} is not installed (run "
                            f"`npm ci --prefix {sdk_dir(args)}` or scripts/dev test)")
    return node


def runs_view(s):
    return view_in(s, show_dock(s, "Runs"), ("tree table", "tree"))


def runs_rows(s):
    view = runs_view(s)
    return s.table_rows(view) if view is not None else []


def cell(s, row, column=0):
    return runs_view(s).queryTable().getAccessibleAt(row, column)


def control(s, role, name):
    dock = show_dock(s, "Runs")
    return s.wait_for(lambda: s.first(dock, role=role, name=name), f"the {name} {role}",
                      timeout=10)


def receiver_url(s):
    """The address the window says the receiver listens on (its status bar)."""
    m = re.search(r"http://127\.0\.0\.1:\d+/v1/traces", status_text(s))
    return m.group(0) if m else None


def start_agent(s, node, args, otlp, model, question, user):
    log = open(os.path.join(s.artifacts, f"agent-{user}.log"), "w")
    return subprocess.Popen(
        [node, os.path.join(sdk_dir(args), "agent.mjs"), "--otlp", otlp, "--model-url", model,
         "--session", SESSION, "--user", user, "--question", question, "--pause", "2500"],
        cwd=s.work, stdout=log, stderr=subprocess.STDOUT, env={**os.environ, "NO_COLOR": "1"})


def journey(s, args):
    node = check_sdk(args)
    # Listen on a free port (the setting's 0), so that journeys never collide on 4318.
    conf = os.path.join(s.home, ".config", "Hako")
    os.makedirs(conf, exist_ok=True)
    with open(os.path.join(conf, "Hako.conf"), "a") as f:
        f.write("\n[otel]\nreceiverPort=0\n")
    model = FakeModelServer()
    agents = []
    try:
        s.launch()
        s.menu("Traces", "Receive OpenTelemetry")
        otlp = s.wait_for(lambda: receiver_url(s), "the window to say where it listens",
                          timeout=20)
        s.screenshot("receiver-listening")

        # The first run, seen while it runs.
        agents.append(start_agent(s, node, args, otlp, model.base_url, QUESTIONS[0], "kei"))
        running = s.wait_for(
            lambda: next((c for _, c in runs_rows(s) if "running" in c), None),
            "the running agent's row in the Runs dock", timeout=60)
        expect(agents[0].poll() is None, "the agent ended before its run showed as running")
        s.screenshot("run-listed-while-running")
        expect(SESSION in running, f"the running run's row lacks its session: {running!r}")
        rows = s.wait_for(
            lambda: (t := trace_tree_rows(s)) and any("OpenAI Chat Completions" in " ".join(c)
                                                      for _, c in t) and t,
            "the first LLM span in the Trace Tree while the agent runs", timeout=30)
        expect(any("waiting for span" in " ".join(c) for _, c in rows),
               f"the LLM span is not under a placeholder for the running agent: {rows!r}")
        s.screenshot("live-spans-in-tree")
        expect(agents[0].wait(timeout=90) == 0, "the first agent run failed (see agent-kei.log)")
        s.wait_for(lambda: any("travel-agent" in c[0] and "ok" in c for _, c in runs_rows(s)),
                   "the finished run's row", timeout=30)
        rows = s.wait_for(lambda: (t := trace_tree_rows(s)) and "travel-agent" in t[0][1][0] and t,
                          "the Trace Tree to show the whole run under the agent", timeout=30)
        names = [c[0] for _, c in rows]
        expect(names.count("OpenAI Chat Completions") == 2 and "lookup_weather" in names,
               f"the finished run's tree: {names!r}")
        s.screenshot("first-run-done")

        # The second run of the same session.
        agents.append(start_agent(s, node, args, otlp, model.base_url, QUESTIONS[1], "mio"))
        expect(agents[1].wait(timeout=90) == 0, "the second agent run failed (see agent-mio.log)")
        s.wait_for(lambda: sum("travel-agent" in c[0] and "ok" in c
                               for _, c in runs_rows(s)) == 2,
                   "both finished runs in the Runs dock", timeout=30)
        s.screenshot("two-runs")

        # Group by session: both runs under it; its thread.
        s.click(control(s, "check box", "Group by session"))
        grouped = s.wait_for(lambda: (r := runs_rows(s)) and len(r) == 3 and r,
                             "the runs grouped under their session", timeout=15)
        expect(SESSION in grouped[0][1][0] and [d for d, _ in grouped] == [0, 1, 1],
               f"the session does not hold both runs: {grouped!r}")
        s.click(cell(s, 0, 0))
        thread = s.wait_for(lambda: s.first(show_dock(s, "Runs"), name="Session thread",
                                            showing=True), "the session's thread", timeout=15)
        text = s.text_of(thread)
        first, second = text.find(QUESTIONS[0]), text.find(QUESTIONS[1])
        expect(0 <= first < second, f"the thread does not hold both questions in order: "
                                    f"{text[:400]!r}")
        s.screenshot("session-thread")

        # Open the first run: the Trace Tree shows it; View › Graph draws it.
        s.click(cell(s, 1, 0))
        s.wait_for(lambda: (t := trace_tree_rows(s)) and "travel-agent" in t[0][1][0],
                   "the Trace Tree to show the picked run", timeout=20)
        s.menu("View", "Graph")
        graph_dock = show_dock(s, "Graph")
        graph = s.wait_for(lambda: s.first(graph_dock, name="Agent graph", showing=True),
                           "the agent graph", timeout=20)
        described = s.wait_for(lambda: re.search(r"(\d+) node", graph.description or "") and
                               graph.description, "the graph to describe its nodes", timeout=20)
        expect(int(re.search(r"(\d+) node", described).group(1)) >= 3,
               f"the graph lacks the agent, its model calls or its tool: {described!r}")
        s.screenshot("graph")

        # The receiver logged every LLM span: the Runs dock's Prompt log lists both runs with
        # their two model calls each, and opening one shows its calls.
        s.click(control(s, "push button", "Runs of the prompt log"))
        logged = s.wait_for(lambda: (r := runs_rows(s)) and len(r) == 2 and
                            all(c[4] == "2" for _, c in r) and r,
                            "the prompt log's two runs with two calls each", timeout=30)
        s.screenshot("prompt-log-runs")
        s.click(cell(s, 0, 0))
        calls = s.wait_for(
            lambda: (t := trace_tree_rows(s)) and
            [c[1] for _, c in t].count("model") == 2 and t,
            "the Trace Tree to show the logged run's two calls", timeout=20)
        expect("WHAT SHOULD I PACK" in " ".join(calls[1][1]),
               f"the first logged call's reply is not shown: {calls!r} (runs {logged!r})")
        s.screenshot("prompt-log-run-open")
    finally:
        for p in agents:
            if p.poll() is None:
                p.kill()
                p.wait(timeout=10)
        model.close()


if __name__ == "__main__":
    sys.exit(journeylib.run(journey))
