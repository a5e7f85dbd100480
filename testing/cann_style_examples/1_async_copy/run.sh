#!/bin/bash
set -euo pipefail
cd "$(dirname "$0")"
bash ../run_one.sh
if grep -q '^Copy result: equal$' output_msg.txt; then
  echo "[SUCCESS] host -> device -> device -> host copy is byte-identical"
else
  echo "[FAILURE] the copied bytes differ"
  exit 1
fi
