#!/usr/bin/env python3
"""Journey: the prompt log, the monitor and the playground.

A program with two named prompts runs against a local OpenAI-compatible server. View › Prompt
Log lists both calls; the "By prompt" table, sorted by tokens with a click on its header, puts
the bigger prompt first, and its sums are the usage the server reported. Selecting the top call
shows its messages; Show Source puts the editor's cursor on the model block that made it.
Open in Playground shows that block's prompt; the user changes its text, adds a second variant
with other words, types three names as inputs, runs the 2 × 3 grid (six calls reach the
server) and saves the second variant back into the program, where the editor shows it.
"""
import os
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import journeylib  # noqa: E402
from fakemodel import FakeModelServer, reply_for, usage_for  # noqa: E402
from panes import console_text, expect, show_dock, status_text, view_in  # noqa: E402

PROGRAM = """description: Two prompts for the log
text:
- def: greeting
  model: openai/gpt-4o-mini
  input: "Say hi to ${ name }."
- "\\n"
- def: summary
  model: openai/gpt-4o-mini
  input: |
    Summarise in one line for ${ name }: the quick brown fox jumps over the lazy dog, then the
    dog wakes up, chases the fox across the field and both end up asleep under the old oak tree.
defs:
  name: Aiko
"""


def page_tab(s, dock, name):
    return s.first(dock, role="page tab", name=name, showing=True)


def table_in(s, dock, name):
    return s.wait_for(lambda: s.first(dock, role="table", name=name, showing=True),
                      f"the {name} table", timeout=20)


def header(s, table, name):
    for acc, _ in s.walk(table, max_nodes=200):
        if acc.getRoleName() in ("column header", "table column header") and acc.name == name:
            return acc
    return None


def inside(s, acc, container):
    """Whether `acc` is drawn wholly inside `container` (a scrolled-away widget still says it is
    showing, with its place outside the viewport)."""
    if not s.on_screen(acc):
        return False
    a = acc.queryComponent().getExtents(s.pyatspi.DESKTOP_COORDS)
    c = container.queryComponent().getExtents(s.pyatspi.DESKTOP_COORDS)
    return a.x >= c.x and a.y >= c.y and a.x + a.width <= c.x + c.width and \
        a.y + a.height <= c.y + c.height


def number(text):
    return int((text or "0").replace(",", "") or 0)


def journey(s, args):
    server = FakeModelServer()
    try:
        s.env["OPENAI_BASE_URL"] = server.base_url
        s.env["OPENAI_API_KEY"] = "sk-journey-SECRET"
        s.env["OLLAMA_API_BASE"] = "http://127.0.0.1:9"
        program = os.path.join(s.work, "two_prompts.pdl")
        with open(program, "w") as f:
            f.write(PROGRAM)
        s.launch(program)
        s.wait_for(lambda: "two_prompts.pdl" in (s.window.name or ""), "the program to open",
                   timeout=20)
        s.focus_editor()
        s.key("F5")
        s.wait_for(lambda: "Run finished" in status_text(s), "the run to finish", timeout=60)
        expect(len(server.chat_requests()) == 2,
               f"the server got {len(server.chat_requests())} chat requests, not 2")
        s.screenshot("run-finished")

        # View › Prompt Log: both calls are listed.
        s.menu("View", "Prompt Log")
        dock = show_dock(s, "Prompt Log")
        calls = table_in(s, dock, "Model calls")
        s.wait_for(lambda: len(s.table_rows(calls)) == 2, "two calls in the Prompt Log",
                   timeout=30)
        s.screenshot("prompt-log")

        # The per-prompt table, sorted by tokens in with a click (twice: largest first).
        s.click(s.wait_for(lambda: page_tab(s, dock, "By prompt"), "the By prompt tab"))
        stats = table_in(s, dock, "Call statistics")
        s.wait_for(lambda: len(s.table_rows(stats)) == 2, "two prompts in the statistics")
        tokens_in = 3  # Prompt, Calls, Success, Tokens In, …

        def click_header():
            # The table is filled again when its tab shows: find the header afresh each time.
            s.click(s.wait_for(lambda: header(s, table_in(s, dock, "Call statistics"),
                                              "Tokens In"), "the Tokens In column header"))
            return True

        def prompt_of(cell):
            # A prompt is named "program › prompt" (its program's description, then its def).
            return (cell or "").split("›")[-1].strip()

        def first_row():
            rows = s.table_rows(table_in(s, dock, "Call statistics"))
            return [prompt_of(rows[0][1][0])] + rows[0][1][1:] if rows else None

        s.wait_for(click_header, "a click on the Tokens In header", timeout=20)
        s.wait_for(lambda: first_row() and first_row()[0] in ("summary", "greeting"),
                   "the sorted table")
        if first_row()[0] != "summary":
            s.wait_for(click_header, "a second click on the Tokens In header", timeout=20)
        s.wait_for(lambda: first_row()[0] == "summary", "summary to sort first by tokens",
                   timeout=10)
        stats = table_in(s, dock, "Call statistics")
        s.screenshot("stats-sorted-by-tokens")

        # The sums are what the server reported.
        expected = {}
        for body in server.chat_requests():
            usage = usage_for(body, reply_for(body))
            prompt = "summary" if "Summarise" in str(body["messages"]) else "greeting"
            expected[prompt] = usage["prompt_tokens"]
        for _, cells in s.table_rows(stats):
            expect(number(cells[tokens_in]) == expected.get(prompt_of(cells[0])),
                   f"{cells[0]}: tokens in {cells[tokens_in]}, the server reported "
                   f"{expected.get(prompt_of(cells[0]))}")

        # Back to the calls: select the summary call, read it, and go to its source.
        s.click(s.wait_for(lambda: page_tab(s, dock, "Calls"), "the Calls tab"))
        calls = table_in(s, dock, "Model calls")
        rows = s.table_rows(calls)
        row = next(i for i, (_, cells) in enumerate(rows)
                   if any(c.split("›")[-1].strip() == "summary" for c in cells))
        cell = calls.queryTable().getAccessibleAt(row, 1)
        s.click(cell)
        detail = s.wait_for(lambda: s.first(dock, name="Call detail", showing=True),
                            "the call detail")
        s.wait_for(lambda: "quick brown fox" in s.text_of(detail), "the call's messages",
                   timeout=20)
        reply = reply_for(next(b for b in server.chat_requests() if "Summarise" in str(b)))
        expect(reply.split()[1] in s.text_of(detail), "the detail does not show the reply")
        s.screenshot("call-detail")
        show_source = s.wait_for(lambda: s.first(dock, role="push button", name="Show Source",
                                                 showing=True), "the Show Source button")
        s.click(show_source)
        s.wait_for(lambda: "Ln 7," in status_text(s),
                   "the editor's cursor on the summary block (line 7)", timeout=20)
        s.screenshot("source-shown")
        expect("Failed" not in console_text(s), "the run reported a failure")

        # Open the call in the Playground.
        dock = show_dock(s, "Prompt Log")
        s.click(s.wait_for(lambda: s.first(dock, role="push button", name="Open in Playground",
                                           showing=True), "the Open in Playground button"))
        play = show_dock(s, "Playground")
        first_text = s.wait_for(lambda: s.first(play, name="Variant 1 message 1 text",
                                                showing=True), "the first variant's message")
        s.wait_for(lambda: "${ name }" in s.text_of(first_text),
                   "the block's prompt (with its ${ name } input) in the playground")
        s.screenshot("playground-open")
        s.focus(first_text)
        s.key("ctrl+End")
        s.type(" Keep it short.")
        s.click(s.wait_for(lambda: s.first(play, role="push button", name="Add variant",
                                           showing=True), "the Add variant button"))
        second_text = s.wait_for(lambda: s.first(play, name="Variant 2 message 1 text",
                                                 showing=True), "the second variant's message")
        s.focus(second_text)
        s.key("ctrl+End")
        s.type(" Use formal words.")
        s.wait_for(lambda: "formal words" in s.text_of(second_text), "the second text typed")

        # Three names as inputs, typed into the table.
        inputs = s.wait_for(lambda: s.first(play, role="table", name="Inputs", showing=True),
                            "the Inputs table")
        add_row = s.wait_for(lambda: s.first(play, role="push button", name="Add input row",
                                             showing=True), "the Add input row button")
        # A short dock scrolls: wheel down over the pane (on the Inputs title, which does not
        # take the wheel itself) until the table's buttons are on screen.
        title = s.first(play, role="label", name="Inputs", showing=True) or inputs
        for _ in range(8):
            if inside(s, add_row, play):
                break
            x, y = s.center(title)
            s.xdotool("mousemove", "--sync", str(x), str(y - 2), "click", "5", "click", "5")
            time.sleep(0.3)
        expect(inside(s, add_row, play), "the inputs table is not on screen in the Playground")
        for _ in range(5):
            if inputs.queryTable().nRows >= 3:
                break
            s.click(add_row)
            time.sleep(0.3)
        s.screenshot("inputs-rows")
        expect(inputs.queryTable().nRows >= 3,
               f"Add input row did not add rows ({inputs.queryTable().nRows})")
        # Typed as in a spreadsheet: the first cell, then Tab to the next row.
        s.click(inputs.queryTable().getAccessibleAt(0, 0))
        for i, name in enumerate(["Aiko", "Ben", "Chie"]):
            s.type(name)
            s.key("Tab" if i < 2 else "Return")
        s.wait_for(lambda: [cells[0] for _, cells in s.table_rows(inputs)][:3] ==
                   ["Aiko", "Ben", "Chie"], "the three names in the Inputs table")
        s.screenshot("playground-inputs")

        # Ctrl+Return runs the playground from wherever the focus is in it.
        before = len(server.chat_requests())
        s.key("ctrl+Return")
        s.wait_for(lambda: len(server.chat_requests()) - before == 6,
                   "six calls (2 variants × 3 inputs) at the server", timeout=60)
        results = s.wait_for(lambda: s.first(play, role="table", name="Results", showing=True)
                             or s.first(play, role="tree table", name="Results", showing=True),
                             "the Results grid")
        s.wait_for(lambda: len(s.table_rows(results)) == 3 and
                   all(all(c for c in cells) for _, cells in s.table_rows(results)),
                   "every cell of the results grid filled", timeout=60)
        sent = [str(b["messages"]) for b in server.chat_requests()[before:]]
        expect(sum("Use formal words." in m for m in sent) == 3,
               "the second variant's text did not reach the server three times")
        expect(sum("Chie" in m for m in sent) == 2, "the third input did not reach both variants")
        s.screenshot("playground-results")

        # Save the second variant back into the program.
        s.click(s.wait_for(lambda: s.first(play, role="push button",
                                           name="Variant 2 save to program", showing=True),
                           "Variant 2's Save to Program button"))
        s.wait_for(lambda: "Use formal words." in s.editor_text(),
                   "the saved prompt in the editor", timeout=20)
        text = s.editor_text()
        # The second variant began as a copy of the first (with "Keep it short.").
        expect("Keep it short. Use formal words." in text, "not the second variant's text")
        expect("description: Two prompts for the log" in text and "def: greeting" in text,
               "the rest of the program changed")
        s.screenshot("saved-to-program")
    finally:
        server.close()


if __name__ == "__main__":
    sys.exit(journeylib.run(journey))
