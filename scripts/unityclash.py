#!/usr/bin/env python3
"""Lists the file-local names two sources of one unity batch share (HAKO_UNITY_BUILD).

In a unity build CMake compiles a library's sources in batches (<build>/**/Unity/unity_N_cxx.cxx,
each including up to 16 sources), so two sources that each define, say, `isSpace` in an
anonymous namespace fail to compile together, or worse, their overloads meet silently. Given a
configured build folder, this prints each such name with the sources that define it, so that
one can be renamed, shared through a header, or compiled on its own
(SKIP_UNITY_BUILD_INCLUSION, see core/CMakeLists.txt). The reading is textual (Hako's layout:
`namespace {` and definitions at column 0), so it may list a name that does not clash.

  scripts/unityclash.py BUILD        exit 1 when any name is shared
Only Debian's python3 standard library is used.
"""

import collections
import glob
import os
import re
import sys

NAMED = re.compile(r"^(?:struct|class|enum(?:\s+class)?|using)\s+(\w+)")
FUNCTION = re.compile(r"^[\w:<>,\s\*&]*?\b(\w+)\s*\(")
VARIABLE = re.compile(r"^(?:static\s+)?(?:inline\s+)?(?:constexpr|const)?[\w:<>,\s\*&]*?\b(\w+)"
                      r"\s*(?:\[[^\]]*\])?\s*(=|\{)")


def local_names(path):
    """Names defined at file scope inside an anonymous namespace, or declared static/const."""
    names = set()
    try:
        lines = open(path, encoding="utf-8", errors="replace").read().split("\n")
    except OSError:
        return names
    anonymous = False
    for line in lines:
        if re.match(r"^namespace\s*\{", line):
            anonymous = True
            continue
        if re.match(r"^\}\s*//\s*namespace\s*$", line):
            anonymous = False
            continue
        if not line or line[0] in " \t#/}{":
            continue
        if not (anonymous or line.startswith(("static ", "constexpr ", "const "))):
            continue
        for pattern in (NAMED, FUNCTION, VARIABLE):
            m = pattern.match(line)
            if m and (pattern is not FUNCTION or not line.rstrip().endswith(";")):
                names.add(m.group(1))
                break
    return names


def main():
    if len(sys.argv) != 2:
        print(__doc__)
        return 2
    shared = 0
    batches = glob.glob(os.path.join(sys.argv[1], "**", "Unity", "unity_*.cxx"), recursive=True)
    for batch in sorted(batches):
        sources = re.findall(r'#include "([^"]+)"', open(batch, encoding="utf-8").read())
        where = collections.defaultdict(list)
        for source in sources:
            for name in local_names(source):
                where[name].append(source)
        for name, files in sorted(where.items()):
            if len(files) > 1:
                shared += 1
                print(f"{name}: {' '.join(files)}")
    return 1 if shared else 0


if __name__ == "__main__":
    sys.exit(main())
