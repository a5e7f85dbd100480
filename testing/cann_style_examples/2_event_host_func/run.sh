#!/bin/bash
set -euo pipefail
cd "$(dirname "$0")"
bash ../run_one.sh
if grep -q '^Event status: complete$' output_msg.txt &&
  grep -q '^Elapsed ms is non-negative: yes$' output_msg.txt &&
  grep -q '^Host function order: first=0 second=1$' output_msg.txt; then
  echo "[SUCCESS] the event ordered the two streams"
else
  echo "[FAILURE] wrong event status or host function order"
  exit 1
fi
