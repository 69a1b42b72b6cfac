"""The Python module `hako` as a host program written for the reference uses it.

Usage: test_python_module.py BUILD_PYTHON_DIR [CONFORMANCE_DIR]

Checks the entry points' signatures against the reference's (pdl.pdl), runs the reference's
conformance programs through exec_file and compares with its recorded outputs, and runs a model
block against a small OpenAI-compatible server on this machine.
"""

import http.server
import inspect
import json
import os
import sys
import tempfile
import threading

sys.path.insert(0, sys.argv[1])
conformance = sys.argv[2] if len(sys.argv) > 2 else ""

# Trusted folders, settings and the prompt log: this test's own, empty.
home = tempfile.mkdtemp(prefix="hako-sdk-py-")
os.environ["HOME"] = home
os.environ["XDG_CONFIG_HOME"] = os.path.join(home, "config")
os.environ["XDG_DATA_HOME"] = os.path.join(home, "data")

from hako import pdl  # noqa: E402

failures = []


def check(condition, what):
    if not condition:
        failures.append(what)
        print("FAIL:", what)


# The reference's signatures (pdl/pdl.py): a host switches by changing its import.
reference = {
    "exec_str": ["prog", "config", "scope", "output"],
    "exec_file": ["prog", "config", "scope", "output"],
    "exec_dict": ["prog", "config", "scope", "loc", "output"],
    "exec_program": ["prog", "config", "scope", "loc", "output"],
}
for name, params in reference.items():
    got = list(inspect.signature(getattr(pdl, name)).parameters)
    check(got == params, f"{name} takes {got}, the reference {params}")

# Values in and out.
check(pdl.exec_str("text: ${ x + 1 }", scope={"x": 41}) == "42", "a scope variable reaches the program")
check(pdl.exec_str("data: {a: [1, 2.5, true, null]}") == {"a": [1, 2.5, True, None]},
      "structured results are Python values")
check(pdl.exec_dict({"text": ["日本", "語"]}) == "日本語", "exec_dict runs a dictionary")
program, loc = pdl.parse_str("text: hello")
check(pdl.exec_program(program, loc=loc) == "hello", "exec_program runs a parsed program")
everything = pdl.exec_str("defs: {v: 7}\ntext: ${ v }", output="all")
check(set(everything) == {"result", "scope", "trace", "replay"}, f"output=all gives {set(everything)}")
check(everything["scope"].get("v") == 7, "output=all gives the final scope")
check(everything["trace"].get("kind") == "text", "output=all gives the trace")
try:
    pdl.exec_str("text:\n- a\n- ${ 1 / 0 }\n")
    check(False, "a failing program raises")
except pdl.PDLRuntimeError as e:
    check(e.line == 3 and "division" in str(e), f"the error says where ({e.line}: {e})")
try:
    pdl.exec_str("text: [unclosed")
    check(False, "a malformed program raises")
except pdl.PDLParseError:
    pass
try:
    pdl.exec_str("text: x", output="everything")
    check(False, "an unknown output is refused")
except ValueError:
    pass

# yield_result streams the result to standard output as it is produced.
import subprocess  # noqa: E402

streamed = subprocess.run(
    [sys.executable, "-c",
     "from hako.pdl import exec_str\n"
     "r = exec_str('text: [\"a\", \"b\"]', config={'yield_result': True})\n"
     "print('|' + r)"],
    env=dict(os.environ, PYTHONPATH=sys.argv[1]), capture_output=True, text=True, timeout=120)
check(streamed.stdout == "ab|ab\n", f"yield_result streams ({streamed.stdout!r} {streamed.stderr!r})")

# Code from a folder nobody trusted is refused, as `hako run` refuses it.
folder = tempfile.mkdtemp(dir=home)
with open(os.path.join(folder, "code.pdl"), "w", encoding="utf-8") as f:
    f.write("lang: python\ncode: result = 6 * 7\n")
try:
    pdl.exec_file(os.path.join(folder, "code.pdl"))
    check(False, "untrusted code is refused")
except pdl.PDLRuntimeError as e:
    check("trusted" in str(e), f"the refusal says what to do: {e}")
check(pdl.exec_file(os.path.join(folder, "code.pdl"), config={"trusted": True}) == 42,
      "trusted code runs")


# A model block against a local OpenAI-compatible server (chat completions, streamed or not).
class Server(http.server.BaseHTTPRequestHandler):
    requests = []

    def log_message(self, *args):
        pass

    def do_POST(self):
        body = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
        Server.requests.append(body)
        reply = "はい"
        if body.get("stream"):
            self.send_response(200)
            self.send_header("Content-Type", "text/event-stream")
            self.end_headers()
            for piece in (reply[:1], reply[1:]):
                chunk = {"id": "c", "object": "chat.completion.chunk", "model": body["model"],
                         "choices": [{"index": 0, "delta": {"content": piece}, "finish_reason": None}]}
                self.wfile.write(b"data: " + json.dumps(chunk).encode() + b"\n\n")
            end = {"id": "c", "object": "chat.completion.chunk", "model": body["model"],
                   "choices": [{"index": 0, "delta": {}, "finish_reason": "stop"}],
                   "usage": {"prompt_tokens": 3, "completion_tokens": 2, "total_tokens": 5}}
            self.wfile.write(b"data: " + json.dumps(end).encode() + b"\n\ndata: [DONE]\n\n")
            return
        out = json.dumps({"id": "c", "object": "chat.completion", "model": body["model"],
                          "choices": [{"index": 0, "message": {"role": "assistant", "content": reply},
                                       "finish_reason": "stop"}],
                          "usage": {"prompt_tokens": 3, "completion_tokens": 2, "total_tokens": 5}})
        self.send_response(200)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(out.encode())))
        self.end_headers()
        self.wfile.write(out.encode())


server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Server)
threading.Thread(target=server.serve_forever, daemon=True).start()
models = tempfile.mkdtemp(dir=home)
with open(os.path.join(models, "hako-models.yaml"), "w", encoding="utf-8") as f:
    f.write(f"endpoints:\n  lab:\n    base_url: http://127.0.0.1:{server.server_port}/v1\n"
            "models:\n  \"lab/*\": lab\n")
result = pdl.exec_str("text:\n- 質問\n- model: lab/m\n",
                      config={"cwd": models, "trusted": True, "log": False})
check(result == "質問はい", f"the model's reply is the result ({result!r})")
check(len(Server.requests) == 1 and Server.requests[0]["messages"][-1]["content"] == "質問",
      f"one request with the context ({Server.requests})")
server.shutdown()

# The reference's conformance programs, with its recorded outputs.
cases_file = os.path.join(conformance, "cases.json")
if os.path.exists(cases_file):
    with open(cases_file, encoding="utf-8") as f:
        cases = json.load(f)
    ran = 0
    for case in cases:
        if case["stdin"] is not None:
            continue
        path = os.path.join(conformance, "programs", case["program"])
        config = {"trusted": True, "log": False}
        if case["exit"] == 0:
            try:
                result = pdl.exec_file(path, config=config, scope=case["scope"])
            except Exception as e:  # noqa: BLE001 - reported as the case's failure
                check(False, f"{case['program']}: {e}")
                continue
            expected = case["stdout"][:-1] if case["stdout"].endswith("\n") else case["stdout"]
            if isinstance(result, str):
                check(result == expected, f"{case['program']}: {result!r} != {expected!r}")
            else:
                try:
                    check(json.loads(expected) == result, f"{case['program']}: {result!r} != {expected!r}")
                except json.JSONDecodeError:
                    check(False, f"{case['program']}: {result!r} against {expected!r}")
        else:
            lines = [int(l.split(" - ")[0].rsplit(":", 1)[1]) for l in case["stderr"]
                     if " - " in l and l.split(" - ")[0].rsplit(":", 1)[-1].isdigit()]
            try:
                pdl.exec_file(path, config=config, scope=case["scope"])
                check(False, f"{case['program']} fails as in the reference")
            except (pdl.PDLRuntimeError, pdl.PDLParseError) as e:
                line = getattr(e, "line", 0)
                wanted = [l for l in lines if l > 0]
                check(not wanted or line in wanted or isinstance(e, pdl.PDLParseError),
                      f"{case['program']}: error at line {line}, the reference at {wanted}")
        ran += 1
    print(f"{ran} conformance programs run")
    check(ran >= 70, f"only {ran} conformance programs ran")
else:
    print("conformance corpus not found; skipped")

if failures:
    print(f"{len(failures)} failure(s)")
    sys.exit(1)
print("all passed")
