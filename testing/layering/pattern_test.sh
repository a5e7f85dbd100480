#!/usr/bin/env bash
# Usage: pattern_test.sh WHAT FORBIDDEN_REGEX FILE...
# No line of the source files may match the pattern (an extended regular
# expression; WHAT names the rule in the messages).
set -euo pipefail
what="$1"
pattern="$2"
shift 2
if (($# == 0)); then
  echo "FAIL: no files to check for ${what}"
  exit 1
fi
hits=$(grep -nE "${pattern}" "$@" || true)
if [[ -n "$hits" ]]; then
  echo "FAIL: ${what}:"
  echo "$hits" | sed 's/^/  /'
  exit 1
fi
echo "ok: ${what}: $# files, none matches ${pattern}"
