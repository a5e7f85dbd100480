#!/usr/bin/env python3
"""Runs two builds' benchmark binaries alternately and compares them.

  python3 tools/compare_benchmarks.py OLD_BAZEL_BIN NEW_BAZEL_BIN [--rounds N]
                                     [--only SUBSTRING] [--min-time SECONDS]

OLD_BAZEL_BIN and NEW_BAZEL_BIN are `bazel-bin` folders of two checkouts built
with `bazel build --config=bench` of the targets below. Each round runs every
benchmark once with the old binary and once with the new one, alternating
which goes first, so both see the same machine load; the table gives each
side's median over the rounds and new/old: the figures a change of the
runtime's structure must keep within 10 % of the old binary (DESIGN.md §7.1).
A benchmark that reports a "per_baseline" counter (each operation against a
baseline measured just before it, median) is judged by that counter, which
does not follow the machine's memory bandwidth from run to run.
"""
import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile

# (binary under bazel-bin, benchmark name regex, the figure)
BENCHMARKS = [
    ("runtime/global_state_benchmark", "^BM_GateEnterExit/", "gate enter+exit"),
    ("runtime/global_state_benchmark", "^BM_EventRecordEnqueue/",
     "event-record enqueue"),
    ("acl/api/kernel_launch_benchmark", "^BM_EmptyKernel/1000/",
     "empty kernel launch (per launch, 1000 queued)"),
    ("acl/api/model_replay_benchmark", "^BM_ReplayGraph/",
     "graph replay (1,000 tasks)"),
    ("snapshot/snapshot_benchmark", "^BM_Backup/", "Backup"),
    ("snapshot/snapshot_benchmark", "^BM_Restore/", "Restore"),
]


def _runfiles(binary):
    tree = binary + ".runfiles/ascendcl"
    return tree if os.path.isdir(tree) else None


def run(binary, pattern, min_time=None):
    extra = [] if min_time is None else [f"--benchmark_min_time={min_time}"]
    with tempfile.NamedTemporaryFile(suffix=".json") as out:
        subprocess.run(
            [binary, "--benchmark_filter=" + pattern,
             "--benchmark_out=" + out.name, "--benchmark_out_format=json"]
            + extra,
            capture_output=True, text=True, check=False, timeout=600,
            # Data files (test kernels) are found relative to the runfiles.
            cwd=_runfiles(binary))
        results = json.load(open(out.name))["benchmarks"]
    runs = [r for r in results
            if r.get("run_type", "iteration") == "iteration"]
    if not runs:
        raise RuntimeError(f"{binary}: no result for {pattern}")
    # A benchmark that pairs each timed operation with a baseline measured
    # just before it reports the median ratio as "per_baseline": judged
    # instead of the raw time, which follows the machine's memory bandwidth
    # from one run to the next (DESIGN.md §7.1).
    if all("per_baseline" in r for r in runs):
        return statistics.median(r["per_baseline"] for r in runs), "x baseline"
    times = [r["real_time"] * {"ns": 1, "us": 1e3, "ms": 1e6, "s": 1e9}[
        r.get("time_unit", "ns")] for r in runs]
    # A benchmark with repetitions of its own: their median.
    return statistics.median(times), "ns"



def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("old")
    parser.add_argument("new")
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--only", default="",
                        help="run only the figures whose name contains this")
    parser.add_argument("--min-time", type=float, default=None,
                        help="seconds per benchmark run (Google Benchmark's "
                        "--benchmark_min_time; default: each benchmark's "
                        "own), to fit more alternating rounds in the time")
    args = parser.parse_args()
    rows = []
    for binary, pattern, what in BENCHMARKS:
        if args.only not in what:
            continue
        old_bin = os.path.join(args.old, binary)
        new_bin = os.path.join(args.new, binary)
        old, new = [], []
        units = set()
        for r in range(args.rounds):
            order = [(old_bin, old), (new_bin, new)]
            if r % 2:
                order.reverse()
            for path, sink in order:
                value, unit = run(path, pattern, args.min_time)
                sink.append(value)
                units.add(unit)
        if len(units) != 1:
            raise RuntimeError(f"{what}: the two builds report different units")
        unit = units.pop()
        o, n = statistics.median(old), statistics.median(new)
        rows.append((what, unit, o, n, n / o))
        print(f"{what}: old {o:,.3f} {unit}, new {n:,.3f} {unit}, "
              f"new/old {n / o:.2f}", file=sys.stderr)
    print("| figure | unit | old (median) | new (median) | new/old |")
    print("| --- | --- | ---: | ---: | ---: |")
    for what, unit, o, n, ratio in rows:
        print(f"| {what} | {unit} | {o:,.3f} | {n:,.3f} | {ratio:.2f} |")


if __name__ == "__main__":
    main()
