#!/usr/bin/python3
"""Correctness oracle: loads YAML documents with PyYAML's safe_load, as IBM's PDL reads programs.

The reference interpreter reads a program with `yaml.safe_load` (YAML 1.1 resolution: yes/no/on/
off are booleans, 017 is octal, 1:30 is sexagesimal, .inf is a float, ~ is null, dates are
datetime.date, merge keys `<<` are applied, duplicate keys keep the last value).

Input: JSON lines `{"yaml": str}` (blank lines and lines starting with `#` are skipped) from FILE,
or `--generate N --seed S` to compose N random documents deterministically. Output: one JSON line
per document `{"yaml", "ok", "value", "error"}` with the value tagged so Python types survive:
{"int": "5"} {"float": repr} {"str": s} {"bool": b} {"none": null} {"list": [...]}
{"dict": [[k, v], ...]} and {"other": type name, "str": str(x)} for anything else (dates,
bytes, sets). A document PyYAML refuses has ok false and the exception's first line as error.
"""

import argparse
import json
import random
import sys

import yaml


def tag(v):
    if v is None:
        return {"none": None}
    if isinstance(v, bool):
        return {"bool": v}
    if isinstance(v, int):
        return {"int": str(v)}
    if isinstance(v, float):
        return {"float": repr(v)}
    if isinstance(v, str):
        try:
            v.encode("utf-8")
        except UnicodeEncodeError:
            # A lone surrogate (from an escape such as \ud800) has no UTF-8 form.
            return {"other": "str with a lone surrogate", "str": v.encode("utf-8", "backslashreplace").decode()}
        return {"str": v}
    if isinstance(v, list):
        return {"list": [tag(x) for x in v]}
    if isinstance(v, dict):
        return {"dict": [[tag(k), tag(x)] for k, x in v.items()]}
    return {"other": type(v).__name__, "str": str(v)}


def load(text):
    try:
        value = yaml.safe_load(text)
        return {"yaml": text, "ok": True, "value": tag(value), "error": ""}
    except RecursionError as e:
        return {"yaml": text, "ok": False, "value": None, "error": "RecursionError: %s" % e}
    except yaml.YAMLError as e:
        first = str(e).splitlines()[0] if str(e) else type(e).__name__
        return {"yaml": text, "ok": False, "value": None, "error": first}
    except (ValueError, TypeError, OverflowError) as e:
        # The constructors raise these on odd scalars ("0x_", "0b" ...).
        return {"yaml": text, "ok": False, "value": None, "error": "%s: %s" % (type(e).__name__, e)}


# --- generator ------------------------------------------------------------------------------
# Composes documents from pieces PDL programs use and pieces where YAML 1.1 readers disagree.
# Duplicate keys, timestamps and keys that collide in Python (1 and true) are left out: they are
# deliberate differences (tests/data/pdl/yaml_known_differences.txt).

PLAIN_WORDS = [
    "hello", "Hello world", "yes", "No", "on", "OFF", "y", "n", "true", "False", "~", "null",
    "Null", "NULL", "0", "-0", "+1", "017", "0o17", "08", "0x1F", "0xfg", "0b101", "0b2",
    "1_000", "1:30", "-1:30:05", "1:60", "190:20:30.15", "1.5", "1.", ".5", "+.5", "-.5",
    "1e3", "1.0e+3", "1.0e3", "6.8523015e+5", ".inf", "-.Inf", "+.INF", ".nan", ".NaN",
    "1__2", "a b", "a:b", "a :b", "x#y", "http://x.org/a?b=c", "${ x }", "${ x + 1 }",
    "{{ x }}", "-", "--", "-1", "--1", ".", "..", "_1", "1_", "0_", "12.5%", "$1", "@x",
    "It's", "a,b", "3 apples", "é", "日本語", "💡", "%p", "=a", "a=",
]

QUOTED_TEXTS = [
    "", " ", "a", "yes", "1", "a b", "it''s", "tab\there", "  lead", "trail  ", "#x", "a: b",
    "[x]", "{x}", "- x", "${ x }",
]

DOUBLE_ESCAPES = [
    "\\n", "\\t", "\\\\", "\\\"", "\\/", "\\0", "\\a", "\\b", "\\e", "\\f", "\\r", "\\v",
    "\\ ", "\\_", "\\N", "\\L", "\\P", "\\x41", "\\u00e9", "\\U0001F4A1", "\\x4", "\\q",
]


def gen_key(rng, used):
    """A key whose loaded value is not in `used` (null and ~ are the same key)."""
    for _ in range(20):
        k = rng.choice(["a", "b", "text", "model", "def", "k1", "k_2", "x y", "'q'", '"dq"',
                        "3", "1.5", "null", "~", "-x", "é"])
        identity = repr(yaml.safe_load(k))
        if identity not in used:
            used.add(identity)
            return k
    k = "key%d" % len(used)
    used.add(k)
    return k


def gen_plain(rng):
    return rng.choice(PLAIN_WORDS)


def gen_single(rng):
    return "'" + rng.choice(QUOTED_TEXTS) + "'"


def gen_double(rng):
    parts = []
    for _ in range(rng.randint(0, 3)):
        if rng.random() < 0.5:
            parts.append(rng.choice(DOUBLE_ESCAPES))
        else:
            parts.append(rng.choice(QUOTED_TEXTS).replace("''", "'"))
    return '"' + "".join(parts) + '"'


def gen_multiline_quoted(rng, indent):
    q = rng.choice(["'", '"'])
    pad = " " * (indent + rng.choice([0, 1, 2]))
    lines = []
    for _ in range(rng.randint(1, 4)):
        lines.append(rng.choice(["", "word", "two words", " lead", "trail ", "a  b"]))
    text = q + rng.choice(["", "first", " first "])
    for line in lines:
        text += "\n" + (pad + line if line else rng.choice(["", "  "]))
    if q == '"' and rng.random() < 0.3:
        text += "\\"  # an escaped line break
        text += "\n" + pad + "cont"
    text += rng.choice(["", " ", "\n" + pad]) + q
    return text


def gen_block(rng, indent):
    header = rng.choice(["|", ">", "|-", ">-", "|+", ">+", "|2", ">1-"])
    pad = " " * (indent + 2)
    lines = []
    for _ in range(rng.randint(0, 5)):
        lines.append(rng.choice(["line", "two words", "", "  more indented", "${ x }", "# not"]))
    body = ""
    for line in lines:
        body += "\n" + (pad + line if line else "")
    trailing = rng.choice(["", "\n", "\n\n"])
    return header + body + trailing


def gen_scalar(rng, indent):
    r = rng.random()
    if r < 0.45:
        return gen_plain(rng)
    if r < 0.6:
        return gen_single(rng)
    if r < 0.75:
        return gen_double(rng)
    if r < 0.85:
        return gen_multiline_quoted(rng, indent)
    return gen_block(rng, indent)


def gen_flow(rng, depth):
    if depth > 2 or rng.random() < 0.5:
        return rng.choice(["a", "1", "yes", "'q'", '"d"', "~", "1.5", "[]", "{}"])
    if rng.random() < 0.5:
        return "[" + ", ".join(gen_flow(rng, depth + 1) for _ in range(rng.randint(0, 3))) + "]"
    used = set()
    items = []
    for _ in range(rng.randint(0, 3)):
        items.append(gen_key(rng, used) + ": " + gen_flow(rng, depth + 1))
    return "{" + ", ".join(items) + "}"


def gen_node(rng, indent, depth, lines, prefix):
    """Appends `prefix` + a node at `indent` to lines."""
    pad = " " * indent
    r = rng.random()
    if depth >= 3 or r < 0.45:
        value = gen_scalar(rng, indent)
        if value.startswith(("|", ">")) and "\n" in value:
            head, rest = value.split("\n", 1)
            lines.append(prefix + head)
            lines.append(rest)
        else:
            lines.append(prefix + value)
        return
    if r < 0.55:
        lines.append(prefix + gen_flow(rng, 0))
        return
    if r < 0.75:
        lines.append(prefix.rstrip() if prefix.strip() else prefix.rstrip())
        for _ in range(rng.randint(1, 3)):
            gen_node(rng, indent + 2, depth + 1, lines, pad + "  - ")
        return
    lines.append(prefix.rstrip())
    used = set()
    for _ in range(rng.randint(1, 3)):
        gen_node(rng, indent + 2, depth + 1, lines, pad + "  " + gen_key(rng, used) + ": ")


def gen_document(rng):
    lines = []
    used = set()
    for _ in range(rng.randint(1, 4)):
        gen_node(rng, 0, 1, lines, gen_key(rng, used) + ": ")
    text = "\n".join(line for line in lines if line is not None) + "\n"
    if rng.random() < 0.15:
        text = "# comment\n" + text
    if rng.random() < 0.1:
        text = "---\n" + text
    return text


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("file", nargs="?")
    ap.add_argument("--generate", type=int, default=0)
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args()
    out = sys.stdout
    if args.generate:
        rng = random.Random(args.seed)
        for _ in range(args.generate):
            out.write(json.dumps(load(gen_document(rng))) + "\n")
        return
    src = open(args.file, encoding="utf-8") if args.file else sys.stdin
    for line in src:
        if not line.strip() or line.startswith("#"):
            continue
        case = json.loads(line)
        out.write(json.dumps(load(case["yaml"])) + "\n")


if __name__ == "__main__":
    main()
