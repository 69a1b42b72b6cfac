#!/usr/bin/env python3
"""Source rules a compiler cannot check, each one a class of bug found once and fixed at its
source. Prints every breach as file:line: rule, and exits 1 if there is any.

    sourcerules.py <repository root>
"""
import pathlib
import re
import sys

RULES = [
    (
        # QFuture::then(context, ...) runs the continuation at once, inside the starting call,
        # when the work has already finished: the caller then overwrites the answer.
        re.compile(r"\.then\(\s*(this|self|context|[a-z]\w*)\s*,"),
        "take a background answer with hako::whenReady (core/util/whenready.h), "
        "not QFuture::then(context, ...): that can answer inside the starting call",
    ),
]
AREAS = ["core", "widgets", "app", "plugins", "sdk"]


def breaches(root):
    for area in AREAS:
        for path in sorted((root / area).rglob("*")):
            if path.suffix not in (".cpp", ".h"):
                continue
            text = path.read_text(encoding="utf-8", errors="replace")
            for number, line in enumerate(text.splitlines(), 1):
                code = line.split("//", 1)[0]
                for pattern, rule in RULES:
                    if pattern.search(code):
                        yield f"{path.relative_to(root)}:{number}: {rule}"


def main():
    root = pathlib.Path(sys.argv[1]).resolve()
    if not (root / "core").is_dir():
        print(f"{root} is not the repository root (no core/)", file=sys.stderr)
        return 2
    found = list(breaches(root))
    for b in found:
        print(b)
    # The rules must still see code: a moved folder would make the check pass vacuously.
    checked = sum(1 for a in AREAS for p in (root / a).rglob("*.cpp"))
    if checked < 100:
        print(f"only {checked} source files found under {AREAS}", file=sys.stderr)
        return 2
    print(f"{checked} source files checked, {len(found)} breaches")
    return 1 if found else 0


if __name__ == "__main__":
    sys.exit(main())
