#!/usr/bin/env python3
"""Journey: debugging a run, re-running from a block, and comparing the two runs.

A program asks a model for a fact about each of four topics in a loop. The user puts a
breakpoint on the model block with the condition `topic == "rivers"` (Run › Breakpoint
Condition…) and starts Run › Debug Program (F6): the run pauses before the second iteration's
call. The Debug dock shows the variables (topic is "rivers") and the context, which holds the
first iteration's question and reply. The user changes `topic` to "volcanoes" in the Debug dock
(Enter edits the value) and continues (F8): the second call the server receives asks about
volcanoes. Then the user edits the prompt in the editor, selects the third iteration's model
call in the Trace Tree and chooses Run › Re-run from Selected Block: only the third and fourth
calls reach the server, with the new wording. The message bar says where the run forked and
Compare with the Original shows the two runs side by side: the first two iterations are the
same, the third differs in its prompt.
"""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import journeylib  # noqa: E402
from fakemodel import FakeModelServer  # noqa: E402
from panes import expect, show_dock, status_text, trace_tree_rows, view_in  # noqa: E402

PROGRAM = """description: A fact about each topic
defs:
  topics:
    data: [apples, rivers, clocks, owls]
text:
- for:
    topic: ${ topics }
  repeat:
    text:
    - def: answer
      model: openai/gpt-4o-mini
      input: "Tell me one fact about ${ topic }."
    - "\\n"
"""
MODEL_LINE = 11  # the line of `model:` inside the loop


def chats(server):
    return server.chat_requests()


def last_user(body):
    return next((m.get("content", "") for m in reversed(body.get("messages", []))
                 if m.get("role") == "user"), "")


def go_to_line(s, line):
    s.focus_editor()
    s.key("ctrl+Home")
    for _ in range(line - 1):
        s.key("Down")
    s.wait_for(lambda: f"Ln {line}," in status_text(s), f"the cursor on line {line}",
               timeout=10)


def debug_view(s, dock, name):
    return s.wait_for(lambda: s.first(dock, name=name, showing=True), f"the {name} view",
                      timeout=20)


def rows_of(s, view):
    return [cells for _, cells in s.table_rows(view)]


def journey(s, args):
    server = FakeModelServer()
    try:
        s.env["OPENAI_BASE_URL"] = server.base_url
        s.env["OPENAI_API_KEY"] = "sk-journey-SECRET"
        s.env["OLLAMA_API_BASE"] = "http://127.0.0.1:9"
        program = os.path.join(s.work, "facts.pdl")
        with open(program, "w") as f:
            f.write(PROGRAM)
        s.launch(program)
        s.wait_for(lambda: "facts.pdl" in (s.window.name or ""), "the program to open",
                   timeout=20)

        # A conditional breakpoint on the model block: Run › Breakpoint Condition….
        go_to_line(s, MODEL_LINE)
        s.menu("Run", "Breakpoint Condition…")
        dialog = s.wait_for(lambda: next((a for a in s.all(s.app, role="dialog")
                                          if a.name == "Breakpoint Condition" and
                                          s.on_screen(a)), None),
                            "the Breakpoint Condition dialog", timeout=15)
        field = s.wait_for(lambda: s.first(dialog, role="text", showing=True),
                           "the condition field")
        s.focus(field)
        s.type('topic == "rivers"')
        s.screenshot("breakpoint-condition")
        s.key("Return")
        s.wait_for(lambda: not s.on_screen(dialog), "the dialog to close", timeout=10)

        # Debug Program (F6): paused before the second iteration's call.
        s.focus_editor()
        s.key("F6")
        dock = show_dock(s, "Debug")
        variables = debug_view(s, dock, "Debug variables")
        s.wait_for(lambda: ["topic", '"rivers"'] in rows_of(s, variables),
                   'the run to pause with topic = "rivers"', timeout=60)
        where = s.wait_for(lambda: next((a for a in s.all(dock, role="label")
                                         if (a.name or "").startswith("Paused at ")), None),
                           "the Debug dock to say where the run is paused", timeout=10)
        expect("model" in where.name, f"{where.name!r}: not paused at a model block")
        expect(len(chats(server)) == 1,
               f"{len(chats(server))} calls were sent before the pause, not 1")
        context = debug_view(s, dock, "Debug context")
        context_rows = rows_of(s, context)
        joined = " | ".join(" ".join(c) for c in context_rows)
        expect("TELL ME ONE FACT ABOUT APPLES." in joined,
               f"the context does not hold the first iteration's reply: {joined!r}")
        s.screenshot("paused-at-iteration-2")

        # Edit a variable: select topic's value, Enter, type, Enter.
        row = next(i for i, cells in enumerate(rows_of(s, variables)) if cells[0] == "topic")
        s.click(variables.queryTable().getAccessibleAt(row, 1))
        s.key("Return")
        s.key("ctrl+a")
        s.type("volcanoes")
        s.key("Return")
        s.wait_for(lambda: ["topic", '"volcanoes"'] in rows_of(s, variables),
                   "topic to become volcanoes", timeout=20)
        s.screenshot("variable-edited")

        # Continue (F8): the breakpoint's condition no longer holds; the run ends.
        s.key("F8")
        s.wait_for(lambda: "Run finished" in status_text(s), "the debugged run to finish",
                   timeout=60)
        sent = [last_user(b) for b in chats(server)]
        expect(len(sent) == 4, f"the server got {len(sent)} calls, not 4: {sent}")
        expect(sent[1] == "Tell me one fact about volcanoes.",
               f"the second call asked {sent[1]!r}, not about volcanoes")
        s.screenshot("debugged-run-finished")

        # Edit the prompt (Find, then type over the match).
        s.focus_editor()
        s.key("ctrl+f")
        s.type("one fact")
        s.key("Return")
        s.key("Escape")
        s.type("two facts")
        s.key("Escape")
        s.wait_for(lambda: "Tell me two facts about ${ topic }." in s.editor_text(),
                   "the edited prompt in the editor", timeout=10)

        # The third iteration's model call in the Trace Tree, then Run › Re-run from Selected
        # Block.
        tree_dock = show_dock(s, "Trace Tree")
        tree = s.wait_for(lambda: view_in(s, tree_dock, ("tree table", "tree")),
                          "the Trace Tree view", timeout=20)
        # The loop's rows are collapsed: select the root row and expand everything below it (*).
        s.click(tree.queryTable().getAccessibleAt(0, 0))
        s.key("asterisk")
        s.wait_for(lambda: any(any("ABOUT CLOCKS" in c for c in cells)
                               for _, cells in trace_tree_rows(s)[3:]),
                   "the loop's iterations in the Trace Tree", timeout=15)
        rows = trace_tree_rows(s)
        target = next((i for i, (_, cells) in enumerate(rows)
                       if any("ABOUT CLOCKS" in c for c in cells) and
                       any("answer" in c or "model" in c.lower() for c in cells[:1])), None)
        expect(target is not None, f"no row of the third model call in the Trace Tree: {rows}")
        # The keyboard walks down to it (the row may be scrolled out of sight).
        for _ in range(target):
            s.key("Down")
        s.wait_for(lambda: "ABOUT CLOCKS" in " ".join(
            c.name or "" for c in [tree.queryTable().getAccessibleAt(target, 2)]) and
            tree.queryTable().isRowSelected(target), "the third call's row to be selected",
            timeout=10)
        s.screenshot("third-call-selected")
        before = len(chats(server))
        s.menu("Run", "Re-run from Selected Block")
        s.wait_for(lambda: "Run finished" in status_text(s) and
                   len(chats(server)) >= before + 2, "the re-run to finish", timeout=60)
        sent = [last_user(b) for b in chats(server)[before:]]
        expect(sent == ["Tell me two facts about clocks.", "Tell me two facts about owls."],
               f"the re-run sent {sent}, not the third and fourth calls with the new prompt")

        # The message bar says where the run forked; compare the two runs.
        compare = s.wait_for(lambda: s.first(s.window, role="push button",
                                             name="Compare with the Original", showing=True),
                             "the Compare with the Original button", timeout=15)
        bar = next((a for a in s.all(s.window, role="label")
                    if (a.name or "").startswith("Forked from")), None)
        expect(bar is not None and "line 10" in bar.name,
               f"the message bar does not say where the run forked: {bar and bar.name!r}")
        s.screenshot("forked-message")
        s.click(compare)
        diff_dock = show_dock(s, "Trace Comparison")
        summary = s.wait_for(lambda: s.first(diff_dock, role="label", name_contains=" changed, ",
                                             showing=True), "the comparison's summary",
                             timeout=30)
        expect(" 0 inserted, 0 deleted" in summary.name, f"summary: {summary.name!r}")
        # The comparison fits the screen with the other docks open.
        ext = s.window.queryComponent().getExtents(s.pyatspi.DESKTOP_COORDS)
        expect(ext.x + ext.width <= s.size[0], f"the window grew to {ext.width} px wide")
        s.screenshot("comparison")
        left = s.wait_for(lambda: s.first(diff_dock, name="Left trace", showing=True),
                          "the left trace of the comparison", timeout=10)
        s.click(left.queryTable().getAccessibleAt(0, 0))
        s.key("asterisk")

        def model_rows():
            # (result, status) of each model call of the original run, in order.
            return [(cells[1], next((c for c in cells if c == "same" or
                                     c.startswith(("changed", "inserted", "deleted"))), ""))
                    for _, cells in s.table_rows(left) if cells and cells[0] == "answer"]
        s.wait_for(lambda: len(model_rows()) == 4, "the four calls in the comparison",
                   timeout=15)
        s.screenshot("comparison-expanded")
        rows = model_rows()
        expect(all(status == "same" for _, status in rows[:2]),
               f"the replayed calls are not the same in both runs: {rows}")
        expect(all("prompt" in status for _, status in rows[2:]),
               f"the re-run calls do not differ by their prompt: {rows}")
    finally:
        server.close()


if __name__ == "__main__":
    journeylib.run(journey)
