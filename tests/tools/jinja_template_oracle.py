#!/usr/bin/python3
"""Correctness oracle for Hako's Jinja statement templates (`code: ... lang: jinja` blocks).

Renders templates with real Jinja2 using standard delimiters and StrictUndefined, with the
options a case gives (trim_blocks, lstrip_blocks, keep_trailing_newline; Jinja's defaults
otherwise), and prints one JSON line per case:
    {"template", "vars", "options", "ok", "value", "error"}
where value is the rendered string.

Input: JSON lines {"template": str, "vars": {...}, "options": {...}} from FILE (blank lines and
lines starting with "#" are skipped; a case without "vars" uses VARS below), or
`--generate N --seed S` for N random templates built deterministically from statement pieces
(if/elif/else, for with loop variables, filters and else, set, comments, raw, whitespace
control) under random options.
"""

import argparse
import json
import random
import sys

from jinja2 import Environment, StrictUndefined

VARS = {
    "items": ["apple", "banana", "cherry"],
    "n": 3,
    "name": "World",
    "pairs": [[1, "a"], [2, "b"]],
    "d": {"x": 1, "y": 2},
    "empty": [],
    "flag": True,
    "none": None,
    "text": "Hello, World",
    "nums": [3, 1, 2],
}

OPTION_NAMES = ("trim_blocks", "lstrip_blocks", "keep_trailing_newline")


def render(template, variables, options):
    env = Environment(undefined=StrictUndefined, **options)
    return env.from_string(template).render(variables)


def run_case(template, variables, options):
    case = {"template": template, "vars": variables, "options": options}
    try:
        case.update({"ok": True, "value": render(template, variables, options), "error": ""})
    except Exception as exc:  # noqa: BLE001 - every failure is an expected outcome
        case.update({"ok": False, "value": None, "error": f"{type(exc).__name__}: {exc}"})
    return case


# --- generator ---------------------------------------------------------------------------

EXPRS = [
    "name", "n", "n + 1", "items | length", "items[0]", "d.x", "flag", "none", "pairs",
    "items | join(', ')", "text | upper", "nums | sort", "d", "'lit'", "n * 2 > 5",
    "items[-1] ~ '!'", "empty", "n if flag else 0", "text.split(', ')", "d.get('z')",
    "'%s-%d' % (name, n)", "n if none",
]
CONDS = ["flag", "not flag", "n > 2", "n == 1", "empty", "items", "none is none", "'a' in name",
         "d.y == 2", "n is even", "x is defined", "n if none"]
ITERS = [("x", "items"), ("x", "nums"), ("x", "empty"), ("k", "d"), ("a, b", "pairs"),
         ("(a, b)", "pairs"), ("c", "name"), ("x", "range(3)"), ("k, v", "d.items()"),
         ("x", "[1, [2, 3], 'four']")]
LOOP_ATTRS = ["loop.index", "loop.index0", "loop.first", "loop.last", "loop.length",
              "loop.revindex", "loop.revindex0", "loop.cycle('odd', 'even')"]
TEXTS = ["", " ", "\n", "  \n", "a", "text ", "\n  ", "line\n", "\t", " - ", "\n\n"]


def ws(rng):
    return rng.choice(["", "", "-", "+"]) if rng.random() < 0.4 else ""


def open_block(rng, body):
    return "{%" + ws(rng).replace("+", rng.choice(["+", ""])) + " " + body + " " + ws(rng).replace("+", "") + "%}"


def var(rng, expr):
    left = rng.choice(["", "", "-"])
    right = rng.choice(["", "", "-"])
    return "{{" + left + " " + expr + " " + right + "}}"


def gen_node(rng, depth, loop_vars):
    r = rng.random()
    if depth > 2 or r < 0.35:
        pick = rng.random()
        if pick < 0.5:
            return rng.choice(TEXTS)
        if pick < 0.85:
            # A bare `loop` prints Jinja's LoopContext repr, which Hako does not imitate.
            choices = EXPRS + [v for v in loop_vars if v != "loop"]
            if "loop" in loop_vars:
                choices = choices + LOOP_ATTRS
            if rng.random() < 0.03:
                return var(rng, "undefined_var")
            return var(rng, rng.choice(choices))
        return rng.choice(["{# comment #}", "{#- c -#}", "{% raw %}{{ x }}{% endraw %}",
                           "{%- raw %} {{ raw }} {% endraw -%}"])
    if r < 0.55:
        out = open_block(rng, "if " + rng.choice(CONDS)) + gen_seq(rng, depth + 1, loop_vars)
        for _ in range(rng.randrange(2)):
            out += open_block(rng, "elif " + rng.choice(CONDS)) + gen_seq(rng, depth + 1, loop_vars)
        if rng.random() < 0.5:
            out += open_block(rng, "else") + gen_seq(rng, depth + 1, loop_vars)
        return out + open_block(rng, "endif")
    if r < 0.8:
        target, it = rng.choice(ITERS)
        names = [t.strip("() ") for t in target.split(",")]
        head = "for " + target + " in " + it
        if rng.random() < 0.2:
            head += " if " + rng.choice(["loop_ok", names[0]]).replace("loop_ok", "true")
        out = open_block(rng, head) + gen_seq(rng, depth + 1, loop_vars + names + ["loop"])
        if rng.random() < 0.3:
            out += open_block(rng, "else") + gen_seq(rng, depth + 1, loop_vars)
        return out + open_block(rng, "endfor")
    name = rng.choice(["s", "t"])
    if rng.random() < 0.7:
        return open_block(rng, "set " + name + " = " + rng.choice(EXPRS)) + var(rng, name)
    return (open_block(rng, "set " + name + rng.choice(["", " | upper", " | trim"]))
            + gen_seq(rng, depth + 1, loop_vars) + open_block(rng, "endset") + var(rng, name))


def gen_seq(rng, depth, loop_vars):
    return "".join(gen_node(rng, depth, loop_vars) for _ in range(rng.randrange(1, 4)))


def generate(count, seed):
    rng = random.Random(seed)
    for _ in range(count):
        template = gen_seq(rng, 0, [])
        if rng.random() < 0.3:
            template += "\n"
        options = {k: True for k in OPTION_NAMES if rng.random() < 0.35}
        yield run_case(template, VARS, options)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("file", nargs="?")
    parser.add_argument("--generate", type=int, default=0)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    if args.generate:
        cases = generate(args.generate, args.seed)
    else:
        def read():
            with open(args.file, encoding="utf-8") as f:
                for line in f:
                    line = line.strip()
                    if not line or line.startswith("#"):
                        continue
                    c = json.loads(line)
                    yield run_case(c["template"], c.get("vars", VARS), c.get("options", {}))
        cases = read()
    for case in cases:
        sys.stdout.write(json.dumps(case, ensure_ascii=False) + "\n")


if __name__ == "__main__":
    main()
