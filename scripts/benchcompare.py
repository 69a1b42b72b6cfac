#!/usr/bin/env python3
"""Compares benchmark figures with the committed baseline (tests/bench/baseline.json).

The benchmarks print one line per figure: `BENCH <name> <value> <unit>`. Given the output of
several runs, each figure's median is compared with the baseline's; a figure more than the
threshold (25%) worse — higher where lower is better (ms, MB), lower where higher is better
(calls/s, spans/s) — is printed, and the exit status is 1 when there is any.

  benchcompare.py compare BASELINE OUTPUT...          compare (exit 1 on a regression)
      [--flagged-to FILE]                             …and name, one a line, the benchmarks
                                                      whose figures came out worse
  benchcompare.py update BASELINE OUTPUT...           rewrite the baseline from the medians

The baseline: {"figures": {"<name>": {"value": 12.3, "unit": "ms", "better": "lower",
"spread": 0.8}, ...}}; `spread` (optional) is how far apart the baseline's own runs fell (twice
their median absolute deviation): a figure is only flagged when it is also worse by more than
that, so that a wall-clock figure of a few milliseconds on a busy machine does not fail the
guard by noise alone. When both the baseline and the runs have the `calibration` figure
(bench_calibrate: a fixed piece of work, run before each benchmark), times and rates are first
scaled by how much slower or faster that work ran than at the baseline: on a shared machine the
load of the moment moves every figure together. A wall-clock figure of under 20 ms that has a
`<name>_cpu` twin is shown but judged by the twin.
Only Debian's python3 standard library is used.
"""

import argparse
import json
import os
import re
import statistics
import sys

# bench_calibrate's figure: the machine's speed, not a figure of Hako's.
CALIBRATION = "calibration"

BENCH_LINE = re.compile(r"^BENCH\s+(\S+)\s+(-?[0-9][0-9.eE+-]*)\s+(\S+)\s*$")


def better_for_unit(unit):
    """Which direction is better for a unit: rates (anything per second) are better higher;
    times, sizes, ratios and counts of work are better lower."""
    u = unit.lower()
    if u.endswith("/s") or u.endswith("/sec"):
        return "higher"
    return "lower"


def benchmark_of(path):
    """The benchmark an output file came from: `bench_interp.2.txt` → `bench_interp`."""
    return os.path.basename(path).split(".", 1)[0]


def read_figures(paths, sources=None):
    """{name: (unit, [values...])} from every BENCH line of the files ('-': stdin); `sources`,
    when given, receives {name: {benchmark, ...}} (see benchmark_of())."""
    figures = {}
    for path in paths:
        stream = sys.stdin if path == "-" else open(path, encoding="utf-8", errors="replace")
        with stream:
            for line in stream:
                m = BENCH_LINE.match(line.strip())
                if not m:
                    continue
                name, value, unit = m.group(1), float(m.group(2)), m.group(3)
                figures.setdefault(name, (unit, []))[1].append(value)
                if sources is not None and path != "-":
                    sources.setdefault(name, set()).add(benchmark_of(path))
    return figures


def medians(figures):
    return {name: (unit, statistics.median(values)) for name, (unit, values) in figures.items()}


def spreads(figures):
    """Twice the median absolute deviation of each figure's runs: how far apart runs of the same
    code fall on this machine, undisturbed by one run that a busy moment slowed down."""
    result = {}
    for name, (unit, values) in figures.items():
        middle = statistics.median(values)
        result[name] = 2 * statistics.median(abs(v - middle) for v in values)
    return result


def worse_by(entry, value):
    """How much worse `value` is than the baseline entry, as a fraction (0.3: 30% worse;
    negative: better)."""
    base = float(entry["value"])
    if entry.get("better", better_for_unit(entry.get("unit", ""))) == "higher":
        if value <= 0:
            return float("inf") if base > 0 else 0.0
        return base / value - 1.0
    if base <= 0:
        return 0.0 if value <= 0 else float("inf")
    return value / base - 1.0


TIME_UNITS = ("ns", "us", "\u00b5s", "ms", "s")


def machine_factor(baseline, measured):
    """How much slower the machine is now than when the baseline was taken, from the
    `calibration` figure (bench_calibrate: a fixed piece of work); 1 without it."""
    if CALIBRATION not in baseline or CALIBRATION not in measured:
        return 1.0
    base = float(baseline[CALIBRATION]["value"])
    now = measured[CALIBRATION][1]
    return now / base if base > 0 and now > 0 else 1.0


def at_baseline_speed(value, unit, factor):
    """`value` as it would have been on the machine as fast as at the baseline: times divided
    by the factor, rates multiplied; sizes and counts as they are."""
    if unit in TIME_UNITS:
        return value / factor
    if better_for_unit(unit) == "higher":
        return value * factor
    return value


# Below this many milliseconds a wall-clock figure is mostly the scheduler on a shared machine.
SHORT_WALL_MS = 20.0


def judged_by_cpu_twin(name, entry, baseline, measured):
    """A short wall-clock figure (in ms, under SHORT_WALL_MS) with a `<name>_cpu` twin in both
    the baseline and the runs is shown but not judged: its twin is."""
    twin = name + "_cpu"
    return (entry.get("unit") == "ms" and float(entry["value"]) < SHORT_WALL_MS
            and twin in baseline and twin in measured)


def compare(baseline_path, outputs, threshold, flagged_to=None):
    with open(baseline_path, encoding="utf-8") as f:
        baseline = json.load(f)["figures"]
    sources = {}
    measured = medians(read_figures(outputs, sources))
    flagged = set()
    factor = machine_factor(baseline, measured)
    if factor != 1.0:
        print(f"the machine is {factor:.2f}x as slow as when the baseline was taken "
              f"(calibration); times and rates below are scaled by it")
    regressions = 0
    for name in sorted(baseline):
        entry = baseline[name]
        if name == CALIBRATION:
            continue
        if name not in measured:
            print(f"missing  {name}: not measured (baseline {entry['value']} {entry['unit']})")
            continue
        unit, value = measured[name]
        value = at_baseline_speed(value, unit, factor)
        change = worse_by(entry, value)
        if judged_by_cpu_twin(name, entry, baseline, measured):
            print(f"info     {name}: {value:g} {unit} against {entry['value']:g} "
                  f"{entry['unit']} (judged by {name}_cpu)")
            continue
        within_spread = abs(value - float(entry["value"])) <= float(entry.get("spread", 0))
        line = (f"{name}: {value:g} {unit} against {entry['value']:g} {entry['unit']} "
                f"({'better' if change <= 0 else 'worse'} by {abs(change) * 100:.0f}%, "
                f"{entry.get('better', better_for_unit(unit))} is better"
                f"{'; within the baseline runs spread' if change > threshold and within_spread else ''})")
        if change > threshold and not within_spread:
            regressions += 1
            flagged |= sources.get(name, set())
            print("WORSE    " + line)
        else:
            print("ok       " + line)
    for name in sorted(set(measured) - set(baseline) - {CALIBRATION}):
        unit, value = measured[name]
        print(f"new      {name}: {value:g} {unit} (not in the baseline)")
    if flagged_to:
        with open(flagged_to, "w", encoding="utf-8") as f:
            f.write("".join(b + "\n" for b in sorted(flagged)))
    if regressions:
        print(f"{regressions} figure(s) more than {threshold * 100:.0f}% worse than the baseline")
        return 1
    print(f"no figure more than {threshold * 100:.0f}% worse than the baseline")
    return 0


def update(baseline_path, outputs):
    try:
        with open(baseline_path, encoding="utf-8") as f:
            old = json.load(f).get("figures", {})
    except FileNotFoundError:
        old = {}
    figures = {}
    measured = read_figures(outputs)
    spread = spreads(measured)
    for name, (unit, value) in sorted(medians(measured).items()):
        better = old.get(name, {}).get("better", better_for_unit(unit))
        figures[name] = {"value": round(value, 3), "unit": unit, "better": better,
                         "spread": round(spread[name], 3)}
    if not figures:
        print("no BENCH lines found; the baseline is left as it was", file=sys.stderr)
        return 1
    with open(baseline_path, "w", encoding="utf-8") as f:
        json.dump({"figures": figures}, f, indent=2, sort_keys=True)
        f.write("\n")
    print(f"{baseline_path}: {len(figures)} figures")
    return 0


def main(argv):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("action", choices=["compare", "update"])
    parser.add_argument("baseline")
    parser.add_argument("outputs", nargs="+", help="files of benchmark output ('-': stdin)")
    parser.add_argument("--threshold", type=float, default=0.25,
                        help="the fraction worse that fails (default 0.25)")
    parser.add_argument("--flagged-to", metavar="FILE",
                        help="compare: write the benchmarks whose figures came out worse, one "
                             "a line (an empty file when none did)")
    args = parser.parse_args(argv)
    if args.action == "update":
        return update(args.baseline, args.outputs)
    return compare(args.baseline, args.outputs, args.threshold, args.flagged_to)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
