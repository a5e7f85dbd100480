#!/bin/bash
set -euo pipefail
cd "$(dirname "$0")"
bash ../run_one.sh
prints=$(grep -c '^vector_add: block [0-7] of 8 added 2048 elements$' output_msg.txt || true)
if grep -q '^Vector add result: equal ' output_msg.txt && [[ "$prints" -eq 8 ]]; then
  echo "[SUCCESS] the kernel's 8 blocks added every element and printed"
else
  echo "[FAILURE] wrong sums, or $prints of 8 kernel printf lines"
  exit 1
fi
