#!/bin/bash
set -euo pipefail
cd "$(dirname "$0")"
bash ../run_one.sh
if grep -q '^Replays: 3 of 3 correct$' output_msg.txt &&
   grep -q '^Graph JSON: written$' output_msg.txt; then
  echo "[SUCCESS] the captured graph replays with fresh inputs each time"
else
  echo "[FAILURE] a replay did not reproduce the captured work"
  exit 1
fi
