#!/bin/bash
set -euo pipefail
cd "$(dirname "$0")"
rm -rf prof_out
bash ../run_one.sh
if grep -q '^Profiling result: 8 tasks, 5 marks, trace ok$' output_msg.txt; then
  echo "[SUCCESS] the collection wrote the tasks, the marks and a trace"
else
  echo "[FAILURE] the collection's files are not what the program did"
  exit 1
fi
