#!/bin/bash
# Runs CANN's example programs, each N times with its own run.sh, against a
# fresh install tree while every core is kept busy, and reports how often
# each passed. A soak on your own machine, never part of CI.
#
#   tools/soak_examples.sh CANN_RUNTIME_CHECKOUT [N] [FILTER]
#
# CANN_RUNTIME_CHECKOUT: a checkout of CANN's runtime repository (its
# example/ folder is used; nothing in it is changed: the examples run in a
# copy). N: runs per example (default 10). FILTER: only examples whose path
# (e.g. 1_basic_features/memory/10_ipc_memory_withpid) contains it.
#
# The load: stress-ng --cpu <cores> when installed (apt install stress-ng),
# else one busy shell loop per core. Set SOAK_LOAD=0 to run without load.
#
# Output: one line per example with its pass count, a Markdown table at the
# end, and the logs of failed runs under the printed work directory. Exit
# status 1 when an example passed at least once but not every time (a flake),
# 0 otherwise; examples that never pass (missing libraries) are listed, not
# counted as flakes. An example that fails its first two runs is taken for
# one that cannot pass and not run further (its count stays 0/N).
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
repo=$(cd "$here/.." && pwd)

checkout="${1:?usage: tools/soak_examples.sh CANN_RUNTIME_CHECKOUT [N] [FILTER]}"
runs="${2:-10}"
filter="${3:-}"
if [[ ! -d "$checkout/example" ]]; then
  echo "soak_examples: $checkout has no example/ folder" >&2
  exit 2
fi

work=$(mktemp -d "${TMPDIR:-/tmp}/ascendcl_soak.XXXXXX")
echo "soak_examples: work directory $work"
prefix="$work/prefix"
(cd "$repo" && bazel run ${BAZEL_FLAGS:-} --color=no --curses=no \
  //tools:install -- "$prefix") >"$work/install.log" 2>&1 || {
  tail -n 30 "$work/install.log"
  echo "soak_examples: install failed" >&2
  exit 1
}

# The load on every core, stopped on exit.
load_pids=()
stop_load() {
  for pid in "${load_pids[@]}"; do kill "$pid" 2>/dev/null; done
  wait 2>/dev/null
}
trap stop_load EXIT
cores=$(nproc)
if [[ "${SOAK_LOAD:-1}" != 0 ]]; then
  if command -v stress-ng >/dev/null; then
    stress-ng --cpu "$cores" --quiet >/dev/null 2>&1 &
    load_pids+=($!)
    echo "soak_examples: load: stress-ng --cpu $cores"
  else
    for ((i = 0; i < cores; i++)); do
      (while :; do :; done) &
      load_pids+=($!)
    done
    echo "soak_examples: load: $cores busy loops (no stress-ng)"
  fi
fi

# Every example is a folder with a run.sh; they share helpers up the tree,
# so the whole example/ folder is copied once per run.
mapfile -t examples < <(cd "$checkout/example" &&
  find . -name run.sh -printf '%h\n' | sed 's|^\./||' | sort)
declare -A passes
flaky=0
never=()
for ex in "${examples[@]}"; do
  [[ -n "$filter" && "$ex" != *"$filter"* ]] && continue
  passes[$ex]=0
  for ((r = 1; r <= runs; r++)); do
    copy="$work/run/$r"
    if [[ ! -d "$copy" ]]; then
      mkdir -p "$copy" && cp -r "$checkout/example" "$copy/"
    fi
    dir="$copy/example/$ex"
    rm -rf "$dir/build" "$dir/out"
    log="$work/logs/${ex//\//_}.$r.log"
    mkdir -p "$work/logs"
    if env -i PATH="$PATH" HOME="$work" ASCEND_PROCESS_LOG_PATH="$dir/log" \
      timeout 600 bash -c 'source "$1/set_env.sh" && cd "$2" && bash run.sh' \
      _ "$prefix" "$dir" >"$log" 2>&1; then
      passes[$ex]=$((passes[$ex] + 1))
      rm -f "$log"
    elif [[ $r -eq 2 && ${passes[$ex]} -eq 0 ]]; then
      # Failed its first two runs: an example that cannot pass here (a
      # missing library); its remaining runs are skipped and counted failed.
      break
    fi
  done
  echo "soak_examples: $ex ${passes[$ex]}/$runs"
  if [[ ${passes[$ex]} -eq 0 ]]; then
    never+=("$ex")
  elif [[ ${passes[$ex]} -lt $runs ]]; then
    flaky=1
  fi
done

echo
echo "| example | passed |"
echo "| --- | ---: |"
for ex in "${examples[@]}"; do
  [[ -v "passes[$ex]" ]] || continue
  echo "| \`$ex\` | ${passes[$ex]}/$runs |"
done
echo
echo "soak_examples: ${#never[@]} never passed: ${never[*]:-none}"
[[ $flaky -eq 0 ]] || echo "soak_examples: FLAKY: an example passed only some runs"
exit $flaky
