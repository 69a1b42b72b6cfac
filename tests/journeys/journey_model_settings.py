#!/usr/bin/env python3
"""Journey: a run that cannot reach its model, and the model settings.

A program says `model: default` while nothing serves it. F5 fails, and the editor's message bar
says so in plain words with a "Configure models…" button. The button opens the model settings;
the user types a default model and saves. The settings go to the user's configuration
(~/.config/Hako/Hako/hako-models.yaml), never into the program's folder, and `hako models`
reports what was saved.
"""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import journeylib  # noqa: E402
from panes import expect  # noqa: E402

PROGRAM = """description: Ask the default model
text:
- model: default
  input: "Say hello."
"""


def message_bar_button(s):
    return s.first(s.window, role="push button", name="Configure models…", showing=True)


def journey(s, args):
    # Nothing listens here: every model endpoint is unreachable at once.
    s.env["OLLAMA_API_BASE"] = "http://127.0.0.1:9"
    program = os.path.join(s.work, "ask.pdl")
    with open(program, "w") as f:
        f.write(PROGRAM)
    s.launch(program)
    s.wait_for(lambda: "ask.pdl" in (s.window.name or ""), "ask.pdl to open", timeout=20)
    s.focus_editor()
    s.key("F5")
    button = s.wait_for(lambda: message_bar_button(s),
                        "the message bar to offer Configure models…", timeout=60)
    s.screenshot("model-unreachable")
    words = [a.name for a in s.all(s.window, role="label", showing=True)
             if "does not answer: it may have stopped" in (a.name or "")]
    expect(words, "the message bar does not say in plain words that the model did not answer")

    s.click(button)
    dialog = s.wait_for(lambda: s.first(s.app, role="dialog", name="Model settings",
                                        showing=True), "the model settings dialog", timeout=20)
    s.screenshot("settings-open")
    combo = s.wait_for(lambda: s.first(dialog, role="combo box", name="Default model",
                                       showing=True), "the Default model field")
    field = next((a for a in s.all(combo, role="text") if
                  a.getState().contains(s.pyatspi.STATE_EDITABLE)), None) or combo
    s.focus(field)
    s.key("ctrl+a")
    s.type("openai/gpt-4o-mini")
    s.screenshot("default-model-typed")
    save = s.wait_for(lambda: s.first(dialog, role="push button", name="Save", showing=True),
                      "the Save button")
    s.click(save)
    user_file = os.path.join(s.env["XDG_CONFIG_HOME"], "Hako", "Hako", "hako-models.yaml")
    s.wait_for(lambda: os.path.exists(user_file) and
               "default_model: openai/gpt-4o-mini" in open(user_file).read(),
               f"the default model to be saved in {user_file}", timeout=20)
    s.screenshot("saved")
    expect(not os.path.exists(os.path.join(s.work, "hako-models.yaml")),
           "the settings were written into the program's folder")
    listed = s.hako_cli("models", "--json", check=False)
    expect(listed.returncode in (0, 1), f"hako models failed: {listed.stderr}")


if __name__ == "__main__":
    sys.exit(journeylib.run(journey))
