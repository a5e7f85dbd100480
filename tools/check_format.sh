#!/usr/bin/env bash
# Checks that every tracked C/C++ source (*.cc, *.h, *.c) is formatted as
# .clang-format says: runs `clang-format --dry-run --Werror` on each, prints
# the files that would change and exits non-zero if there is any.
#
#   bash tools/check_format.sh            # from anywhere inside the checkout
#   CLANG_FORMAT=clang-format-14 bash tools/check_format.sh
#
# Fix a file with `clang-format -i FILE`.
set -euo pipefail

root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$root"

clang_format=${CLANG_FORMAT:-clang-format}
if ! command -v "$clang_format" >/dev/null 2>&1; then
  echo "check_format: $clang_format not found (bash tools/setup.sh installs it)" >&2
  exit 2
fi
if ! git rev-parse --is-inside-work-tree >/dev/null 2>&1; then
  echo "check_format: $root is not a git checkout (the file list is git ls-files)" >&2
  exit 2
fi

mapfile -d '' files < <(git ls-files -z -- '*.cc' '*.h' '*.c')
if ((${#files[@]} == 0)); then
  echo "check_format: no tracked C/C++ files found" >&2
  exit 2
fi

offenders=()
for f in "${files[@]}"; do
  if ! "$clang_format" --dry-run --Werror "$f" >/dev/null 2>&1; then
    offenders+=("$f")
  fi
done

if ((${#offenders[@]})); then
  echo "check_format: ${#offenders[@]} of ${#files[@]} files are not formatted" \
    "($("$clang_format" --version | head -n 1)); fix with clang-format -i:" >&2
  printf '  %s\n' "${offenders[@]}" >&2
  exit 1
fi
echo "check_format: all ${#files[@]} files formatted"
