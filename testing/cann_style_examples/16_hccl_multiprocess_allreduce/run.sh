#!/bin/bash
# Builds the example against the tree, then runs RANK_SIZE processes at once
# (as a launcher would) and checks that every rank printed the sum.
set -euo pipefail
cd "$(dirname "$0")"
_ascend_path="${ASCEND_HOME_PATH:-}"
if [[ -z "${_ascend_path}" ]]; then
  echo "[ERROR]: ASCEND_HOME_PATH is not set."
  echo "[ERROR]: source <install tree>/set_env.sh before running this example."
  exit 1
fi
source "${_ascend_path}/bin/setenv.bash"
rm -rf build file
mkdir -p build file
cmake -B build -DASCEND_CANN_PACKAGE_PATH="${_ascend_path}" >build.log
cmake --build build -j >>build.log

size=4
pids=()
for ((rank = 0; rank < size; ++rank)); do
  RANK_ID=$rank RANK_SIZE=$size HCCL_CONNECT_TIMEOUT=60 \
    timeout 120 ./build/main >"output_$rank.txt" 2>&1 &
  pids+=($!)
done
failed=0
for pid in "${pids[@]}"; do wait "$pid" || failed=1; done
cat output_*.txt | tee output_msg.txt
# 1 + 2 + 3 + 4 on every rank.
for ((rank = 0; rank < size; ++rank)); do
  grep -q "^rankId: $rank, output: \[ 10 10 10 10 10 10 10 10 \]$" \
    "output_$rank.txt" || failed=1
done
if ((failed)); then
  echo "[FAILURE] see output_*.txt"
  exit 1
fi
echo "[SUCCESS] $size processes reduced over HCCL: every rank holds the sum"
