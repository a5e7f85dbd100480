#!/usr/bin/env bash
# libascendcl.so must export the public C API and nothing else, and carry the
# SONAME libascendcl.so.
set -euo pipefail
lib="$1"
soname=$(readelf -d "$lib" | sed -n 's/.*(SONAME).*\[\(.*\)\].*/\1/p')
if [[ "$soname" != "libascendcl.so" ]]; then
  echo "FAIL: SONAME of $lib is '${soname}', expected libascendcl.so"
  exit 1
fi
symbols=$(nm -D --defined-only "$lib" | awk '$2 ~ /^[TDBRVW]$/ {print $3}' | sort)
count=$(echo "$symbols" | grep -c . || true)
bad=$(echo "$symbols" | grep -Ev '^(acl|rtSnapShot|ascendcl)' || true)
if [[ -n "$bad" ]]; then
  echo "FAIL: non-public symbols exported from $lib:"
  echo "$bad" | head -50
  exit 1
fi
# A representative set that must be there.
for s in aclInit aclFinalize aclFinalizeReference aclInitCallbackRegister \
         aclrtSetDevice aclrtMalloc aclrtMemcpy aclrtCreateStream \
         aclrtSnapShotProcessLock aclrtSnapShotProcessBackup \
         rtSnapShotProcessGetState rtSnapShotCallbackRegister aclsimInjectFault \
         aclsysGetVersionStr aclrtGetSocName aclCreateDataBuffer aclAppLog \
         aclrtAllocatorCreateDesc aclmdlInitDump ascendclSnapshotGetReport \
         ascendclSnapshotPrecopy; do
  if ! grep -qx "$s" <<<"$symbols"; then
    echo "FAIL: $s is not exported"
    exit 1
  fi
done
echo "PASS: SONAME libascendcl.so, $count public symbols exported, nothing else"
