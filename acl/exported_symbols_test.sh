#!/usr/bin/env bash
# libascendcl.so must export the public C API and nothing else.
set -euo pipefail
lib="$1"
symbols=$(nm -D --defined-only "$lib" | awk '$2 ~ /^[TDBRVW]$/ {print $3}' | sort)
count=$(echo "$symbols" | grep -c . || true)
bad=$(echo "$symbols" | grep -Ev '^(acl|rtSnapShot)' || true)
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
         aclsysGetVersionStr aclrtGetSocName; do
  if ! grep -qx "$s" <<<"$symbols"; then
    echo "FAIL: $s is not exported"
    exit 1
  fi
done
echo "PASS: $count public symbols exported, nothing else"
