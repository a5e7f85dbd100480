#!/usr/bin/env bash
# Installs ascendcl to a temporary prefix and uses it the ways applications
# do, failing on any failure:
#
#   1. install      bazel run //tools:install -- $tmp/prefix
#   2. tree         testing/packaging/check_install_tree.sh (layout, env
#                   scripts, relocation, versions, pkg-config output), and the
#                   installed headers are exactly the repository's
#   3. cmake        testing/cmake_consumer: a CANN-sample-style CMakeLists,
#                   -DASCEND_CANN_PACKAGE_PATH=<prefix>; links libascendcl.so
#                   and libacl_rt.so; both programs must record the SONAME
#                   libascendcl.so and print VERDICT: PASS
#   4. find_package testing/cmake_consumer/find_package: find_package(ascendcl)
#   5. pkg-config   a C program built with `pkg-config --cflags --libs ascendcl`
#   6. hccl         the installed HCCL headers are the repository's; libhccl.so
#                   exports only Hccl* and records libascendcl.so; a C program
#                   built with `pkg-config --cflags --libs hccl` runs an
#                   AllReduce
#   7. bazel        testing/bazel_consumer: a separate workspace depending on
#                   @ascendcl//acl:ascendcl, `bazel test //...`
#
# Usage: testing/packaging/run_consumers.sh [--keep] [--skip-bazel]
#   --keep        keep the temporary directory (printed) for inspection
#   --skip-bazel  skip step 7 (the consumer workspace builds the runtime from
#                 scratch: a few minutes)
# Environment:
#   BAZEL                      bazel command (default: bazel)
#   BAZEL_STARTUP_OPTIONS      startup options for the main workspace's bazel
#                              (e.g. --output_base=...); default none, so CI
#                              reuses the build of `bazel test //...`
#   CONSUMER_OUTPUT_BASE       output base of the consumer workspace (default
#                              /tmp/ascendcl_bazel_consumer_output_base, kept
#                              between runs so a rerun is incremental)
set -uo pipefail

repo=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
keep=0
skip_bazel=0
for arg in "$@"; do
  case "$arg" in
    --keep) keep=1 ;;
    --skip-bazel) skip_bazel=1 ;;
    *)
      sed -n '2,/^set -uo/p' "$0" | sed '$d; s/^# \{0,1\}//' >&2
      exit 2
      ;;
  esac
done

bazel_cmd=${BAZEL:-bazel}
read -r -a startup <<<"${BAZEL_STARTUP_OPTIONS:-}"
consumer_output_base=${CONSUMER_OUTPUT_BASE:-/tmp/ascendcl_bazel_consumer_output_base}

tmp=$(mktemp -d /tmp/ascendcl_consumers.XXXXXX)
prefix="$tmp/prefix"
cleanup() {
  if [[ $keep -eq 1 ]]; then
    echo "kept: $tmp"
  else
    rm -rf "$tmp"
  fi
}
trap cleanup EXIT

declare -a summary=()
failed=0
start_all=$(date +%s)

# step NAME COMMAND...: runs COMMAND with output in $tmp/NAME.log, records
# PASS/FAIL and the time; on failure shows the end of the log.
step() {
  local name="$1"
  shift
  local log="$tmp/$name.log" begin status
  begin=$(date +%s)
  echo "== $name"
  ("$@") >"$log" 2>&1  # a subshell: steps may cd
  status=$?
  local secs=$(($(date +%s) - begin))
  if [[ $status -eq 0 ]]; then
    summary+=("$(printf 'PASS  %-13s %4ss' "$name" "$secs")")
  else
    failed=1
    summary+=("$(printf 'FAIL  %-13s %4ss  (exit %s, log: %s)' "$name" "$secs" "$status" "$log")")
    echo "-- $name failed (exit $status); last lines of $log:"
    tail -n 40 "$log" | sed 's/^/   | /'
  fi
  return $status
}
skip() { summary+=("$(printf 'SKIP  %-13s        (%s)' "$1" "$2")"); }

# Runs a program in a clean environment that has only the installed tree's
# set_env.sh, and requires exit 0 plus a "VERDICT: PASS" line.
run_installed() {
  env -i PATH="$PATH" HOME="${HOME:-/}" \
    bash -c 'source "$1/set_env.sh" && shift && "$@"' _ "$prefix" "$@" |
    tee "$tmp/last_run.out"
  local status=${PIPESTATUS[0]}
  [[ $status -eq 0 ]] || return "$status"
  grep -qx 'VERDICT: PASS' "$tmp/last_run.out"
}

do_install() {
  cd "$repo" && "$bazel_cmd" "${startup[@]}" run --color=no --curses=no \
    //tools:install -- "$prefix"
}

do_tree() {
  # The API's view of version.info, through the installed library.
  cc -std=c99 -Wall -Werror -I"$prefix/include" \
    "$repo/testing/packaging/version_probe.c" -o "$tmp/version_probe" \
    -L"$prefix/lib64" -lascendcl -Wl,-rpath,"$prefix/lib64" || return 1
  "$repo/testing/packaging/check_install_tree.sh" "$prefix" "$tmp/version_probe" ||
    return 1
  # Exactly the repository's public headers, byte for byte.
  local src installed
  src=$(cd "$repo/acl/include" && find acl -name '*.h' | sort)
  installed=$(cd "$prefix/include" && find acl -name '*.h' | sort)
  if [[ "$src" != "$installed" ]]; then
    echo "installed acl headers differ from acl/include/acl:"
    diff <(echo "$src") <(echo "$installed")
    return 1
  fi
  local h
  for h in $src; do
    cmp "$repo/acl/include/$h" "$prefix/include/$h" || return 1
  done
  cmp "$repo/runtime/include/runtime/rt_snapshot.h" \
    "$prefix/include/runtime/rt_snapshot.h" || return 1
  cmp "$repo/device/sim/include/aclsim/aclsim.h" \
    "$prefix/include/aclsim/aclsim.h" || return 1
  echo "headers: $(wc -w <<<"$src") acl headers + rt_snapshot.h + aclsim.h identical"
}

# needs_soname PROGRAM: PROGRAM records the library by its SONAME (not by the
# path or the symlink name it was linked with).
needs_soname() {
  local needed
  needed=$(readelf -d "$1" | sed -n 's/.*(NEEDED).*\[\(.*ascendcl.*\|.*acl_rt.*\)\].*/\1/p')
  echo "$(basename "$1") NEEDED: $needed"
  [[ "$needed" == "libascendcl.so" ]]
}

do_cmake() {
  cmake -S "$repo/testing/cmake_consumer" -B "$tmp/cmake_build" \
    -DASCEND_CANN_PACKAGE_PATH="$prefix" &&
    cmake --build "$tmp/cmake_build" -j 2 &&
    needs_soname "$tmp/cmake_build/acl_memcpy_sample_ascendcl" &&
    needs_soname "$tmp/cmake_build/acl_memcpy_sample_acl_rt" &&
    run_installed "$tmp/cmake_build/acl_memcpy_sample_ascendcl" &&
    run_installed "$tmp/cmake_build/acl_memcpy_sample_acl_rt"
}

do_find_package() {
  env -u CMAKE_PREFIX_PATH cmake -S "$repo/testing/cmake_consumer/find_package" \
    -B "$tmp/find_package_build" -DCMAKE_PREFIX_PATH="$prefix" &&
    cmake --build "$tmp/find_package_build" -j 2 &&
    needs_soname "$tmp/find_package_build/acl_memcpy_sample_find_package" &&
    run_installed "$tmp/find_package_build/acl_memcpy_sample_find_package"
}

do_pkg_config() {
  local flags
  flags=$(PKG_CONFIG_PATH="$prefix/lib64/pkgconfig" \
    pkg-config --cflags --libs ascendcl) || return 1
  echo "pkg-config --cflags --libs ascendcl: $flags"
  # shellcheck disable=SC2086  # the flags are words
  cc -std=c99 -Wall -Werror "$repo/testing/packaging/pkg_config_consumer.c" \
    $flags -o "$tmp/pkg_config_consumer" &&
    run_installed "$tmp/pkg_config_consumer"
}

do_hccl() {
  local h
  for h in hccl.h hccl_types.h hccl_comm.h hccl_mc2.h; do
    cmp "$repo/hccl/include/hccl/$h" "$prefix/include/hccl/$h" || return 1
  done
  local lib="$prefix/lib64/libhccl.so" others
  others=$(nm -D --defined-only "$lib" | awk '{print $3}' | grep -v '^Hccl' || true)
  if [[ -n "$others" ]]; then
    echo "libhccl.so exports more than Hccl*: $others"
    return 1
  fi
  local dynamic
  dynamic=$(readelf -d "$lib")
  grep -q 'NEEDED.*\[libascendcl\.so\]' <<<"$dynamic" || {
    echo "libhccl.so does not record libascendcl.so"
    return 1
  }
  local flags
  flags=$(PKG_CONFIG_PATH="$prefix/lib64/pkgconfig" \
    pkg-config --cflags --libs hccl) || return 1
  echo "pkg-config --cflags --libs hccl: $flags"
  # shellcheck disable=SC2086  # the flags are words
  cc -std=c99 -Wall -Werror "$repo/testing/packaging/hccl_consumer.c" \
    $flags -o "$tmp/hccl_consumer" &&
    run_installed "$tmp/hccl_consumer"
}

do_bazel_consumer() {
  cd "$repo/testing/bazel_consumer" || return 1
  local status=0
  # --symlink_prefix=/ : no bazel-* links in the source tree.
  "$bazel_cmd" --output_base="$consumer_output_base" test //... \
    --symlink_prefix=/ --color=no --curses=no || status=$?
  # Do not leave a second Bazel server running.
  "$bazel_cmd" --output_base="$consumer_output_base" shutdown || true
  return "$status"
}

if step install do_install; then
  step tree do_tree
  step cmake do_cmake
  step find_package do_find_package
  step pkg-config do_pkg_config
  step hccl do_hccl
else
  for s in tree cmake find_package pkg-config hccl; do skip "$s" "install failed"; done
fi
if [[ $skip_bazel -eq 1 ]]; then
  skip bazel "--skip-bazel"
else
  step bazel do_bazel_consumer
fi

echo
echo "== consumer summary ($(($(date +%s) - start_all))s)"
printf '   %s\n' "${summary[@]}"
if [[ $failed -ne 0 ]]; then
  echo "run_consumers: FAILED"
  keep=1
  exit 1
fi
echo "run_consumers: all consumers PASS"
