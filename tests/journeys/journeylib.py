"""Drives the real `hako` window as a user does, for the journey tests.

A Session starts a private X server (Xvfb), a private D-Bus session bus (the accessibility bus
and its registry are started by D-Bus activation on it) and `hako` with Qt's accessibility bridge
forced on, in a throw-away HOME. The journey finds widgets through the accessibility tree (what a
screen reader sees), presses keys and clicks with xdotool, and keeps a screenshot of every step.

Nothing here waits a fixed time to conclude anything: every wait polls a condition until it
holds or its deadline passes, and then fails with what it saw.
"""

import json
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import time

SKIP = 77  # CTest's SKIP_RETURN_CODE for these tests


class JourneyError(AssertionError):
    pass


def skip(reason):
    print(f"SKIP: {reason}")
    sys.exit(SKIP)


def missing_tools():
    """What this machine lacks to run a journey ("" when nothing)."""
    needs = {
        "Xvfb": "xvfb",
        "dbus-daemon": "dbus",
        "xdotool": "xdotool",
        "import": "imagemagick",
        "xclip": "xclip",
    }
    lacking = [pkg for tool, pkg in needs.items() if not shutil.which(tool)]
    if not os.path.exists("/usr/libexec/at-spi-bus-launcher"):
        lacking.append("at-spi2-core")
    try:
        import gi  # noqa: F401

        gi.require_version("Atspi", "2.0")
    except (ImportError, ValueError):
        lacking.append("python3-pyatspi gir1.2-atspi-2.0")
    return " ".join(lacking)


class Deadline:
    """The whole journey's hard limit: past it, every wait fails at once."""

    def __init__(self, seconds):
        self.end = time.monotonic() + seconds

    def left(self):
        return self.end - time.monotonic()


class Session:
    def __init__(self, hako, artifacts, deadline_s=150, size=(1280, 800)):
        self.hako = hako
        self.artifacts = artifacts
        self.deadline = Deadline(deadline_s)
        self.size = size
        self.step = 0
        self.procs = []
        self._clips = []  # xclip processes holding the clipboard (paste())
        self._last_click = None  # (x, y, time.monotonic()) of the last click()
        self.app = None
        self.hako_proc = None
        os.makedirs(artifacts, exist_ok=True)
        for old in os.listdir(artifacts):
            if old.endswith(".png") or old.endswith(".log"):
                os.remove(os.path.join(artifacts, old))
        self.tmp = tempfile.mkdtemp(prefix="hako-journey-")
        self.home = os.path.join(self.tmp, "home")
        os.makedirs(self.home)
        self.work = os.path.join(self.tmp, "work")
        os.makedirs(self.work)
        runtime = os.path.join(self.tmp, "runtime")
        os.makedirs(runtime, mode=0o700)
        self.env = {
            "PATH": os.environ.get("PATH", "/usr/bin:/bin"),
            "HOME": self.home,
            "XDG_CONFIG_HOME": os.path.join(self.home, ".config"),
            "XDG_DATA_HOME": os.path.join(self.home, ".local/share"),
            "XDG_CACHE_HOME": os.path.join(self.home, ".cache"),
            "XDG_RUNTIME_DIR": runtime,
            "LANG": "C.UTF-8",
            "LC_ALL": "C.UTF-8",
            "QT_LINUX_ACCESSIBILITY_ALWAYS_ON": "1",
            "QT_ACCESSIBILITY": "1",
            "QT_QPA_PLATFORM": "xcb",
            "QT_FONT_DPI": "96",
            "NO_AT_BRIDGE": "0",
            # No desktop keyring here: Hako must not wait for one.
            "HAKO_KEYRING": "0",
        }
        for keep in ("ASAN_OPTIONS", "LSAN_OPTIONS", "UBSAN_OPTIONS"):
            if keep in os.environ:
                self.env[keep] = os.environ[keep]
        self._start_display()
        self._start_bus()

    # --- infrastructure -------------------------------------------------------------------

    def _spawn(self, argv, **kw):
        p = subprocess.Popen(argv, env=self.env, start_new_session=True, **kw)
        self.procs.append(p)
        return p

    def _start_display(self):
        r, w = os.pipe()
        w_, h_ = self.size
        self._spawn(
            ["Xvfb", "-displayfd", str(w), "-screen", "0", f"{w_}x{h_}x24", "-nolisten", "tcp",
             "-noreset"],
            pass_fds=(w,),
            stdout=subprocess.DEVNULL,
            stderr=open(os.path.join(self.artifacts, "xvfb.log"), "w"),
        )
        os.close(w)
        number = b""
        end = time.monotonic() + 20
        while not number.endswith(b"\n"):
            if time.monotonic() > end:
                raise JourneyError("Xvfb did not report its display within 20 s")
            chunk = os.read(r, 16)
            if not chunk:
                raise JourneyError("Xvfb exited before reporting its display")
            number += chunk
        os.close(r)
        self.env["DISPLAY"] = ":" + number.decode().strip()

    def _start_bus(self):
        p = self._spawn(
            ["dbus-daemon", "--session", "--nofork", "--print-address=1", "--nopidfile"],
            stdout=subprocess.PIPE,
            stderr=open(os.path.join(self.artifacts, "dbus.log"), "w"),
        )
        line = p.stdout.readline().decode().strip()
        if not line:
            raise JourneyError("dbus-daemon did not print its address")
        self.env["DBUS_SESSION_BUS_ADDRESS"] = line
        # pyatspi connects on import, to the buses of this process's environment.
        os.environ.update(self.env)
        import pyatspi  # noqa: E402

        self.pyatspi = pyatspi

    def close(self):
        for clip in self._clips:
            if clip.poll() is None:
                clip.kill()
            clip.wait()
        if self.hako_proc and self.hako_proc.poll() is None:
            self.hako_proc.terminate()
            try:
                self.hako_proc.wait(10)
            except subprocess.TimeoutExpired:
                self.hako_proc.kill()
        for p in reversed(self.procs):
            if p.poll() is None:
                try:
                    os.killpg(p.pid, signal.SIGTERM)
                except ProcessLookupError:
                    pass
        for p in reversed(self.procs):
            try:
                p.wait(5)
            except subprocess.TimeoutExpired:
                os.killpg(p.pid, signal.SIGKILL)
        shutil.rmtree(self.tmp, ignore_errors=True)

    # --- the program ----------------------------------------------------------------------

    def hako_cli(self, *args, check=True, stdin=None, timeout=60):
        """Runs a `hako` subcommand (no window) and returns its completed process."""
        r = subprocess.run([self.hako, *args], env=self.env, cwd=self.work, input=stdin,
                           capture_output=True, text=True, timeout=min(timeout, self._left()))
        if check and r.returncode != 0:
            raise JourneyError(f"hako {' '.join(args)} failed ({r.returncode}):\n{r.stderr}")
        return r

    def launch(self, *args):
        log = open(os.path.join(self.artifacts, "hako.log"), "w")
        self.hako_proc = subprocess.Popen([self.hako, *args], env=self.env, cwd=self.work,
                                          stdout=log, stderr=subprocess.STDOUT)
        self.procs.append(self.hako_proc)
        self.app = self.wait_for(self._find_app, "the hako application on the accessibility bus",
                                 timeout=60)
        self.window = self.wait_for(
            lambda: self.first(self.app, role="frame", showing=True),
            "the main window", timeout=30)
        self.focus_window()
        return self.app

    def _find_app(self):
        if self.hako_proc.poll() is not None:
            raise JourneyError(f"hako exited with {self.hako_proc.returncode} at start-up; see "
                               f"{self.artifacts}/hako.log")
        desktop = self.pyatspi.Registry.getDesktop(0)
        for i in range(desktop.childCount):
            a = desktop.getChildAtIndex(i)
            try:
                if a is not None and a.get_process_id() == self.hako_proc.pid:
                    return a
            except Exception:
                continue
        return None

    def focus_window(self):
        # No window manager here: give the window the keyboard focus ourselves.
        out = subprocess.run(["xdotool", "search", "--pid", str(self.hako_proc.pid),
                              "--onlyvisible", "--name", "Hako"],
                             env=self.env, capture_output=True, text=True, timeout=10)
        ids = out.stdout.split()
        if ids:
            subprocess.run(["xdotool", "windowfocus", "--sync", ids[-1]], env=self.env,
                           timeout=10, capture_output=True)

    def alive(self):
        if self.hako_proc and self.hako_proc.poll() is not None:
            raise JourneyError(f"hako exited with {self.hako_proc.returncode}; see "
                               f"{self.artifacts}/hako.log")

    # --- waiting --------------------------------------------------------------------------

    def _left(self):
        left = self.deadline.left()
        if left <= 0:
            raise JourneyError("the journey's deadline passed")
        return left

    def wait_for(self, probe, what, timeout=30, interval=0.2):
        """Polls `probe()` until it returns something truthy; fails naming `what`."""
        end = time.monotonic() + min(timeout, self._left())
        last_error = None
        while True:
            try:
                value = probe()
                if value:
                    return value
            except JourneyError:
                raise
            except Exception as e:  # an accessible object that went away mid-walk
                last_error = e
            if time.monotonic() > end:
                self.screenshot("timeout")
                extra = f" (last error: {last_error})" if last_error else ""
                raise JourneyError(f"timed out waiting for {what}{extra}")
            self.alive()
            time.sleep(interval)

    # --- the accessibility tree -----------------------------------------------------------

    def walk(self, root, max_nodes=20000, into=None):
        """Every accessible below `root` (pre-order), with its depth. `into(acc)` may refuse to
        descend into a node (big views)."""
        stack = [(root, 0)]
        seen = 0
        while stack:
            acc, depth = stack.pop()
            if acc is None:
                continue
            yield acc, depth
            seen += 1
            if seen >= max_nodes:
                return
            if into is not None and not into(acc):
                continue
            try:
                n = acc.childCount
            except Exception:
                continue
            for i in reversed(range(min(n, 5000))):
                try:
                    stack.append((acc.getChildAtIndex(i), depth + 1))
                except Exception:
                    pass

    def matches(self, acc, role=None, name=None, name_contains=None, showing=None):
        try:
            if role is not None and acc.getRoleName() != role:
                return False
            if name is not None and acc.name != name:
                return False
            if name_contains is not None and name_contains not in (acc.name or ""):
                return False
            if showing is not None:
                on = acc.getState().contains(self.pyatspi.STATE_SHOWING)
                if on != showing:
                    return False
            return True
        except Exception:
            return False

    def _no_big_views(self, acc):
        # Tables and trees can have thousands of cells; searches for controls skip them.
        try:
            return acc.getRoleName() not in ("table", "tree table", "tree", "list")
        except Exception:
            return False

    def first(self, root, **criteria):
        for acc, _ in self.walk(root, into=self._no_big_views):
            if self.matches(acc, **criteria):
                return acc
        return None

    def all(self, root, **criteria):
        return [a for a, _ in self.walk(root, into=self._no_big_views)
                if self.matches(a, **criteria)]

    def dock(self, title):
        """The dock widget titled `title` (what View lists), whatever its tab state."""
        for acc, depth in self.walk(self.window, into=self._no_big_views):
            if depth > 0 and acc.getRoleName() == "frame" and acc.name == title:
                return acc
        return None

    def editor(self):
        """The program editor: the multi-line text in the central area (not in a dock)."""
        def into(acc):
            try:
                role = acc.getRoleName()
            except Exception:
                return False
            return (acc == self.window or role != "frame") and self._no_big_views(acc) and \
                role not in ("menu bar", "status bar", "page tab list")
        best = None
        for acc, _ in self.walk(self.window, into=into):
            try:
                if acc.getRoleName() == "text" and \
                        acc.getState().contains(self.pyatspi.STATE_MULTI_LINE) and \
                        self.on_screen(acc):
                    ext = acc.queryComponent().getExtents(self.pyatspi.DESKTOP_COORDS)
                    area = ext.width * ext.height
                    if best is None or area > best[0]:
                        best = (area, acc)
            except Exception:
                continue
        return best[1] if best else None

    def editor_text(self):
        ed = self.wait_for(self.editor, "the program editor", timeout=15)
        return self.text_of(ed)

    def focus_editor(self):
        """Clicks into the program editor so that shortcuts (F5, Shift+F5) reach the window."""
        ed = self.wait_for(self.editor, "the program editor", timeout=15)
        self.focus(ed)

    def on_screen(self, acc):
        """Whether `acc` is drawn inside the screen (Qt moves hidden tabbed docks off screen and
        still calls them showing)."""
        try:
            if not acc.getState().contains(self.pyatspi.STATE_SHOWING):
                return False
            e = acc.queryComponent().getExtents(self.pyatspi.DESKTOP_COORDS)
            return e.width > 0 and e.height > 0 and e.x >= 0 and e.y >= 0 and \
                e.x < self.size[0] and e.y < self.size[1]
        except Exception:
            return False

    def inside(self, acc, container):
        """Whether `acc` is drawn wholly inside `container` (a scrolled-away widget still says
        it is showing, with its place outside the viewport)."""
        a = acc.queryComponent().getExtents(self.pyatspi.DESKTOP_COORDS)
        c = container.queryComponent().getExtents(self.pyatspi.DESKTOP_COORDS)
        return a.x >= c.x and a.y >= c.y and a.x + a.width <= c.x + c.width and \
            a.y + a.height <= c.y + c.height

    def scroll_to(self, acc, container, steps=25):
        """Scrolls `container` (a scrolled page) with the mouse wheel over its left margin, as a
        user does, until `acc` is wholly in view; returns `acc`."""
        for _ in range(steps):
            if self.inside(acc, container):
                return acc
            a = acc.queryComponent().getExtents(self.pyatspi.DESKTOP_COORDS)
            c = container.queryComponent().getExtents(self.pyatspi.DESKTOP_COORDS)
            wheel = "5" if a.y + a.height > c.y + c.height else "4"
            self.xdotool("mousemove", "--sync", str(c.x + 4), str(c.y + c.height // 2),
                         "click", wheel)
            time.sleep(0.2)
        if not self.inside(acc, container):
            raise JourneyError(f"{acc.getRoleName()} {acc.name!r} does not scroll into view")
        return acc

    def text_of(self, acc):
        try:
            t = acc.queryText()
            return t.getText(0, -1)
        except Exception:
            return acc.name or ""

    def dump(self, root, path, max_nodes=4000):
        """Writes the accessibility tree below `root` to `path` (an artefact for failures)."""
        with open(path, "w") as f:
            for acc, depth in self.walk(root, max_nodes=max_nodes):
                try:
                    states = acc.getState()
                    shown = "" if states.contains(self.pyatspi.STATE_SHOWING) else " (hidden)"
                    f.write(f"{'  ' * depth}{acc.getRoleName()}: {acc.name!r}{shown}\n")
                except Exception as e:
                    f.write(f"{'  ' * depth}? {e}\n")

    def table_rows(self, view):
        """The rows of a table or tree view as lists of cell texts, with each row's tree depth
        (0 for tables). Reads the cells the view exposes (Qt exposes every row of the model)."""
        try:
            table = view.queryTable()
        except NotImplementedError:
            table = None
        rows = []
        if table is None:
            return rows
        xs = []
        for r in range(table.nRows):
            cells = []
            x = 0
            for c in range(table.nColumns):
                cell = table.getAccessibleAt(r, c)
                cells.append(cell.name if cell is not None else "")
                if c == 0 and cell is not None:
                    x = cell.queryComponent().getExtents(self.pyatspi.DESKTOP_COORDS).x
            xs.append(x)
            rows.append(cells)
        # Qt does not say a tree row's level; its first cell is indented by it.
        levels = sorted(set(xs))
        return [(levels.index(x), cells) for x, cells in zip(xs, rows)]

    # --- input ----------------------------------------------------------------------------

    def xdotool(self, *args):
        self.alive()
        args = list(args)
        # `mousemove --sync X Y` waits for the pointer to move; when it is already at X Y it
        # waits some 15 s for a motion that never comes (a wheel scrolled in place took two
        # minutes of a journey). The move is kept, its wait dropped.
        if args[:2] == ["mousemove", "--sync"] and self._pointer_at(args[2], args[3]):
            del args[1]
        subprocess.run(["xdotool", *args], env=self.env, check=True, timeout=20)

    def _pointer_at(self, x, y):
        out = subprocess.run(["xdotool", "getmouselocation", "--shell"], env=self.env,
                             capture_output=True, text=True, timeout=10).stdout
        where = dict(line.split("=", 1) for line in out.splitlines() if "=" in line)
        return where.get("X") == str(x) and where.get("Y") == str(y)

    def key(self, *keys):
        """Presses keys as xdotool names them (`F5`, `shift+F5`, `Return`, `ctrl+s`)."""
        self.xdotool("key", "--clearmodifiers", "--delay", "40", *keys)

    def type(self, text):
        """Types `text` key by key; text beyond ASCII is pasted (paste()), as an input method
        commits it: synthetic key events for kana and kanji are not reliable."""
        if text.isascii():
            self.xdotool("type", "--clearmodifiers", "--delay", "15", text)
            return
        for i, line in enumerate(text.split("\n")):
            if i:
                self.key("Return")
            if line.isascii():
                if line:
                    self.xdotool("type", "--clearmodifiers", "--delay", "15", line)
            else:
                self.paste(line)

    def paste(self, text):
        """Puts `text` on the clipboard (xclip) and pastes it with Ctrl+V."""
        clip = subprocess.Popen(["xclip", "-selection", "clipboard", "-quiet"],
                                stdin=subprocess.PIPE, env=self.env,
                                stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        clip.stdin.write(text.encode("utf-8"))
        clip.stdin.close()
        # xclip owns the selection once it has read its input; wait until it says so by
        # answering a read of the clipboard.
        self.wait_for(lambda: subprocess.run(["xclip", "-selection", "clipboard", "-o"],
                                             env=self.env, capture_output=True,
                                             timeout=5).stdout.decode("utf-8", "replace") == text,
                      "the clipboard to hold the text", timeout=10)
        self.key("ctrl+v")
        self._clips.append(clip)

    def center(self, acc):
        ext = acc.queryComponent().getExtents(self.pyatspi.DESKTOP_COORDS)
        if ext.width <= 0 or ext.height <= 0:
            raise JourneyError(f"{acc.getRoleName()} {acc.name!r} has no area on screen")
        return ext.x + ext.width // 2, ext.y + ext.height // 2

    def click(self, acc, button=1):
        x, y = self.center(acc)
        # Two clicks on one spot are two clicks, as a person's second, deliberate click is: not
        # within the double-click interval (a second click on a column header would otherwise
        # be a double-click, which does not sort).
        if self._last_click and self._last_click[:2] == (x, y):
            time.sleep(max(0.0, self._last_click[2] + 0.6 - time.monotonic()))
        self.xdotool("mousemove", "--sync", str(x), str(y), "click", str(button))
        self._last_click = (x, y, time.monotonic())

    def focus(self, acc):
        """Gives `acc` the keyboard focus by clicking it (as a user would)."""
        self.click(acc)
        self.wait_for(lambda: acc.getState().contains(self.pyatspi.STATE_FOCUSED),
                      f"{acc.getRoleName()} {acc.name!r} to take the focus", timeout=10)

    def menu(self, *path):
        """Opens a menu path with the mouse (`menu("Help", "Examples", "Functions")`), waiting for
        each menu to appear, and returns the last item after clicking it."""
        bar = self.wait_for(lambda: self.first(self.window, role="menu bar"), "the menu bar")
        item = None
        for i, label in enumerate(path):
            # Qt puts each popup under the item that opens it, below the menu bar.
            def find_item(label=label):
                for acc, _ in self.walk(bar, max_nodes=3000):
                    if acc.getRoleName() in ("menu item", "menu", "check menu item") and \
                            _menu_label(acc.name) == label and \
                            acc.getState().contains(self.pyatspi.STATE_SHOWING):
                        return acc
                return None
            item = self.wait_for(find_item, f"menu item {' › '.join(path[:i + 1])}", timeout=10)
            self.click(item)
            if i + 1 < len(path):
                self.screenshot("menu-" + "-".join(p.lower() for p in path[:i + 1]))
        return item

    def file_dialog(self, path, title=None):
        """Answers Qt's file dialog by typing the full path into its file name field."""
        def find():
            for acc, _ in self.walk(self.app, into=self._no_big_views):
                if acc.getRoleName() == "dialog" and (title is None or acc.name == title) and \
                        acc.getState().contains(self.pyatspi.STATE_SHOWING):
                    return acc
            return None
        dialog = self.wait_for(find, f"the file dialog {title or ''}", timeout=20)
        field = self.wait_for(
            lambda: next((a for a in self.all(dialog, role="text")
                          if a.getState().contains(self.pyatspi.STATE_EDITABLE) and
                          a.getState().contains(self.pyatspi.STATE_SHOWING)), None),
            "the file name field")
        self.focus(field)
        self.key("ctrl+a")
        self.type(path)
        self.screenshot("file-dialog")
        self.key("Return")
        self.wait_for(lambda: not dialog.getState().contains(self.pyatspi.STATE_SHOWING),
                      "the file dialog to close", timeout=15)

    # --- artefacts ------------------------------------------------------------------------

    def screenshot(self, label):
        self.step += 1
        name = f"{self.step:02d}-{label}.png"
        path = os.path.join(self.artifacts, name)
        subprocess.run(["import", "-display", self.env["DISPLAY"], "-window", "root", path],
                       env=self.env, timeout=30, capture_output=True)
        return path


def _menu_label(name):
    """A menu item's text as a user reads it: without the `&` mnemonic marks or the shortcut."""
    name = (name or "").split("\t")[0]
    return name.replace("&&", "\0").replace("&", "").replace("\0", "&").strip()


def run(journey, argv=None):
    """Entry point of one journey script: parses the arguments, runs `journey(session, args)`
    inside a Session, and exits 0, 1 or SKIP."""
    import argparse

    parser = argparse.ArgumentParser()
    parser.add_argument("--hako", required=True)
    parser.add_argument("--artifacts", required=True)
    parser.add_argument("--source", required=True)
    parser.add_argument("--shared", default="")
    parser.add_argument("--deadline", type=float, default=150)
    args = parser.parse_args(argv)
    lacking = missing_tools()
    system_python = "/usr/bin/python3"
    if lacking and os.path.realpath(sys.executable) != os.path.realpath(system_python) and \
            os.access(system_python, os.X_OK) and "HAKO_JOURNEY_REEXEC" not in os.environ:
        # Debian's AT-SPI bindings live in the system Python, not in a pyenv or venv one.
        os.environ["HAKO_JOURNEY_REEXEC"] = "1"
        os.execv(system_python, [system_python, sys.argv[0], *(argv or sys.argv[1:])])
    if lacking:
        skip(f"the journey tests need {lacking} (scripts/dev deps installs them)")
    if not os.access(args.hako, os.X_OK):
        raise SystemExit(f"no hako binary at {args.hako}")

    # The hard deadline holds even if a call into the bus blocks.
    def on_alarm(signum, frame):
        raise JourneyError(f"hard deadline of {args.deadline:.0f} s reached")

    signal.signal(signal.SIGALRM, on_alarm)
    signal.alarm(int(args.deadline) + 30)
    session = None
    try:
        session = Session(args.hako, args.artifacts, deadline_s=args.deadline)
        journey(session, args)
        session.screenshot("done")
        print(f"PASS; screenshots in {args.artifacts}")
        return 0
    except JourneyError as e:
        if session is not None and session.app is not None:
            try:
                session.dump(session.app, os.path.join(args.artifacts, "a11y-tree.log"))
            except Exception:
                pass
        print(f"FAIL: {e}\nscreenshots and logs: {args.artifacts}")
        return 1
    finally:
        signal.alarm(0)
        if session is not None:
            session.close()


def read_json(path):
    with open(path, encoding="utf-8") as f:
        return json.load(f)
