#!/usr/bin/env python3
"""scripts/benchcompare.py, the benchmark guard: given a fake baseline and fake BENCH output,
a figure 30% worse fails the comparison and one 10% worse passes, for figures where lower is
better (ms) and where higher is better (calls/s); medians of several runs are compared, a change
within the baseline runs' own spread is not flagged, times and rates are scaled by the
machine's speed (the calibration figure), a short wall-clock figure is judged by its CPU-time
twin, the benchmarks a worse figure came from are named (scripts/dev measures them again), and
`update` writes the medians with each figure's direction and spread."""

import contextlib
import io
import json
import os
import sys
import tempfile
import unittest

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "scripts"))
import benchcompare  # noqa: E402

BASELINE = {
    "figures": {
        "startup_run_hello": {"value": 10.0, "unit": "ms", "better": "lower"},
        "promptlog_writer_calls_per_s": {"value": 10000.0, "unit": "calls/s", "better": "higher"},
    }
}


class BenchCompareTest(unittest.TestCase):
    def setUp(self):
        self.dir = tempfile.TemporaryDirectory()
        self.baseline = os.path.join(self.dir.name, "baseline.json")
        with open(self.baseline, "w", encoding="utf-8") as f:
            json.dump(BASELINE, f)

    def tearDown(self):
        self.dir.cleanup()

    def output(self, *runs):
        """One file per run, each a benchmark's stdout with other lines around the figures."""
        paths = []
        for i, lines in enumerate(runs):
            path = os.path.join(self.dir.name, f"run{i}.txt")
            with open(path, "w", encoding="utf-8") as f:
                f.write("# a comment line\n" + "\n".join(lines) + "\nsome other text\n")
            paths.append(path)
        return paths

    def compare(self, paths):
        out = io.StringIO()
        with contextlib.redirect_stdout(out):
            status = benchcompare.main(["compare", self.baseline, *paths])
        return status, out.getvalue()

    def test_ten_percent_worse_passes(self):
        status, text = self.compare(self.output(
            ["BENCH startup_run_hello 11.0 ms", "BENCH promptlog_writer_calls_per_s 9100 calls/s"]))
        self.assertEqual(status, 0, text)
        self.assertNotIn("WORSE", text)

    def test_thirty_percent_slower_fails(self):
        status, text = self.compare(self.output(
            ["BENCH startup_run_hello 13.0 ms", "BENCH promptlog_writer_calls_per_s 10000 calls/s"]))
        self.assertEqual(status, 1, text)
        self.assertIn("WORSE    startup_run_hello", text)
        self.assertNotIn("WORSE    promptlog_writer", text)

    def test_thirty_percent_lower_rate_fails(self):
        # Higher is better: 7,000 calls/s against 10,000 takes 43% longer per call.
        status, text = self.compare(self.output(
            ["BENCH startup_run_hello 9.0 ms", "BENCH promptlog_writer_calls_per_s 7000 calls/s"]))
        self.assertEqual(status, 1, text)
        self.assertIn("WORSE    promptlog_writer_calls_per_s", text)

    def test_a_higher_rate_and_a_shorter_time_pass(self):
        status, text = self.compare(self.output(
            ["BENCH startup_run_hello 5.0 ms", "BENCH promptlog_writer_calls_per_s 30000 calls/s"]))
        self.assertEqual(status, 0, text)

    def test_the_median_of_the_runs_is_compared(self):
        # One noisy run (30 ms) among three does not fail; the median is 10.5 ms.
        status, text = self.compare(self.output(
            ["BENCH startup_run_hello 10.5 ms"], ["BENCH startup_run_hello 30.0 ms"],
            ["BENCH startup_run_hello 10.0 ms"]))
        self.assertEqual(status, 0, text)
        self.assertIn("startup_run_hello: 10.5 ms", text)

    def test_a_change_within_the_baselines_own_spread_passes(self):
        # The baseline's runs were 4 ms apart: 13 ms against 10 ms is noise, 15 ms is not.
        BASELINE["figures"]["startup_run_hello"]["spread"] = 4.0
        try:
            with open(self.baseline, "w", encoding="utf-8") as f:
                json.dump(BASELINE, f)
        finally:
            del BASELINE["figures"]["startup_run_hello"]["spread"]
        status, text = self.compare(self.output(["BENCH startup_run_hello 13.0 ms"]))
        self.assertEqual(status, 0, text)
        self.assertIn("within the baseline runs spread", text)
        status, text = self.compare(self.output(["BENCH startup_run_hello 15.0 ms"]))
        self.assertEqual(status, 1, text)

    def test_figures_are_scaled_by_the_machines_speed(self):
        BASELINE["figures"]["calibration"] = {"value": 100.0, "unit": "ms", "better": "lower"}
        try:
            with open(self.baseline, "w", encoding="utf-8") as f:
                json.dump(BASELINE, f)
        finally:
            del BASELINE["figures"]["calibration"]
        # The machine is half as fast: 15 ms and 5,000 calls/s are the baseline's figures.
        status, text = self.compare(self.output(
            ["BENCH calibration 200 ms", "BENCH startup_run_hello 15.0 ms",
             "BENCH promptlog_writer_calls_per_s 5000 calls/s"]))
        self.assertEqual(status, 0, text)
        self.assertIn("2.00x as slow", text)
        # As fast as then: 13 ms is 30% worse.
        status, text = self.compare(self.output(
            ["BENCH calibration 100 ms", "BENCH startup_run_hello 13.0 ms",
             "BENCH promptlog_writer_calls_per_s 10000 calls/s"]))
        self.assertEqual(status, 1, text)
        self.assertIn("WORSE    startup_run_hello", text)
        # Twice as fast: 6,000 calls/s is a 40% lower rate than 10,000 would be then.
        status, text = self.compare(self.output(
            ["BENCH calibration 50 ms", "BENCH startup_run_hello 4.0 ms",
             "BENCH promptlog_writer_calls_per_s 12000 calls/s"]))
        self.assertEqual(status, 1, text)
        self.assertIn("WORSE    promptlog_writer_calls_per_s", text)

    def test_a_short_wall_figure_is_judged_by_its_cpu_twin(self):
        BASELINE["figures"]["query_ms"] = {"value": 3.0, "unit": "ms", "better": "lower"}
        BASELINE["figures"]["query_ms_cpu"] = {"value": 3.0, "unit": "ms", "better": "lower"}
        try:
            with open(self.baseline, "w", encoding="utf-8") as f:
                json.dump(BASELINE, f)
        finally:
            del BASELINE["figures"]["query_ms"], BASELINE["figures"]["query_ms_cpu"]
        # 6 ms of wall time while the processor time stayed: the machine was busy.
        status, text = self.compare(self.output(
            ["BENCH query_ms 6.0 ms", "BENCH query_ms_cpu 3.1 ms"]))
        self.assertEqual(status, 0, text)
        self.assertIn("info     query_ms:", text)
        status, text = self.compare(self.output(
            ["BENCH query_ms 6.0 ms", "BENCH query_ms_cpu 4.5 ms"]))
        self.assertEqual(status, 1, text)
        self.assertIn("WORSE    query_ms_cpu", text)

    def named_output(self, name, lines):
        """A run's output file named as scripts/dev names it: `<benchmark>.<run>.txt`."""
        path = os.path.join(self.dir.name, name)
        with open(path, "w", encoding="utf-8") as f:
            f.write("\n".join(lines) + "\n")
        return path

    def test_the_benchmarks_of_worse_figures_are_named(self):
        # scripts/dev measures again only what came out worse: the benchmark that printed a
        # worse figure is named, one that printed only good ones is not.
        paths = [self.named_output(f"bench_startup.{i}.txt", ["BENCH startup_run_hello 14.0 ms"])
                 for i in (1, 2, 3)]
        paths += [self.named_output(f"bench_promptlog.{i}.txt",
                                    ["BENCH promptlog_writer_calls_per_s 10500 calls/s"])
                  for i in (1, 2, 3)]
        flagged = os.path.join(self.dir.name, "flagged")
        out = io.StringIO()
        with contextlib.redirect_stdout(out):
            status = benchcompare.main(["compare", self.baseline, *paths, "--flagged-to", flagged])
        self.assertEqual(status, 1, out.getvalue())
        with open(flagged, encoding="utf-8") as f:
            self.assertEqual(f.read().split(), ["bench_startup"])
        # Measured again: four more runs at the baseline's figure outvote the three slow ones.
        paths += [self.named_output(f"bench_startup.{i}.txt", ["BENCH startup_run_hello 10.0 ms"])
                  for i in (4, 5, 6, 7)]
        with contextlib.redirect_stdout(io.StringIO()):
            status = benchcompare.main(["compare", self.baseline, *paths, "--flagged-to", flagged])
        self.assertEqual(status, 0)
        with open(flagged, encoding="utf-8") as f:
            self.assertEqual(f.read(), "")

    def test_update_writes_medians_and_directions(self):
        paths = self.output(
            ["BENCH startup_version 2.0 ms", "BENCH otel_receiver_spans_per_s 50000 spans/s"],
            ["BENCH startup_version 4.0 ms", "BENCH otel_receiver_spans_per_s 70000 spans/s"],
            ["BENCH startup_version 3.0 ms", "BENCH otel_receiver_spans_per_s 60000 spans/s"])
        with contextlib.redirect_stdout(io.StringIO()):
            self.assertEqual(benchcompare.main(["update", self.baseline, *paths]), 0)
        with open(self.baseline, encoding="utf-8") as f:
            figures = json.load(f)["figures"]
        self.assertEqual(figures["startup_version"],
                         {"value": 3.0, "unit": "ms", "better": "lower", "spread": 2.0})
        self.assertEqual(figures["otel_receiver_spans_per_s"],
                         {"value": 60000.0, "unit": "spans/s", "better": "higher",
                          "spread": 20000.0})
        # The figures of the old baseline that were not measured are not kept.
        self.assertNotIn("startup_run_hello", figures)


if __name__ == "__main__":
    unittest.main()
