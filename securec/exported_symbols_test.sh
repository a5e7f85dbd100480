#!/usr/bin/env bash
# libc_sec.so must carry the SONAME libc_sec.so and export exactly the
# functions its version script lists (the functions securec.h declares).
set -euo pipefail
lib="$1"
script="$2"
soname=$(readelf -d "$lib" | sed -n 's/.*(SONAME).*\[\(.*\)\].*/\1/p')
if [[ "$soname" != "libc_sec.so" ]]; then
  echo "FAIL: SONAME of $lib is '${soname}', expected libc_sec.so"
  exit 1
fi
exported=$(nm -D --defined-only "$lib" | awk '$2 ~ /^[TW]$/ {print $3}' | sort)
listed=$(sed -n '/global:/,/local:/p' "$script" | tr ' ;' '\n\n' |
  grep -E '^[A-Za-z_][A-Za-z0-9_]*$' | grep -v -e global -e local | sort)
if [[ "$exported" != "$listed" ]]; then
  echo "FAIL: exported functions differ from the version script:"
  diff <(echo "$listed") <(echo "$exported") || true
  exit 1
fi
echo "PASS: SONAME libc_sec.so, $(echo "$exported" | wc -l) functions exported"
