#!/bin/bash
set -euo pipefail
cd "$(dirname "$0")"
bash ../run_one.sh
ok=1
expect() {  # expect REGEX: a whole line of the output
  if ! grep -Eq "^$1\$" output_msg.txt; then
    echo "[FAILURE] no line matches: $1"
    ok=0
  fi
}
# Continue on failure: the count after the trap runs; stop: it does not.
expect 'continue: third launch 0, synchronize 507016, counter 2'
expect 'stop: third launch -?[0-9]+, synchronize 507016, counter 1'
# The trapping block ended at its trap.
expect 'continue: marks [0-2] [0-2] 1 [0-2]'
expect 'stop: marks [0-2] [0-2] 1 [0-2]'
expect 'continue: callbacks 1, code 507016, stream matches, device 0, kernel trap_kernel'
expect 'stop: callbacks 1, code 507016, stream matches, device 0, kernel trap_kernel'
if [[ $ok -eq 1 ]]; then
  echo "[SUCCESS] the trap failed its task under both failure modes"
else
  exit 1
fi
