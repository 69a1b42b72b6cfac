#!/usr/bin/env python3
# journey-deadline: 600
"""Journey: a Japanese prompt author's whole loop, without YAML, across a restart.

The interface is Japanese. The author connects the local OpenAI-compatible server on the start
page and writes a prompt from the classify template (ラベルに分類する), which opens in the Prompt
view. She runs it (F5), presses the card's 「プレイグラウンドで試す」, adds a second variant with
other wording and pastes three customer messages (Japanese, through the clipboard) under the
first row of the inputs: the 2 × 3 grid sends six calls, each with the template's labels. She
saves the program; the Prompt Log's "by prompt" table counts the tokens of her prompt. She makes
a dataset from a Shift_JIS CSV (an Excel export): the import shows how it was read and what each
column becomes. An experiment with a judge model runs over it; she changes the prompt in its card,
saves and runs a second experiment, compared with the first. She quits, starts Hako again and
finds her program (in the Prompt view), her dataset, both experiments and her playground session.
"""
import os
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import journeylib  # noqa: E402
from fakemodel import FakeModelServer, is_judge, reply_for, usage_for  # noqa: E402
from panes import expect, ja, show_dock, status_text  # noqa: E402

MESSAGES = ["荷物がまだ届きません。いつ届きますか？",
            "対応がとても丁寧で助かりました。",
            "箱がつぶれていて中身が壊れていました。"]

# An Excel export: Shift_JIS, CRLF, an 「期待」 column Hako proposes as the reference.
CSV_ROWS = [("message", "期待する答え"),
            ("荷物がまだ届きません。", "質問"),
            ("とても丁寧でした。", "褒め言葉"),
            ("中身が壊れていました。", "苦情")]


def chats(server):
    return [r for r in server.chat_requests() if not is_judge(r)]


def classify_calls(bodies):
    """The calls of the classify card (the second prompt's calls read its answer instead)."""
    return [b for b in bodies
            if any(str(m.get("content", "")).startswith("次のメッセージを")
                   for m in b["messages"])]


def judged(server):
    return [r for r in server.chat_requests() if is_judge(r)]


def named(s, root, name, role=None, what=None, timeout=20):
    return s.wait_for(lambda: s.first(root, role=role, name=name, showing=True),
                      what or f"{role or 'control'} {name!r}", timeout=timeout)


def connect_server(s, server):
    page = named(s, s.window, ja("Getting started"), what="the start page")
    url = s.scroll_to(named(s, s.window, ja("Server URL"), what="the server URL field",
                            timeout=30), page)
    s.focus(url)
    s.type(server.base_url)
    s.click(s.scroll_to(named(s, s.window, ja("Test the server"), role="push button"), page))
    connected = ja("Connected: %n model(s) answered: %1.").split("%n")[0]
    s.wait_for(lambda: any((a.name or "").startswith(connected)
                           for a in s.all(s.window, role="label", showing=True)),
               "the server's models listed", timeout=30)
    s.click(s.scroll_to(named(s, s.window, ja("Use This Server"), role="push button"), page))
    done = ja("Programs can now use %1/%2 (and `model: default`).", "server", "gpt-4o-mini")
    s.wait_for(lambda: any((a.name or "") == done
                           for a in s.all(s.window, role="label", showing=True)),
               "the server kept as the default model", timeout=20)
    s.screenshot("server-connected")


def template_in_prompt_view(s):
    page = named(s, s.window, ja("Getting started"), what="the start page")
    s.click(s.scroll_to(named(s, s.window, ja("Write a prompt"), role="push button"), page))
    dialog = s.wait_for(lambda: s.first(s.app, role="dialog", showing=True),
                        "the template gallery", timeout=20)
    gallery = named(s, dialog, "テンプレート", role="list", what="the template list")
    item = s.wait_for(lambda: next((a for a, _ in s.walk(gallery, max_nodes=100)
                                    if a.name == "ラベルに分類する"), None),
                      "the classify template in the gallery")
    s.click(item)
    s.click(named(s, dialog, "作成", role="push button"))
    view = named(s, s.window, ja("Prompt document"), what="the Prompt view")
    field = named(s, view, ja("Value %1", "message"), what="the message to classify")
    s.wait_for(lambda: "2週間" in s.text_of(field), "the template's Japanese sample message")
    s.focus(field)
    s.screenshot("template-in-prompt-view")
    return view


def edit_labels_and_add_a_prompt(s):
    """The label list is edited as a list (one label per line), and a second prompt is added
    below the classify card, without YAML."""
    labels = named(s, s.window, ja("Value %1", "labels"), what="the labels list")
    s.focus(labels)
    s.key("ctrl+End")
    s.type("\n要望")
    s.wait_for(lambda: "要望" in s.text_of(labels), "the new label in the list")
    add = named(s, s.window, ja("Add Prompt"), role="push button")
    page = named(s, s.window, ja("Prompt document"), what="the Prompt view")
    s.click(s.scroll_to(add, page))
    s.wait_for(lambda: s.first(s.window, name=ja("%1 message of %2", "user", "prompt"),
                               showing=True), "the second prompt's card", timeout=20)
    s.screenshot("list-edited-and-prompt-added")


def playground_grid(s, server, view):
    page = named(s, s.window, ja("Prompt document"), what="the Prompt view")
    s.click(s.scroll_to(named(s, page, ja("Try %1 in the playground", "answer"),
                              role="push button"), page))
    play = show_dock(s, ja("Playground"))
    inputs = named(s, play, ja("Inputs"), role="table", what="the playground's inputs")
    rows = s.table_rows(inputs)
    expect(rows and any("褒め言葉" in c for c in rows[0][1]),
           f"the first row does not hold the template's labels: {rows}")
    variant = ja("Variant %1", "2")
    s.click(named(s, play, ja("Add variant"), role="push button"))
    text = named(s, play, ja("%1 text", ja("%1 message %2", variant, "1")),
                 what="the second variant's message")
    s.focus(text)
    s.key("ctrl+End")
    s.type("\n迷ったら「質問」と答えてください。")
    s.wait_for(lambda: "迷ったら" in s.text_of(text), "the second variant's new sentence")
    # Three messages pasted into the message column, from its first cell.
    header = s.table_rows(inputs)
    column = None
    table = inputs.queryTable()
    for c in range(table.nColumns):
        h = table.getColumnHeader(c)
        if h is not None and h.name == "message":
            column = c
    expect(column is not None, "no message column in the playground's inputs")
    s.click(table.getAccessibleAt(0, column))
    s.paste("\n".join(MESSAGES))
    s.wait_for(lambda: [cells[column] for _, cells in s.table_rows(inputs)][:3] == MESSAGES,
               "the three messages pasted in the message column")
    expect(all("褒め言葉" in " ".join(cells) for _, cells in s.table_rows(inputs)[:3]),
           f"pasted rows lost the labels: {header}")
    s.screenshot("playground-inputs")
    before = len(chats(server))
    s.key("ctrl+Return")
    s.wait_for(lambda: len(chats(server)) - before == 6,
               "six calls (2 variants × 3 messages) at the server", timeout=60)
    sent = [str(b["messages"]) for b in chats(server)[before:]]
    expect(all("褒め言葉" in m for m in sent), "a call of the grid went without the labels")
    expect(sum("迷ったら" in m for m in sent) == 3, "the second variant did not reach the server")
    results = s.wait_for(lambda: s.first(play, role="table", name=ja("Results"), showing=True)
                         or s.first(play, role="tree table", name=ja("Results"), showing=True),
                         "the results grid")
    s.wait_for(lambda: len(s.table_rows(results)) == 3 and
               all(all(c for c in cells) for _, cells in s.table_rows(results)),
               "every cell of the results grid filled", timeout=60)
    s.screenshot("playground-results")


def inside(s, acc, container):
    """Whether `acc` is drawn wholly inside `container` (scrolled into view)."""
    a = acc.queryComponent().getExtents(s.pyatspi.DESKTOP_COORDS)
    c = container.queryComponent().getExtents(s.pyatspi.DESKTOP_COORDS)
    return a.x >= c.x and a.y >= c.y and a.x + a.width <= c.x + c.width and \
        a.y + a.height <= c.y + c.height


def page_tab(s, dock, name):
    return s.first(dock, role="page tab", name=name, showing=True)


def number(text):
    return int((text or "0").replace(",", "") or 0)


def save_program(s, path):
    s.key("ctrl+s")
    s.file_dialog(path)
    s.wait_for(lambda: os.path.exists(path), "the program saved", timeout=20)
    s.wait_for(lambda: "classify.pdl" in (s.window.name or ""), "the window to name the file")


def tokens_per_prompt(s, server):
    """The Prompt Log's "by prompt" table: one row for the classify prompt, with every call
    made from it (the run and the playground's six) and the tokens the server reported."""
    s.menu(ja("&View"), ja("Prompt Log"))
    dock = show_dock(s, ja("Prompt Log"))
    s.click(s.wait_for(lambda: page_tab(s, dock, ja("By prompt")), "the By prompt tab"))
    stats = s.wait_for(lambda: s.first(dock, role="table", name=ja("Call statistics"),
                                       showing=True), "the statistics table", timeout=20)
    expected = sum(usage_for(b, reply_for(b))["prompt_tokens"]
                   for b in classify_calls(chats(server)))

    def answer_row():
        for _, cells in s.table_rows(stats):
            if cells and cells[0].split("›")[-1].strip() == "answer":
                return cells
        return None

    s.wait_for(lambda: answer_row() and number(answer_row()[1]) == 7,
               "the classify prompt with its 7 calls (1 run + 6 playground)", timeout=30)
    cells = answer_row()
    expect(number(cells[3]) == expected,
           f"tokens in for the prompt: {cells[3]}, the server reported {expected}")
    # The classify prompt and the added one: the playground's calls are not a third prompt.
    expect(len([c for _, c in s.table_rows(stats) if c and c[0]]) == 2,
           f"the calls are split over more prompts: {s.table_rows(stats)}")
    s.screenshot("tokens-per-prompt")


def card_message(s):
    """The classify card's message, scrolled into view with the mouse wheel over the Prompt
    view's margin (found afresh: the Prompt view rebuilds its cards when the program changes)."""
    view = named(s, s.window, ja("Prompt document"), what="the Prompt view")
    message = named(s, view, ja("%1 message of %2", "user", "answer"), what="the card's message")
    box = view.queryComponent().getExtents(s.pyatspi.DESKTOP_COORDS)
    for _ in range(20):
        if inside(s, message, view):
            break
        s.xdotool("mousemove", "--sync", str(box.x + 4), str(box.y + box.height // 2),
                  "click", "5")
        time.sleep(0.2)
    if not inside(s, message, view):
        s.dump(s.window, os.path.join(s.artifacts, "a11y-card.log"))
        s.screenshot("card-not-in-view")
    expect(inside(s, message, view), "the card's message does not scroll into view")
    return message


def save_from_prompt_view(s):
    s.focus(named(s, s.window, ja("Prompt name"), what="the prompt's name field"))
    s.key("ctrl+s")


def write_shift_jis_csv(path):
    with open(path, "wb") as f:
        f.write("".join(f"{a},{b}\r\n" for a, b in CSV_ROWS).encode("cp932"))


def dataset_from_csv(s, csv_path):
    """Datasets › Import… a Shift_JIS CSV: the dialog says how it was read and proposes the
    「期待する答え」 column as the reference; the examples hold the characters, named."""
    s.menu(ja("&View"), ja("Datasets"))
    dock = show_dock(s, ja("Datasets"))
    s.click(named(s, dock, ja("Import…"), role="push button"))
    s.file_dialog(csv_path)
    dialog = named(s, s.app, ja("Import a CSV file"), role="dialog", what="the CSV import dialog")
    s.wait_for(lambda: any("Shift_JIS" in (a.name or "")
                           for a in s.all(dialog, role="label", showing=True)),
               "the dialog to say the file was read as Shift_JIS")
    columns = named(s, dialog, ja("Columns of the file"), role="table")
    s.wait_for(lambda: any(c[:2] == ["期待する答え", ja("the reference answer")]
                           for _, c in s.table_rows(columns)),
               "the 期待 column proposed as the reference")
    s.screenshot("csv-import")
    s.click(named(s, dialog, ja("Import"), role="push button"))
    examples = named(s, dock, ja("Examples"), role="table", what="the examples")
    s.wait_for(lambda: len(s.table_rows(examples)) == 3, "three examples from the CSV")
    cells = " ".join(" ".join(c) for _, c in s.table_rows(examples))
    expect(all(a in cells and b in cells for a, b in CSV_ROWS[1:]),
           f"the examples are not the CSV's characters: {cells}")
    name = named(s, dock, ja("Dataset name"), what="the dataset name field")
    s.focus(name)
    s.key("ctrl+a")
    s.type("問い合わせ分類")
    s.wait_for(lambda: s.text_of(name) == "問い合わせ分類", "the dataset named")
    s.screenshot("dataset")


def run_experiment(s, server, evals, examples):
    """Runs the experiment: each example calls both prompts, and the judge once."""
    before = len(chats(server)), len(judged(server))
    s.click(named(s, evals, ja("Run Experiment"), role="push button"))
    s.wait_for(lambda: len(chats(server)) - before[0] == 2 * examples and
               len(judged(server)) - before[1] == examples and
               ja("Experiment finished") in status_text(s),
               f"the experiment: {2 * examples} calls and {examples} judge calls", timeout=90)
    return classify_calls(chats(server)[before[0]:])


def experiments(s, server, view, program):
    """Evaluations: "Same as the reference" and a judge with a Japanese criterion, blank judge
    model (the default). The program sets `message` itself: one click makes it an input."""
    s.menu(ja("&View"), ja("Evaluations"))
    evals = show_dock(s, ja("Evaluations"))
    judge = s.wait_for(lambda: s.first(evals, role="check box", showing=True,
                                       name_contains=ja("A judge model checks that:").rstrip(":：")),
                       "the judge check box")
    # The settings scroll in a short dock: the wheel brings the judge's row into view.
    settings = named(s, evals, ja("Experiment settings"), what="the experiment settings")
    for _ in range(10):
        if inside(s, judge, settings):
            break
        x, y = s.center(settings)
        s.xdotool("mousemove", "--sync", str(x), str(y), "click", "5")
        time.sleep(0.3)
    expect(inside(s, judge, settings), "the judge's row does not scroll into view")
    if not judge.getState().contains(s.pyatspi.STATE_CHECKED):
        s.click(judge)
    s.wait_for(lambda: judge.getState().contains(s.pyatspi.STATE_CHECKED), "the judge ticked")
    criterion = named(s, evals, ja("What the judge checks"), role="text",
                      what="the judge's criterion")
    s.focus(criterion)
    s.type("ラベルだけを答えている")
    s.wait_for(lambda: "ラベルだけ" in s.text_of(criterion), "the criterion typed")
    s.click(named(s, evals, ja("Run Experiment"), role="push button"))
    make_input = named(s, s.window, ja("Make It an Input"), role="push button",
                       what="the offer to make message an input")
    s.screenshot("message-is-set-by-the-program")
    s.click(make_input)
    save_from_prompt_view(s)
    s.wait_for(lambda: "message: 注文" not in open(program, encoding="utf-8").read(),
               "the program saved with message as an input", timeout=20)
    evals = show_dock(s, ja("Evaluations"))
    sent = [str(b["messages"]) for b in run_experiment(s, server, evals, 3)]
    expect(all(any(a in m for a, _ in CSV_ROWS[1:]) for m in sent),
           "the dataset's messages did not reach the model")
    results = named(s, evals, ja("Evaluation results"), role="table")
    s.wait_for(lambda: len(s.table_rows(results)) == 3, "three rows of results")
    s.screenshot("first-experiment")

    # Edit the prompt in its card, save, a second experiment compared with the first.
    s.focus(card_message(s))
    s.key("ctrl+End")
    s.type("\n迷ったら「質問」と答えてください。")
    s.wait_for(lambda: "迷ったら" in s.text_of(card_message(s)), "the sentence typed in the card")
    save_from_prompt_view(s)
    s.wait_for(lambda: "迷ったら" in open(program, encoding="utf-8").read(),
               "the edited prompt saved", timeout=20)
    evals = show_dock(s, ja("Evaluations"))
    edited = run_experiment(s, server, evals, 3)
    expect(len(edited) == 3 and all("迷ったら" in str(b["messages"]) for b in edited),
           "the edited prompt did not reach the model")
    # A combo box reads as its current item: the experiment shown and the one compared with
    # are two different experiments of the dataset.
    s.wait_for(lambda: len({a.name for a in s.all(evals, role="combo box", showing=True)
                            if "問い合わせ分類" in (a.name or "")}) == 2,
               "the second experiment compared with the first")
    s.screenshot("second-experiment-compared")


def listed_in(s, dock):
    """The entries of the dock's combo boxes (their lists included) naming the dataset."""
    names = set()
    for box in s.all(dock, role="combo box", showing=True):
        names |= {a.name for a, _ in s.walk(box, max_nodes=60)
                  if "問い合わせ分類" in (a.name or "")}
    return names


def found_again(s, program):
    """After a restart: the program (in the Prompt view), the dataset, both experiments and the
    playground session."""
    s.menu(ja("&File"), ja("Open &Recent"))
    bar = s.first(s.window, role="menu bar")
    recent = s.wait_for(lambda: next((a for a, _ in s.walk(bar, max_nodes=3000)
                                      if a.getRoleName() == "menu item" and
                                      (a.name or "").endswith("classify.pdl") and
                                      a.getState().contains(s.pyatspi.STATE_SHOWING)), None),
                        "the program among the recent files")
    s.click(recent)
    view = named(s, s.window, ja("Prompt document"), what="the program in the Prompt view",
                 timeout=30)
    named(s, view, ja("%1 message of %2", "user", "answer"), what="the card's message")
    s.screenshot("restarted-program")
    s.menu(ja("&View"), ja("Datasets"))
    dock = show_dock(s, ja("Datasets"))
    s.wait_for(lambda: listed_in(s, dock) or
               "問い合わせ分類" in s.text_of(named(s, dock, ja("Dataset name"))),
               "the dataset among the saved ones")
    s.menu(ja("&View"), ja("Evaluations"))
    evals = show_dock(s, ja("Evaluations"))
    s.wait_for(lambda: len(listed_in(s, evals)) >= 2, "both experiments listed")
    s.screenshot("restarted-experiments")


def journey(s, args):
    server = FakeModelServer()
    try:
        s.env["HAKO_LANGUAGE"] = "ja"
        s.env.pop("OPENAI_BASE_URL", None)
        s.env.pop("OPENAI_API_KEY", None)
        s.env["OLLAMA_API_BASE"] = "http://127.0.0.1:9"
        s.launch()
        named(s, s.window, ja("Welcome to Hako"), role="label", what="the start page",
              timeout=30)
        connect_server(s, server)
        view = template_in_prompt_view(s)
        edit_labels_and_add_a_prompt(s)

        s.focus(named(s, s.window, ja("Prompt name"), what="the prompt's name field"))
        s.key("F5")
        s.wait_for(lambda: len(chats(server)) == 2, "the run's two requests", timeout=60)
        first = str(chats(server)[0]["messages"])
        expect("2週間" in first, "the template's message was not sent")
        expect("要望" in first, "the label added in the Prompt view was not sent")
        s.wait_for(lambda: ja("Run finished") in status_text(s), "the run to finish", timeout=60)
        s.screenshot("first-run")

        playground_grid(s, server, view)
        program = os.path.join(s.work, "classify.pdl")
        s.focus(named(s, s.window, ja("Prompt name"), what="the prompt's name field"))
        save_program(s, program)
        tokens_per_prompt(s, server)

        csv_path = os.path.join(s.work, "問い合わせ.csv")
        write_shift_jis_csv(csv_path)
        dataset_from_csv(s, csv_path)
        experiments(s, server, view, program)

        # Quit and start again: everything is found again.
        s.key("ctrl+q")
        s.wait_for(lambda: s.hako_proc.poll() is not None, "Hako to quit", timeout=30)
        s.launch()
        found_again(s, program)
    finally:
        server.close()


if __name__ == "__main__":
    sys.exit(journeylib.run(journey))
