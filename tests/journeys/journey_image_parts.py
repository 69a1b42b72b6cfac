#!/usr/bin/env python3
"""Journey: a message with an image, sent to a model and read back as thumbnails.

A program next to page1.png sends the model a message whose content is a list of parts: a text
and `image_url('page1.png')`. It runs (F5) against a local OpenAI-compatible server, which
receives the image part with the PNG's exact bytes. In the Trace Tree the model call is
selected: the Detail pane shows the message's text and the image as "Image 1 of 1: PNG 160×220,
664 B" (a thumbnail); the Prompt Log's call view likewise. Nowhere in the window can a screen
reader (or a person) read `data:image` or a long base64 run. Issue 30 §1.
"""
# journey-deadline: 300
import base64
import os
import re
import shutil
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import journeylib  # noqa: E402
from fakemodel import FakeModelServer, image_parts  # noqa: E402
from panes import expect, show_dock, status_text, view_in  # noqa: E402

PROGRAM = """description: Transcribe a scanned page
text:
- role: user
  content:
    data:
    - {type: text, text: "Transcribe this page to Markdown."}
    - {type: image_url, image_url: {url: "${ image_url('page1.png') }"}}
- def: transcript
  model: openai/gpt-4o-mini
"""

IMAGE_TEXT = "Image 1 of 1: PNG 160×220, 664 B"
BASE64_RUN = re.compile(r"[A-Za-z0-9+/=]{120,}")


def base64_leak(s, root):
    """The first readable text under `root` that shows an image's base64, or None."""
    for acc, _ in s.walk(root, max_nodes=6000):
        for text in (acc.name or "", acc.description or "", s.text_of(acc) or ""):
            if "data:image" in text or ";base64" in text or BASE64_RUN.search(text):
                return f"{acc.getRoleName()} {acc.name!r}: {text[:160]!r}"
    return None


def wheel_down(s, acc, clicks):
    """Scrolls the view under `acc` down by `clicks` wheel steps."""
    x, y = s.center(acc)
    s.xdotool("mousemove", "--sync", str(x), str(y), *(["click", "5"] * clicks))
    time.sleep(0.3)


def select_model_row(s):
    """Selects the model call in the Trace Tree; its row's first cell, or None."""
    dock = show_dock(s, "Trace Tree")
    tab = next((t for t in s.all(s.window, role="page tab", name="Trace Tree")
                if s.on_screen(t)), None)
    if tab is not None:
        s.click(tab)
    view = view_in(s, dock, ("tree table", "tree"))
    if view is None:
        return None
    table = view.queryTable()
    for r in range(table.nRows):
        kind = table.getAccessibleAt(r, 1)
        if kind is not None and kind.name == "model":
            first = table.getAccessibleAt(0, 0)
            if s.on_screen(first):
                s.click(first)
                s.key(*["Down"] * r)
                if table.isRowSelected(r):
                    return table.getAccessibleAt(r, 0)
    return None


def journey(s, args):
    server = FakeModelServer()
    try:
        s.env["OPENAI_BASE_URL"] = server.base_url
        s.env["OPENAI_API_KEY"] = "sk-journey"
        s.env["OLLAMA_API_BASE"] = "http://127.0.0.1:9"
        png = os.path.join(args.source, "tests/data/images/page1.png")
        shutil.copy(png, os.path.join(s.work, "page1.png"))
        with open(png, "rb") as f:
            png_bytes = f.read()
        program = os.path.join(s.work, "transcribe.pdl")
        with open(program, "w") as f:
            f.write(PROGRAM)
        s.launch(program)
        s.wait_for(lambda: "transcribe.pdl" in (s.window.name or ""), "the program to open",
                   timeout=20)
        s.focus_editor()
        s.key("F5")
        s.wait_for(lambda: "Run finished" in status_text(s), "the run to finish", timeout=60)
        requests = server.chat_requests()
        expect(len(requests) == 1, f"the server got {len(requests)} chat requests, not 1")
        content = requests[0]["messages"][0]["content"]
        expect(isinstance(content, list) and content[0] ==
               {"type": "text", "text": "Transcribe this page to Markdown."},
               f"the message's parts did not arrive as written: {str(content)[:200]}")
        images = image_parts(requests[0])
        expect(len(images) == 1 and images[0] == ("image/png", png_bytes),
               "the server did not receive the PNG's exact bytes")
        s.screenshot("run-finished")

        # The model call in the trace: its messages with the image as a thumbnail.
        s.wait_for(lambda: select_model_row(s), "the model call selected in the Trace Tree",
                   timeout=40, interval=0.5)
        detail = show_dock(s, "Detail")
        summary = s.wait_for(lambda: s.first(detail, name="Block summary", showing=True),
                             "the Detail pane's summary")
        s.wait_for(lambda: IMAGE_TEXT in s.text_of(summary),
                   "the image's thumbnail caption in the Detail pane", timeout=20)
        expect("Transcribe this page to Markdown." in s.text_of(summary),
               "the message's text is not in the Detail pane")
        # The messages are further down the summary: bring them into view for the screenshot.
        wheel_down(s, summary, 6)
        s.screenshot("detail-thumbnail")
        leak = base64_leak(s, s.window)
        expect(leak is None, f"base64 is readable in the window: {leak}")

        # The Prompt Log's view of the same call.
        s.menu("View", "Prompt Log")
        log = show_dock(s, "Prompt Log")
        calls = s.wait_for(lambda: s.first(log, role="table", name="Model calls", showing=True),
                           "the Model calls table", timeout=20)
        s.wait_for(lambda: len(s.table_rows(calls)) == 1, "the call in the Prompt Log",
                   timeout=30)
        s.click(calls.queryTable().getAccessibleAt(0, 1))
        call = s.wait_for(lambda: s.first(log, name="Call detail", showing=True),
                          "the call detail")
        s.wait_for(lambda: IMAGE_TEXT in s.text_of(call),
                   "the image's thumbnail caption in the call detail", timeout=20)
        wheel_down(s, call, 5)
        s.screenshot("prompt-log-thumbnail")
        leak = base64_leak(s, s.window)
        expect(leak is None, f"base64 is readable in the window: {leak}")
    finally:
        server.close()


if __name__ == "__main__":
    sys.exit(journeylib.run(journey))
