#!/usr/bin/env python3
"""Journey: questions over a company report, in the window.

A prompt author has the report pipeline (resources/examples/report_qa.pdl) beside a PDF report
(the sample report, made by hako_make_sample_report) and a vision/text model server (a local
OpenAI-compatible one that checks each page image: tests/support/report_model_server.py). She
opens the program and presses F5: each of the 3 pages goes to the vision model once as an
image, the Console says the run finished with the answer rounded in code (12346), and the Trace
Tree shows a box for each step — the page transcriptions, the query expansion, the answers and
the reviewer's checks (the reviewer sent the first answer back). A second F5 sends no page.
"""
# journey-deadline: 400
import os
import shutil
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import journeylib  # noqa: E402
from panes import console_text, expect, show_dock, trace_tree_rows, view_in  # noqa: E402


def journey(s, args):
    sys.path.insert(0, os.path.join(args.source, "tests", "support"))
    from report_model_server import ReportModelServer
    content = os.path.join(args.source, "tests", "data", "report_qa", "sample_report.json")
    server = ReportModelServer(content, dpi=360)
    try:
        s.env["OPENAI_BASE_URL"] = server.base_url
        s.env["OPENAI_API_KEY"] = "sk-journey-SECRET"
        s.env["OLLAMA_API_BASE"] = "http://127.0.0.1:9"
        examples = os.path.join(args.source, "resources", "examples")
        for name in ("report_qa.pdl", "report_qa.suite.yaml", "report_qa.jsonl"):
            shutil.copy(os.path.join(examples, name), s.work)
        maker = os.path.join(os.path.dirname(args.hako), "hako_make_sample_report")
        subprocess.run([maker, content, os.path.join(s.work, "report_qa_sample.pdf")],
                       check=True)
        program = os.path.join(s.work, "report_qa.pdl")
        s.launch(program)
        s.wait_for(lambda: "report_qa.pdl" in (s.window.name or ""), "the program to open",
                   timeout=20)
        s.screenshot("program-open")
        s.focus_editor()
        s.key("F5")
        s.wait_for(lambda: "Finished" in console_text(s) or "rror" in console_text(s),
                   "the Console to say the run ended", timeout=240)
        s.screenshot("run-finished")
        text = console_text(s)
        expect("Finished" in text, f"the run did not finish: {text[-1500:]}")
        expect("12346" in text, f"the Console does not show the answer 12346: {text[-1500:]}")
        with server.lock:
            stats = dict(server.stats)
        expect(not stats["errors"], f"the server refused requests: {stats['errors']}")
        expect(stats["transcriptions"] == {"1": 1, "2": 1, "3": 1},
               f"transcriptions per page: {stats['transcriptions']}")

        # The loops' rows are collapsed: select the root row and expand everything below it.
        tree_dock = show_dock(s, "Trace Tree")
        tree = s.wait_for(lambda: view_in(s, tree_dock, ("tree table", "tree")),
                          "the Trace Tree view", timeout=30)
        s.click(tree.queryTable().getAccessibleAt(0, 0))
        s.key("asterisk")

        def model_boxes():
            rows = trace_tree_rows(s)
            return [cells[0] for _, cells in rows if len(cells) > 1 and cells[1] == "model"]
        boxes = s.wait_for(lambda: model_boxes() if "review" in model_boxes() else None,
                           "the model steps in the Trace Tree", timeout=30)
        s.screenshot("trace-tree-expanded")
        # The reviewer's first check, picked with the keyboard: every trace pane shows it.
        rows = trace_tree_rows(s)
        target = next(i for i, (_, cells) in enumerate(rows)
                      if len(cells) > 1 and cells[0] == "review" and cells[1] == "model")
        for _ in range(target):
            s.key("Down")
        s.wait_for(lambda: tree.queryTable().isRowSelected(target), "the review row selected",
                   timeout=10)
        s.screenshot("first-review")
        # One box per model step: 3 pages, the expansion, two answers and two reviews.
        expect(boxes.count("transcript") == 3, f"model boxes: {boxes}")
        expect(boxes.count("expansion") == 1, f"model boxes: {boxes}")
        expect(boxes.count("answer") == 2 and boxes.count("review") == 2,
               f"the reviewer's loop is not two answers and two checks: {boxes}")
        labels = [cells[0] for _, cells in trace_tree_rows(s)]
        expect("final" in labels, f"no box for the rounded answer: {labels}")

        # Again: the transcripts are kept, no page is sent.
        s.focus_editor()
        s.key("F5")
        s.wait_for(lambda: console_text(s).count("Finished") >= 2 or
                   "12346" in console_text(s) and "Finished" in console_text(s)[-200:],
                   "the second run to finish", timeout=120)
        with server.lock:
            again = dict(server.stats["transcriptions"])
        expect(again == {"1": 1, "2": 1, "3": 1}, f"the second run sent pages: {again}")
        s.screenshot("second-run")
    finally:
        server.close()


if __name__ == "__main__":
    sys.exit(journeylib.run(journey))
