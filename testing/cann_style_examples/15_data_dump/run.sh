#!/bin/bash
set -euo pipefail
cd "$(dirname "$0")"
rm -rf 20[0-9]* extra-info
bash ../run_one.sh
ok=1
expect() {  # expect REGEX: a whole line of the output
  if ! grep -Eq "^$1\$" output_msg.txt; then
    echo "[FAILURE] no line matches: $1"
    ok=0
  fi
}
expect 'data dump: kernel files 1, operator files 1'
# The operator's file and its kernel's went to the callback.
expect 'callback: files 2, files on disk 3'
expect 'after the round: path none'
expect 'exception: synchronize 507016, trap files 1, saved files 1'
expect 'Data dump: done'
if [[ $ok -eq 1 ]]; then
  echo "[SUCCESS] the dumps are where CANN puts them"
else
  exit 1
fi
