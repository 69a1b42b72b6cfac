#!/usr/bin/env python3
"""The report pipeline end to end from a terminal (resources/examples/report_qa.pdl), against a
local OpenAI-compatible server that checks the page images (tests/support/report_model_server.py):

1. `hako run` of the example over the sample report (made here by hako_make_sample_report)
   sends each of the 3 pages once, as a PNG image_url part of the asked resolution, embeds the
   chunks through /v1/embeddings, expands the question, answers (max_tokens 53), is sent back
   once by the reviewer (it first gives last year's sales), and prints the answer rounded in
   code: 12,345.6百万円 with 小数第一位を四捨五入 → 12346.
2. A second `hako run` sends no page and embeds no chunk again (only the 3 queries).
3. `hako eval report_qa.suite.yaml` measures the pipeline on its 5 questions with reference
   answers (exact match after rounding, one of them 分かりません): every one passes, and still
   no page is sent.

Usage: report_qa_cli.py HAKO MAKE_SAMPLE_REPORT SOURCE_DIR
"""
import json
import os
import shutil
import subprocess
import sys
import tempfile

HAKO, MAKER, SOURCE = sys.argv[1:4]
sys.path.insert(0, os.path.join(SOURCE, "tests", "support"))
from report_model_server import ReportModelServer  # noqa: E402

CONTENT = os.path.join(SOURCE, "tests", "data", "report_qa", "sample_report.json")
EXAMPLES = os.path.join(SOURCE, "resources", "examples")
DPI = 100


def fail(message):
    print("FAIL: " + message)
    sys.exit(1)


def expect(condition, message):
    if not condition:
        fail(message)


def main():
    work = tempfile.mkdtemp(prefix="hako-report-qa-")
    server = ReportModelServer(CONTENT, dpi=DPI)
    try:
        for name in ("report_qa.pdl", "report_qa.suite.yaml", "report_qa.jsonl"):
            shutil.copy(os.path.join(EXAMPLES, name), work)
        subprocess.run([MAKER, CONTENT, os.path.join(work, "report_qa_sample.pdf")], check=True)
        home = os.path.join(work, "home")
        env = {k: v for k, v in os.environ.items()
               if k not in ("DISPLAY", "WAYLAND_DISPLAY", "QT_QPA_PLATFORM")}
        env.update({"HOME": home, "XDG_CONFIG_HOME": os.path.join(home, ".config"),
                    "XDG_DATA_HOME": os.path.join(home, ".local/share"),
                    "XDG_CACHE_HOME": os.path.join(home, ".cache"),
                    "OPENAI_BASE_URL": server.base_url, "OPENAI_API_KEY": "sk-test-report",
                    "OLLAMA_API_BASE": "http://127.0.0.1:9"})
        data = json.dumps({"dpi": DPI, "embedding_model": "openai/embed"})

        def hako(*args):
            r = subprocess.run([HAKO, *args], cwd=work, env=env, capture_output=True,
                               text=True, timeout=300)
            return r

        def stats():
            with server.lock:
                return json.loads(json.dumps(server.stats))

        run = hako("run", "--trust", "report_qa.pdl", "-d", data)
        expect(run.returncode == 0, f"hako run failed ({run.returncode}): {run.stderr[-2000:]}")
        expect(run.stdout.strip() == "12346", f"the answer is {run.stdout.strip()!r}, not 12346")
        first = stats()
        expect(not first["errors"], f"the server refused requests: {first['errors']}")
        expect(first["transcriptions"] == {"1": 1, "2": 1, "3": 1},
               f"transcriptions per page: {first['transcriptions']}")
        expect(first["embedded_texts"] > 3, "the chunks were not embedded through the endpoint")
        expect(first["steps"].get("expansion") == 1, f"steps: {first['steps']}")
        expect(first["steps"].get("answer") == 2 and first["steps"].get("review") == 2,
               f"the reviewer did not send the first answer back once: {first['steps']}")
        expect(set(first["answer_max_tokens"]) == {53},
               f"answers asked with max_tokens {first['answer_max_tokens']}")
        expect(os.path.isdir(os.path.join(work, ".hako", "transcripts")),
               "no transcripts kept in the program folder's .hako")

        again = hako("run", "--trust", "report_qa.pdl", "-d", data)
        expect(again.returncode == 0 and again.stdout.strip() == "12346",
               f"the second run: {again.returncode} {again.stdout!r} {again.stderr[-2000:]}")
        second = stats()
        expect(second["transcriptions"] == first["transcriptions"],
               f"the second run sent pages again: {second['transcriptions']}")
        expect(second["embedded_texts"] - first["embedded_texts"] == 3,
               "the second run embedded more than its 3 queries: "
               f"{second['embedded_texts'] - first['embedded_texts']}")

        report = os.path.join(work, "eval.json")
        ev = hako("eval", "report_qa.suite.yaml", "--json", report)
        expect(ev.returncode == 0, f"hako eval failed ({ev.returncode}): {ev.stdout[-3000:]} "
                                   f"{ev.stderr[-2000:]}")
        with open(report, encoding="utf-8") as f:
            results = json.load(f)
        text = json.dumps(results, ensure_ascii=False)
        expect("exact_match" in text, "the JSON report has no exact_match figures")
        third = stats()
        expect(third["transcriptions"] == first["transcriptions"],
               f"hako eval sent pages again: {third['transcriptions']}")
        expect(third["steps"].get("expansion") == 2 + 5,
               f"the suite did not ask each of its 5 questions: {third['steps']}")
        print(ev.stdout)
        print("PASS")
    finally:
        server.close()
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
