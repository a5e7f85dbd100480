#!/usr/bin/env python3
"""Plots the snapshot throughput benchmark's JSON output as an SVG.

    bazel run -c opt //snapshot:throughput_benchmark -- \\
        --benchmark_out=/tmp/throughput.json --benchmark_out_format=json
    python3 tools/plot_benchmarks.py /tmp/throughput.json docs/snapshot_throughput.svg

Needs gnuplot (Debian: gnuplot-nox). Each series is a benchmark of
//snapshot:throughput_benchmark (BM_<Operation>/<0 memory | 1 disk>/<MiB>),
plotted as GB/s against the data size (an SVG, or a PNG when the
target ends in .png); CUDA checkpoint's published figures
(about 1.9 GB/s checkpoint and 4.4 GB/s restore on an A10G) are drawn as
reference lines.
"""

import json
import os
import shutil
import subprocess
import sys
import tempfile

SERIES = [
    # (benchmark, mode, title, style)
    ("BM_Memcpy", 0, "memcpy (same bytes, same run)", "lc rgb '#888888' dt 2 pt 1"),
    ("BM_FileWrite", 0, "write(2) + fsync of a file (same run)",
     "lc rgb '#555555' dt 3 pt 2"),
    ("BM_Backup", 0, "Backup, image in host memory", "lc rgb '#1f77b4' pt 7"),
    ("BM_Restore", 0, "Restore after memory loss, host memory",
     "lc rgb '#2ca02c' pt 7"),
    ("BM_IncrementalBackup", 0, "incremental Backup, 1 % rewritten, host memory",
     "lc rgb '#9467bd' pt 7"),
    ("BM_Backup", 1, "Backup, image on disk", "lc rgb '#1f77b4' dt 4 pt 5"),
    ("BM_Restore", 1, "Restore after memory loss, image on disk",
     "lc rgb '#2ca02c' dt 4 pt 5"),
    ("BM_IncrementalBackup", 1, "incremental Backup, 1 % rewritten, on disk",
     "lc rgb '#9467bd' dt 4 pt 5"),
]
CUDA_CHECKPOINT_GBPS = 1.9
CUDA_RESTORE_GBPS = 4.4


def load(path):
    """{(name, mode): [(MiB, GB/s)]} from Google Benchmark's JSON."""
    with open(path, encoding="utf-8") as f:
        data = json.load(f)
    points = {}
    for run in data.get("benchmarks", []):
        if run.get("run_type", "iteration") != "iteration":
            continue
        if "error_occurred" in run and run["error_occurred"]:
            continue
        parts = run["name"].split("/")
        if len(parts) < 3 or "bytes_per_second" not in run:
            continue
        name, mode, mib = parts[0], int(parts[1]), int(parts[2])
        points.setdefault((name, mode), []).append(
            (mib, run["bytes_per_second"] / 1e9))
    return points


def main(argv):
    if len(argv) != 3:
        print(__doc__.strip(), file=sys.stderr)
        return 2
    source, target = argv[1], argv[2]
    if shutil.which("gnuplot") is None:
        print("plot_benchmarks: gnuplot not found (apt-get install gnuplot-nox)",
              file=sys.stderr)
        return 2
    points = load(source)
    if not points:
        print(f"plot_benchmarks: no throughput runs in {source}", file=sys.stderr)
        return 2
    with tempfile.TemporaryDirectory() as tmp:
        plots = []
        for index, (name, mode, title, style) in enumerate(SERIES):
            series = sorted(points.get((name, mode), []))
            if not series:
                continue
            data = os.path.join(tmp, f"s{index}.dat")
            with open(data, "w", encoding="utf-8") as f:
                for mib, gbps in series:
                    f.write(f"{mib} {gbps}\n")
            plots.append(f"'{data}' using 1:2 with linespoints lw 2 {style} "
                         f"title \"{title}\"")
        plots.append(f"{CUDA_CHECKPOINT_GBPS} with lines lw 1 lc rgb '#d62728' "
                     "title \"CUDA checkpoint, published (A10G)\"")
        plots.append(f"{CUDA_RESTORE_GBPS} with lines lw 1 dt 2 lc rgb '#d62728' "
                     "title \"CUDA restore, published (A10G)\"")
        terminal = ("pngcairo size 1100,600 font 'sans,11'"
                    if target.endswith(".png") else
                    "svg size 1100,600 dynamic font 'sans,12' "
                    "background rgb 'white'")
        script = f"""
set terminal {terminal}
set output '{os.path.abspath(target)}'
set title 'Snapshot throughput against data size (simulated device, this machine)'
set xlabel 'device memory saved (MiB)'
set ylabel 'GB/s (log scale)'
set logscale xy
set xrange [48:1400]
set yrange [0.1:200]
set xtics (64, 256, 1024)
set grid
set key outside right center box
plot {", ".join(plots)}
"""
        subprocess.run(["gnuplot"], input=script, text=True, check=True)
    print(f"plot_benchmarks: wrote {target}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
