#!/bin/bash
set -euo pipefail
cd "$(dirname "$0")"
bash ../run_one.sh
# One open device: each stage's callback ran once.
if grep -q '^Memory after restore: identical$' output_msg.txt &&
  grep -q '^Stage callbacks: 1 1 1 1 1 1$' output_msg.txt; then
  echo "[SUCCESS] device memory survived the snapshot; every stage called back once"
else
  echo "[FAILURE] memory or stage callbacks wrong after the snapshot"
  exit 1
fi
