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
expect 'sprintf_s wrote 16 characters: tensor=x size=42'
expect 'sscanf_s read 2 fields: name x size 42'
# ERANGE_AND_RESET (162): the destination is zeroed.
expect 'memcpy_s into 4 bytes: 162, first byte 0'
expect 'snprintf_s cut: -1 "he"'
# Six characters and the terminator do not fit six bytes.
expect 'strncpy_s of 6 into 6: 162'
expect 'Secure C: done'
if [[ $ok -eq 1 ]]; then
  echo "[SUCCESS] the secure C library kept every bound"
else
  exit 1
fi
