#!/usr/bin/env bash
# The TDT shared libraries (DESIGN.md §5.23): each exports its acltdt*
# functions and nothing else, needs libascendcl.so (DT_NEEDED) and finds it
# beside itself (RUNPATH $ORIGIN), leaves every aclrt* call to it, and holds
# no code of the runtime, so one process has one runtime.
#   shared_library_test.sh LIBRARY EXPECTED_EXPORTS ...
set -euo pipefail
status=0
fail() { echo "FAIL: $*"; status=1; }
while (($#)); do
  lib="$1" expected="$2"
  shift 2
  name=$(basename "$lib")
  exports=$(nm -D --defined-only "$lib" | awk 'NF == 3 {print $3}')
  others=$(grep -v '^acltdt' <<<"$exports" || true)
  [[ -z "$others" ]] || fail "$name exports more than acltdt*: $others"
  count=$(grep -c '^acltdt' <<<"$exports" || true)
  [[ "$count" == "$expected" ]] || fail "$name exports $count acltdt functions, expected $expected"
  dynamic=$(readelf -d "$lib")
  grep -q 'NEEDED.*\[libascendcl.so\]' <<<"$dynamic" || fail "$name does not need libascendcl.so"
  grep -q "SONAME.*\[$name\]" <<<"$dynamic" || fail "$name has another SONAME"
  grep -Eq 'RUNPATH.*[[:punct:]]\$ORIGIN\]' <<<"$dynamic" || fail "$name has no RUNPATH \$ORIGIN"
  # (nm's output is read whole: with pipefail, a grep -q that stops at the
  # first match would fail the pipeline with nm's SIGPIPE.)
  undefined=$(nm -D --undefined-only "$lib")
  grep -q ' aclrtAllocBuf$\| aclrtGetDeviceCount$' <<<"$undefined" ||
    fail "$name resolves no aclrt* call against libascendcl.so"
  symbols=$(nm -C "$lib")
  runtime=$(grep -E 'ascend::(rt|acl|snapshot)::' <<<"$symbols" | head -3 || true)
  [[ -z "$runtime" ]] || fail "$name holds runtime code: $runtime"
  [[ $status -ne 0 ]] || echo "PASS: $name: $count acltdt* exports, needs libascendcl.so, no runtime code"
done
exit $status
