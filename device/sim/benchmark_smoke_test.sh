#!/bin/bash
# Runs a Google Benchmark binary once (--benchmark_min_time=0) so it cannot
# rot. Fails when it exits non-zero, reports an error, or its output lacks
# one of the given strings (e.g. a counter name).
#   benchmark_smoke_test.sh BINARY [REQUIRED_STRING...]
set -uo pipefail
binary="$1"
shift
if ! output="$("${binary}" --benchmark_min_time=0 2>&1)"; then
  echo "${output}"
  echo "FAIL: ${binary} exited with an error"
  exit 1
fi
echo "${output}"
if grep -q "ERROR OCCURRED" <<<"${output}"; then
  echo "FAIL: ${binary} reported an error"
  exit 1
fi
for required in "$@"; do
  if ! grep -qF -- "${required}" <<<"${output}"; then
    echo "FAIL: output lacks \"${required}\""
    exit 1
  fi
done
echo "PASS"
