#!/usr/bin/env bash
# Builds the libFuzzer targets of testing/fuzz with --config=fuzz (clang 14,
# ASan + UBSan) and runs each for SECONDS on a temporary copy of its seed
# corpus (the repository is never written). Exits non-zero if a fuzzer
# reports a crash, a sanitizer error, a model mismatch, a timeout or an
# out-of-memory; the reproducer is kept and its path printed.
#
#   testing/fuzz/run_fuzzers.sh SECONDS
#
# Environment:
#   BAZEL        the bazel command with its startup options
#                (default "bazel"; e.g. "bazel --output_base=$HOME/.cache/ob")
#   BAZEL_FLAGS  extra build flags (e.g. "--jobs=2")
#   FUZZ_KEEP    directory for reproducers of failures (default: a new
#                temporary directory, kept only when something failed)
#   FUZZ_SEED    libFuzzer's -seed (default: a new one each run)
#   FUZZ_RUNS    at most this many inputs per fuzzer (-runs). With FUZZ_SEED
#                the same inputs every time: CI's run is reproducible, and a
#                new finding comes from a longer run on a workstation.
set -euo pipefail

usage() {
  echo "usage: $0 SECONDS  (each fuzzer runs for SECONDS)" >&2
  exit 2
}
[[ $# -eq 1 && $1 =~ ^[1-9][0-9]*$ ]] || usage
seconds=$1

root=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
cd "$root"

read -r -a bazel <<<"${BAZEL:-bazel}"
read -r -a flags <<<"${BAZEL_FLAGS:-}"

# name -> corpus directory under testing/fuzz/corpus
fuzzers=(config snapshot_lifecycle)

targets=()
for f in "${fuzzers[@]}"; do targets+=("//testing/fuzz:${f}_fuzzer"); done
echo "run_fuzzers: building ${targets[*]}"
"${bazel[@]}" build --config=fuzz "${flags[@]}" "${targets[@]}"
bin=$("${bazel[@]}" info --config=fuzz "${flags[@]}" bazel-bin 2>/dev/null)

work=$(mktemp -d "${TMPDIR:-/tmp}/run_fuzzers.XXXXXX")
keep=${FUZZ_KEEP:-}
failed=0
cleanup() {
  if ((failed)) && [[ -z $keep ]]; then
    echo "run_fuzzers: reproducers and logs kept in $work" >&2
  else
    rm -rf "$work"
  fi
}
trap cleanup EXIT

for f in "${fuzzers[@]}"; do
  corpus="$work/$f/corpus"
  mkdir -p "$corpus" "$work/$f/artifacts"
  cp testing/fuzz/corpus/"$f"/* "$corpus"/
  seeds=$(find "$corpus" -type f | wc -l)
  log="$work/$f/fuzz.log"
  echo "run_fuzzers: $f: ${seconds}s from $seeds seed inputs"
  extra=()
  [[ -n ${FUZZ_SEED:-} ]] && extra+=("-seed=$FUZZ_SEED")
  [[ -n ${FUZZ_RUNS:-} ]] && extra+=("-runs=$FUZZ_RUNS")
  rc=0
  (cd "$work/$f" &&
    "$bin/testing/fuzz/${f}_fuzzer" \
      -max_total_time="$seconds" \
      -timeout=60 \
      -rss_limit_mb=4096 \
      -print_final_stats=1 \
      "${extra[@]}" \
      -artifact_prefix="$work/$f/artifacts/" \
      "$corpus") >"$log" 2>&1 || rc=$?
  execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -1)
  rate=$(sed -n 's/^stat::average_exec_per_sec: *//p' "$log" | tail -1)
  size=$(find "$corpus" -type f | wc -l)
  if ((rc != 0)) || [[ -n $(ls -A "$work/$f/artifacts") ]]; then
    failed=1
    echo "run_fuzzers: $f FAILED (exit $rc); last lines of its log:" >&2
    tail -n 60 "$log" >&2
    if [[ -n $keep ]]; then
      mkdir -p "$keep/$f"
      cp "$log" "$work/$f/artifacts/"* "$keep/$f/" 2>/dev/null || true
      echo "run_fuzzers: reproducers copied to $keep/$f" >&2
    fi
    echo "run_fuzzers: reproduce with: $bin/testing/fuzz/${f}_fuzzer <artifact>" >&2
  else
    echo "run_fuzzers: $f passed: ${execs:-?} executions (${rate:-?}/s), corpus $seeds -> $size inputs"
  fi
done

if ((failed)); then
  echo "run_fuzzers: FAILED" >&2
  exit 1
fi
echo "run_fuzzers: all ${#fuzzers[@]} fuzzers passed"
