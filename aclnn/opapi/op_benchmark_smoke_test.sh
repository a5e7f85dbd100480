#!/bin/bash
# Runs op_benchmark briefly on small sizes so it keeps building and running:
# fails when it exits non-zero, reports an error, or lacks a RATIO line.
#   op_benchmark_smoke_test.sh BINARY
set -uo pipefail
if ! output="$("$1" --matmul_n=256 --add_elements=1048576 --fixed_batch=50 \
    --pairs=2 --benchmark_min_time=0 2>&1)"; then
  echo "${output}"
  echo "FAIL: $1 exited with an error"
  exit 1
fi
echo "${output}"
if grep -q "ERROR OCCURRED" <<<"${output}"; then
  echo "FAIL: $1 reported an error"
  exit 1
fi
for required in "RATIO aclnnMatmul 256x256" "RATIO aclnnAdd 1048576" \
    "RATIO fixed cost"; do
  if ! grep -qF -- "${required}" <<<"${output}"; then
    echo "FAIL: output lacks \"${required}\""
    exit 1
  fi
done
echo "PASS"
