#!/usr/bin/env python3
"""Journey: a prompt kept as versions in the prompt library, labelled, found after a restart,
and fetched by an application by its label.

The author's folder is a prompt library (a git repository; `hako prompt init`). She opens her
program, shows View › Library, types a message and saves the program as a version; edits it and
saves a second version. She selects the first version and labels it production. She quits and
starts Hako again: the Library shows the prompt, its two versions and the label. Then, as an
application would: `hako prompt get 返信@production` prints the first version, and
`hako serve --prompts` answers GET /v1/prompts/返信?label=production with version 1 and the
messages rendered for the given variables.
"""
import json
import os
import re
import subprocess
import sys
import urllib.parse
import urllib.request

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import journeylib  # noqa: E402
from panes import expect, show_dock, status_text, view_in  # noqa: E402

PROGRAM = """# hako-prompt: 4a4a4a4a4a4a
description: 返信
text:
- model: ollama/granite
  input: "${ email } に丁寧に返信してください。"
"""


def library_view(s, which):
    """The Library's prompt list (which=0) or version list (which=1), by accessible name."""
    dock = show_dock(s, "Library")
    name = ("Prompts", "Versions")[which]
    return next((acc for acc, _ in s.walk(dock, max_nodes=600, into=s._no_big_views)
                 if acc.getRoleName() in ("tree table", "tree", "table") and acc.name == name
                 and s.on_screen(acc)), None)


def library_rows(s, which):
    """The rows of the Library's prompt list (which=0) or version list (which=1)."""
    view = library_view(s, which)
    return [] if view is None else [cells for _, cells in s.table_rows(view)]


def button(s, name):
    dock = show_dock(s, "Library")
    return s.wait_for(lambda: s.first(dock, role="push button", name=name, showing=True),
                      f"the {name} button", timeout=10)


def save_version(s, message):
    dock = show_dock(s, "Library")
    field = s.wait_for(lambda: s.first(dock, role="text", name="Version message", showing=True),
                       "the version message field", timeout=10)
    s.focus(field)
    s.type(message)
    s.click(button(s, "Save Version"))
    s.wait_for(lambda: "as a new version" in status_text(s), "the version to be saved", timeout=30)


def journey(s, args):
    s.hako_cli("prompt", "init", s.work)
    program = os.path.join(s.work, "reply.pdl")
    with open(program, "w") as f:
        f.write(PROGRAM)
    # The library the window opens: HAKO_LIBRARY now; after the restart, the one it remembers.
    s.env["HAKO_LIBRARY"] = s.work
    s.launch(program)
    s.wait_for(lambda: "reply.pdl" in (s.window.name or ""), "reply.pdl to open", timeout=20)
    s.menu("View", "Library")
    show_dock(s, "Library")
    s.screenshot("library-empty")

    save_version(s, "first version")
    s.wait_for(lambda: any(r and r[0] == "返信" and r[1] == "1" for r in library_rows(s, 0)),
               "the prompt with one version in the Library", timeout=20)
    s.screenshot("first-version")

    # A second version: edit, then File › Save Version… (the program is saved first).
    s.focus_editor()
    s.key("ctrl+End")
    s.type("# shorter replies\n")
    s.menu("File", "Save Version…")
    save_version(s, "second version")
    s.wait_for(lambda: any(r and r[0] == "返信" and r[1] == "2" for r in library_rows(s, 0)),
               "two versions", timeout=20)

    # Label the first version production.
    dock = show_dock(s, "Library")
    versions = s.wait_for(lambda: len(library_rows(s, 1)) == 2 and library_rows(s, 1),
                          "the two versions listed", timeout=20)
    expect(versions[0][0] == "v2" and versions[1][0] == "v1", f"versions: {versions!r}")
    first_cell = library_view(s, 1).queryTable().getAccessibleAt(1, 0)
    s.click(first_cell)
    s.click(button(s, "Set Label"))
    dialog = s.wait_for(lambda: next((a for a, _ in s.walk(s.app, into=s._no_big_views)
                                      if a.getRoleName() == "dialog" and a.name == "Set Label" and
                                      a.getState().contains(s.pyatspi.STATE_SHOWING)), None),
                        "the Set Label dialog", timeout=10)
    s.screenshot("set-label")
    s.key("ctrl+a")
    s.type("production")
    s.key("Return")
    s.wait_for(lambda: not dialog.getState().contains(s.pyatspi.STATE_SHOWING),
               "the dialog to close", timeout=10)
    s.wait_for(lambda: any(r[0] == "v1" and "production" in r[4] for r in library_rows(s, 1)),
               "v1 labelled production", timeout=20)
    s.screenshot("labelled")

    # Quit and start again: the library, its versions and the label are there.
    s.menu("File", "Quit")
    s.wait_for(lambda: s.hako_proc.poll() is not None, "Hako to quit", timeout=30)
    del s.env["HAKO_LIBRARY"]
    s.launch()
    # The window comes back with its docks: the Library is a tab below unless it was closed.
    s.wait_for(lambda: s.dock("Documents"), "the docks", timeout=20)
    if s.dock("Library") is None:
        s.menu("View", "Library")
    s.wait_for(lambda: any(r and r[0] == "返信" and r[1] == "2" and "production" in r[2]
                           for r in library_rows(s, 0)),
               "the prompt, its versions and label after the restart", timeout=30)
    s.screenshot("after-restart")

    # An application fetches production.
    got = s.hako_cli("prompt", "get", "返信@production", "--library", s.work, "--json")
    data = json.loads(got.stdout)
    expect(data["version"]["version"] == 1, f"prompt get gave {data['version']!r}")
    expect("shorter replies" not in data["program"], "production is the second version")

    log = open(os.path.join(s.artifacts, "serve.log"), "w+")
    server = subprocess.Popen([s.hako, "serve", "--prompts", "127.0.0.1:0", "--library", s.work],
                              env=s.env, cwd=s.work, stdout=log, stderr=subprocess.STDOUT)
    try:
        def port():
            log.seek(0)
            m = re.search(r"http://127\.0\.0\.1:(\d+)/v1/prompts", log.read())
            return m and int(m.group(1))
        p = s.wait_for(port, "hako serve --prompts to listen", timeout=20)
        query = urllib.parse.urlencode({"label": "production",
                                        "variables": json.dumps({"email": "荷物が届きません"})})
        url = f"http://127.0.0.1:{p}/v1/prompts/{urllib.parse.quote('返信')}?{query}"
        with urllib.request.urlopen(url, timeout=20) as r:
            answer = json.load(r)
        expect(answer["version"]["number"] == 1, f"served {answer['version']!r}")
        expect(answer["messages"][-1]["content"] == "荷物が届きません に丁寧に返信してください。",
               f"messages: {answer.get('messages')!r}")
    finally:
        server.terminate()
        server.wait(timeout=20)

if __name__ == "__main__":
    sys.exit(journeylib.run(journey))
