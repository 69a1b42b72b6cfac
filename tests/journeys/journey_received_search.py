#!/usr/bin/env python3
"""Journey: calls an application sent to `hako serve`, found in the Prompt Log by one kanji.

An application exports two LLM spans over OTLP/HTTP to `hako serve --otlp` (the user's prompt
log, as `hako serve` writes it by default). The user opens the workbench, View › Prompt Log
lists both calls; typing 了 (through the clipboard, as an input method hands it over) in the
search keeps only the call whose reply ends with it — the one-character term at the very end
of a call's text, which the index once missed. Quit, start again: the calls are still there and
the search still finds it.
"""
import json
import os
import re
import signal
import subprocess
import sys
import urllib.request

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import journeylib  # noqa: E402
from panes import expect, show_dock  # noqa: E402

TRACE_ID = "5b8efff798038103d269b633813fc60c"


def llm_span(span_id, start, question, reply):
    def attr(key, value):
        return {"key": key, "value": {"stringValue": value}}
    return {"traceId": TRACE_ID, "spanId": span_id, "name": "ChatOpenAI", "kind": 1,
            "startTimeUnixNano": str(start), "endTimeUnixNano": str(start + 900000000),
            "attributes": [attr("openinference.span.kind", "LLM"),
                           attr("llm.model_name", "gpt-4o-mini"),
                           attr("llm.input_messages.0.message.role", "user"),
                           attr("llm.input_messages.0.message.content", question),
                           attr("llm.output_messages.0.message.role", "assistant"),
                           attr("llm.output_messages.0.message.content", reply)],
            "status": {}}


REQUEST = {"resourceSpans": [{
    "resource": {"attributes": [{"key": "service.name", "value": {"stringValue": "受付アプリ"}}]},
    "scopeSpans": [{"scope": {"name": "demo"}, "spans": [
        llm_span("eee19b7ec3c1b174", 1764300000000000000, "進捗を一言で", "作業は完了"),
        llm_span("eee19b7ec3c1b175", 1764300001000000000, "天気は？", "晴れです"),
    ]}]}]}


def serve_and_send(s):
    """`hako serve --otlp` on a free port with the session's environment (so its prompt log is
    the user's default one), the request posted, then stopped with Ctrl+C."""
    serve = subprocess.Popen([s.hako, "serve", "--otlp", "127.0.0.1:0"], env=s.env, cwd=s.work,
                             stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    s.procs.append(serve)
    port = None
    said = ""
    while port is None:
        line = serve.stdout.readline()
        if not line:
            raise journeylib.JourneyError(f"hako serve did not start: {said}")
        said += line
        m = re.search(r"http://127\.0\.0\.1:(\d+)/v1/traces", line)
        if m:
            port = int(m.group(1))
    post = urllib.request.Request(f"http://127.0.0.1:{port}/v1/traces",
                                  data=json.dumps(REQUEST).encode(),
                                  headers={"Content-Type": "application/json"})
    with urllib.request.urlopen(post, timeout=30) as answer:
        expect(answer.status == 200, f"hako serve answered {answer.status}")
    serve.send_signal(signal.SIGINT)
    rest, _ = serve.communicate(timeout=30)
    expect("2 model call(s) logged" in rest, f"hako serve said: {said + rest}")


def calls_table(s):
    dock = show_dock(s, "Prompt Log")
    table = s.wait_for(lambda: s.first(dock, role="table", name="Model calls", showing=True),
                       "the Model calls table", timeout=20)
    return dock, table


def search_for(s, dock, text):
    field = s.wait_for(lambda: s.first(dock, role="text", name="Search calls", showing=True),
                       "the Prompt Log's search field")
    s.focus(field)
    s.key("ctrl+a", "BackSpace")
    if text:
        s.paste(text)


def replies_listed(s, table):
    return [cells for _, cells in s.table_rows(table)]


def find_the_kanji(s, label, from_menu):
    if from_menu:
        s.menu("View", "Prompt Log")
    dock, table = calls_table(s)  # after a restart: where the user left it, as a tab
    search_for(s, dock, "")
    s.wait_for(lambda: len(s.table_rows(table)) == 2, "both received calls in the Prompt Log",
               timeout=30)
    s.screenshot(f"{label}-two-calls")
    search_for(s, dock, "了")
    s.wait_for(lambda: len(s.table_rows(table)) == 1, "one call left by the search for 了",
               timeout=30)
    rows = replies_listed(s, table)
    expect(any("ChatOpenAI" in cell for cell in rows[0]), f"the call left is {rows[0]!r}")
    # The call shown is the one whose reply ends with 了, not the other.
    s.click(table.queryTable().getAccessibleAt(0, 1))
    detail = s.wait_for(lambda: s.first(dock, name="Call detail", showing=True),
                        "the call detail")
    s.wait_for(lambda: "作業は完了" in s.text_of(detail), "the call's reply 作業は完了",
               timeout=20)
    expect("晴れです" not in s.text_of(detail), "the detail shows the other call's reply")
    # Docked along the bottom of the window the pane is short and wide: the detail stands
    # beside the table, tall enough to read (not four lines under it).
    box = detail.queryComponent().getExtents(s.pyatspi.DESKTOP_COORDS)
    grid = table.queryComponent().getExtents(s.pyatspi.DESKTOP_COORDS)
    expect(box.x >= grid.x + grid.width and box.height >= 3 * grid.height // 4,
           f"the detail at {box.x},{box.y} {box.width}x{box.height} beside the table at "
           f"{grid.x},{grid.y} {grid.width}x{grid.height}")
    s.screenshot(f"{label}-search-one-kanji")


def journey(s, args):
    serve_and_send(s)
    s.launch()
    find_the_kanji(s, "first", from_menu=True)
    s.menu("File", "Quit")
    s.hako_proc.wait(timeout=20)
    s.launch()
    find_the_kanji(s, "after-restart", from_menu=False)


if __name__ == "__main__":
    sys.exit(journeylib.run(journey))
