#!/usr/bin/env bash
# Usage: include_test.sh WHAT FORBIDDEN_REGEX FILE...
# None of the source files may have an #include line matching the pattern
# (WHAT names the rule in the messages): pattern_test.sh on #include lines.
set -euo pipefail
what="$1"
pattern="$2"
shift 2
exec bash "$(dirname "$0")/pattern_test.sh" "${what}" \
  "^[[:space:]]*#[[:space:]]*include[[:space:]]*[<\"]${pattern}" "$@"
