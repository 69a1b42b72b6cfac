#!/usr/bin/env python3
"""Journey: a Japanese author compares two versions of her prompt on a dataset, keeps the better
one as production, and finds everything again after a restart.

With the interface in Japanese, the author's folder is a prompt library. She opens her reply
prompt, saves it as a version from the Library (版として保存), then edits the prompt (a comment
above it moves its lines, and the wording changes) and saves it as a second version with
File › 版として保存…. In the Datasets pane she imports three customer e-mails with the replies she
expects and saves the dataset. In the Library she selects version 1 and clicks
「データセットで実行」: both versions run over the dataset with the Evaluations pane's check
(same as the reference); the Evaluations pane shows version 2 against version 1 (three
improvements), and the Library lists the prompt's two experiments. She labels version 2
production. She quits and starts Hako again: the Library shows the prompt, its label and its
two experiments; the Datasets pane has her dataset back. Then, as an application would,
`hako prompt get 返信@production` gives version 2, and `hako log stats --by prompt` shows one
row for the prompt whose token total is what the server counted.
"""
import json
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import journeylib  # noqa: E402
from fakemodel import FakeModelServer, reply_for, usage_for  # noqa: E402
from panes import expect, ja, show_dock, status_text  # noqa: E402

V1 = """# hako-prompt: 6b6b6b6b6b6b
description: 返信
text:
- model: openai/gpt-4o-mini
  input: "${ email }"
"""

EMAILS = ["荷物が届きません", "請求書を再発行してください", "返品したいです"]
LIB = "hako::LibraryPane"
EXP = "hako::PromptExperiments"


def view(s, dock, name, roles=("tree table", "tree", "table")):
    return next((acc for acc, _ in s.walk(dock, max_nodes=800, into=s._no_big_views)
                 if acc.getRoleName() in roles and acc.name == name and s.on_screen(acc)), None)


def rows(s, dock_title, name):
    dock = show_dock(s, dock_title)
    v = view(s, dock, name)
    return [] if v is None else [cells for _, cells in s.table_rows(v)]


def library(s):
    return show_dock(s, ja("Library"))


def library_button(s, english):
    dock = library(s)
    name = ja(english, context=LIB)
    return s.wait_for(lambda: s.first(dock, role="push button", name=name, showing=True),
                      f"the {name} button", timeout=10)


def save_version(s, message):
    dock = library(s)
    field = s.wait_for(lambda: s.first(dock, role="text", name=ja("Version message"),
                                       showing=True), "the version message field", timeout=10)
    s.focus(field)
    s.type(message)
    s.click(library_button(s, "Save Version"))
    done = ja("Saved %1 as a new version.", "reply.pdl")
    s.wait_for(lambda: done in status_text(s), "the version to be saved", timeout=30)


def prompt_row(s, versions, label=None):
    return any(r and r[0] == "返信" and r[1] == versions and (label is None or label in r[2])
               for r in rows(s, ja("Library"), ja("Prompts")))


def journey(s, args):
    server = FakeModelServer()
    try:
        s.env["HAKO_LANGUAGE"] = "ja"
        s.env["OPENAI_BASE_URL"] = server.base_url
        s.env["OPENAI_API_KEY"] = "sk-journey-SECRET"
        s.env["OLLAMA_API_BASE"] = "http://127.0.0.1:9"
        s.hako_cli("prompt", "init", s.work)
        program = os.path.join(s.work, "reply.pdl")
        with open(program, "w") as f:
            f.write(V1)
        # What she expects: the reply version 2's wording gives.
        data = os.path.join(s.work, "問い合わせ.jsonl")
        with open(data, "w") as f:
            for e in EMAILS:
                body = {"model": "gpt-4o-mini",
                        "messages": [{"role": "user", "content": f"返信: {e}"}]}
                f.write(json.dumps({"inputs": {"email": e}, "reference": reply_for(body)},
                                   ensure_ascii=False) + "\n")
        s.env["HAKO_LIBRARY"] = s.work
        s.launch(program)
        s.wait_for(lambda: "reply.pdl" in (s.window.name or ""), "reply.pdl to open", timeout=20)
        s.menu(ja("&View"), ja("Library"))
        library(s)
        save_version(s, "最初の版")
        s.wait_for(lambda: prompt_row(s, "1"), "the prompt with one version", timeout=20)

        # Version 2: a comment above the prompt (its lines move) and new wording.
        s.focus_editor()
        s.key("ctrl+Home", "Down", "Down", "Home")
        s.type("# 丁寧に返す")
        s.key("Return")
        s.key("ctrl+End", "Up", "End", "Left")
        s.key(*(["Left"] * len("${ email }")))
        s.paste("返信: ")
        s.wait_for(lambda: 'input: "返信: ${ email }"' in s.editor_text(), "the edited prompt")
        s.menu(ja("&File"), ja("Save &Version…"))
        save_version(s, "言い回しを変更")
        s.wait_for(lambda: prompt_row(s, "2"), "two versions", timeout=20)
        s.screenshot("two-versions")

        # The dataset: imported, named by its file, saved.
        s.menu(ja("&View"), ja("Datasets"))
        datasets = show_dock(s, ja("Datasets"))
        s.click(s.wait_for(lambda: s.first(datasets, role="push button", name=ja("Import…"),
                                           showing=True), "the Import button"))
        s.file_dialog(data, ja("Import Examples"))
        s.wait_for(lambda: len(rows(s, ja("Datasets"), ja("Examples"))) == 3,
                   "three examples imported", timeout=20)
        s.click(s.first(datasets, role="push button", name=ja("Save Version",
                                                              context="hako::DatasetPane"),
                        showing=True))
        s.wait_for(lambda: any(ja("Saved %1 version %2.", "問い合わせ", "1") in (a.name or "")
                               for a in s.all(datasets, role="label", showing=True)) or
                   ja("Saved %1 version %2.", "問い合わせ", "1") in status_text(s),
                   "the dataset saved", timeout=20)
        s.screenshot("dataset")
        # The Evaluations pane holds the checks (same as the reference, ticked by default).
        s.menu(ja("&View"), ja("Evaluations"))
        evals = show_dock(s, ja("Evaluations"))
        same = s.wait_for(lambda: s.first(evals, role="check box",
                                          name=ja("Same as the reference"), showing=True),
                          "the 'same as the reference' check")
        expect(same.getState().contains(s.pyatspi.STATE_CHECKED), "the default check is off")

        # Both versions over the dataset, from the Library: select v1, Run on Dataset.
        library(s)
        versions = s.wait_for(lambda: len(rows(s, ja("Library"), ja("Versions"))) == 2 and
                              rows(s, ja("Library"), ja("Versions")), "two versions listed",
                              timeout=20)
        expect(versions[0][0] == ja("v%1", "2", context=LIB) and
               versions[1][0] == ja("v%1", "1", context=LIB), f"versions: {versions!r}")
        s.click(view(s, library(s), ja("Versions")).queryTable().getAccessibleAt(1, 0))
        before = len(server.chat_requests())
        s.click(library_button(s, "Run versions on the dataset"))
        s.wait_for(lambda: ja("Experiment finished") in status_text(s) and
                   len(server.chat_requests()) - before == 6, "both experiments to finish",
                   timeout=90)
        sent = [m["content"] for b in server.chat_requests()[before:] for m in b["messages"]]
        expect(sum(c.startswith("返信: ") for c in sent) == 3,
               f"version 2 was not run on the three e-mails: {sent!r}")
        evals = show_dock(s, ja("Evaluations"))

        def improvements():
            v = view(s, evals, ja("Evaluation results"), roles=("table",))
            table = [r for _, r in s.table_rows(v)] if v is not None else []
            return sum(c.startswith("✓") and "+1.00" in c for r in table for c in r)

        s.wait_for(lambda: improvements() == 3, "version 2 better than version 1 on every e-mail",
                   timeout=20)
        s.screenshot("compared")
        experiments = ja("Experiments of this prompt")
        s.wait_for(lambda: sorted(r[1] for r in rows(s, ja("Library"), experiments)
                                  if len(r) > 1) == [ja("v%1", "1", context=EXP), ja("v%1", "2", context=EXP)],
                   "the prompt's two experiments in the Library", timeout=20)
        s.screenshot("experiments")

        # Version 2 is production.
        s.click(view(s, library(s), ja("Versions")).queryTable().getAccessibleAt(0, 0))
        s.click(library_button(s, "Set Label"))
        title = ja("Set Label", context=LIB)
        dialog = s.wait_for(lambda: next((a for a, _ in s.walk(s.app, into=s._no_big_views)
                                          if a.getRoleName() == "dialog" and a.name == title and
                                          a.getState().contains(s.pyatspi.STATE_SHOWING)), None),
                            "the label dialog", timeout=10)
        s.key("ctrl+a")
        s.type("production")
        s.key("Return")
        s.wait_for(lambda: not dialog.getState().contains(s.pyatspi.STATE_SHOWING),
                   "the dialog to close", timeout=10)
        s.wait_for(lambda: prompt_row(s, "2", "production"), "v2 labelled production",
                   timeout=20)

        # Quit, start again: the library, the label, the experiments and the dataset are back.
        s.menu(ja("&File"), ja("&Quit"))
        s.wait_for(lambda: s.hako_proc.poll() is not None, "Hako to quit", timeout=30)
        del s.env["HAKO_LIBRARY"]
        s.launch()
        s.wait_for(lambda: s.dock(ja("Documents")), "the docks", timeout=20)
        if s.dock(ja("Library")) is None:
            s.menu(ja("&View"), ja("Library"))
        s.wait_for(lambda: prompt_row(s, "2", "production"),
                   "the prompt, its versions and label after the restart", timeout=30)
        s.wait_for(lambda: sorted(r[1] for r in rows(s, ja("Library"), experiments)
                                  if len(r) > 1) == [ja("v%1", "1", context=EXP), ja("v%1", "2", context=EXP)],
                   "the two experiments after the restart", timeout=30)
        s.screenshot("after-restart")
        if s.dock(ja("Datasets")) is None:
            s.menu(ja("&View"), ja("Datasets"))
        s.wait_for(lambda: len(rows(s, ja("Datasets"), ja("Examples"))) == 3,
                   "the dataset back in the Datasets pane", timeout=30)
        s.screenshot("dataset-after-restart")

        # An application asks for production; the log counts the prompt once, all versions.
        got = json.loads(s.hako_cli("prompt", "get", "返信@production", "--library", s.work,
                                    "--json").stdout)
        expect(got["version"]["version"] == 2, f"prompt get gave {got['version']!r}")
        stats = json.loads(s.hako_cli("log", "stats", "--by", "prompt", "--json").stdout)
        mine = [r for r in stats if r.get("name") and "返信" in r["name"]]
        expect(len(mine) == 1, f"stats by prompt: {stats!r}")
        counted = sum(usage_for(b, reply_for(b))["total_tokens"]
                      for b in server.chat_requests())
        expect(mine[0]["tokens"] == counted and mine[0]["calls"] == len(server.chat_requests()),
               f"the log counts {mine[0]!r}, the server {counted} tokens in "
               f"{len(server.chat_requests())} calls")
    finally:
        server.close()


if __name__ == "__main__":
    sys.exit(journeylib.run(journey))
