#!/bin/bash
# The body every example's run.sh shares, in the shape of CANN's run.sh
# scripts: needs ASCEND_HOME_PATH (source the tree's set_env.sh first),
# sources bin/setenv.bash, configures and builds the example with CMake against
# the tree, runs it into output_msg.txt. The caller then checks that file.
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
./build/main | tee output_msg.txt
