#!/usr/bin/env python3
"""Journey: the agent's shape (issue 28 §2).

An engineer opens an OpenTelemetry trace of a support agent (OpenInference spans: the agent
loops over a model call and a documentation search three times, then hands off to a writer
agent), opens View › Graph and sees agents, tools and model calls as nodes with the loop
collapsed, opens View › Flame, searches for the tool and steps to its bars, and clicks a bar:
the Trace Tree selects the same block.
"""
# journey-deadline: 300
import json
import os
import re
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import journeylib  # noqa: E402
from panes import expect, show_dock, trace_tree_rows, view_in  # noqa: E402

TRACE = "5b8efff798038103d269b633813fc60c"
T0 = 1_700_000_000_000_000_000


def span(span_id, parent, name, kind, start_ms, end_ms, extra=()):
    attrs = [{"key": "openinference.span.kind", "value": {"stringValue": kind}}]
    attrs += [{"key": k, "value": v} for k, v in extra]
    s = {"traceId": TRACE, "spanId": span_id, "name": name, "kind": 1,
         "startTimeUnixNano": str(T0 + start_ms * 1_000_000),
         "endTimeUnixNano": str(T0 + end_ms * 1_000_000), "attributes": attrs}
    if parent:
        s["parentSpanId"] = parent
    return s


def llm(span_id, parent, start, end, prompt, completion):
    return span(span_id, parent, "ChatOpenAI", "LLM", start, end, [
        ("llm.model_name", {"stringValue": "gpt-4o-mini"}),
        ("llm.token_count.prompt", {"intValue": str(prompt)}),
        ("llm.token_count.completion", {"intValue": str(completion)})])


def write_trace(path):
    root = "c000000000000001"
    spans = [span(root, None, "support-agent", "AGENT", 0, 4000)]
    n = 2
    for i in range(3):
        t = i * 1000
        spans.append(llm(f"c0000000000000{n:02d}", root, t, t + 600, 800 + i * 200, 60))
        spans.append(span(f"c0000000000000{n + 1:02d}", root, "search_docs", "TOOL", t + 600,
                          t + 1000, [("tool.name", {"stringValue": "search_docs"})]))
        n += 2
    writer = f"c0000000000000{n:02d}"
    spans.append(span(writer, root, "writer", "AGENT", 3000, 4000))
    spans.append(llm(f"c0000000000000{n + 1:02d}", writer, 3000, 3900, 1500, 400))
    doc = {"resourceSpans": [{"resource": {"attributes": [
        {"key": "service.name", "value": {"stringValue": "support"}}]},
        "scopeSpans": [{"scope": {"name": "journey"}, "spans": spans}]}]}
    with open(path, "w", encoding="utf-8") as f:
        json.dump(doc, f)


def canvas(s, dock, name):
    return s.wait_for(lambda: s.first(dock, name=name, showing=True), f"the {name} in its pane",
                      timeout=20)


def description(acc):
    try:
        return acc.description or ""
    except Exception:
        return ""


def selected_tree_labels(s):
    dock = show_dock(s, "Trace Tree")
    view = view_in(s, dock, ("tree table", "tree"))
    table = view.queryTable()
    labels = []
    for r in range(table.nRows):
        cell = table.getAccessibleAt(r, 0)
        if cell is not None and cell.getState().contains(s.pyatspi.STATE_SELECTED):
            labels.append(cell.name)
    return labels


def journey(s, args):
    trace = os.path.join(s.work, "support.otlp.json")
    write_trace(trace)
    s.launch(trace)
    rows = s.wait_for(lambda: trace_tree_rows(s), "the Trace Tree to list the spans", timeout=40)
    expect(any("support-agent" in " ".join(c) for _, c in rows),
           f"the Trace Tree does not show the agent: {rows!r}")
    s.screenshot("trace-open")

    # View › Graph: the agent's shape, the loop collapsed.
    s.menu("View", "Graph")
    graph_dock = show_dock(s, "Graph")
    graph = canvas(s, graph_dock, "Agent graph")
    # support-agent, ChatOpenAI, search_docs, writer: 4 nodes (the writer's model call is the
    # same ChatOpenAI model).
    text = s.wait_for(lambda: re.search(r"(\d+) node", description(graph)) and description(graph),
                      "the graph to describe its nodes", timeout=20)
    nodes = int(re.search(r"(\d+) node", text).group(1))
    expect(nodes == 4, f"the graph has {nodes} nodes, not 4 (agent, model, tool, writer): {text}")
    # The run's totals above the graph: 4 model calls' tokens (prompt + completion).
    totals = s.first(graph_dock, role="label", name_contains="Run total", showing=True)
    expect(totals is not None and "5,080 tokens" in totals.name,
           f"the Graph pane shows no run totals ({totals and totals.name!r})")
    s.screenshot("graph")

    # View › Flame: search the tool, step to its bars.
    s.menu("View", "Flame")
    flame_dock = show_dock(s, "Flame")
    flame = canvas(s, flame_dock, "Flame chart")
    search = canvas(s, flame_dock, "Search the flame chart")
    s.focus(search)
    s.type("search_docs")
    s.wait_for(lambda: re.search(r"\b3 match", description(flame)),
               "the flame chart to mark the 3 search_docs bars", timeout=15)
    s.screenshot("flame-search")
    s.key("Return")
    s.wait_for(lambda: "search_docs" in description(flame), "a search_docs bar to be selected",
               timeout=10)
    s.screenshot("flame-match-selected")
    labels = s.wait_for(lambda: selected_tree_labels(s), "the Trace Tree to select the block",
                        timeout=15)
    expect(any("search_docs" in label for label in labels),
           f"the Trace Tree selects {labels!r}, not the search_docs span")

    # A click on the top bar (the whole run) selects the agent everywhere.
    flame_dock = show_dock(s, "Flame")
    ext = flame.queryComponent().getExtents(s.pyatspi.DESKTOP_COORDS)
    s.xdotool("mousemove", "--sync", str(ext.x + ext.width // 2), str(ext.y + 10), "click", "1")
    s.wait_for(lambda: "support-agent" in description(flame), "the root bar to be selected",
               timeout=10)
    labels = s.wait_for(lambda: selected_tree_labels(s), "the Trace Tree to select the agent",
                        timeout=15)
    expect(any("support-agent" in label for label in labels),
           f"the Trace Tree selects {labels!r}, not the agent")
    show_dock(s, "Graph")
    s.wait_for(lambda: "support-agent" in description(graph),
               "the graph to light the selected agent", timeout=10)
    s.screenshot("graph-follows")


if __name__ == "__main__":
    sys.exit(journeylib.run(journey))
