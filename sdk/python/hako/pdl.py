"""The PDL reference interpreter's Python entry points, run by Hako.

A host program written for the reference (``from pdl.pdl import exec_str``) switches to Hako by
changing the import to ``from hako.pdl import exec_str``: ``exec_str``, ``exec_file``,
``exec_dict`` and ``exec_program`` take the same arguments and return the same values.

What differs, on purpose:
- Models are the ones configured for Hako (Settings > Models, ``hako-models.yaml``), and every
  model call is recorded in Hako's prompt log (``config={"log": False}`` turns that off).
- Hako's trust rule holds: a program from a folder you have not trusted may not run code, nor
  send requests to servers other than the configured ones, unless ``config={"trusted": True}``
  (or ``"sandbox": True`` for code). ``hako run --trust-folder FILE`` trusts its folder for good.
- ``exec_program`` takes a program returned by ``parse_str``/``parse_file``/``parse_dict``
  (Hako has no pydantic AST); ``loc`` is accepted and ignored.
- ``yield_result``/``yield_background`` stream to the process's standard output; ``batch``,
  ``role``, ``replay`` and ``event_loop`` are accepted and have no effect.
"""

import json
import os
import sys
from pathlib import Path
from typing import Any, Literal, Optional, TypedDict

from . import _hako

__all__ = [
    "InterpreterConfig",
    "PDLParseError",
    "PDLRuntimeError",
    "Program",
    "exec_dict",
    "exec_file",
    "exec_program",
    "exec_str",
    "parse_dict",
    "parse_file",
    "parse_str",
]


class InterpreterConfig(TypedDict, total=False):
    """The reference's interpreter configuration, plus Hako's ``trusted``, ``sandbox``, ``log``."""

    yield_result: bool
    yield_background: bool
    batch: int
    role: str
    cwd: Path
    replay: dict
    event_loop: Any
    trusted: bool
    sandbox: bool
    log: bool


class PDLParseError(Exception):
    """The program is not valid PDL (YAML, structure or an expression's syntax)."""


class PDLRuntimeError(Exception):
    """The program failed while running; ``file`` and ``line`` say where when known."""

    def __init__(self, message: str, file: str = "", line: int = 0):
        super().__init__(message)
        self.message = message
        self.file = file
        self.line = line


class Program:
    """A parsed program: its YAML text, the name errors call it and the folder it reads from."""

    def __init__(self, text: str, name: str, folder: Optional[str], path: Optional[str] = None):
        self.text = text
        self.name = name
        self.folder = folder
        self.path = path


def parse_str(prog: str) -> tuple:
    """The program in ``prog`` (YAML text) and its location (``None``; for exec_program)."""
    return Program(prog, "<string>", None), None


def parse_file(prog) -> tuple:
    """The program in the file ``prog`` and its location (``None``; for exec_program)."""
    path = os.path.abspath(str(prog))
    with open(path, "r", encoding="utf-8") as f:
        text = f.read()
    return Program(text, os.path.basename(path), os.path.dirname(path), path), None


def parse_dict(prog: dict) -> Program:
    """The program given as a dictionary (JSON is YAML: the dictionary is written as JSON)."""
    return Program(json.dumps(prog, ensure_ascii=False), "<dict>", None)


def _scope_json(scope) -> str:
    if scope is None:
        return "{}"
    if not isinstance(scope, dict):
        scope = dict(scope)
    return json.dumps(scope, ensure_ascii=False, default=str)


def _run(program: Program, config, scope, output: str):
    if output not in ("result", "all"):
        raise ValueError('The `output` variable should be "result" or "all"')
    config = dict(config or {})
    folder = config.get("cwd") or program.folder or os.getcwd()
    stream = ("result" if config.get("yield_result")
              else "context" if config.get("yield_background") else "none")
    if stream != "none":
        sys.stdout.flush()  # what Python printed before comes first
    raw = _hako.run(
        program.path if program.path and not config.get("cwd") else program.text,
        bool(program.path) and not config.get("cwd"),
        _scope_json(scope),
        str(folder),
        output == "all",
        bool(config.get("sandbox", False)),
        bool(config.get("trusted", False)),
        bool(config.get("log", True)),
        program.name,
        stream,
    )
    out = json.loads(raw)
    if not out["ok"]:
        error = out["error"]
        # Structural errors are reported as `file:line:col: error: …` lines before any run.
        if out["file"] and ": error: " in error and not out["trace"]:
            raise PDLParseError(error)
        raise PDLRuntimeError(error, out["file"], out["line"])
    if output == "result":
        return out["result"]
    return {
        "result": out["result"],
        "scope": out["scope"],
        "trace": out["trace"],
        "replay": {},
    }


def exec_program(prog, config: Optional[InterpreterConfig] = None, scope=None, loc=None,
                 output: Literal["result", "all"] = "result") -> Any:
    """Runs a program from parse_str/parse_file/parse_dict (or YAML text, or a dictionary)."""
    if isinstance(prog, tuple):
        prog = prog[0]
    if isinstance(prog, str):
        prog, _ = parse_str(prog)
    elif isinstance(prog, dict):
        prog = parse_dict(prog)
    return _run(prog, config, scope, output)


def exec_dict(prog: dict, config: Optional[InterpreterConfig] = None, scope=None, loc=None,
              output: Literal["result", "all"] = "result") -> Any:
    """Runs a program given as a dictionary."""
    return _run(parse_dict(prog), config, scope, output)


def exec_str(prog: str, config: Optional[InterpreterConfig] = None, scope=None,
             output: Literal["result", "all"] = "result") -> Any:
    """Runs a program given as YAML text."""
    program, _ = parse_str(prog)
    return _run(program, config, scope, output)


def exec_file(prog, config: Optional[InterpreterConfig] = None, scope=None,
              output: Literal["result", "all"] = "result") -> Any:
    """Runs the program in a YAML file; relative reads resolve against its folder."""
    program, _ = parse_file(prog)
    return _run(program, config, scope, output)
