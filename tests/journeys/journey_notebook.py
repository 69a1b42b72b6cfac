#!/usr/bin/env python3
"""Journey: a PDL notebook in the window, across a restart.

A Jupyter notebook of three %%pdl cells (Japanese) opens with File › Open… into the Notebook
pane; Run All shows each cell's output under it, the third cell reading what the first defined;
the second cell is rewritten (pasted, as an input method commits Japanese) and run with
Shift+Enter; Save writes the file, which Python's nbformat reads as valid; after quitting and
starting again the outputs are found where they were.
"""
import json
import os
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import journeylib  # noqa: E402
from panes import expect, show_dock  # noqa: E402


def cell(source):
    return {"cell_type": "code", "metadata": {}, "source": source, "outputs": [],
            "execution_count": None}


def outputs(s, dock):
    """Output labels by cell number (their description says which cell)."""
    found = {}
    for acc, _ in s.walk(dock, max_nodes=3000):
        d = acc.description or ""
        if acc.getRoleName() == "label" and d.startswith(("Output of cell", "セル")):
            digits = "".join(ch for ch in d if ch.isdigit())
            if digits:
                found[int(digits)] = acc.name or s.text_of(acc)
    return found


def button(s, dock, *names):
    for name in names:
        b = s.first(dock, role="push button", name=name)
        if b is not None and s.on_screen(b):
            return b
    return None


def journey(s, args):
    path = os.path.join(s.work, "旅.ipynb")
    s.hako_cli("notebook", "new", path)
    with open(path, encoding="utf-8") as f:
        nb = json.load(f)
    nb["cells"] = [
        {"cell_type": "markdown", "metadata": {}, "source": "# 旅の計画"},
        cell("%%pdl\ndefs:\n  city: 京都\ntext: ${ city }へ行きます\n"),
        cell("%%pdl\ntext: 一日目\n"),
        cell("%%pdl\ntext:\n- ${ city }で${ pdl_context | length }つ目\n"),
    ]
    with open(path, "w", encoding="utf-8") as f:
        json.dump(nb, f, ensure_ascii=False)

    s.launch()
    s.menu("File", "Open…")
    s.file_dialog(path)
    dock = show_dock(s, "Notebook")
    s.screenshot("opened")
    run_all = s.wait_for(lambda: button(s, dock, "Run All", "すべて実行"), "the Run All button")
    s.click(run_all)
    s.wait_for(lambda: "京都で2つ目" in outputs(s, dock).get(4, ""),
               "the fourth cell's output, reading the second cell's city", timeout=60)
    got = outputs(s, dock)
    expect(got.get(2) == "京都へ行きます", f"cell 2 shows {got.get(2)!r}")
    s.screenshot("ran-all")

    # Rewrite cell 3 and run it alone: from cell 2's source, Tab moves on through the cells.
    def source(n):
        return next((a for a, _ in s.walk(dock, max_nodes=3000)
                     if (a.name or "") in (f"Source of cell {n}", f"セル {n} のソース")), None)

    s.focus(s.wait_for(lambda: source(2), "the editor of cell 2"))
    for _ in range(6):
        if source(3).getState().contains(s.pyatspi.STATE_FOCUSED):
            break
        s.key("Tab")
    s.wait_for(lambda: source(3).getState().contains(s.pyatspi.STATE_FOCUSED),
               "the editor of cell 3 to take the focus", timeout=10)
    s.key("ctrl+a")
    s.paste("%%pdl\ntext: 二日目は奈良\n")
    s.key("shift+Return")
    s.wait_for(lambda: outputs(s, dock).get(3) == "二日目は奈良", "cell 3's new output", timeout=60)
    s.screenshot("cell-rerun")
    s.click(s.wait_for(lambda: button(s, dock, "Save", "保存"), "the Save button"))
    s.wait_for(lambda: "二日目は奈良" in open(path, encoding="utf-8").read(), "the saved file")
    check = subprocess.run(["/usr/bin/python3", "-c",
                            "import sys, nbformat; nbformat.validate(nbformat.read(sys.argv[1], 4))",
                            path], capture_output=True, text=True, timeout=60)
    expect(check.returncode == 0 or "No module named" in check.stderr,
           f"nbformat refuses the saved notebook: {check.stderr}")

    s.key("ctrl+q")
    s.wait_for(lambda: s.hako_proc.poll() is not None, "hako to quit", timeout=30)
    s.launch(path)
    dock = show_dock(s, "Notebook")
    s.wait_for(lambda: outputs(s, dock).get(3) == "二日目は奈良",
               "the saved output after a restart", timeout=30)
    s.screenshot("after-restart")


if __name__ == "__main__":
    sys.exit(journeylib.run(journey))
