#!/usr/bin/python3
"""Correctness oracle: evaluates PDL expression templates with real Jinja2, exactly as PDL does.

How IBM's PDL evaluates a string (src/pdl/pdl_interpreter.py, `_process_expr`, v0.9 line):

* It builds `Environment(block_start_string="{%%%%%PDL%%%%%%%%%%",
  block_end_string="%%%%%PDL%%%%%%%%%%}", variable_start_string="${", variable_end_string="}",
  undefined=StrictUndefined)`. The block delimiters can never match, so `{% ... %}` is literal
  text; comments keep the default `{# #}`; autoescape is off; trim/lstrip_blocks are off.
* It parses the string (`env.parse`). When the template body is exactly one Output node holding
  exactly one node:
  - if the string *starts with* `${` and *ends with* `}`, it is a single expression: PDL calls
    `env.compile_expression(expr[2:-1], undefined_to_none=False)` and calls it with the free
    variables (`meta.find_undeclared_variables`) that exist in the scope. The result is the raw
    Python object (no native env, no literal_eval): int, float, str, list, tuple, dict,
    generator, dict_items, Markup... If the result is an `Undefined`, it raises
    UndefinedError (only at top level: an Undefined inside a list is returned as is).
    Note `expr[2:-1]` is taken literally: `${ x }{# c #}` parses as one node but compiles
    ` x }{# c #` (a syntax error), and `${- x -}` compiles `- x -` (a syntax error).
  - else if that node is TemplateData (no `${` at all), the string is returned *unchanged*
    (not newline-normalised).
* Otherwise (mixed text, several `${}`, only a comment, empty string, a trailing newline after
  `}`...) it renders `Template(expr, keep_trailing_newline=True, same delimiters,
  autoescape=False, undefined=StrictUndefined)` with the free variables, so values appear in
  Python `str()` form, `\\r\\n` becomes `\\n` (Jinja's newline_sequence), and the trailing
  newline is kept.
* Any exception becomes a PDL error: TemplateSyntaxError -> "Syntax error in <expr>: <msg>",
  anything else -> "Error during the evaluation of <expr>: <msg>".

Input: JSON lines `{"template": str, "vars": {...}}` (blank lines and lines starting with `#`
are skipped) from FILE or stdin; a case without "vars" uses the fixed variable set GEN_VARS
below (the one the generator uses too). `--generate N --seed S` instead composes N random cases
deterministically over a fixed variable set. Output: one JSON line per case:
`{"template", "vars", "ok", "value", "error"}` where value is tagged so Python types survive:
{"int": "5"} {"float": repr} {"str": s} {"bool": b} {"none": null} {"list": [...]}
{"tuple": [...]} {"dict": [[k, v], ...]} {"undefined": null} {"callable": name}, and
{"other": type name, "str": str(x), "iter": [...]} for anything else; "iter" (the tagged items)
is present for iterators and views (generator, dict_items, ...), which Hako represents as lists.
Markup (from `e`/`escape`/`tojson`) is a str subclass and is tagged as "str"; note that
`Markup + str` escapes the str operand (`~` does not: it joins plain strings).
"""

import argparse
import json
import random
import sys

from jinja2 import Environment, StrictUndefined, Template, TemplateSyntaxError, meta
from jinja2.nodes import TemplateData
from jinja2.runtime import Undefined

EXPR_START = "${"
EXPR_END = "}"
BLOCK_START = "{%%%%%PDL%%%%%%%%%%"
BLOCK_END = "%%%%%PDL%%%%%%%%%%}"

_ENV = Environment(
    block_start_string=BLOCK_START,
    block_end_string=BLOCK_END,
    variable_start_string=EXPR_START,
    variable_end_string=EXPR_END,
    undefined=StrictUndefined,
)


class PdlExpressionError(Exception):
    pass


def evaluate(expr, scope):
    """Evaluates `expr` like PDL's `_process_expr` for a string."""
    try:
        ast = _ENV.parse(expr)
        nodes = getattr(ast.body[0], "nodes", []) if len(ast.body) == 1 else []
        if len(nodes) == 1:
            if expr.startswith(EXPR_START) and expr.endswith(EXPR_END):
                free = meta.find_undeclared_variables(ast)
                fn = _ENV.compile_expression(expr[2:-1], undefined_to_none=False)
                result = fn({x: scope[x] for x in free if x in scope})
                if isinstance(result, Undefined):
                    # PDL raises UndefinedError(str(result)); str() of a StrictUndefined
                    # raises the same UndefinedError itself.
                    str(result)
                    raise PdlExpressionError("undefined value")
                return result
            if isinstance(nodes[0], TemplateData):
                return expr
        template = Template(
            expr,
            keep_trailing_newline=True,
            block_start_string=BLOCK_START,
            block_end_string=BLOCK_END,
            variable_start_string=EXPR_START,
            variable_end_string=EXPR_END,
            autoescape=False,
            undefined=StrictUndefined,
        )
        free = meta.find_undeclared_variables(ast)
        return template.render({x: scope[x] for x in free if x in scope})
    except TemplateSyntaxError as exc:
        raise PdlExpressionError(f"Syntax error in {expr}: {exc}") from exc
    except PdlExpressionError:
        raise
    except Exception as exc:  # pylint: disable=broad-except
        raise PdlExpressionError(f"Error during the evaluation of {expr}: {exc}") from exc


_ITERATOR_TYPES = ("generator", "dict_items", "dict_keys", "dict_values", "list_reverseiterator",
                   "reversed", "map", "filter", "zip", "range_iterator", "list_iterator",
                   "set", "frozenset", "range")


def tag(x):
    """Encodes a Python value keeping its exact type."""
    if isinstance(x, Undefined):
        return {"undefined": None}
    if x is None:
        return {"none": None}
    if isinstance(x, bool):
        return {"bool": x}
    if isinstance(x, int):
        return {"int": str(x)}
    if isinstance(x, float):
        return {"float": repr(x)}
    if isinstance(x, str):  # includes markupsafe.Markup
        return {"str": str(x)}
    if isinstance(x, list):
        return {"list": [tag(v) for v in x]}
    if isinstance(x, tuple):  # includes jinja's _GroupTuple namedtuple
        return {"tuple": [tag(v) for v in x]}
    if isinstance(x, dict):
        return {"dict": [[tag(k), tag(v)] for k, v in x.items()]}
    name = type(x).__name__
    if name in _ITERATOR_TYPES:
        try:
            text = str(x)
        except Exception:  # pylint: disable=broad-except
            text = "?"
        return {"other": name, "str": text, "iter": [tag(v) for v in list(x)]}
    if callable(x):
        return {"callable": getattr(x, "__name__", name)}
    try:
        text = str(x)
    except Exception:  # pylint: disable=broad-except
        text = "?"
    return {"other": name, "str": text}


def run_case(case):
    scope = case["vars"] if "vars" in case else GEN_VARS
    out = {"template": case["template"], "vars": scope}
    try:
        value = evaluate(case["template"], scope)
        out["ok"] = True
        out["value"] = tag(value)
        out["error"] = ""
    except PdlExpressionError as exc:
        out["ok"] = False
        out["value"] = None
        out["error"] = str(exc)
    except RecursionError as exc:
        out["ok"] = False
        out["value"] = None
        out["error"] = f"RecursionError: {exc}"
    return out


def read_cases(stream):
    for n, line in enumerate(stream, 1):
        stripped = line.strip()
        if not stripped or stripped.startswith("#"):
            continue
        try:
            yield json.loads(stripped)
        except json.JSONDecodeError as exc:
            sys.exit(f"line {n}: bad JSON: {exc}")


# ---------------------------------------------------------------------------------------------
# Random case generation. Every choice comes from one seeded Random, so a seed always yields
# the same cases. Integer expressions carry a bound on their magnitude so no result or
# intermediate leaves the 64-bit range Hako uses.

GEN_VARS = {
    "i": 7, "j": -3, "z": 0, "n": 2, "big": 100000,
    "f": 2.5, "g": -0.1, "h": 1e20, "tiny": 2.5e-07,
    "s": "hello world", "q": "It's \"quoted\"", "jp": "日本語のテキスト", "es": "",
    "num": "42", "pad": "  padded  ", "csv": "a,b,,c", "mixed": "Hello World Foo",
    "l": [3, 1, 2], "ls": ["pear", "apple", "fig"], "lm": [1, "x", None, True], "le": [],
    "lf": [1.5, -2, 3], "ll": [[1, 2], [3, 4]],
    "d": {"a": 1, "b": [1, 2], "c": {"x": "y", "n": None}},
    "de": {}, "people": [{"name": "Ann", "age": 30, "city": "Oslo"},
                         {"name": "Bob", "age": 25, "city": "Rome"},
                         {"name": "Cy", "age": 30, "city": "Oslo"}],
    "yes": True, "no": False, "nil": None,
}
INT_VARS = {"i": 7, "j": -3, "z": 0, "n": 2, "big": 100000}
FLOAT_VARS = ["f", "g", "h", "tiny"]
STR_VARS = ["s", "q", "jp", "es", "num", "pad", "csv", "mixed"]
LIST_VARS = ["l", "ls", "lm", "le", "lf", "ll", "people"]
NUMLIST_VARS = ["l", "lf", "le"]
LIMIT = 2 ** 62


class Gen:
    def __init__(self, seed):
        self.r = random.Random(seed)
        self.top = False

    def leaf(self, depth, p):
        """Whether to stop at a leaf; the outermost node of a case never is one."""
        if self.top:
            self.top = False
            return depth <= 0
        return depth <= 0 or self.chance(p)

    def pick(self, seq):
        return seq[self.r.randrange(len(seq))]

    def chance(self, p):
        return self.r.random() < p

    # Each int generator returns (text, bound on |value|).
    def int_leaf(self):
        c = self.r.randrange(4)
        if c == 0:
            name = self.pick(list(INT_VARS))
            return name, abs(INT_VARS[name])
        if c == 1:
            v = self.pick([0, 1, 2, 3, 5, 7, 10, 12, 100])
            return str(v), v
        if c == 2:
            v = self.pick([1, 2, 3, 4, 9, 13])
            return f"-{v}", v
        return self.pick([("l|length", 3), ("s|length", 11), ("jp|length", 8), ("l[0]", 3),
                          ("l[-1]", 3), ("d.a", 1), ("d['b'][1]", 2), ("l|sum", 6),
                          ("people[1].age", 25), ("ls|length", 3), ("num|int", 42),
                          ("l|max", 3), ("l|min", 1), ("lf|length", 3)])

    def int_expr(self, depth):
        if self.leaf(depth, 0.3):
            return self.int_leaf()
        c = self.r.randrange(11)
        a, ba = self.int_expr(depth - 1)
        if c <= 2:
            b, bb = self.int_expr(depth - 1)
            op = self.pick(["+", "-", "*"])
            bound = ba * bb if op == "*" else ba + bb
            if bound > LIMIT:
                return self.int_leaf()
            return f"{a} {op} {b}", bound
        if c == 3:
            b, bb = self.int_expr(depth - 1)
            return f"{a} // {b}", ba
        if c == 4:
            b, bb = self.int_expr(depth - 1)
            return f"{a} % {b}", bb
        if c == 5:
            base, bb = self.int_leaf()
            e = self.pick([0, 1, 2, 3])
            if bb ** e > LIMIT:
                return base, bb
            if base.startswith("-") or " " in base:
                base = f"({base})"
            return f"{base} ** {e}", max(1, bb ** e)
        if c == 6:
            return f"({a})", ba
        if c == 7:
            return f"-({a})", ba
        if c == 8:
            return self.pick([f"({a})|abs", f"{a}|abs", f"({a})|string|length",
                              f"[{a}, 3]|max", f"[{a}, 3]|min", f"({a})|float|int",
                              f"({a}) if yes else 0"]), max(ba, 3)
        if c == 9:
            s, _ = self.str_expr(depth - 1)
            return self.pick([f"({s})|length", f"({s})|wordcount", f"({s}).count('o')",
                              f"({s}).find('l')"]), 10 ** 6
        return f"{a} if {self.bool_expr(depth - 1)} else {self.int_expr(depth - 1)[0]}", \
            max(ba, 10 ** 6)

    def float_expr(self, depth):
        if self.leaf(depth, 0.3):
            return self.pick(FLOAT_VARS + ["0.1", "0.2", "1.5", "-2.25", "1e3", "3.0", "1e-3",
                                           "l|sum / 4", "i / 2", "0.1 + 0.2"])
        c = self.r.randrange(7)
        a = self.float_expr(depth - 1)
        if c == 0:
            b, _ = self.int_expr(depth - 1)
            return f"{a} {self.pick(['+', '-', '*', '/'])} {b}"
        if c == 1:
            return f"({a}) {self.pick(['+', '-', '*', '/', '//', '%'])} " \
                   f"({self.float_expr(depth - 1)})"
        if c == 2:
            b, _ = self.int_expr(depth - 1)
            return f"({b}) / {self.pick(['2', '3', '4', '-8', 'n', 'j', 'z'])}"
        if c == 3:
            return self.pick([f"({a})|round", f"({a})|round(2)", f"({a})|round(1, 'floor')",
                              f"({a})|round(0, 'ceil')", f"({a})|abs", f"-({a})"])
        if c == 4:
            return f"{self.pick(['2', '3', '(-2)', 'n', '0.5'])} ** {self.pick(['-1', '-2', '3'])}"
        if c == 5:
            s, _ = self.int_expr(depth - 1)
            return f"({s})|float"
        return f"({self.str_expr(depth - 1)[0]})|float"

    def str_expr(self, depth):
        if self.leaf(depth, 0.25):
            return self.pick(STR_VARS + ["'abc'", '"it\'s"', "'日本'", "''", "'a\\nb'",
                                         "'tab\\there'", "\"double \\\"q\\\"\"", "'x'"]), 0
        c = self.r.randrange(13)
        a, _ = self.str_expr(depth - 1)
        if c == 0:
            b, _ = self.str_expr(depth - 1)
            return f"{a} ~ {b}", 0
        if c == 1:
            x = self.pick([self.int_expr(depth - 1)[0], self.float_expr(depth - 1),
                           self.list_expr(depth - 1), "nil", "yes", "d"])
            return f"{a} ~ ({x})", 0
        if c == 2:
            return f"({a})|{self.pick(STR_FILTERS)}", 0
        if c == 3:
            return f"({a}).{self.pick(STR_METHODS)}", 0
        if c == 4:
            return f"({a}){self.pick(SLICES)}", 0
        if c == 5:
            return f"({a}) + {self.str_expr(depth - 1)[0]}", 0
        if c == 6:
            return f"({a}) * {self.pick(['0', '2', '3', '-1'])}", 0
        if c == 7:
            return f"{self.list_expr(depth - 1)}|join({self.pick(['', repr(', '), repr('-')])})", 0
        if c == 8:
            x = self.pick([self.int_expr(depth - 1)[0], self.float_expr(depth - 1),
                           self.list_expr(depth - 1), "d", "nil", "no", "q"])
            return f"({x})|{self.pick(['string', 'tojson', 'lower', 'upper', 'trim'])}", 0
        if c == 9:
            return f"{a} if {self.bool_expr(depth - 1)} else {self.str_expr(depth - 1)[0]}", 0
        if c == 10:
            return self.pick(["'{} and {}'.format(i, s)", "'{0}-{0}'.format(jp)",
                              "'{n}!'.format(n=f)", "'%s=%d'|format('x', i)",
                              "'{:>6}|'.format(num)", "'{:.3f}'.format(g)",
                              "'{:05d}'.format(j)", "'{!r}'.format(q)", "ls[0]",
                              "d.c.x", "people[0]['name']", "d['c']['x']"]), 0
        if c == 11:
            return self.format_expr(depth - 1), 0
        return f"({a})[{self.pick(['0', '-1', '1', 'n', 'j'])}]", 0

    def format_expr(self, depth):
        """str.format and %-format of generated numbers and strings."""
        kind = self.r.randrange(3)
        if kind == 0:
            x, _ = self.int_expr(depth)
            spec = self.pick(INT_SPECS)
        elif kind == 1:
            x = self.float_expr(depth)
            spec = self.pick(FLOAT_SPECS)
        else:
            x, _ = self.str_expr(depth)
            spec = self.pick(STR_SPECS)
        if self.chance(0.5):
            return f"'{spec}'.format({x})"
        return f"'{self.pick(PERCENT_SPECS)}'|format({x})"

    def list_expr(self, depth):
        if self.leaf(depth, 0.3):
            return self.pick(LIST_VARS + ["[1, 2, 3]", "[]", "['a', 'b']", "[1, [2, 3]]",
                                          "[nil, yes, 1.0]", "range(5)|list", "(1, 2)|list"])
        c = self.r.randrange(10)
        a = self.list_expr(depth - 1)
        if c == 0:
            return f"{a} + {self.list_expr(depth - 1)}"
        if c == 1:
            return f"({a}){self.pick(SLICES)}"
        if c == 2:
            return f"({a})|{self.pick(LIST_FILTERS)}"
        if c == 3:
            return f"({self.str_expr(depth - 1)[0]}).{self.pick(SPLITS)}"
        if c == 4:
            items = [self.any_expr(depth - 1) for _ in range(self.r.randrange(4))]
            return "[" + ", ".join(items) + "]"
        if c == 5:
            return f"range({self.pick(['3', 'n', '1, 7, 2', '10, 0, -3', 'j', 'z', '-2, 2'])})|list"
        if c == 6:
            return f"({self.pick(['s', 'jp', 'num', 'ls', 'd', 'l'])})|list"
        if c == 7:
            return self.pick(["people|map(attribute='name')|list",
                              "people|selectattr('age', 'gt', 26)|map(attribute='city')|list",
                              "people|rejectattr('city', 'eq', 'Rome')|list",
                              "l|map('string')|list", "ls|map('upper')|list",
                              "l|select('odd')|list", "l|reject('even')|list",
                              "people|sort(attribute='age')|map(attribute='name')|list",
                              "people|groupby('city')|list", "d|dictsort",
                              "l|batch(2)|list", "l|batch(2, 0)|list", "ls|slice(2)|list",
                              "d.items()|list", "d.keys()|list", "d.values()|list",
                              "lm|reject('none')|list", "ls|sort(reverse=true)",
                              "l|unique|list", "[3, 1, 3]|unique|list",
                              "people|sum(attribute='age')", "d|list", "d|items|list"])
        if c == 8:
            return f"({a}) * {self.pick(['0', '2', '-1'])}"
        return f"{a} if {self.bool_expr(depth - 1)} else {self.list_expr(depth - 1)}"

    def dict_expr(self, depth):
        if self.leaf(depth, 0.4):
            return self.pick(["d", "de", "people[0]", "d.c", "{'k': 1}", "{'a': [1, 2], 'b': nil}",
                              "{1: 'one', 'x': 2.0}", "dict(a=1, b='two')", "{}",
                              "{'q': q, 'jp': jp}"])
        items = []
        for _ in range(self.r.randrange(1, 4)):
            key = self.pick(["'a'", "'b'", "'k'", "1", "'日'", "s", "(1, 2)"])
            items.append(f"{key}: {self.any_expr(depth - 1)}")
        return "{" + ", ".join(items) + "}"

    def bool_expr(self, depth):
        if self.leaf(depth, 0.2):
            return self.pick(["yes", "no", "true", "false", "True", "False", "nil is none",
                              "i > 3", "es"])
        c = self.r.randrange(9)
        if c == 0:
            a, _ = self.int_expr(depth - 1)
            b, _ = self.int_expr(depth - 1)
            return f"{a} {self.pick(CMP_OPS)} {b}"
        if c == 1:
            a, _ = self.int_expr(depth - 1)
            b = self.float_expr(depth - 1)
            cc, _ = self.int_expr(depth - 1)
            return f"{a} {self.pick(CMP_OPS)} {b} {self.pick(CMP_OPS)} {cc}"
        if c == 2:
            a, _ = self.str_expr(depth - 1)
            b, _ = self.str_expr(depth - 1)
            return f"({a}) {self.pick(CMP_OPS + ['in', 'not in'])} ({b})"
        if c == 3:
            x = self.any_expr(depth - 1)
            return f"({x}) {self.pick(['is', 'is not'])} {self.pick(TESTS)}"
        if c == 4:
            x = self.any_expr(depth - 1)
            return f"({x}) {self.pick(['in', 'not in'])} {self.pick(LIST_VARS + ['d', 's'])}"
        if c == 5:
            return f"{self.bool_expr(depth - 1)} {self.pick(['and', 'or'])} " \
                   f"{self.bool_expr(depth - 1)}"
        if c == 6:
            return f"not {self.bool_expr(depth - 1)}"
        if c == 7:
            return f"({self.any_expr(depth - 1)}) == ({self.any_expr(depth - 1)})"
        tail = self.pick(['string|length > 3', 'string == "None"'])
        return f"({self.any_expr(depth - 1)})|{tail}"

    def any_expr(self, depth):
        c = self.r.randrange(7)
        if c == 0:
            return self.int_expr(depth)[0]
        if c == 1:
            return self.float_expr(depth)
        if c == 2:
            return self.str_expr(depth)[0]
        if c == 3:
            return self.list_expr(depth)
        if c == 4:
            return self.dict_expr(depth)
        if c == 5:
            return self.bool_expr(depth)
        return self.pick(["nil", "none", "None", "(1,)", "(1, 'a')", "()", "d.c.n",
                          "(yes or 0)", "(nil or 'fallback')", "(0 and 1)", "(es or l)",
                          "(i and s)", "(f if no)", "d.nope|default(1)", "d.get('zz', 0)",
                          "d.get('a')", "people[0]|dictsort", "(d.c|items|list)[0]",
                          "d.nope is defined", "d.c.n is none", "le|first is defined",
                          "people|groupby('age')|map(attribute='grouper')|list",
                          "people|map(attribute='name')|map('lower')|list", "l.index(2)",
                          "ls.count('fig')", "(d.items()|list)[-1][0]", "d.values()|list|length"])

    def erroneous(self):
        return self.pick([
            "${ undefined_name }", "${ undefined_name + 1 }", "${ i + undefined_name }",
            "x ${ missing } y", "${ d.nope }", "${ d['nope'] }", "${ l[10] }",
            "${ people[5].name }", "${ 1 + }", "${ (1 }", "${ [1, 2 }", "${ i +* 2 }",
            "${ 'unterminated }", "${ i i }", "${ 1 + 'a' }", "${ 'a' - 1 }", "${ s * s }",
            "${ i // z }", "${ i % z }", "${ f / z }", "${ l < s }", "${ d < d }",
            "${ nil + 1 }", "${ i|nosuchfilter }", "${ i is nosuchtest }", "${ s.nomethod() }",
            "${ l[s] }", "${ {[1]: 2} }", "${ i() }", "${ s|int(0, 99) }", "${ 1 if }",
            "${ ls|join(1) }", "${ lm|sort }", "${ range(1, 2, 0)|list }",
            "${ '{} {}'.format(1) }", "${ s.split(1) }", "${ 0 ** -1 }", "${ i.real }",
            "${ s[1:2:0] }", "${ lm|sum }", "${ }", "${ d.c.n.x }", "a ${ nil.x } b",
            "${ es[0] }", "${ undefined_name is defined and undefined_name }",
            "${ s|attr('nope') }", "${ l.index(99) }", "${ s.index('zz') }",
        ])

    def case(self):
        r = self.r.random()
        if r < 0.06:
            return self.erroneous()
        depth = self.r.randrange(1, 4)
        self.top = True
        kind = self.r.randrange(7)
        expr = [lambda: self.int_expr(depth)[0], lambda: self.float_expr(depth),
                lambda: self.str_expr(depth)[0], lambda: self.list_expr(depth),
                lambda: self.dict_expr(depth), lambda: self.bool_expr(depth),
                lambda: self.any_expr(depth)][kind]()
        if r < 0.8:
            return f"${{ {expr} }}"
        if r < 0.9:
            before = self.pick(PREFIXES)
            after = self.pick(SUFFIXES)
            return f"{before}${{ {expr} }}{after}"
        return f"a ${{ {expr} }} b ${{ {self.any_expr(1)} }}"


PREFIXES = ["Value: ", "", "[", "x=", "{# c #}", "a\r\nb ", "{% x %}"]
SUFFIXES = ["", "!", " and ${ i }", " 日本", "]", "\n", " {# c #}", "}"]
INT_SPECS = ["{}", "{:d}", "{:5d}", "{:<5}|", "{:^7}", "{:+}", "{:x}", "{:X}", "{:o}", "{:b}",
             "{:,}", "{:08.3f}", "{:e}", "{:.2%}", "{:g}", "{:05}", "{!r}", "{0}{0}"]
FLOAT_SPECS = ["{}", "{:.2f}", "{:10.4f}", "{:e}", "{:.3e}", "{:g}", "{:.3g}", "{:%}", "{:+.1f}",
               "{:.0f}", "{:,.2f}", "{:>9}", "{!r}", "{:.1f}"]
STR_SPECS = ["{}", "{:>8}", "{:<8}|", "{:^9}", "{:*^9}", "{:.3}", "{!r}", "[{0}]"]
PERCENT_SPECS = ["%s", "%r", "%d", "%5.2f", "%x", "%e", "%g", "%05d", "%-6s|", "%.3s", "%i",
                 "%+d", "%%%s"]
CMP_OPS = ["==", "!=", "<", "<=", ">", ">="]
TESTS = ["defined", "undefined", "none", "boolean", "number", "integer", "float", "string",
         "mapping", "sequence", "iterable", "callable", "even", "odd", "divisibleby(3)",
         "eq(1)", "ne 2", "lt(3)", "ge 0", "true", "false", "lower", "upper", "sameas none",
         "in [1, 2, 3]", "in 'abc'", "== 7", ">= 2"]
STR_FILTERS = ["upper", "lower", "capitalize", "title", "trim", "length", "reverse", "first",
               "last", "center(12)", "truncate(9)", "truncate(9, true)", "wordcount",
               "replace('l', 'L')", "replace('o', '0', 1)", "indent(2)", "indent(2, true)",
               "int", "float", "list|join('|')", "e", "default('dflt')", "d('x', true)",
               "wordwrap(5)", "string", "tojson", "count", "sort|join", "unique|join"]
STR_METHODS = ["upper()", "lower()", "title()", "capitalize()", "strip()", "lstrip()",
               "rstrip()", "strip('ho')", "startswith('h')", "endswith('d')",
               "replace('o', '0')", "find('o')", "rfind('o')", "count('l')",
               "split()", "split(',')", "rsplit(' ', 1)", "split('l', 1)", "splitlines()",
               "isdigit()", "isalpha()", "isspace()", "zfill(6)", "join(['1', '2'])",
               "index('')", "center(9, '*')", "ljust(8, '.')", "rjust(8)", "swapcase()",
               "partition(' ')", "casefold()", "isupper()",
               "islower()", "startswith(('a', 'h'))"]
SPLITS = ["split()", "split(',')", "split(' ')", "rsplit(',', 1)", "splitlines()",
          "split('o')", "split(', ')"]
LIST_FILTERS = ["sort", "reverse|list", "unique|list", "list", "first", "last", "length",
                "join(',')", "sum", "max", "min", "batch(2)|list", "slice(2)|list",
                "map('string')|list", "select|list", "reject|list", "string", "tojson",
                "first|string", "sort(reverse=true)", "count"]
SLICES = ["[1:]", "[:2]", "[::-1]", "[::2]", "[1:-1]", "[-2:]", "[5:]", "[-10:2]", "[1::2]",
          "[:-1:-1]", "[::-2]", "[0:0]"]


def generate(count, seed):
    gen = Gen(seed)
    for _ in range(count):
        yield {"template": gen.case(), "vars": GEN_VARS}


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("file", nargs="?", help="JSON-lines cases (default: stdin)")
    parser.add_argument("--generate", type=int, metavar="N", help="generate N random cases")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--cases-only", action="store_true",
                        help="with --generate: print the cases without evaluating them")
    args = parser.parse_args()
    out = sys.stdout
    if args.generate is not None:
        cases = generate(args.generate, args.seed)
    elif args.file and args.file != "-":
        with open(args.file, encoding="utf-8") as fp:
            cases = list(read_cases(fp))
    else:
        cases = list(read_cases(sys.stdin))
    for case in cases:
        if args.cases_only:
            out.write(json.dumps(case, ensure_ascii=False) + "\n")
        else:
            out.write(json.dumps(run_case(case), ensure_ascii=False) + "\n")


if __name__ == "__main__":
    main()
