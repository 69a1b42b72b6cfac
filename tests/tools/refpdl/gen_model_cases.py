#!/usr/bin/env python3
"""Records the model-calling conformance cases by running the reference PDL interpreter.

Run by developers when the cases' programs change, never by CI (the reference is not a Debian
package):

    python3 tests/tools/refpdl/gen_model_cases.py --ref /work/ref-pdl/src \
        [--python /root/.pyenv/versions/3.11.7/bin/python3] [NAME ...]

--ref is the `src` folder of the reference's source (IBM prompt-declaration-language), extracted
outside this repository; --python a Python with pydantic 2, Jinja2, PyYAML, jsonschema,
requests, IPython and python-dotenv. The modules it lacks (LiteLLM, the OpenAI client, httpx,
json_repair, termcolor) come from tests/tools/refpdl/standins.

For every program under tests/data/conformance/model/programs, this starts a local HTTP server
that answers exactly as tests/support/openaitestserver.cpp does when nothing is queued (the
echo of the last user message, `echo: …`, streamed word by word when asked to stream, the same
usage figures), runs the reference CLI from the program's folder with `--stream none` (and `-t`
for the trace) and `--stream result`, and writes tests/data/conformance/model/cases.json: per
mode the stdout, the exit code, the error lines of a failure and every request (method, path,
JSON body, the headers that matter). Traces go to model/traces/NAME.json (timings removed).
Every run passes `-d '{"server": URL}'`: programs that name a `base_url` use `${ server }`.
"""
import argparse
import json
import os
import re
import subprocess
import sys
import tempfile
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

HERE = Path(__file__).resolve().parent
REPO = HERE.parents[2]
MODEL_DIR = REPO / "tests" / "data" / "conformance" / "model"
PROGRAMS = MODEL_DIR / "programs"

# Headers every client sends on its own; the rest (authorization, extra_headers) are recorded.
ORDINARY_HEADERS = {"host", "user-agent", "accept", "accept-encoding", "connection",
                    "content-length", "content-type", "transfer-encoding"}


def compact(value):
    return json.dumps(value, separators=(",", ":"), ensure_ascii=False)


def utf16_length(text):
    return len(text.encode("utf-16-le")) // 2


def chunk(delta, finish):
    return {"id": "chatcmpl-test", "object": "chat.completion.chunk", "created": 1700000000,
            "model": "test-model",
            "choices": [{"index": 0, "delta": delta, "finish_reason": finish}]}


class EchoHandler(BaseHTTPRequestHandler):
    """OpenAiTestServer's default reply, byte for byte in what a client reads."""

    protocol_version = "HTTP/1.1"
    requests = []

    def log_message(self, *_args):
        pass

    def do_POST(self):
        length = int(self.headers.get("Content-Length", "0"))
        raw = self.rfile.read(length)
        headers = {k.lower(): v for k, v in self.headers.items()
                   if k.lower() not in ORDINARY_HEADERS}
        try:
            body = json.loads(raw)
        except ValueError:
            body = None
        EchoHandler.requests.append({"method": "POST", "path": self.path, "headers": headers,
                                     "body": body})
        if not isinstance(body, dict) or not self.path.endswith("/chat/completions"):
            self.send_json(400, {"error": {"message": "request body is not JSON",
                                           "type": "server_error", "code": None}})
            return
        last = ""
        for m in body.get("messages", []):
            if isinstance(m, dict) and m.get("role") == "user" and isinstance(m.get("content"),
                                                                                str):
                last = m["content"]
        text = "echo: " + last
        if body.get("stream"):
            words = text.split(" ")
            tokens = [w if i == 0 else " " + w for i, w in enumerate(words)]
            events = [chunk({"role": "assistant", "content": ""}, None)]
            events += [chunk({"content": t}, None) for t in tokens]
            events.append(chunk({}, "stop"))
            usage = chunk({}, None)
            usage["choices"] = []
            usage["usage"] = {"prompt_tokens": 5, "completion_tokens": len(tokens),
                              "total_tokens": 5 + len(tokens)}
            events.append(usage)
            self.send_stream([compact(e) for e in events] + ["[DONE]"])
            return
        completion = utf16_length(text) // 4 + 1
        self.send_json(200, {
            "id": "chatcmpl-test", "object": "chat.completion", "created": 1700000000,
            "model": "test-model",
            "choices": [{"index": 0, "message": {"role": "assistant", "content": text},
                         "finish_reason": "stop"}],
            "usage": {"prompt_tokens": 5, "completion_tokens": completion,
                      "total_tokens": 5 + completion}})

    def send_json(self, status, value):
        data = compact(value).encode("utf-8")
        self.send_response(status)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    def send_stream(self, events):
        self.send_response(200)
        self.send_header("Content-Type", "text/event-stream")
        self.send_header("Cache-Control", "no-cache")
        self.send_header("Transfer-Encoding", "chunked")
        self.end_headers()
        for e in events:
            data = ("data: " + e + "\n\n").encode("utf-8")
            self.wfile.write(b"%x\r\n" % len(data) + data + b"\r\n")
            self.wfile.flush()
        self.wfile.write(b"0\r\n\r\n")


def strip_trace(value, in_map=False):
    """The trace without what varies from run to run: timings, and the ids of blocks inside a
    `map` (its iterations run concurrently and the reference numbers them as they start)."""
    if isinstance(value, dict):
        in_map = in_map or value.get("kind") == "map"
        return {k: strip_trace(v, in_map) for k, v in value.items()
                if k != "pdl__timing" and not (in_map and k == "pdl__id")}
    if isinstance(value, list):
        return [strip_trace(v, in_map) for v in value]
    return value


ERROR_LINE = re.compile(r"^\S[^\n]*?\.pdl:(\d+) - ")


def run_reference(args, program, mode, url, trace_path, stdin):
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join([str(HERE / "standins"), args.ref])
    env["HAKO_REFPDL_SERVER"] = url
    env["OPENAI_API_KEY"] = "sk-test"
    env["PYTHONHASHSEED"] = "0"
    env.pop("OPENAI_BASE_URL", None)
    cmd = [args.python, "-c", "import sys; from pdl.pdl import main; sys.exit(main())",
           "--stream", mode, "-d", compact({"server": url})]
    if trace_path:
        cmd += ["-t", trace_path]
    cmd.append(program.name)
    EchoHandler.requests = []
    p = subprocess.run(cmd, cwd=program.parent, env=env, capture_output=True, timeout=120,
                       check=False, input=(stdin or "").encode("utf-8"))
    out = p.stdout.decode("utf-8")
    err = p.stderr.decode("utf-8")
    record = {"exit": p.returncode, "stdout": out,
              "requests": [dict(r, path=r["path"]) for r in EchoHandler.requests]}
    if p.returncode != 0:
        record["stdout"] = out
        record["errors"] = [l for l in err.splitlines() if ERROR_LINE.match(l)] or \
            [l for l in err.splitlines() if l.strip()][-1:]
    return record


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--ref", required=True, help="the reference's src folder")
    ap.add_argument("--python", default=sys.executable)
    ap.add_argument("names", nargs="*")
    args = ap.parse_args()

    # setuptools_scm writes pdl/_version.py when the reference is installed; a bare source tree
    # lacks it.
    version = Path(args.ref) / "pdl" / "_version.py"
    if not version.exists():
        version.write_text('__version__ = version = "0.0.0+source"\n')

    server = ThreadingHTTPServer(("127.0.0.1", 0), EchoHandler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    url = f"http://127.0.0.1:{server.server_port}/v1"

    out_file = MODEL_DIR / "cases.json"
    old = {}
    if args.names and out_file.exists():
        old = {c["name"]: c for c in json.loads(out_file.read_text())}
    cases = []
    (MODEL_DIR / "traces").mkdir(exist_ok=True)
    for program in sorted(PROGRAMS.glob("*.pdl")):
        name = program.stem
        if args.names and name not in args.names:
            if name in old:
                cases.append(old[name])
            continue
        stdin_file = program.with_suffix(".stdin")
        case = {"name": name, "program": "programs/" + program.name}
        if stdin_file.exists():
            case["stdin"] = stdin_file.read_text()
        with tempfile.TemporaryDirectory() as tmp:
            trace_path = os.path.join(tmp, "trace.json")
            case["none"] = run_reference(args, program, "none", url, trace_path, case.get("stdin"))
            case["result"] = run_reference(args, program, "result", url, None, case.get("stdin"))
            trace = Path(trace_path)
            if trace.exists():
                text = trace.read_text().replace(url, "SERVER")
                data = strip_trace(json.loads(text))
                dumped = json.dumps(data, indent=1, sort_keys=True, ensure_ascii=False) + "\n"
                if len(dumped) < 40000:
                    (MODEL_DIR / "traces" / (name + ".json")).write_text(dumped)
        for mode in ("none", "result"):
            for r in case[mode]["requests"]:
                r["body"] = json.loads(json.dumps(r["body"]).replace(url, "SERVER"))
        print(f"{name}: none exit {case['none']['exit']}, result exit {case['result']['exit']}",
              file=sys.stderr)
        cases.append(case)
    cases.sort(key=lambda c: c["name"])
    out_file.write_text(json.dumps(cases, indent=1, sort_keys=True, ensure_ascii=False) + "\n")
    server.shutdown()


if __name__ == "__main__":
    main()
