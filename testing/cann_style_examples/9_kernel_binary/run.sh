#!/bin/bash
# As CANN's kernel-binary examples: configure, build, install (the binary
# goes to out/fatbin/scale_kernels/scale_kernels.o), run from here.
set -euo pipefail
cd "$(dirname "$0")"
if [[ -z "${ASCEND_HOME_PATH:-}" ]]; then
  echo "[ERROR]: source <install tree>/set_env.sh before running this example."
  exit 1
fi
source "${ASCEND_HOME_PATH}/bin/setenv.bash"
rm -rf build out
cmake -B build -DASCEND_CANN_PACKAGE_PATH="${ASCEND_HOME_PATH}" >build.log
cmake --build build -j >>build.log
cmake --install build >>build.log
./out/bin/main | tee output_msg.txt
if grep -q '^Kernel found: scale_add$' output_msg.txt &&
  grep -q '^Scale-add result: equal ' output_msg.txt; then
  echo "[SUCCESS] the loaded kernel binary computed every element"
else
  echo "[FAILURE] the kernel was not found or computed wrong values"
  exit 1
fi
