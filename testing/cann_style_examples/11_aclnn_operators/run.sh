#!/bin/bash
set -euo pipefail
cd "$(dirname "$0")"
bash ../run_one.sh
if grep -q '^aclnn: y = x \* w + b for 2 batches: equal$' output_msg.txt &&
   grep -q '^aclnn: bad shapes refused with 161002$' output_msg.txt; then
  echo "[SUCCESS] the operators computed on the stream and refused bad shapes"
else
  echo "[FAILURE] see output_msg.txt"
  exit 1
fi
