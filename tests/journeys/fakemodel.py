"""A small OpenAI-compatible chat server for the journeys (standard library only).

`/v1/models` lists a few models; `/v1/chat/completions` answers every request with a reply made
from its messages (so different prompts give different, predictable replies), streamed as
server-sent events when asked, with token usage. Every request body is kept (`requests`) so a
journey can compare what the window shows with what the server received.
"""
import base64
import json
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

MODELS = ["gpt-4o-mini", "gpt-4o", "small-local"]


JUDGE_ASKS = ("Y or N", "Y、そうでなければ N")


def is_judge(body):
    """Whether the request is a judge model's question (it asks for Y or N on the last line)."""
    return any(any(a in str(m.get("content", "")) for a in JUDGE_ASKS)
               for m in body.get("messages", []))


def reply_for(body):
    """The reply to a chat request: names the model and echoes the last user message's words
    upper-cased, so that a changed prompt shows as a changed reply. A judge's question gets a
    reason and Y."""
    messages = body.get("messages", [])
    if is_judge(body):
        return "The submission meets the criterion.\nY"
    last = next((m.get("content", "") for m in reversed(messages) if m.get("role") == "user"), "")
    if isinstance(last, list):
        last = " ".join(p.get("text", "") for p in last if isinstance(p, dict))
    words = str(last).split()
    return f"[{body.get('model', '?')}] " + " ".join(w.upper() for w in words[:40])


def usage_for(body, reply):
    prompt_chars = sum(len(str(m.get("content", ""))) for m in body.get("messages", []))
    return {"prompt_tokens": max(1, prompt_chars // 4),
            "completion_tokens": max(1, len(reply) // 4),
            "total_tokens": max(1, prompt_chars // 4) + max(1, len(reply) // 4)}


def image_parts(body):
    """The images of a chat request's `image_url` parts with base64 `data:` URLs, in order, as
    (media type, bytes) pairs."""
    out = []
    for m in body.get("messages", []):
        content = m.get("content")
        if not isinstance(content, list):
            continue
        for part in content:
            if not isinstance(part, dict) or part.get("type") != "image_url":
                continue
            url = (part.get("image_url") or {}).get("url", "")
            head, sep, data = url.partition(";base64,")
            if url.startswith("data:") and sep:
                out.append((head[len("data:"):], base64.b64decode(data)))
    return out


class FakeModelServer:
    def __init__(self):
        self.requests = []
        self.lock = threading.Lock()
        server = self

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def log_message(self, *args):
                pass

            def _send(self, status, payload):
                data = json.dumps(payload).encode()
                self.send_response(status)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(data)))
                self.end_headers()
                self.wfile.write(data)

            def do_GET(self):
                if self.path.rstrip("/").endswith("/models"):
                    self._send(200, {"object": "list", "data": [
                        {"id": m, "object": "model", "owned_by": "journey"} for m in MODELS]})
                else:
                    self._send(404, {"error": {"message": "not found"}})

            def do_POST(self):
                length = int(self.headers.get("Content-Length", "0"))
                raw = self.rfile.read(length)
                try:
                    body = json.loads(raw)
                except ValueError:
                    self._send(400, {"error": {"message": "malformed JSON"}})
                    return
                with server.lock:
                    server.requests.append(body)
                if not self.path.rstrip("/").endswith("/chat/completions"):
                    self._send(404, {"error": {"message": "not found"}})
                    return
                reply = reply_for(body)
                usage = usage_for(body, reply)
                if not body.get("stream"):
                    self._send(200, {
                        "id": "chatcmpl-journey", "object": "chat.completion",
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
                    data = b"data: " + (payload if isinstance(payload, bytes)
                                        else json.dumps(payload).encode()) + b"\n\n"
                    self.wfile.write(b"%x\r\n%s\r\n" % (len(data), data))
                    self.wfile.flush()

                base = {"id": "chatcmpl-journey", "object": "chat.completion.chunk",
                        "model": body.get("model")}
                words = reply.split(" ")
                for i, w in enumerate(words):
                    piece = w if i == 0 else " " + w
                    event(dict(base, choices=[{"index": 0, "delta": {"content": piece},
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

    def chat_requests(self):
        with self.lock:
            return [r for r in self.requests if "messages" in r]

    def close(self):
        self.httpd.shutdown()
        self.httpd.server_close()
