#!/bin/bash
# The body of the two-process examples' run.sh, in the shape of CANN's
# sharing examples: builds proc_a and proc_b against the tree, then for each
# mode given runs both at once (they meet through ./file) and checks that the
# value one read ("Destination data") is the one the other wrote ("Source
# data").
#
#   bash ../run_pair.sh withpid withoutpid
set -euo pipefail

_ascend_path="${ASCEND_HOME_PATH:-}"
if [[ -z "${_ascend_path}" ]]; then
  echo "[ERROR]: ASCEND_HOME_PATH is not set."
  echo "[ERROR]: source <install tree>/set_env.sh before running this example."
  exit 1
fi
source "${_ascend_path}/bin/setenv.bash"
echo "[INFO]: compile soc version is ${SOC_VERSION}"

rm -rf build
mkdir -p build
cmake -B build -DASCEND_CANN_PACKAGE_PATH="${_ascend_path}" >build.log
cmake --build build -j >>build.log

for mode in "$@"; do
  rm -rf file
  mkdir -p file
  ./build/proc_a "$mode" >"output_a_$mode.txt" 2>&1 &
  pid_a=$!
  ./build/proc_b "$mode" >"output_b_$mode.txt" 2>&1 &
  pid_b=$!
  status_a=0
  status_b=0
  wait "$pid_a" || status_a=$?
  wait "$pid_b" || status_b=$?
  cat "output_a_$mode.txt" "output_b_$mode.txt"
  if [[ $status_a -ne 0 || $status_b -ne 0 ]]; then
    echo "[FAILURE] $mode: proc_a exited $status_a, proc_b exited $status_b"
    exit 1
  fi
  # One process writes ("Source data"), the other reads ("Destination data").
  source_value=$(cat "output_a_$mode.txt" "output_b_$mode.txt" |
    sed -n 's/.*Source data: *//p' | head -1)
  destination_value=$(cat "output_a_$mode.txt" "output_b_$mode.txt" |
    sed -n 's/.*Destination data: *//p' | head -1)
  if [[ -n "$source_value" && "$source_value" == "$destination_value" ]]; then
    echo "[SUCCESS] $mode: the reader read what the writer wrote: $source_value"
  else
    echo "[FAILURE] $mode: wrote '$source_value', read '$destination_value'"
    exit 1
  fi
done
