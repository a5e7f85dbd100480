#!/usr/bin/env bash
# Installs libascendcl.so and the public headers as a CANN-style tree:
#
#   bazel run //tools:install -- PREFIX
#
#   PREFIX/include/acl/...                 public ACL headers (#include "acl/acl.h")
#   PREFIX/include/runtime/rt_snapshot.h   RT-layer snapshot header
#   PREFIX/include/aclsim/aclsim.h         simulator control header
#   PREFIX/include/ascendcl/snapshot.h     our snapshot extensions (report)
#   PREFIX/lib64/libascendcl.so            the runtime library
#   PREFIX/lib64/libacl_rt.so              symlink to libascendcl.so (CANN samples link either)
#   PREFIX/lib64/libacl_rt_impl.so         the same (the model-runtime samples link it too)
#   PREFIX/lib64/<sdk library>.so          the SDK libraries CANN ships beside the
#                                          runtime (--sdk-library, one per library:
#                                          operators, data channels, dump,
#                                          profiling, securec), under their CANN names
#   PREFIX/lib64/pkgconfig/ascendcl.pc     pkg-config: `pkg-config --cflags --libs ascendcl`
#   PREFIX/lib64/cmake/ascendcl/           CMake package: find_package(ascendcl) -> ascendcl::ascendcl
#   PREFIX/share/cmake/ascendcl            symlink to it (Debian's CMake does not search lib64)
#   PREFIX/bin/ascendcl-snapshot           inspects and verifies snapshot images on
#                                          disk (`ascendcl-snapshot --help`)
#   PREFIX/set_env.sh, PREFIX/bin/setenv.bash
#                                          `source` either: exports ASCEND_HOME_PATH,
#                                          ASCEND_INSTALL_PATH, ASCEND_TOOLKIT_HOME,
#                                          SOC_VERSION (the simulator's SoC name),
#                                          ASCENDC_CMAKE_DIR, and prepends to
#                                          LD_LIBRARY_PATH, PKG_CONFIG_PATH and
#                                          CMAKE_PREFIX_PATH
#   PREFIX/share/info/runtime/version.info "Version=<PACKAGE_VERSION>", read by
#                                          aclsysGetVersionStr/Num("runtime")
#   PREFIX/tikcpp/ascendc_kernel_cmake/ascendc.cmake
#                                          what CANN's example CMakeLists include
#                                          ($ASCENDC_CMAKE_DIR): host-only programs
#                                          build, and the AscendC kernel rules
#                                          (ascendc_library, ascendc_fatbin_library)
#                                          build kernels for the simulator
#   PREFIX/tikcpp/ascendc_kernel_cmake/ascendc_sim_rewrite.cmake
#                                          the rules' source rewriting (<<<>>>
#                                          launches, asm("trap"))
#   PREFIX/tikcpp/ascendc_sim/include/kernel_operator.h (and the
#   kernel_operator_*.h it includes)      the AscendC interface subset the
#                                          simulator compiles kernels against
#
# Every file locates the tree from its own path, so the tree can be moved or
# copied after installation. Installing again over an existing tree replaces
# these files and leaves others alone. A relative PREFIX is taken relative to
# the directory `bazel run` was started from.
#
# Version scheme: MAJOR.MINOR is the CANN release whose runtime API the
# headers follow (9.0: aclsysGetVersionStr/Num, the newest functions
# implemented here, first shipped in CANN 9.0.0); PATCH counts this project's
# releases at that API level. Applications gate on it as they do on CANN,
# e.g. aclsysGetVersionNum("runtime") >= 80500000 for CANN 8.5 APIs.
set -euo pipefail

readonly PACKAGE_VERSION="9.0.0"
# The simulator's default SoC name (device/sim/sim_backend.h).
readonly DEFAULT_SOC="Ascend910B1"

usage() {
  echo "usage: bazel run //tools:install -- PREFIX" >&2
  exit 2
}

library=""
manifest=""
ascendc_cmake=""
ascendc_rewrite=""
kernel_operator=""
cli=""
sdk_libraries=()
prefix=""
for arg in "$@"; do
  case "$arg" in
    --library=*) library="${arg#*=}" ;;
    --headers=*) manifest="${arg#*=}" ;;
    --ascendc-cmake=*) ascendc_cmake="${arg#*=}" ;;
    --ascendc-rewrite=*) ascendc_rewrite="${arg#*=}" ;;
    --kernel-operator=*) kernel_operator="${arg#*=}" ;;
    --cli=*) cli="${arg#*=}" ;;
    --sdk-library=*) sdk_libraries+=("${arg#*=}") ;;
    -h | --help) usage ;;
    -*) echo "install: unknown option $arg" >&2; usage ;;
    *)
      [[ -z "$prefix" ]] || usage
      prefix="$arg"
      ;;
  esac
done
[[ -n "$prefix" && -n "$library" && -n "$manifest" && -n "$ascendc_cmake" &&
   -n "$ascendc_rewrite" && -n "$kernel_operator" && -n "$cli" ]] ||
  usage

# Inputs are runfiles paths: relative to the working directory under
# `bazel run`, else under this script's runfiles tree (or absolute).
runfiles_root="${RUNFILES_DIR:-$0.runfiles}/ascendcl"
resolve() {
  local path
  for path in "$1" "$runfiles_root/$1"; do
    if [[ -f "$path" ]]; then
      printf '%s\n' "$path"
      return
    fi
    [[ "$1" != /* ]] || break
  done
  echo "install: missing input $1" >&2
  exit 1
}
library=$(resolve "$library")
manifest=$(resolve "$manifest")
ascendc_cmake=$(resolve "$ascendc_cmake")
ascendc_rewrite=$(resolve "$ascendc_rewrite")
kernel_operator=$(resolve "$kernel_operator")
cli=$(resolve "$cli")
for i in "${!sdk_libraries[@]}"; do
  sdk_libraries[$i]=$(resolve "${sdk_libraries[$i]}")
done

if [[ "$prefix" != /* ]]; then
  prefix="${BUILD_WORKING_DIRECTORY:-$PWD}/$prefix"
fi
mkdir -p "$prefix"
prefix=$(cd "$prefix" && pwd -P)

# --- Headers and library ------------------------------------------------------
count=0
while read -r include_path runfiles_path; do
  [[ -n "$include_path" ]] || continue
  install -D -m 0644 "$(resolve "$runfiles_path")" "$prefix/include/$include_path"
  count=$((count + 1))
done <"$manifest"
[[ $count -gt 0 ]] || { echo "install: no headers in $manifest" >&2; exit 1; }

install -D -m 0755 "$library" "$prefix/lib64/libascendcl.so"
# A symlink, not a copy: a program linking both names then loads one library
# (one runtime), since the loader recognises the same file.
ln -sfn libascendcl.so "$prefix/lib64/libacl_rt.so"
ln -sfn libascendcl.so "$prefix/lib64/libacl_rt_impl.so"
# Each SDK library keeps the file name (and SONAME) its target gives it.
for sdk_library in "${sdk_libraries[@]}"; do
  install -D -m 0755 "$sdk_library" "$prefix/lib64/$(basename "$sdk_library")"
done

install -D -m 0755 "$cli" "$prefix/bin/ascendcl-snapshot"

install -D -m 0644 "$ascendc_cmake" \
  "$prefix/tikcpp/ascendc_kernel_cmake/ascendc.cmake"
install -D -m 0644 "$ascendc_rewrite" \
  "$prefix/tikcpp/ascendc_kernel_cmake/ascendc_sim_rewrite.cmake"
# kernel_operator.h and the parts it includes, which lie beside it.
for header in "$(dirname "$kernel_operator")"/kernel_operator*.h; do
  install -D -m 0644 "$header" \
    "$prefix/tikcpp/ascendc_sim/include/$(basename "$header")"
done

# --- Version ---------------------------------------------------------------------
mkdir -p "$prefix/share/info/runtime"
printf 'Version=%s\n' "$PACKAGE_VERSION" >"$prefix/share/info/runtime/version.info"

# --- Environment scripts ------------------------------------------------------------
# $1: the path from the script's directory up to the prefix.
write_env_script() {
  sed -e "s|@UP@|$1|" -e "s|@VERSION@|$PACKAGE_VERSION|" \
    -e "s|@SOC@|$DEFAULT_SOC|" <<'EOF'
# Environment for the ascendcl @VERSION@ install tree containing this file.
# Source it from bash or zsh:  source <path>/set_env.sh
if [ -n "${BASH_VERSION:-}" ]; then
  eval '_ascendcl_env_file=${BASH_SOURCE[0]}'
elif [ -n "${ZSH_VERSION:-}" ]; then
  eval '_ascendcl_env_file=${(%):-%x}'
else
  _ascendcl_env_file=$0
fi
_ascendcl_prefix=$(CDPATH='' cd -- "$(dirname -- "$_ascendcl_env_file")@UP@" && pwd)
unset _ascendcl_env_file
if [ ! -f "$_ascendcl_prefix/lib64/libascendcl.so" ]; then
  echo "ascendcl: cannot locate the install tree; source this file from bash or zsh" >&2
  unset _ascendcl_prefix
  return 1 2>/dev/null || exit 1
fi
export ASCEND_HOME_PATH="$_ascendcl_prefix"
export ASCEND_INSTALL_PATH="$_ascendcl_prefix"
export ASCEND_TOOLKIT_HOME="$_ascendcl_prefix"
# What CANN's sample scripts read: the SoC the simulator reports
# (aclrtGetSocName: $ACLSIM_SOC_NAME, else Ascend910B1) and the directory of
# ascendc.cmake.
export SOC_VERSION="${ACLSIM_SOC_NAME:-@SOC@}"
export ASCENDC_CMAKE_DIR="$_ascendcl_prefix/tikcpp/ascendc_kernel_cmake"
# Each directory goes first in its list, once however often this is sourced.
case ":${LD_LIBRARY_PATH:-}:" in
  *":$_ascendcl_prefix/lib64:"*) ;;
  *) export LD_LIBRARY_PATH="$_ascendcl_prefix/lib64${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}" ;;
esac
case ":${PATH:-}:" in
  *":$_ascendcl_prefix/bin:"*) ;;
  *) export PATH="$_ascendcl_prefix/bin${PATH:+:$PATH}" ;;
esac
case ":${PKG_CONFIG_PATH:-}:" in
  *":$_ascendcl_prefix/lib64/pkgconfig:"*) ;;
  *) export PKG_CONFIG_PATH="$_ascendcl_prefix/lib64/pkgconfig${PKG_CONFIG_PATH:+:$PKG_CONFIG_PATH}" ;;
esac
case ":${CMAKE_PREFIX_PATH:-}:" in
  *":$_ascendcl_prefix:"*) ;;
  *) export CMAKE_PREFIX_PATH="$_ascendcl_prefix${CMAKE_PREFIX_PATH:+:$CMAKE_PREFIX_PATH}" ;;
esac
unset _ascendcl_prefix
EOF
}
write_env_script "" >"$prefix/set_env.sh"
mkdir -p "$prefix/bin"
write_env_script "/.." >"$prefix/bin/setenv.bash"
chmod 0644 "$prefix/set_env.sh" "$prefix/bin/setenv.bash"

# --- pkg-config ---------------------------------------------------------------------
mkdir -p "$prefix/lib64/pkgconfig"
cat >"$prefix/lib64/pkgconfig/ascendcl.pc" <<EOF
prefix=\${pcfiledir}/../..
libdir=\${prefix}/lib64
includedir=\${prefix}/include

Name: ascendcl
Description: Open re-implementation of CANN's ACL runtime (simulated NPUs by default)
Version: $PACKAGE_VERSION
Libs: -L\${libdir} -lascendcl
Cflags: -I\${includedir}
EOF

# Each SDK library gets a .pc of its own (pkg-config --libs opapi), which
# requires the tree's libraries it was linked against (its DT_NEEDED).
ours=(ascendcl)
for sdk_library in "${sdk_libraries[@]}"; do
  name=$(basename "$sdk_library" .so)
  ours+=("${name#lib}")
done
sdk_requires() {  # $1: library file; prints "a b" of ours it needs
  local lib needed=()
  for lib in $(readelf -d "$1" 2>/dev/null |
               sed -n 's/.*Shared library: \[lib\(.*\)\.so\]/\1/p'); do
    [[ " ${ours[*]} " == *" $lib "* ]] && needed+=("$lib")
  done
  echo "${needed[*]:-}"
}
for sdk_library in "${sdk_libraries[@]}"; do
  name=$(basename "$sdk_library" .so)
  name=${name#lib}
  cat >"$prefix/lib64/pkgconfig/$name.pc" <<EOF
prefix=\${pcfiledir}/../..
libdir=\${prefix}/lib64
includedir=\${prefix}/include

Name: $name
Description: lib$name.so of the ascendcl install tree (CANN's name)
Version: $PACKAGE_VERSION
Requires: $(sdk_requires "$sdk_library")
Libs: -L\${libdir} -l$name
Cflags: -I\${includedir}
EOF
done

# --- CMake package ------------------------------------------------------------------
cmake_dir="$prefix/lib64/cmake/ascendcl"
mkdir -p "$cmake_dir"
cat >"$cmake_dir/ascendclConfig.cmake" <<'EOF'
# CMake package for the ascendcl install tree containing this file:
#   find_package(ascendcl REQUIRED)   # with CMAKE_PREFIX_PATH or ascendcl_DIR
#   target_link_libraries(app PRIVATE ascendcl::ascendcl)
# Also sets ascendcl_INCLUDE_DIRS and ascendcl_LIBRARIES.
get_filename_component(_ascendcl_prefix "${CMAKE_CURRENT_LIST_DIR}/../../.."
                       ABSOLUTE)
if(NOT TARGET ascendcl::ascendcl)
  add_library(ascendcl::ascendcl SHARED IMPORTED)
  set_target_properties(ascendcl::ascendcl PROPERTIES
    IMPORTED_LOCATION "${_ascendcl_prefix}/lib64/libascendcl.so"
    # Programs record the SONAME, not this path.
    IMPORTED_SONAME "libascendcl.so"
    INTERFACE_INCLUDE_DIRECTORIES "${_ascendcl_prefix}/include")
endif()
set(ascendcl_INCLUDE_DIRS "${_ascendcl_prefix}/include")
set(ascendcl_LIBRARIES ascendcl::ascendcl)
EOF
# One imported target per SDK library: ascendcl::opapi, ascendcl::nnopbase, ...
for sdk_library in "${sdk_libraries[@]}"; do
  name=$(basename "$sdk_library" .so)
  name=${name#lib}
  links=""
  for dep in $(sdk_requires "$sdk_library"); do links+="ascendcl::$dep;"; done
  cat >>"$cmake_dir/ascendclConfig.cmake" <<EOF
if(NOT TARGET ascendcl::$name)
  add_library(ascendcl::$name SHARED IMPORTED)
  set_target_properties(ascendcl::$name PROPERTIES
    IMPORTED_LOCATION "\${_ascendcl_prefix}/lib64/lib$name.so"
    IMPORTED_SONAME "lib$name.so"
    INTERFACE_INCLUDE_DIRECTORIES "\${_ascendcl_prefix}/include"
    INTERFACE_LINK_LIBRARIES "${links%;}")
endif()
EOF
done
echo 'unset(_ascendcl_prefix)' >>"$cmake_dir/ascendclConfig.cmake"
cat >"$cmake_dir/ascendclConfigVersion.cmake" <<EOF
# Same major version, and at least the version asked for.
set(PACKAGE_VERSION "$PACKAGE_VERSION")
if(PACKAGE_FIND_VERSION_MAJOR AND
   NOT PACKAGE_FIND_VERSION_MAJOR STREQUAL "${PACKAGE_VERSION%%.*}")
  set(PACKAGE_VERSION_COMPATIBLE FALSE)
elseif(PACKAGE_FIND_VERSION VERSION_GREATER PACKAGE_VERSION)
  set(PACKAGE_VERSION_COMPATIBLE FALSE)
else()
  set(PACKAGE_VERSION_COMPATIBLE TRUE)
  if(PACKAGE_FIND_VERSION VERSION_EQUAL PACKAGE_VERSION)
    set(PACKAGE_VERSION_EXACT TRUE)
  endif()
endif()
EOF

# CMake searches <prefix>/lib64/cmake only where the platform uses lib64
# (Debian's CMake does not): share/cmake/ascendcl points at the same files.
mkdir -p "$prefix/share/cmake"
ln -sfn ../../lib64/cmake/ascendcl "$prefix/share/cmake/ascendcl"

echo "install: ascendcl $PACKAGE_VERSION ($count headers) -> $prefix"
echo "install: use it with:  source $prefix/set_env.sh"
