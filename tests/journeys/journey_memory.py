#!/usr/bin/env python3
"""Journey: open a memory store and retrieve from it.

A store made with `hako memory add` is opened from the Memory pane (View › Memory, Open store…)
and its memories are listed. A program run with F5 retrieves from it (`memory.retrieve`, the
store open in the pane is the program's `memory`); the Console prints the memory it found, and
the pane's Retrievals tab lists that retrieval, whose candidates and summary can be read.
"""
import os
import re
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import journeylib  # noqa: E402
from panes import console_text, expect, show_dock  # noqa: E402

PROGRAM = """description: Recall what the club saw
text:
- def: found
  data: ${ memory.retrieve('telescope Saturn rings', k=1) }
  contribute: []
- "Recalled: ${ found[0].text }\\n"
"""

MEMORIES = [
    "Aiko watched Saturn's rings through the club telescope on Friday.",
    "The bakery on the corner sells melon bread in the morning.",
    "Kenji prefers red tea without sugar.",
]


def count_label(s, dock):
    for acc in s.all(dock, role="label"):
        m = re.fullmatch(r"(\d+) of (\d+)", acc.name or "")
        if m:
            return int(m.group(1)), int(m.group(2))
    return None


def journey(s, args):
    store = os.path.join(s.work, "club.hakomem")
    for text in MEMORIES:
        s.hako_cli("memory", "--store", store, "add", "--text", text)
    s.launch()
    s.menu("View", "Memory")
    dock = show_dock(s, "Memory")
    s.screenshot("memory-pane")
    button = s.wait_for(lambda: s.first(dock, role="push button", name="Open store…",
                                        showing=True), "the Open store… button")
    s.click(button)
    s.file_dialog(store)
    s.wait_for(lambda: count_label(s, dock) == (3, 3), "the three memories to be listed",
               timeout=30)
    s.screenshot("store-open")
    program = os.path.join(s.work, "recall.pdl")
    with open(program, "w") as f:
        f.write(PROGRAM)
    s.menu("File", "Open…")
    s.file_dialog(program)
    s.wait_for(lambda: "recall.pdl" in (s.window.name or ""), "recall.pdl to open", timeout=20)
    s.focus_editor()
    s.key("F5")
    s.wait_for(lambda: "Recalled: Aiko watched Saturn" in console_text(s),
               "the Console to print the retrieved memory", timeout=60)
    s.screenshot("recalled")
    dock = show_dock(s, "Memory")
    tab = s.wait_for(lambda: s.first(dock, role="page tab", name="Retrievals", showing=True),
                     "the Retrievals tab")
    s.click(tab)
    item = s.wait_for(
        lambda: next((a for a, _ in s.walk(dock, max_nodes=3000)
                      if a.getRoleName() == "list item" and "telescope Saturn rings" in
                      (a.name or "")), None),
        "the run's retrieval in the Retrievals list", timeout=30)
    expect("1 of 3" in item.name, f"the retrieval does not say it kept 1 of 3: {item.name!r}")
    s.click(item)
    s.wait_for(lambda: any("3 candidates, 1 in the prompt" in (a.name or "")
                           for a in s.all(dock, role="label")),
               "the retrieval's summary", timeout=20)
    s.screenshot("retrieval")


def _placeholder(acc):
    try:
        return dict(a.split(":", 1) for a in acc.getAttributes() if ":" in a).get(
            "placeholder-text", "")
    except Exception:
        return ""


if __name__ == "__main__":
    sys.exit(journeylib.run(journey))
