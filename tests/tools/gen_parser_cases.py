#!/usr/bin/python3
"""Reference results for Hako's output parsers, computed with Python itself.

The reference PDL interpreter parses block output with Python's `re` (flags=re.MULTILINE),
`csv.reader` and `json.loads`; this script runs the same calls over a fixed set of inputs and
prints one JSON document:

    {"regex": [{"pattern", "text", "mode", "spec", "ok", "value"}],
     "csv":   [{"text", "ok", "value"}],
     "json":  [{"text", "ok", "value"}]}

Values are tagged so Python types survive JSON: a tuple is {"tuple": [...]}, a dict {"dict": [[key, value], ...]} (order kept), a float
{"float": repr(x)}; everything else is plain JSON (None is null). For regex, `value` is what the reference's `parse_result` returns:
search/match/fullmatch give None without a match, a dict of the spec's named groups with a
spec, else list(m.groups()); split/findall give re.split/re.findall.

Usage: gen_parser_cases.py > tests/data/parsers/python_cases.json   (the stored fixture)
       gen_parser_cases.py                                           (the live run the test makes)
"""

import csv
import io
import json
import re
import sys

REGEX_CASES = [
    # (pattern, text, spec or None)
    (r"[0-9]+", "a 12 b 345 c 6", None),
    (r"(\d+)-(\d+)", "1-2, 33-44 and 5-", None),
    (r"(\d+)", "x1y22z", None),
    (r"(?P<name>\w+)\s*=\s*(?P<value>\d+)", "alpha = 1\nbeta=22\ngamma = x", {"name": "str", "value": "str"}),
    (r"\s*(?P<name>.*)\s*", "  Hello World  ", {"name": "string"}),
    (r"(.|\n)*```python\n(?P<code>(.|\n)*)```(.|\n)*", "Here:\n```python\nprint(1)\n```\nDone", {"code": "string"}),
    (r"Rating.*\[\[(?P<rating>\d+\.?\d*)\]\]", "The answer.\nRating: [[7.5]] ok", {"rating": "string"}),
    (r"### Question [0-9]+:\s*([^#\n]+)", "### Question 1: What?\n### Question 2:  Why not\n", None),
    (r"^(\w+):", "key: v\nother: w\n no: x", None),
    (r"(\w+)$", "one two\nthree four\n", None),
    (r"^$", "a\n\nb\n", None),
    (r"^", "a\nb\n", None),
    (r"(?m:^x)", "x\nx", None),
    (r"[$^]", "a^b$", None),
    (r".+", "a\rb\r\nc\x85d\u2028e", None),
    (r"x$", "x\r\nx\rx", None),
    (r"^\w", "a\rb\u2028c", None),
    (r"x*", "axxb", None),
    (r"\b", "ab cd", None),
    (r"(a)|(b)", "abc", None),
    (r"(a)?b", "b ab", None),
    (r"a|ab", "ab", None),
    (r"(?i)hello", "Say HELLO", None),
    (r"\d", "٣ and 3", None),
    (r"\w+", "héllo wörld_1", None),
    (r"[^,]+", "a,b,,c", None),
    (r",", "a,b,,c", None),
    (r"(,)", "a,b,,c", None),
    (r"(,)|(;)", "a,b;c", None),
    (r"\s+", "  lead and trail  ", None),
    (r"end\Z", "the end\n", None),
    (r"end$", "the end\n", None),
    (r"x{,2}", "xxxx", None),
    (r"\u00e9+", "caf\u00e9\u00e9 ok", None),
    (r"(?P<a>x)(?P=a)", "xx yx xxx", None),
    (r"[]a]+", "]a]b", None),
    (r"\.", "a.b.c", None),
    (r"(?P<year>\d{4})-(?P<month>\d\d)", "on 2024-05 and 2025-06", {"year": "int", "month": "int"}),
    (r"(?P<year>\d{4})", "no digits", {"year": "int"}),
    (r"(?P<year>\d{4})(-(?P<day>\d\d))?", "2024", {"year": "int", "day": "int"}),
    (r"(?P<year>\d{4})", "2024", {"missing": "int"}),
    (r"", "abc", None),
    (r"\n", "l1\nl2\n", None),
    (r".+", "line1\nline2", None),
    (r"[", "abc", None),
    (r"(a", "abc", None),
]

MODES = ["search", "match", "fullmatch", "split", "findall"]

CSV_CASES = [
    "a,b,c",
    "a,b,c\n1,2,3\n",
    "name,age\n\"Smith, J\",42\n",
    "\"say \"\"hi\"\"\",x",
    "\"multi\nline\",end\nnext,row",
    "a,,c,\n,\n",
    "\n\na\n\n",
    "",
    "a\r\nb\r\n",
    "\"open quote,never closed\nmore",
    "ab\"cd\",e",
    "\"ab\"cd,e",
    " a , b ",
    "x\ry",
    "\"a\"\r\n\"b\"",
    "héllo,wörld",
    "a,\"\"",
    "\"\"",
    ",",
    "a\n\"\"\"\"",
]

JSON_CASES = [
    '{"a": 1, "b": [true, false, null], "c": "x"}',
    '  [1, 2.5, -3, 1e3, -0, 0.0]  ',
    '{"z": 1, "a": 2, "m": 3}',
    '{"a": 1, "a": 2}',
    '"\\u00e9\\ud83d\\ude00\\n\\t\\"\\\\\\/"',
    '[NaN, Infinity, -Infinity]',
    '{"a": 1,}',
    '[1, 2,]',
    "{'a': 1}",
    '{a: 1}',
    '[1 2]',
    '',
    '   ',
    'True',
    '01',
    '[1] x',
    '{"a" 1}',
    '"unterminated',
    '"bad \\q escape"',
    '"tab\there"',
    '[-]',
    '1.',
    '.5',
    '123456789012345678',
    '{"nested": {"deep": [{"x": [1, {"y": null}]}]}}',
    'null',
    '"\\u12"',
]


def tag(v):
    if isinstance(v, tuple):
        return {"tuple": [tag(x) for x in v]}
    if isinstance(v, list):
        return [tag(x) for x in v]
    if isinstance(v, dict):
        return {"dict": [[k, tag(x)] for k, x in v.items()]}
    if isinstance(v, float):
        return {"float": repr(v)}
    return v


def regex_result(pattern, text, mode, spec):
    """The reference's parse_result for a RegexParser."""
    if mode in ("search", "match", "fullmatch"):
        m = getattr(re, mode)(pattern, text, flags=re.M)
        if m is None:
            return None
        if isinstance(spec, dict):
            return {x: m.group(x) for x in spec.keys()}
        return list(m.groups())
    if mode == "split":
        return re.split(pattern, text, flags=re.M)
    return re.findall(pattern, text, flags=re.M)


def run(fn):
    try:
        return {"ok": True, "value": tag(fn())}
    except Exception as exc:  # noqa: BLE001 - any failure is an expected error case
        return {"ok": False, "value": None, "error": repr(exc)}


def main():
    out = {"regex": [], "csv": [], "json": []}
    for pattern, text, spec in REGEX_CASES:
        for mode in MODES:
            case = {"pattern": pattern, "text": text, "mode": mode, "spec": spec}
            case.update(run(lambda: regex_result(pattern, text, mode, spec)))
            out["regex"].append(case)
    for text in CSV_CASES:
        case = {"text": text}
        case.update(run(lambda: list(csv.reader(io.StringIO(text)))))
        out["csv"].append(case)
    for text in JSON_CASES:
        case = {"text": text}
        case.update(run(lambda: json.loads(text)))
        out["json"].append(case)
    json.dump(out, sys.stdout, ensure_ascii=False, indent=1)
    sys.stdout.write("\n")


if __name__ == "__main__":
    main()
