#!/bin/bash
# Builds and runs the CANN-style example programs of this directory the way
# CANN's own are run: against an install tree, each with its own
# CMakeLists.txt and run.sh, in a shell that sourced the tree's set_env.sh.
#
#   testing/cann_style_examples/run_examples.sh [PREFIX]
#
# Without PREFIX, installs the tree first (bazel run //tools:install) into a
# temporary directory. The examples are copied out of the source tree (their
# run.sh builds in place). Each example runs RUNS times (default 3, from the
# environment): it passes only if every run passes, so a flaky example fails
# the stage. Exit status 0 when every example passes.
#
# CANN's own example programs (from a CANN runtime checkout, which CI does not
# have) run the same way: source PREFIX/set_env.sh, then `bash run.sh` in the
# example's directory.
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
repo=$(cd "$here/../.." && pwd)
tmp=$(mktemp -d "${TMPDIR:-/tmp}/ascendcl_examples.XXXXXX")
trap 'rm -rf "$tmp"' EXIT

prefix="${1:-}"
if [[ -z "$prefix" ]]; then
  prefix="$tmp/prefix"
  (cd "$repo" && bazel run ${BAZEL_FLAGS:-} --color=no --curses=no \
    //tools:install -- "$prefix") >"$tmp/install.log" 2>&1 || {
    cat "$tmp/install.log"
    echo "run_examples: install failed"
    exit 1
  }
fi
prefix=$(cd "$prefix" && pwd)

cp -r "$here" "$tmp/examples"
runs="${RUNS:-3}"
failed=()
passed=0
for dir in "$tmp"/examples/[0-9]*/; do
  name=$(basename "$dir")
  good=0
  for ((run = 1; run <= runs; run++)); do
    echo "== $name (run $run of $runs)"
    # A clean environment, as a user's shell after `source set_env.sh`; the
    # simulator's logs go to the example's directory.
    if env -i PATH="$PATH" HOME="$tmp" ASCEND_PROCESS_LOG_PATH="$dir/log" \
      bash -c 'source "$1/set_env.sh" && cd "$2" && bash run.sh' _ \
      "$prefix" "$dir"; then
      good=$((good + 1))
    else
      [[ -f "$dir/build.log" ]] && tail -n 30 "$dir/build.log"
    fi
  done
  echo "== $name: $good of $runs runs passed"
  if ((good == runs)); then
    passed=$((passed + 1))
  else
    failed+=("$name")
  fi
done
echo "run_examples: $passed passed, ${#failed[@]} failed ${failed[*]:-}"
[[ ${#failed[@]} -eq 0 ]]
