#!/bin/bash
# Runs the global-state benchmark once (one iteration per benchmark) and checks
# that it completes and prints every ratio line.
set -euo pipefail

binary="$1"
output="$("${binary}" --benchmark_min_time=0 2>&1)" || {
  echo "${output}"
  echo "FAIL: benchmark exited with status $?"
  exit 1
}
echo "${output}"
if grep -q "ERROR OCCURRED" <<<"${output}"; then
  echo "FAIL: a benchmark reported an error"
  exit 1
fi
for label in \
    "gate enter+exit vs atomic acquire load" \
    "gate enter+exit vs the cheapest gated call (event record enqueue)" \
    "Lock, 8 parked background + 8 idle API threads" \
    "Unlock -> blocked caller running (no background threads)" \
    "Unlock -> blocked caller running, 8 background threads"; do
  line="$(grep -F "RATIO ${label}:" <<<"${output}" || true)"
  if [[ -z "${line}" || "${line}" == *"not measured"* ]]; then
    echo "FAIL: missing ratio line for: ${label}"
    exit 1
  fi
done
echo "PASS"
