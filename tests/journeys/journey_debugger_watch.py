#!/usr/bin/env python3
"""Journey: the debugger as engineers know it — call stack, watch expressions, breakpoints list.

A program calls a function `square` from a loop over i = 1, 2, 3. The user puts a breakpoint
inside the function (F9 on its last line) and starts Run › Debug Program (F6), which pauses in
the first call. In the Debug dock the user adds two watch expressions, `n * 10` and `i`: the
first shows 10, the second an error (the function does not see the loop's variable). The Call
Stack lists the frames from the paused block out to the program's root, among them
`call square`; picking that frame shows the caller's variables (i is 1), moves the editor to the
call's line and turns the `i` watch into 1. Continue (F5 from the toolbar's key) pauses in the
second call, back in the paused block's frame, where `n * 10` is now 20. The user stops the run,
removes that breakpoint from the Breakpoints list, puts one on the call's line and gives it the
condition `i == 2` in the list: the next debug run pauses once, with i = 2, and then finishes.
"""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import journeylib  # noqa: E402
from panes import expect, show_dock, status_text  # noqa: E402

PROGRAM = """description: Squares from a loop
defs:
  square:
    function:
      n: int
    return:
      lastOf:
      - def: r
        data: ${ n * n }
      - ${ r }
text:
- for:
    i: [1, 2, 3]
  repeat:
    call: ${ square }
    args:
      n: ${ i }
  join: {with: ","}
"""
INSIDE_LINE = 10  # `- ${ r }`, inside the function
CALL_LINE = 15  # `call: ${ square }`, in the loop


def go_to_line(s, line):
    s.focus_editor()
    s.key("ctrl+Home")
    for _ in range(line - 1):
        s.key("Down")
    s.wait_for(lambda: f"Ln {line}," in status_text(s), f"the cursor on line {line}",
               timeout=10)


def view(s, dock, name):
    return s.wait_for(lambda: s.first(dock, name=name, showing=True), f"the {name} view",
                      timeout=20)


def rows_of(s, v):
    return [cells for _, cells in s.table_rows(v)]


def watch_value(s, watches, expression):
    return next((cells[1] for cells in rows_of(s, watches) if cells and cells[0] == expression),
                None)


def journey(s, args):
    program = os.path.join(s.work, "squares.pdl")
    with open(program, "w") as f:
        f.write(PROGRAM)
    s.launch(program)
    s.wait_for(lambda: "squares.pdl" in (s.window.name or ""), "the program to open", timeout=20)
    # A breakpoint inside the function, then Debug Program (F6).
    go_to_line(s, INSIDE_LINE)
    s.key("F9")
    s.key("F6")
    dock = show_dock(s, "Debug")
    stack = view(s, dock, "Call stack")
    s.wait_for(lambda: rows_of(s, stack) and rows_of(s, stack)[0][1] == f"squares.pdl:{INSIDE_LINE}",
               "the run to pause inside the function", timeout=60)
    # The Debug toolbar comes while a program is debugged (Qt names a toolbar by its title).
    toolbar = s.wait_for(lambda: s.first(s.window, role="tool bar", name="Debug", showing=True),
                         "the Debug toolbar", timeout=15)
    for name in ("Continue", "Step Over", "Step Into", "Step Out", "Stop"):
        expect(s.first(toolbar, name=name) is not None, f"the Debug toolbar has no {name} button")

    # Two watch expressions.
    new_watch = view(s, dock, "New watch expression")
    watches = view(s, dock, "Watch expressions")
    for expression in ("n * 10", "i"):
        s.focus(new_watch)
        s.type(expression)
        s.key("Return")
    s.wait_for(lambda: watch_value(s, watches, "n * 10") == "10", "the watch n * 10 to show 10",
               timeout=20)
    failed = watch_value(s, watches, "i") or ""
    expect(failed.startswith("cannot be evaluated"),
           f"the watch i inside the function shows {failed!r}, not its error")

    # The call stack: the paused block, the call, out to the root.
    frames = rows_of(s, stack)
    names = [cells[0] for cells in frames]
    expect(len(frames) >= 4, f"the call stack has {len(frames)} frames: {frames}")
    expect(frames[-1][1] == "squares.pdl:1", f"the last frame is not the program: {frames}")
    call = next((i for i, n in enumerate(names) if n == "call square"), None)
    expect(call is not None, f"no `call square` frame in the call stack: {names}")
    s.screenshot("paused-in-function")

    # The caller's frame: its variables, the editor on the call, the watches there.
    s.click(stack.queryTable().getAccessibleAt(call, 0))
    variables = view(s, dock, "Debug variables")
    s.wait_for(lambda: ["i", "1"] in rows_of(s, variables), "the caller's variable i = 1",
               timeout=20)
    s.wait_for(lambda: watch_value(s, watches, "i") == "1", "the watch i to show 1 in the caller",
               timeout=20)
    s.wait_for(lambda: f"Ln {CALL_LINE}," in status_text(s), "the editor on the call's line",
               timeout=10)
    s.screenshot("caller-frame")

    # Continue (F5 while paused): the second call, the paused block's frame again.
    s.focus_editor()
    s.key("F5")
    s.wait_for(lambda: watch_value(s, watches, "n * 10") == "20", "the watch n * 10 to show 20",
               timeout=30)
    expect(s.first(stack, role="table cell", name="call square") is not None or
           any(cells[0] == "call square" for cells in rows_of(s, stack)),
           "the call stack lost the call")
    s.screenshot("second-call")

    # Stop; the Breakpoints list: remove it, add one on the call's line with a condition.
    s.key("shift+F5")
    s.wait_for(lambda: "stopped" in status_text(s).lower() or "Run finished" in status_text(s)
               or not rows_of(s, stack), "the run to stop", timeout=30)
    breakpoints = view(s, dock, "Breakpoints")
    s.wait_for(lambda: [r[0] for r in rows_of(s, breakpoints)] == [f"squares.pdl:{INSIDE_LINE}"],
               "the breakpoint in the list", timeout=10)
    s.click(breakpoints.queryTable().getAccessibleAt(0, 0))
    s.click(view(s, dock, "Remove breakpoint"))
    s.wait_for(lambda: not rows_of(s, breakpoints), "the list to be empty", timeout=10)
    go_to_line(s, CALL_LINE)
    s.key("F9")
    s.wait_for(lambda: [r[0] for r in rows_of(s, breakpoints)] == [f"squares.pdl:{CALL_LINE}"],
               "the new breakpoint in the list", timeout=10)
    cell = breakpoints.queryTable().getAccessibleAt(0, 1)
    x, y = s.center(cell)
    s.xdotool("mousemove", "--sync", str(x), str(y), "click", "--repeat", "2", "1")
    s.type("i == 2")
    s.key("Return")
    s.wait_for(lambda: rows_of(s, breakpoints)[0][1] == "i == 2",
               "the condition in the Breakpoints list", timeout=10)
    s.screenshot("conditional-breakpoint")

    s.focus_editor()
    s.key("F6")
    s.wait_for(lambda: ["i", "2"] in rows_of(s, variables), "the run to pause with i = 2",
               timeout=60)
    expect(watch_value(s, watches, "i") == "2",
           f"the watch i shows {watch_value(s, watches, 'i')!r} at i == 2")
    s.screenshot("paused-at-i-2")
    s.focus_editor()
    s.key("F5")
    s.wait_for(lambda: "Run finished" in status_text(s), "the run to finish without pausing again",
               timeout=60)
    s.screenshot("finished")


if __name__ == "__main__":
    journeylib.run(journey)
