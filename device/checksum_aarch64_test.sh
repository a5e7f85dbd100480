#!/bin/bash
# Builds the checksum (device/checksum.cc, NEON kernel on aarch64) and its
# test for aarch64 with the Debian cross compiler and runs the test under
# qemu-user: the NEON kernel must reproduce the portable kernel and the
# pinned values bit for bit. Bazel has no aarch64 toolchain configured here,
# so this is a plain compiler invocation with GoogleTest built from the
# sources libgtest-dev installs.
#
#   bazel test //device:checksum_aarch64_test    # or run this script directly
#
# tools/setup.sh installs g++-aarch64-linux-gnu and qemu-user.
set -euo pipefail

# The repository root: the runfiles tree under Bazel, the checkout otherwise.
cd "$(dirname "$0")/.."
cxx="${AARCH64_CXX:-aarch64-linux-gnu-g++}"
qemu="${QEMU_AARCH64:-qemu-aarch64}"
gtest_src="${GTEST_SRC:-/usr/src/googletest/googletest}"
for tool in "${cxx}" "${qemu}"; do
  if ! command -v "${tool}" >/dev/null; then
    echo "FAIL: ${tool} not found (apt-get install g++-aarch64-linux-gnu qemu-user)"
    exit 1
  fi
done
if [[ ! -f "${gtest_src}/src/gtest-all.cc" ]]; then
  echo "FAIL: GoogleTest sources not found under ${gtest_src} (libgtest-dev)"
  exit 1
fi

out="$(mktemp -d "${TEST_TMPDIR:-${TMPDIR:-/tmp}}/aarch64.XXXXXX")"
trap 'rm -rf "${out}"' EXIT
flags=(-std=c++17 -O2 -Wall -Werror -I. -pthread)
"${cxx}" "${flags[@]}" -Wno-error -I"${gtest_src}/include" -I"${gtest_src}" \
  -c "${gtest_src}/src/gtest-all.cc" -o "${out}/gtest-all.o"
"${cxx}" "${flags[@]}" -I"${gtest_src}/include" \
  -c "${gtest_src}/src/gtest_main.cc" -o "${out}/gtest_main.o"
"${cxx}" "${flags[@]}" -Wextra -O3 -c device/checksum.cc -o "${out}/checksum.o"
"${cxx}" "${flags[@]}" -I"${gtest_src}/include" \
  -c device/checksum_test.cc -o "${out}/checksum_test.o"
"${cxx}" -pthread "${out}"/*.o -o "${out}/checksum_test"
"${qemu}" -L /usr/aarch64-linux-gnu "${out}/checksum_test"
