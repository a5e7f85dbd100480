#!/usr/bin/env bash
# Checks an ascendcl install tree made by tools/install.sh:
#
#   check_install_tree.sh PREFIX [VERSION_PROBE]
#
# the layout (headers, both library names as one file, environment scripts,
# version.info, pkg-config and CMake files, the ascendcl-snapshot command),
# that the command runs from the tree, that the environment scripts
# export prefix-relative paths (also after the tree is moved), that the
# version is the same everywhere, and that pkg-config reports a usable
# compile and link line. VERSION_PROBE, when given, is a program printing
# aclsysGetVersionStr and aclsysGetVersionNum for "runtime"; it must agree
# with version.info. Prints one line per check; exits 1 if any failed.
set -uo pipefail

[[ $# -ge 1 && $# -le 2 ]] || {
  echo "usage: $0 PREFIX [VERSION_PROBE]" >&2
  exit 2
}
prefix=$(cd "$1" && pwd)
probe="${2:-}"
[[ -z "$probe" || "$probe" == /* ]] || probe="$PWD/$probe"
failures=0

pass() { echo "  ok    $*"; }
fail() {
  echo "  FAIL  $*"
  failures=$((failures + 1))
}
check() {  # check DESCRIPTION COMMAND...
  local what="$1"
  shift
  if "$@" >/dev/null 2>&1; then pass "$what"; else fail "$what"; fi
}

# --- Layout ----------------------------------------------------------------------
for f in include/acl/acl.h include/acl/acl_base.h include/acl/acl_rt.h \
         include/acl/acl_base_rt.h include/acl/acl_rt_allocator.h \
         include/acl/error_codes/rt_error_codes.h \
         include/runtime/rt_snapshot.h include/aclsim/aclsim.h \
         include/ascendcl/snapshot.h \
         lib64/libascendcl.so set_env.sh bin/setenv.bash bin/ascendcl-snapshot \
         share/info/runtime/version.info lib64/pkgconfig/ascendcl.pc \
         lib64/cmake/ascendcl/ascendclConfig.cmake \
         lib64/cmake/ascendcl/ascendclConfigVersion.cmake \
         share/cmake/ascendcl/ascendclConfig.cmake \
         tikcpp/ascendc_kernel_cmake/ascendc.cmake \
         tikcpp/ascendc_kernel_cmake/ascendc_sim_rewrite.cmake \
         tikcpp/ascendc_sim/include/kernel_operator.h \
         tikcpp/ascendc_sim/include/kernel_operator_sim_abi.h; do
  check "$f" test -f "$prefix/$f"
done
check "lib64/libacl_rt.so is a symlink to libascendcl.so" \
  test "$(readlink "$prefix/lib64/libacl_rt.so")" = libascendcl.so
check "lib64/libacl_rt_impl.so is a symlink to libascendcl.so" \
  test "$(readlink "$prefix/lib64/libacl_rt_impl.so")" = libascendcl.so
check "lib64/libascendcl.so is executable" test -x "$prefix/lib64/libascendcl.so"
check "lib64/libascendcl.so has the SONAME libascendcl.so" \
  bash -c "readelf -d '$prefix/lib64/libascendcl.so' |
           grep -q '(SONAME).*\[libascendcl\.so\]'"
check "lib64/libascendcl.so exports aclsysGetVersionStr and aclrtGetSocName" \
  bash -c "nm -D --defined-only '$prefix/lib64/libascendcl.so' |
           grep -q ' T aclsysGetVersionStr\$' &&
           nm -D --defined-only '$prefix/lib64/libascendcl.so' |
           grep -q ' T aclrtGetSocName\$'"
check "no absolute build path in the text files" \
  bash -c "! grep -rlI -e bazel-out -e execroot '$prefix/set_env.sh' \
           '$prefix/bin' '$prefix/lib64/pkgconfig' '$prefix/lib64/cmake'"

# --- ascendcl-snapshot ---------------------------------------------------------------
cli="$prefix/bin/ascendcl-snapshot"
check "bin/ascendcl-snapshot is executable" test -x "$cli"
help=$("$cli" --help 2>/dev/null)
help_status=$?
check "ascendcl-snapshot --help prints its usage and exits 0" \
  test "$help_status-${help%%$'\n'*}" = "0-usage: ascendcl-snapshot inspect [--json] DIR"
not_an_image=$(mktemp -d "${TMPDIR:-/tmp}/ascendcl_no_image.XXXXXX")
cli_err=$("$cli" verify "$not_an_image" 2>&1 >/dev/null)
cli_status=$?
rmdir "$not_an_image"
case "$cli_err" in
  *"holds no snapshot image"*) said=yes ;;
  *) said=no ;;
esac
check "ascendcl-snapshot verify on a directory without an image exits 2 saying so" \
  test "$cli_status-$said" = 2-yes
"$cli" >/dev/null 2>&1
cli_status=$?
check "ascendcl-snapshot without a command exits 2" test "$cli_status" -eq 2

# --- One version everywhere ----------------------------------------------------------
version=$(sed -n 's/^Version=//p' "$prefix/share/info/runtime/version.info" | head -1)
check "version.info has a MAJOR.MINOR.PATCH Version= line ($version)" \
  grep -Eq '^[0-9]+\.[0-9]+\.[0-9]+$' <<<"$version"
check "ascendcl.pc has Version: $version" \
  grep -qx "Version: $version" "$prefix/lib64/pkgconfig/ascendcl.pc"
check "ascendclConfigVersion.cmake has $version" \
  grep -q "set(PACKAGE_VERSION \"$version\")" \
  "$prefix/lib64/cmake/ascendcl/ascendclConfigVersion.cmake"

# --- Environment scripts ---------------------------------------------------------------
# env_of TREE SCRIPT: the variables a clean bash gets from sourcing SCRIPT
# (given relative to TREE) twice from /, one VAR=value per line.
env_of() {
  env -i PATH="$PATH" HOME="${HOME:-/}" LD_LIBRARY_PATH=/opt/other/lib \
    bash -c 'cd / && source "$1/$2" && source "$1/$2" &&
             for v in ASCEND_HOME_PATH ASCEND_INSTALL_PATH ASCEND_TOOLKIT_HOME \
                      SOC_VERSION ASCENDC_CMAKE_DIR \
                      LD_LIBRARY_PATH PKG_CONFIG_PATH CMAKE_PREFIX_PATH; do
               printf "%s=%s\n" "$v" "${!v:-}"
             done' _ "$1" "$2"
}
expected_env() {
  printf '%s\n' "ASCEND_HOME_PATH=$1" "ASCEND_INSTALL_PATH=$1" \
    "ASCEND_TOOLKIT_HOME=$1" "SOC_VERSION=Ascend910B1" \
    "ASCENDC_CMAKE_DIR=$1/tikcpp/ascendc_kernel_cmake" \
    "LD_LIBRARY_PATH=$1/lib64:/opt/other/lib" \
    "PKG_CONFIG_PATH=$1/lib64/pkgconfig" "CMAKE_PREFIX_PATH=$1"
}
check_env() {  # check_env TREE SCRIPT
  local got
  got=$(env_of "$1" "$2")
  if [[ "$got" == "$(expected_env "$1")" ]]; then
    pass "source $2 exports the tree's paths (once, however often sourced)"
  else
    fail "source $2 exports the tree's paths; got:"
    sed 's/^/          /' <<<"$got"
  fi
}
check_env "$prefix" set_env.sh
check_env "$prefix" bin/setenv.bash

# The tree is relocatable: a copy elsewhere describes itself.
moved=$(mktemp -d "${TMPDIR:-/tmp}/ascendcl_moved.XXXXXX")
trap 'rm -rf "$moved"' EXIT
cp -a "$prefix" "$moved/tree"
check_env "$moved/tree" set_env.sh
check_env "$moved/tree" bin/setenv.bash
# A shell that cannot tell the script's path gets an error, not wrong paths.
sh_out=$(cd / && sh -c '. "$1"' _ "$moved/tree/set_env.sh" 2>&1)
sh_status=$?
check "sourcing set_env.sh from plain sh elsewhere fails with a message" \
  test "$sh_status" -ne 0 -a -n "$sh_out"

# SOC_VERSION follows the simulator's name when ACLSIM_SOC_NAME sets it.
soc=$(env -i PATH="$PATH" ACLSIM_SOC_NAME=Ascend910B3 \
  bash -c 'source "$1/set_env.sh" && echo "$SOC_VERSION"' _ "$prefix")
check "SOC_VERSION follows ACLSIM_SOC_NAME ($soc)" test "$soc" = Ascend910B3

# --- ascendc.cmake ---------------------------------------------------------------------
# A host-only CMake project (as CANN's examples write them) configures; the
# AscendC kernel rules build kernels for the simulator: a kernel library and
# a kernel binary exporting each kernel's ABI symbols, rebuilt when the
# kernel source changes.
if command -v cmake >/dev/null; then
  project=$(mktemp -d "${TMPDIR:-/tmp}/ascendcl_ascendc.XXXXXX")
  write_project() {  # write_project DIR LANGUAGES EXTRA_LINES
    mkdir -p "$1"
    printf '%s\n' 'cmake_minimum_required(VERSION 3.16)' "project(probe $2)" \
      'set(ASCENDC_CMAKE_DIR $ENV{ASCENDC_CMAKE_DIR})' \
      'include(${ASCENDC_CMAKE_DIR}/ascendc.cmake)' \
      'if(NOT SOC_VERSION STREQUAL "Ascend910B1")' \
      '  message(FATAL_ERROR "SOC_VERSION=${SOC_VERSION}")' 'endif()' \
      "$3" >"$1/CMakeLists.txt"
  }
  configure() {  # configure DIR [build]: cmake's output, status in $?
    env -i PATH="$PATH" HOME="${HOME:-/}" bash -c \
      'source "$1/set_env.sh" && cmake -S "$2" -B "$2/build" &&
       if [[ -n "$3" ]]; then cmake --build "$2/build"; fi' \
      _ "$moved/tree" "$1" "${2:-}" 2>&1
  }
  write_project "$project/host" C ''
  check "a host-only project configures with ascendc.cmake (moved tree)" \
    configure "$project/host"

  kernel="$project/kernel"
  write_project "$kernel" 'C CXX' '
ascendc_library(kernels STATIC src/probe_kernel.cpp)
ascendc_compile_definitions(kernels PRIVATE PROBE_VALUE=3)
ascendc_fatbin_library(probe_bin src/probe_kernel.cpp)
ascendc_compile_definitions(probe_bin PROBE_VALUE=4)
ascendc_compile_options(probe_bin PRIVATE -Wall)
ascendc_include_directories(probe_bin PRIVATE ${CMAKE_CURRENT_SOURCE_DIR})'
  mkdir -p "$kernel/src"
  echo '#define PROBE_OFFSET 1' >"$kernel/src/probe_neighbour.h"
  cat >"$kernel/src/probe_kernel.cpp" <<'KERNEL'
#include "kernel_operator.h"
#include "probe_neighbour.h"
extern "C" __global__ __aicore__ void probe_kernel(GM_ADDR x, uint32_t n) {
  if (n == 0) {
    asm("trap");
  }
  x[block_idx] = PROBE_VALUE + PROBE_OFFSET;
}
int32_t ProbeLaunch(uint32_t blocks, void *stream, uint8_t *x, uint32_t n) {
  return probe_kernel<<<blocks, nullptr, stream>>>(x, n);
}
KERNEL
  configure "$kernel" build >"$project/kernel.log"
  kernel_status=$?
  check "ascendc_library and ascendc_fatbin_library build kernels" \
    test "$kernel_status" -eq 0
  [[ $kernel_status -eq 0 ]] || tail -n 30 "$project/kernel.log"
  check "the kernel library is built" test -f "$kernel/build/libkernels.a"
  rewritten=$(ls "$kernel"/build/ascendc_sim/kernels/*probe_kernel.cpp 2>/dev/null | head -1)
  check "the launch is rewritten into a simulator launch" \
    grep -qF 'Launcher<&probe_kernel>("probe_kernel", blocks, nullptr, stream)(x, n)' \
    "${rewritten:-/nonexistent}"
  check "asm(\"trap\") is rewritten into a device exception" \
    grep -qF '::AscendC::Sim::Trap();' "${rewritten:-/nonexistent}"
  check "the rewritten copy's #line names the original" \
    grep -qxF "#line 1 \"$kernel/src/probe_kernel.cpp\"" "${rewritten:-/nonexistent}"
  binary="$kernel/build/fatbin/probe_bin/probe_bin.o"
  exports() { nm -D --defined-only "$binary" 2>/dev/null | awk '{print $3}' | sort | tr '\n' ' '; }
  check "the kernel binary exports probe_kernel__aclsim_entry and __aclsim_info" \
    bash -c "[[ '$(exports)' == *'probe_kernel__aclsim_entry probe_kernel__aclsim_info '* ]]"
  # A second kernel in the source: the build rewrites it again.
  cat >>"$kernel/src/probe_kernel.cpp" <<'KERNEL'
extern "C" __global__ __aicore__ void second_kernel() {}
KERNEL
  configure "$kernel" build >>"$project/kernel.log" 2>&1
  check "a changed kernel source is rewritten and rebuilt" \
    bash -c "[[ '$(exports)' == *'second_kernel__aclsim_entry second_kernel__aclsim_info '* ]]"
  env -i PATH="$PATH" HOME="${HOME:-/}" bash -c \
    'source "$1/set_env.sh" && cmake --install "$2/build" --prefix "$2/out"' \
    _ "$moved/tree" "$kernel" >>"$project/kernel.log" 2>&1
  check "cmake --install puts the binary at fatbin/probe_bin/probe_bin.o" \
    test -f "$kernel/out/fatbin/probe_bin/probe_bin.o"

  write_project "$project/c_only" C 'ascendc_library(kernels STATIC k.cpp)'
  touch "$project/c_only/k.cpp"
  configure "$project/c_only" >"$project/c_only.log"
  c_status=$?
  check "a kernel rule in a project without C++ stops with an explanation" \
    bash -c "[[ $c_status -ne 0 ]] && grep -q 'enable CXX' '$project/c_only.log'"
  rm -rf "$project"
else
  fail "cmake is not installed (tools/setup.sh installs it)"
fi

# --- pkg-config --------------------------------------------------------------------------
if command -v pkg-config >/dev/null; then
  pc() { PKG_CONFIG_PATH="$1/lib64/pkgconfig" pkg-config "${@:2}" ascendcl; }
  check "pkg-config --modversion is $version" \
    test "$(pc "$moved/tree" --modversion)" = "$version"
  read -r cflags < <(pc "$moved/tree" --cflags)  # read trims the blanks
  read -r libs < <(pc "$moved/tree" --libs)
  incdir=${cflags#-I}
  libdir=$(sed -n 's/^-L\([^ ]*\) .*/\1/p' <<<"$libs")
  check "pkg-config --cflags names the moved tree's include/ ($cflags)" \
    test "$(cd "$incdir" && pwd)" = "$moved/tree/include"
  check "pkg-config --libs links -lascendcl from the moved tree's lib64/" \
    bash -c "[[ '$libs' == *' -lascendcl' ]] &&
             test \"\$(cd '$libdir' && pwd)\" = '$moved/tree/lib64'"
else
  fail "pkg-config is not installed (tools/setup.sh installs it)"
fi

# --- The API reads the installed version ---------------------------------------------------
if [[ -n "$probe" ]]; then
  out=$(env -i PATH="$PATH" bash -c 'source "$1/set_env.sh" && "$2"' _ \
    "$moved/tree" "$probe" 2>/dev/null)
  IFS=. read -r major minor patch <<<"$version"
  num=$((major * 10000000 + minor * 100000 + patch * 1000))
  check "aclsysGetVersionStr/Num(\"runtime\") report $version / $num" \
    test "$out" = "$version $num"
fi

if [[ $failures -ne 0 ]]; then
  echo "check_install_tree: $failures check(s) FAILED for $prefix"
  exit 1
fi
echo "check_install_tree: all checks passed for $prefix"
