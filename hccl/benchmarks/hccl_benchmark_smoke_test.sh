#!/bin/bash
# Runs hccl_benchmark briefly on small sizes so it keeps building and
# running: fails when it exits non-zero, reports an error, or lacks a RATIO
# line.
#   hccl_benchmark_smoke_test.sh BINARY
set -uo pipefail
if ! output="$("$1" --ar_mib=1 --ranks=4 --mp_mib=1 --mp_ranks=2 \
    --mp_iters=2 --lat_iters=20 --pairs=2 --benchmark_min_time=0 2>&1)"; then
  echo "${output}"
  echo "FAIL: $1 exited with an error"
  exit 1
fi
echo "${output}"
if grep -q "ERROR OCCURRED" <<<"${output}"; then
  echo "FAIL: $1 reported an error"
  exit 1
fi
for required in "RATIO AllReduce 1 MiB FLOAT x 4 thread ranks" \
    "RATIO AllReduce 1 MiB FLOAT x 2 processes" "RATIO AllReduce of 1 FLOAT" \
    "BUSBW AllReduce 4 thread ranks"; do
  if ! grep -qF -- "${required}" <<<"${output}"; then
    echo "FAIL: output lacks \"${required}\""
    exit 1
  fi
done
echo "PASS"
