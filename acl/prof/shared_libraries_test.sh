#!/usr/bin/env bash
# libprofapi.so and libmsprofiler.so (DESIGN.md §5.24): their SONAMEs, that
# they load libascendcl.so (and libmsprofiler.so libprofapi.so) as shared
# libraries and carry no copy of the runtime, and that each exports the
# functions its header declares and nothing else.
#   shared_libraries_test.sh libprofapi.so libmsprofiler.so aprof_pub.h acl_prof.h
set -euo pipefail
profapi="$1" msprofiler="$2" aprof_header="$3" prof_header="$4"
fail() { echo "FAIL: $*"; exit 1; }

soname() { readelf -d "$1" | sed -n 's/.*(SONAME).*\[\(.*\)\].*/\1/p'; }
needed() { readelf -d "$1" | sed -n 's/.*(NEEDED).*\[\(.*\)\].*/\1/p'; }
exported() { nm -D --defined-only "$1" | awk '$2 ~ /^[TDBRVWu]$/ {print $3}' | sort; }
# Functions a header declares: the name before "(" on MSVP_PROF_API lines.
declared() {
  grep -v '^#' "$1" | tr '\n' ' ' | grep -o 'MSVP_PROF_API[^;(]*(' |
    sed 's/($//' | awk '{print $NF}' | tr -d '*' | sort -u
}

[[ $(soname "$profapi") == libprofapi.so ]] || fail "SONAME of $profapi"
[[ $(soname "$msprofiler") == libmsprofiler.so ]] || fail "SONAME of $msprofiler"
# (Outputs are read whole before grep -q: with pipefail, a grep that stops at
# its first match fails the pipeline with the writer's SIGPIPE.)
profapi_needs=$(needed "$profapi")
msprofiler_needs=$(needed "$msprofiler")
grep -qx libascendcl.so <<<"$profapi_needs" || fail "libprofapi.so does not need libascendcl.so"
grep -qx libascendcl.so <<<"$msprofiler_needs" || fail "libmsprofiler.so does not need libascendcl.so"
grep -qx libprofapi.so <<<"$msprofiler_needs" || fail "libmsprofiler.so does not need libprofapi.so"

# No runtime inside: no definition of the runtime's or the ACL layer's code.
for lib in "$profapi" "$msprofiler"; do
  copies=$(nm -C --defined-only "$lib" | grep -E 'ascend::(rt|acl|device|snapshot)::' || true)
  [[ -z "$copies" ]] || fail "$(basename "$lib") defines runtime code: $(echo "$copies" | head -3)"
  defined=$(nm -D --defined-only "$lib")
  if grep -qE ' (aclrt|aclInit|ascendclTimeline)' <<<"$defined"; then
    fail "$(basename "$lib") defines ACL runtime functions"
  fi
done

bad=$(exported "$profapi" | grep -Ev '^(Msprof|InitInjectionMstx$|ascendclProf)' || true)
[[ -z "$bad" ]] || fail "libprofapi.so exports $bad"
bad=$(exported "$msprofiler" | grep -Ev '^aclprof' || true)
[[ -z "$bad" ]] || fail "libmsprofiler.so exports $bad"

missing=$(comm -23 <(declared "$aprof_header") <(exported "$profapi"))
[[ -z "$missing" ]] || fail "libprofapi.so lacks $missing"
missing=$(comm -23 <(declared "$prof_header") <(exported "$msprofiler"))
[[ -z "$missing" ]] || fail "libmsprofiler.so lacks $missing"
n1=$(declared "$aprof_header" | wc -l)
n2=$(declared "$prof_header" | wc -l)
[[ $n1 -eq 19 && $n2 -eq 38 ]] || fail "expected 19 and 38 declarations, found ($n1, $n2)"
echo "PASS: libprofapi.so ($n1 functions) and libmsprofiler.so ($n2 functions) link libascendcl.so and export their headers' functions only"
