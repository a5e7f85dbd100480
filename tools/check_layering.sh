#!/usr/bin/env bash
# The layering rule acl -> snapshot -> runtime -> device, checked on the build
# graph itself (visibility enforces it too, but the public aliases that other
# Bazel projects use — acl_api, global_state, callback_manager,
# snapshot_coordinator, device_ops — are visible everywhere): no library of a
# lower layer may depend on a library of a higher one. The public C headers
# (//acl/include:headers: types and codes only) are shared by every layer.
#   bash tools/check_layering.sh      (from the repository root)
set -euo pipefail
cd "$(dirname "$0")/.."
bazel_flags=(--color=no --curses=no)
shared='//acl/include:headers'
status=0
check() {  # check LOWER HIGHER
  local found
  found=$(bazel query "${bazel_flags[@]}" --noshow_progress \
    "kind(cc_library, deps(kind(cc_library, $1))) intersect ($2) except $shared" \
    2>/dev/null)
  if [[ -n "$found" ]]; then
    echo "layering: libraries of $1 depend on a higher layer:"
    sed 's/^/  /' <<<"$found"
    status=1
  else
    echo "layering: $1 depends on nothing in $2"
  fi
}
check //device/... '//runtime/... + //snapshot/... + //acl/...'
check //runtime/... '//snapshot/... + //acl/...'
check //snapshot/... '//acl/...'
exit $status
