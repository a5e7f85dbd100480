#!/usr/bin/env bash
# Installs exactly the Debian 12 packages this repository needs. Idempotent and
# non-interactive: run it as root (or with sudo) on a fresh machine, then
# `bazel test //...`.
set -euo pipefail

packages=(
  bazel-bootstrap     # Bazel 4.2.3
  bazel-rules-java    # @rules_java (local_repository in WORKSPACE)
  bazel-skylib        # @bazel_skylib
  g++                 # default toolchain
  clang-14            # --config=clang
  libclang-rt-14-dev  # sanitizer and fuzzer runtimes for clang
  libabsl-dev
  libgtest-dev
  libgmock-dev
  libbenchmark-dev
  libgoogle-glog-dev
  nlohmann-json3-dev
  libgloo-dev         # libhccl.so: Gloo carries collectives between processes
                      # and hosts (its TCP transport and algorithms)
  iproute2            # //hccl:two_hosts_test puts ranks in two network
                      # namespaces joined by a veth pair (skips without)
  binutils            # nm, used by the exported-symbol test
  clang-format
  cmake               # the CMake consumer test
  pkg-config
  g++-aarch64-linux-gnu  # //device:checksum_aarch64_test (NEON kernel)
  qemu-user              # runs that test's aarch64 binary
  chromium               # //acl/prof/trace_viewer:chromium_trace_test opens the
                         # profiling trace in it (it skips without)
)

missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done

if ((${#missing[@]})); then
  sudo_cmd=()
  if [[ $(id -u) -ne 0 ]]; then
    if ! command -v sudo >/dev/null 2>&1; then
      echo "setup: missing ${missing[*]}; run this script as root (there is no sudo)" >&2
      exit 1
    fi
    sudo_cmd=(sudo)
  fi
  export DEBIAN_FRONTEND=noninteractive
  "${sudo_cmd[@]}" apt-get update -qq
  "${sudo_cmd[@]}" apt-get install -y -qq --no-install-recommends "${missing[@]}"
fi
echo "setup: all ${#packages[@]} packages present"
