#!/usr/bin/env python3
"""Journey: unit tests for a prompt, made from the prompt log and run in the window.

A program has a model translate `${ sentence }`. An engineer runs it three times from a
terminal (`hako run -d`, each with another sentence); in the window, View › Prompt Log lists the
three calls; Ctrl+A in the calls table selects them all (not the program) and Add to Dataset
puts them in the Datasets pane (their inputs, and their replies as the references), where the
user names the dataset. In View › Evaluations the user
ticks a second check (at most N characters) beside "Same as the reference" and runs the
experiment: three calls reach the server and every output passes. The user then changes the
prompt in the editor, saves, and runs the experiment again: the outputs no longer match their
references, the grid shows each regression against the first experiment (chosen in "Compare
with"), and a click on a failing score shows why it failed.
"""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import journeylib  # noqa: E402
from fakemodel import FakeModelServer  # noqa: E402
from panes import expect, show_dock, status_text  # noqa: E402

PROGRAM = """description: Translate a sentence
model: openai/gpt-4o-mini
input: "Translate: ${ sentence }"
"""

SENTENCES = ["I like cats", "Dogs bark loudly", "Birds sing at dawn"]


def table_in(s, dock, name):
    return s.wait_for(lambda: s.first(dock, role="table", name=name, showing=True),
                      f"the {name} table", timeout=20)


def journey(s, args):
    server = FakeModelServer()
    try:
        s.env["OPENAI_BASE_URL"] = server.base_url
        s.env["OPENAI_API_KEY"] = "sk-journey-SECRET"
        s.env["OLLAMA_API_BASE"] = "http://127.0.0.1:9"
        program = os.path.join(s.work, "translate.pdl")
        with open(program, "w") as f:
            f.write(PROGRAM)
        # Three runs from a terminal, a sentence each: every call is in the prompt log.
        for sentence in SENTENCES:
            s.hako_cli("run", program, "-d", '{"sentence": "%s"}' % sentence)
        expect(len(server.chat_requests()) == 3,
               f"the server got {len(server.chat_requests())} chat requests, not 3")
        s.launch(program)
        s.wait_for(lambda: "translate.pdl" in (s.window.name or ""), "the program to open",
                   timeout=20)

        # The three calls, selected together, go to a dataset.
        s.menu("View", "Prompt Log")
        log = show_dock(s, "Prompt Log")
        calls = table_in(s, log, "Model calls")
        s.wait_for(lambda: len(s.table_rows(calls)) == 3, "three calls in the Prompt Log",
                   timeout=30)
        s.click(calls.queryTable().getAccessibleAt(0, 1))
        s.key("ctrl+a")
        s.screenshot("calls-selected")
        s.click(s.wait_for(lambda: s.first(log, role="push button", name="Add to Dataset",
                                           showing=True), "the Add to Dataset button"))
        datasets = show_dock(s, "Datasets")
        examples = table_in(s, datasets, "Examples")
        s.wait_for(lambda: len(s.table_rows(examples)) == 3, "three examples in the dataset",
                   timeout=30)
        cells = " ".join(" ".join(c) for _, c in s.table_rows(examples))
        expect(all(x in cells for x in SENTENCES), "the examples do not hold the typed inputs")
        name = s.wait_for(lambda: s.first(datasets, name="Dataset name", showing=True),
                          "the Dataset name field")
        s.focus(name)
        s.type("translations")
        s.screenshot("dataset")

        # View › Evaluations: two checks, Run Experiment.
        s.menu("View", "Evaluations")
        evals = show_dock(s, "Evaluations")
        length = s.wait_for(lambda: s.first(evals, role="check box",
                                            name="At most this many characters",
                                            showing=True), "the length check")
        same = s.first(evals, role="check box", name="Same as the reference", showing=True)
        expect(same is not None and same.getState().contains(s.pyatspi.STATE_CHECKED),
               "'Same as the reference' is not ticked by default")
        if not length.getState().contains(s.pyatspi.STATE_CHECKED):
            s.click(length)
        s.wait_for(lambda: length.getState().contains(s.pyatspi.STATE_CHECKED),
                   "the length check ticked")
        before = len(server.chat_requests())
        s.click(s.first(evals, role="push button", name="Run Experiment", showing=True))
        s.wait_for(lambda: "Experiment finished" in status_text(s), "the experiment to finish",
                   timeout=60)
        expect(len(server.chat_requests()) - before == 3,
               f"{len(server.chat_requests()) - before} calls for 3 examples")
        results = table_in(s, evals, "Evaluation results")
        s.wait_for(lambda: len(s.table_rows(results)) == 3, "three rows of results", timeout=20)
        rows = s.table_rows(results)
        passes = sum(c.startswith("✓") for _, r in rows for c in r)
        expect(passes == 6, f"{passes} of 6 checks passed on the unchanged prompt")
        s.screenshot("first-experiment")

        # Change the prompt, save, run again.
        s.focus_editor()
        s.key("ctrl+End", "Up", "End")
        s.key(*(["Left"] * len('${ sentence }"')))
        s.type("politely ")
        s.wait_for(lambda: "Translate: politely ${ sentence }" in s.editor_text(),
                   "the edited prompt in the editor")
        s.key("ctrl+s")
        s.wait_for(lambda: "Translate: politely" in open(program).read(), "the program saved",
                   timeout=20)
        evals = show_dock(s, "Evaluations")
        before = len(server.chat_requests())
        s.click(s.first(evals, role="push button", name="Run Experiment", showing=True))
        s.wait_for(lambda: len(server.chat_requests()) - before == 3 and
                   "Experiment finished" in status_text(s), "the second experiment to finish",
                   timeout=60)
        sent = [str(b["messages"]) for b in server.chat_requests()[before:]]
        expect(all("politely" in m for m in sent), "the edited prompt did not reach the server")
        # "Compare with" shows the first experiment (a combo box reads as its current item):
        # two boxes, two different experiments of translations v1.
        def chosen():
            return {a.name for a in s.all(evals, role="combo box", showing=True)
                    if "translations v1" in (a.name or "")}

        s.wait_for(lambda: len(chosen()) == 2,
                   "the new experiment shown and the first one chosen to compare with",
                   timeout=20)

        def regressions():
            rows = s.table_rows(table_in(s, evals, "Evaluation results"))
            return sum(c.startswith("✗") and "(-1.00)" in c for _, r in rows for c in r)

        s.wait_for(lambda: regressions() == 3, "three regressions against the first run",
                   timeout=20)
        s.screenshot("compared")

        # A click on a failing score says why.
        results = table_in(s, evals, "Evaluation results")
        rows = s.table_rows(results)
        row, col = next((i, j) for i, (_, r) in enumerate(rows) for j, c in enumerate(r)
                        if c.startswith("✗"))
        s.click(results.queryTable().getAccessibleAt(row, col))
        reasoning = s.wait_for(lambda: s.first(evals, name="Reasoning", showing=True),
                               "the Reasoning pane")
        s.wait_for(lambda: "fail" in s.text_of(reasoning), "the failing score's reasoning",
                   timeout=20)
        s.screenshot("reasoning")
    finally:
        server.close()


if __name__ == "__main__":
    sys.exit(journeylib.run(journey))
