#!/usr/bin/env bash
# libascend_dump.so carries the SONAME libascend_dump.so, exports the
# functions of acl_dump.h and nothing else, and needs libascendcl.so: the
# runtime it forwards to is the process's one copy (DESIGN.md §5.25).
set -euo pipefail
lib="$1"
soname=$(readelf -d "$lib" | sed -n 's/.*(SONAME).*\[\(.*\)\].*/\1/p')
if [[ "$soname" != "libascend_dump.so" ]]; then
  echo "FAIL: SONAME of $lib is '${soname}', expected libascend_dump.so"
  exit 1
fi
# (Outputs are read whole before grep -q: with pipefail, a grep that stops at
# its first match fails the pipeline with the writer's SIGPIPE.)
dynamic=$(readelf -d "$lib")
if ! grep -q 'NEEDED.*\[libascendcl.so\]' <<<"$dynamic"; then
  echo "FAIL: $lib does not need libascendcl.so"
  readelf -d "$lib" | grep NEEDED
  exit 1
fi
exported=$(nm -D --defined-only "$lib" | awk '$2 ~ /^[TDBRVW]$/ {print $3}' |
  LC_ALL=C sort | tr '\n' ' ')
expected="acldumpGetExceptionInfoPath acldumpGetPath acldumpRegCallback \
acldumpSaveExceptionInfo acldumpUnregCallback aclopStartDumpArgs \
aclopStopDumpArgs "
if [[ "$exported" != "$expected" ]]; then
  echo "FAIL: $lib exports: $exported"
  echo "      expected:       $expected"
  exit 1
fi
# No part of the runtime inside: every ascendcl* symbol is undefined here.
defined=$(nm -D --defined-only "$lib")
if grep -q ' ascendcl' <<<"$defined"; then
  echo "FAIL: $lib defines runtime symbols"
  exit 1
fi
echo "PASS: SONAME libascend_dump.so, needs libascendcl.so, exports $exported"
