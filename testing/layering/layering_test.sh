#!/usr/bin/env bash
# Usage: layering_test.sh CLOSURE_FILE FORBIDDEN_REGEX [CLOSURE_FILE FORBIDDEN_REGEX ...]
# Each closure file lists the labels of a genquery deps() closure; none may
# match its forbidden pattern.
set -euo pipefail
status=0
while (($# >= 2)); do
  file="$1"
  pattern="$2"
  shift 2
  if [[ ! -s "$file" ]]; then
    echo "FAIL: closure $file is empty"
    status=1
    continue
  fi
  hits=$(grep -E "$pattern" "$file" || true)
  if [[ -n "$hits" ]]; then
    echo "FAIL: $(basename "$file") reaches forbidden targets ($pattern):"
    echo "$hits" | sed 's/^/  /'
    status=1
  else
    echo "ok: $(basename "$file"): $(wc -l <"$file") targets, none match $pattern"
  fi
done
exit $status
