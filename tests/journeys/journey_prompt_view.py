#!/usr/bin/env python3
"""Journey: a Japanese prompt author writes a prompt without seeing YAML.

With the interface in Japanese, Hako starts without a file and shows its start page. The user
connects a model by typing the address of an OpenAI-compatible server (the local test server),
testing it and choosing to use it; then chooses 「プロンプトを書く」 and the "summarise a
text" template (文章を要約する), which opens in Japanese in the Prompt view. The user replaces
the text to summarise in its field, runs the program (F5: the server receives that text), adds a
sentence to the model call's message in its card, runs again (the server receives the new wording
and the card shows the reply), presses the card's 「プレイグラウンドで試す」 (the playground opens
that card's prompt with the text she typed as its input) and switches back to the YAML: the
change is there and every comment of the template is kept.
"""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import journeylib  # noqa: E402
from fakemodel import FakeModelServer, reply_for  # noqa: E402
from panes import expect, ja, status_text  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.join(HERE, "..", "..")
TEMPLATE = os.path.join(ROOT, "resources", "templates", "summarize.ja.pdl")


def journey(s, args):
    server = FakeModelServer()
    try:
        s.env["HAKO_LANGUAGE"] = "ja"
        s.env.pop("OPENAI_BASE_URL", None)
        s.env.pop("OPENAI_API_KEY", None)
        s.env["OLLAMA_API_BASE"] = "http://127.0.0.1:9"
        s.launch()
        s.wait_for(lambda: s.first(s.window, role="label", name=ja("Welcome to Hako"),
                                   showing=True), "the start page (in Japanese)", timeout=30)
        s.wait_for(lambda: any("Ollama" in (a.name or "") and "127.0.0.1:9" in (a.name or "")
                               for a in s.all(s.window, role="label", showing=True)),
                   "the start page to say whether Ollama runs", timeout=30)
        s.screenshot("start-page")

        # Connect the test server.
        page = s.wait_for(lambda: s.first(s.window, name=ja("Getting started"), showing=True),
                          "the start page")
        url = s.wait_for(lambda: s.first(s.window, name=ja("Server URL"), showing=True),
                         "the server URL field")
        s.focus(s.scroll_to(url, page))
        s.type(server.base_url)
        s.click(s.scroll_to(s.first(s.window, role="push button", name=ja("Test the server"),
                                    showing=True), page))
        connected = ja("Connected: %n model(s) answered: %1.").split("%n")[0]
        s.wait_for(lambda: any((a.name or "").startswith(connected)
                               for a in s.all(s.window, role="label", showing=True)),
                   "the server's models listed", timeout=30)
        s.screenshot("server-tested")
        use = s.first(s.window, role="push button", name=ja("Use This Server"), showing=True)
        s.click(s.scroll_to(use, page))
        done = ja("Programs can now use %1/%2 (and `model: default`).", "server", "gpt-4o-mini")
        s.wait_for(lambda: any((a.name or "") == done
                               for a in s.all(s.window, role="label", showing=True)),
                   "the server kept as the default model", timeout=20)
        settings = os.path.join(s.env["XDG_CONFIG_HOME"], "Hako", "Hako", "hako-models.yaml")
        s.wait_for(lambda: os.path.exists(settings) and server.base_url in open(settings).read(),
                   "the server in the user's model settings")

        # Write a prompt: the summarise template.
        s.click(s.scroll_to(s.first(s.window, role="push button", name=ja("Write a prompt"),
                                    showing=True), page))
        dialog = s.wait_for(lambda: s.first(s.app, role="dialog", showing=True),
                            "the template gallery", timeout=20)
        gallery = s.wait_for(lambda: s.first(dialog, role="list", name="テンプレート",
                                             showing=True), "the template list")
        item = s.wait_for(lambda: next((a for a, _ in s.walk(gallery, max_nodes=100)
                                        if a.name == "文章を要約する"), None),
                          "the summarise template in the gallery")
        s.click(item)
        s.screenshot("template-gallery")
        s.click(s.first(dialog, role="push button", name="作成", showing=True))

        # The template opens in the Prompt view, in Japanese.
        view = s.wait_for(lambda: s.first(s.window, name=ja("Prompt document"), showing=True),
                          "the Prompt view", timeout=20)
        field = s.wait_for(lambda: s.first(view, name=ja("Value %1", "text"), showing=True),
                           "the field of the text to summarise")
        s.wait_for(lambda: "デスクトップアプリ" in s.text_of(field),
                   "the Japanese template's sample text in the Prompt view", timeout=20)
        s.screenshot("prompt-view")
        s.focus(field)
        s.key("ctrl+a")
        s.type("Cats sleep sixteen hours a day and hunt at dawn.")
        s.wait_for(lambda: "sixteen hours" in s.text_of(field), "the new text typed")

        s.key("F5")
        s.wait_for(lambda: len(server.chat_requests()) == 1, "the first run's request",
                   timeout=60)
        expect("sixteen hours" in str(server.chat_requests()[0]["messages"]),
               "the text typed in the Prompt view did not reach the model")
        s.wait_for(lambda: ja("Run finished") in status_text(s), "the run to finish",
                   timeout=60)

        # Change the message in the card; run again.
        message = s.wait_for(lambda: s.first(view, name=ja("%1 message of %2", "user",
                                                           "summary"), showing=True),
                             "the model call's message in its card")
        s.focus(s.scroll_to(message, view))
        s.key("ctrl+End")
        s.type("Use short words.")
        s.key("F5")
        s.wait_for(lambda: len(server.chat_requests()) == 2, "the second run's request",
                   timeout=60)
        second = server.chat_requests()[1]
        expect("Use short words." in str(second["messages"]),
               "the card's new wording did not reach the model")
        words = reply_for(second).split()
        s.wait_for(lambda: any(words[-1] in (a.name or "") and words[0] in (a.name or "")
                               for a in s.all(view, role="label", showing=True)),
                   "the second reply under the card", timeout=30)
        s.screenshot("second-run")

        # The card's "Try in Playground": that prompt, with the text typed above as its input.
        try_it = s.wait_for(lambda: s.first(view, role="push button",
                                            name=ja("Try %1 in the playground", "summary"),
                                            showing=True), "the card's Try in Playground")
        s.click(s.scroll_to(try_it, view))
        playground = s.wait_for(lambda: s.first(s.window, role="table", name=ja("Inputs"),
                                                showing=True), "the playground's inputs",
                                timeout=20)
        s.wait_for(lambda: any("sixteen hours" in " ".join(cells)
                               for _, cells in s.table_rows(playground)),
                   "the Prompt view's text as the playground's input", timeout=20)
        s.screenshot("playground")

        # Back to the YAML: the change is there, and every comment of the template.
        s.key("ctrl+shift+y")
        s.wait_for(lambda: s.editor() is not None and s.on_screen(s.editor()),
                   "the YAML editor", timeout=20)
        text = s.editor_text()
        expect("Use short words." in text and "sixteen hours" in text,
               "the Prompt view's edits are not in the YAML")
        comments = [line.strip() for line in open(TEMPLATE, encoding="utf-8")
                    if line.strip().startswith("#")]
        missing = [c for c in comments if c not in text]
        expect(not missing, f"comments lost: {missing}")
        s.screenshot("yaml")
    finally:
        server.close()


if __name__ == "__main__":
    sys.exit(journeylib.run(journey))
