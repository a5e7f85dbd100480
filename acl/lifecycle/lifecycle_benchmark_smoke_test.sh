#!/bin/sh
# Runs a benchmark binary once, so it keeps building and running.
# Usage: lifecycle_benchmark_smoke_test.sh <benchmark binary>
set -eu
"$1" --benchmark_min_time=0
