#!/bin/bash
set -euo pipefail
cd "$(dirname "$0")"
bash ../run_one.sh
if grep -q '^Channel result: 16 tensors in order, end of sequence seen$' output_msg.txt &&
  grep -q '^Stop woke the idle receiver: 500001$' output_msg.txt; then
  echo "[SUCCESS] a producer thread streamed device tensors to a consumer in order"
else
  echo "[FAILURE] the channel lost, reordered or corrupted tensors"
  exit 1
fi
