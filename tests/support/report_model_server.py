#!/usr/bin/env python3
"""An OpenAI-compatible server for the report pipeline's tests (standard library only).

It plays the vision model, the embedding model and the text model of
resources/examples/report_qa.pdl over the sample report (tests/data/report_qa/sample_report.json):

- a chat request whose user message holds an `image_url` part is a page transcription: the part
  must be a `data:image/png;base64,` URL of a real PNG (signature, IHDR) whose width fits an A4
  page rendered at the expected dpi, next to a text part naming the page ("2 / 3 ページ"); the
  reply is that page's lines as Markdown. A bad part is answered 400 and counted as an error.
- `/v1/embeddings` gives hashed character-bigram vectors (similar texts, similar vectors).
- the query expansion, answer and review steps are recognised by their JSON schema
  (`response_format`) and answered from SCRIPT: an answer is given only when its evidence is in
  the prompt's context, the first answer to the sales question is last year's figure (so the
  reviewer sends it back once), and the dividend question is not in the report (分かりません).
- `GET /stats` says what was asked: transcriptions per page, embedded texts, chat steps, errors.

Run alone: report_model_server.py CONTENT.json [--dpi N] [--port-file FILE] (serves until
killed; prints the base URL), or import ReportModelServer.
"""
import base64
import hashlib
import json
import math
import os
import re
import struct
import sys
import threading
import unicodedata
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

COMPANY = "ハコ食品株式会社"
# keyword in the question → evidence that must be in the context, the right (unrounded) answer,
# and a first wrong answer the reviewer rejects.
SCRIPT = [
    {"key": "海外売上高比率", "evidence": "18.45%", "answer": "18.45%"},
    {"key": "売上高", "evidence": "12,345.6", "answer": "12,345.6百万円",
     "wrong": "11,802.3百万円", "feedback": "前年度の売上高です。2024年度の値を答えてください。"},
    {"key": "当期純利益", "evidence": "845.25", "answer": "845.25百万円"},
    {"key": "研究開発費", "evidence": "456.75", "answer": "456.75百万円"},
    {"key": "配当性向", "evidence": "配当性向", "answer": "分かりません"},
]
DIM = 256


def png_size(data):
    if data[:8] != b"\x89PNG\r\n\x1a\n" or data[12:16] != b"IHDR":
        return None
    return struct.unpack(">II", data[16:24])


def embed(text):
    text = unicodedata.normalize("NFKC", text)
    v = [0.0] * DIM
    for i in range(len(text) - 1):
        h = int.from_bytes(hashlib.md5(text[i:i + 2].encode()).digest()[:4], "little")
        v[h % DIM] += 1.0 if h & 0x80000000 else -1.0
    n = math.sqrt(sum(x * x for x in v)) or 1.0
    return [x / n for x in v]


def message_text(content):
    if isinstance(content, list):
        return "\n".join(p.get("text", "") for p in content
                         if isinstance(p, dict) and p.get("type") == "text")
    return str(content or "")


def last_field(text, name):
    """The value of the last line `name：value` (full- or half-width colon)."""
    found = re.findall(r"^" + name + r"[：:]\s*(.*)$", text, re.M)
    return found[-1].strip() if found else ""


def script_for(question):
    return next((s for s in SCRIPT if s["key"] in question), None)


class ReportModelServer:
    def __init__(self, content_path, dpi=360):
        with open(content_path, encoding="utf-8") as f:
            self.pages = json.load(f)["pages"]
        self.dpi = dpi
        self.lock = threading.Lock()
        self.stats = {"transcriptions": {}, "embedded_texts": 0, "embedding_requests": 0,
                      "steps": {}, "errors": [], "answer_max_tokens": []}
        server = self

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def log_message(self, *args):
                pass

            def _send(self, status, payload):
                data = json.dumps(payload, ensure_ascii=False).encode()
                self.send_response(status)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(data)))
                self.end_headers()
                self.wfile.write(data)

            def do_GET(self):
                path = self.path.rstrip("/")
                if path.endswith("/stats"):
                    with server.lock:
                        self._send(200, server.stats)
                elif path.endswith("/models"):
                    self._send(200, {"object": "list", "data": [
                        {"id": m, "object": "model", "owned_by": "test"}
                        for m in ("vision", "text", "embed")]})
                else:
                    self._send(404, {"error": {"message": "not found"}})

            def do_POST(self):
                raw = self.rfile.read(int(self.headers.get("Content-Length", "0")))
                try:
                    body = json.loads(raw)
                except ValueError:
                    self._send(400, {"error": {"message": "malformed JSON"}})
                    return
                if self.path.rstrip("/").endswith("/embeddings"):
                    inputs = body.get("input", [])
                    inputs = [inputs] if isinstance(inputs, str) else inputs
                    with server.lock:
                        server.stats["embedding_requests"] += 1
                        server.stats["embedded_texts"] += len(inputs)
                    self._send(200, {"object": "list", "model": body.get("model"), "data": [
                        {"object": "embedding", "index": i, "embedding": embed(t)}
                        for i, t in enumerate(inputs)],
                        "usage": {"prompt_tokens": 1, "total_tokens": 1}})
                    return
                if not self.path.rstrip("/").endswith("/chat/completions"):
                    self._send(404, {"error": {"message": "not found"}})
                    return
                status, reply = server.reply(body)
                if status != 200:
                    self._send(status, {"error": {"message": reply}})
                    return
                usage = {"prompt_tokens": 100, "completion_tokens": max(1, len(reply) // 2),
                         "total_tokens": 100 + max(1, len(reply) // 2)}
                if not body.get("stream"):
                    self._send(200, {
                        "id": "chatcmpl-report", "object": "chat.completion",
                        "model": body.get("model"),
                        "choices": [{"index": 0, "finish_reason": "stop",
                                     "message": {"role": "assistant", "content": reply}}],
                        "usage": usage})
                    return
                self.send_response(200)
                self.send_header("Content-Type", "text/event-stream")
                self.send_header("Transfer-Encoding", "chunked")
                self.end_headers()

                def event(payload):
                    data = b"data: " + (payload if isinstance(payload, bytes) else json.dumps(
                        payload, ensure_ascii=False).encode()) + b"\n\n"
                    self.wfile.write(b"%x\r\n%s\r\n" % (len(data), data))
                    self.wfile.flush()

                base = {"id": "chatcmpl-report", "object": "chat.completion.chunk",
                        "model": body.get("model")}
                for i in range(0, len(reply), 16):
                    event(dict(base, choices=[{"index": 0, "delta": {"content": reply[i:i + 16]},
                                               "finish_reason": None}]))
                event(dict(base, choices=[{"index": 0, "delta": {}, "finish_reason": "stop"}]))
                event(dict(base, choices=[], usage=usage))
                event(b"[DONE]")
                self.wfile.write(b"0\r\n\r\n")
                self.wfile.flush()

        self.httpd = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.httpd.daemon_threads = True
        self.thread = threading.Thread(target=self.httpd.serve_forever, daemon=True)
        self.thread.start()

    @property
    def base_url(self):
        return f"http://127.0.0.1:{self.httpd.server_address[1]}/v1"

    def close(self):
        self.httpd.shutdown()
        self.httpd.server_close()

    def count_step(self, name):
        self.stats["steps"][name] = self.stats["steps"].get(name, 0) + 1

    def error(self, message):
        with self.lock:
            self.stats["errors"].append(message)
        return 400, message

    def reply(self, body):
        messages = body.get("messages", [])
        images = [p for m in messages if isinstance(m.get("content"), list)
                  for p in m["content"] if isinstance(p, dict) and p.get("type") == "image_url"]
        if images:
            return self.transcribe(messages, images)
        schema = (body.get("response_format") or {}).get("json_schema", {}).get("schema", {})
        props = schema.get("properties", {})
        prompt = "\n".join(message_text(m.get("content")) for m in messages)
        with self.lock:
            if "queries" in props:
                self.count_step("expansion")
                return 200, self.expand(prompt)
            if "check_result" in props:
                self.count_step("review")
                return 200, self.review(prompt)
            if "answer" in props:
                self.count_step("answer")
                self.stats["answer_max_tokens"].append(body.get("max_tokens"))
                return 200, self.answer(prompt)
            self.count_step("other")
        return 200, "(no script for this request)"

    def transcribe(self, messages, images):
        if len(images) != 1:
            return self.error(f"expected one image part, got {len(images)}")
        url = (images[0].get("image_url") or {}).get("url", "")
        prefix = "data:image/png;base64,"
        if not url.startswith(prefix):
            return self.error("the image part is not a PNG data URL")
        try:
            data = base64.b64decode(url[len(prefix):], validate=True)
        except ValueError:
            return self.error("the image part's base64 is malformed")
        size = png_size(data)
        if not size:
            return self.error("the image part is not a PNG")
        expected = round(595 / 72 * self.dpi)
        if abs(size[0] - expected) > 2:
            return self.error(f"the page image is {size[0]} px wide, not {expected} "
                              f"(A4 at {self.dpi} dpi)")
        text = "\n".join(message_text(m.get("content")) for m in messages)
        found = re.search(r"(\d+)\s*/\s*(\d+)\s*ページ", text)
        if not found:
            return self.error("the transcription request does not say which page it is")
        page = int(found.group(1))
        if not 1 <= page <= len(self.pages):
            return self.error(f"there is no page {page}")
        with self.lock:
            counts = self.stats["transcriptions"]
            counts[str(page)] = counts.get(str(page), 0) + 1
        lines = self.pages[page - 1]
        return 200, "```markdown\n# " + lines[0] + "\n\n" + "\n".join(lines[1:]) + "\n```"

    def expand(self, prompt):
        question = last_field(prompt, "質問")
        known = [c for c in re.split(r"[、,]\s*", last_field(prompt, "企業一覧")) if c]
        companies = [c for c in known if c.replace("株式会社", "") in question] or known
        first = question.split("。")[0]
        entry = script_for(question)
        broad = (entry["key"] if entry else first) + " 2024年度 業績 財務"
        return json.dumps({"queries": [first, broad], "companies": companies[:3]},
                          ensure_ascii=False)

    def right_answer(self, prompt, question):
        entry = script_for(question)
        context = prompt.split("コンテキスト", 1)[-1]
        if not entry or entry["evidence"] not in context:
            return entry, "分かりません"
        return entry, entry["answer"]

    def answer(self, prompt):
        question = last_field(prompt, "質問")
        entry, right = self.right_answer(prompt, question)
        given = right
        if entry and entry.get("wrong") and right != "分かりません" and "前回の回答" not in prompt:
            given = entry["wrong"]
        return json.dumps({"answer": given, "reason": "報告書の記載より"}, ensure_ascii=False)

    def review(self, prompt):
        question = last_field(prompt, "質問")
        given = last_field(prompt, "回答")
        entry, right = self.right_answer(prompt, question)
        ok = given == right
        feedback = "" if ok else (entry or {}).get("feedback", f"正しくは {right} です。")
        return json.dumps({"check_result": ok,
                           "check_result_details": "根拠と一致します" if ok else "根拠と一致しません",
                           "feedback": feedback}, ensure_ascii=False)


def main():
    args = sys.argv[1:]
    dpi = 360
    port_file = None
    if "--dpi" in args:
        i = args.index("--dpi")
        dpi = int(args[i + 1])
        del args[i:i + 2]
    if "--port-file" in args:
        i = args.index("--port-file")
        port_file = args[i + 1]
        del args[i:i + 2]
    server = ReportModelServer(args[0], dpi)
    print(server.base_url, flush=True)
    if port_file:
        with open(port_file + ".tmp", "w") as f:
            f.write(server.base_url)
        os.replace(port_file + ".tmp", port_file)
    threading.Event().wait()


if __name__ == "__main__":
    main()
