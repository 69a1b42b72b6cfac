"""Reading Hako's panes through the accessibility tree (shared by the journeys)."""

import os
import xml.etree.ElementTree as ET

import journeylib

TS = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "resources",
                  "translations", "hako_ja.ts")

_JA = None


def ja(source, *args, context=None):
    """The Japanese text the window shows for the English `source` (in the class `context`,
    e.g. "hako::LibraryPane", when the same English has several translations), with %1, %2…
    filled."""
    global _JA
    if _JA is None:
        _JA = {}
        for ctx in ET.parse(TS).getroot().iter("context"):
            name = ctx.findtext("name")
            for message in ctx.iter("message"):
                src = message.findtext("source")
                tr = message.find("translation")
                if src is None or tr is None:
                    continue
                form = tr.find("numerusform")
                text = form.text if form is not None else tr.text
                if text and text.strip():
                    _JA.setdefault((name, src), text)
                    _JA.setdefault((None, src), text)
    text = _JA.get((context, source), source)
    for i, a in enumerate(args, 1):
        text = text.replace(f"%{i}", a)
    return text.replace("&", "")


def show_dock(s, title):
    """Brings the dock titled `title` forward (clicks its tab when it is tabbed) and returns it."""
    dock = s.wait_for(lambda: s.dock(title), f"the {title} dock", timeout=20)
    if not s.on_screen(dock):
        tab = next((t for t in s.all(s.window, role="page tab", name=title) if s.on_screen(t)),
                   None)
        if tab is not None:
            s.click(tab)
        s.wait_for(lambda: s.on_screen(dock), f"the {title} dock to show", timeout=10)
    return dock


def view_in(s, dock, roles=("tree table", "tree", "table", "list")):
    for acc, _ in s.walk(dock, max_nodes=400, into=s._no_big_views):
        if acc.getRoleName() in roles and s.on_screen(acc):
            return acc
    return None


def trace_tree_rows(s):
    """The Trace Tree's rows as (depth, [cells]) after expanding everything; [] when empty."""
    dock = show_dock(s, "Trace Tree")
    view = view_in(s, dock, ("tree table", "tree"))
    if view is None:
        return []
    rows = s.table_rows(view)
    return rows


def console_text(s):
    dock = show_dock(s, "Console")
    # The current program's console: the other programs' pages are not showing.
    texts = [s.text_of(a) for a in s.all(dock, role="text", showing=True)]
    return "\n".join(t for t in texts if t)


def status_text(s):
    bar = s.first(s.window, role="status bar")
    if bar is None:
        return ""
    parts = [bar.name or ""]
    for acc, _ in s.walk(bar, max_nodes=50):
        if acc.getRoleName() in ("label", "text", "status bar") and acc.name:
            parts.append(acc.name)
    return " ".join(parts)


def expect(cond, message):
    if not cond:
        raise journeylib.JourneyError(message)
