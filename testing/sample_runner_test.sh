#!/bin/bash
# Checks sample_runner's verdicts against a stand-in sample.
# Usage: sample_runner_test.sh <sample_runner> <stand-in sample>
set -u
runner=$1
sample=$2
out=${TEST_TMPDIR:-/tmp}/sample_runner_test.out
failures=0

expect() {
  local want=$1
  shift
  local got=0
  "$runner" "$@" >"$out" 2>&1 || got=$?
  if [[ $got != "$want" ]]; then
    echo "FAIL: sample_runner $* exited $got, want $want"
    cat "$out"
    failures=$((failures + 1))
  fi
}

expect 0 "$sample" pass
grep -q '^starting pass$' "$out" || { echo "FAIL: stdout not echoed"; failures=$((failures + 1)); }
expect 0 "$sample" pass_no_newline
expect 0 "$sample" args "a b" c
expect 1 "$sample" fail
expect 1 "$sample" exit1
expect 1 "$sample" prefix
expect 1 "$sample" stderr
expect 1 "$sample" abort
expect 1 "$sample" unknown_mode
expect 1 /nonexistent/sample
expect 2

start=$SECONDS
expect 1 --timeout_s=1 "$sample" hang
expect 1 --timeout_s=1 "$sample" closed_stdout_hang
if ((SECONDS - start > 10)); then
  echo "FAIL: timeouts took $((SECONDS - start)) s"
  failures=$((failures + 1))
fi

if ((failures > 0)); then
  echo "$failures check(s) failed"
  exit 1
fi
echo "all checks passed"
