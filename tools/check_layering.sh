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
check //acl/... '//aclnn/... + //hccl/...'
# The operator libraries sit above the ACL layer and reach the runtime only
# through its public C API (DESIGN.md §5.26; the dump's C interface,
# ascendcl/dump.h, DESIGN.md §5.25): apart from the public headers,
# no non-test aclnn library depends on a library of the runtime, snapshot or
# device layers, or on the ACL implementation.
found=$(bazel query "${bazel_flags[@]}" --noshow_progress \
  "kind(cc_library, deps(attr(testonly, 0, kind(cc_library, //aclnn/...)))) intersect (//runtime/... + //snapshot/... + //device/... + //acl/...) except ($shared + //acl/dump:dump_header + //device/sim/include:aclsim_header + //device/sim/include:aclsim_kernel_abi)" \
  2>/dev/null)
if [[ -n "$found" ]]; then
  echo "layering: aclnn libraries depend on runtime internals:"
  sed 's/^/  /' <<<"$found"
  status=1
else
  echo "layering: //aclnn/... libraries use only the public headers below them"
fi
# The TDT libraries likewise (DESIGN.md §5.23): the public headers and the
# header-only mutex wrapper and exception classification, nothing of the runtime or the ACL implementation.
found=$(bazel query "${bazel_flags[@]}" --noshow_progress \
  "kind(cc_library, deps(attr(testonly, 0, kind(cc_library, //acl/tdt/...)))) intersect (//runtime/... + //snapshot/... + //device/... + //acl/...) except (//acl/tdt/... + $shared + //device/base:mutex + //device/base:current_exception)" \
  2>/dev/null)
if [[ -n "$found" ]]; then
  echo "layering: acl/tdt libraries depend on runtime internals:"
  sed 's/^/  /' <<<"$found"
  status=1
else
  echo "layering: //acl/tdt/... libraries use only the public headers below them"
fi
# HCCL likewise (DESIGN.md §5.27): the public headers (ACL, the simulator's
# kernel ABI) and the header-only exception classification, nothing of the
# runtime or the ACL implementation.
found=$(bazel query "${bazel_flags[@]}" --noshow_progress \
  "kind(cc_library, deps(attr(testonly, 0, kind(cc_library, //hccl/...)))) intersect (//runtime/... + //snapshot/... + //device/... + //acl/...) except ($shared + //device/base:current_exception + //device/sim/include:aclsim_header + //device/sim/include:aclsim_kernel_abi)" \
  2>/dev/null)
if [[ -n "$found" ]]; then
  echo "layering: hccl libraries depend on runtime internals:"
  sed 's/^/  /' <<<"$found"
  status=1
else
  echo "layering: //hccl/... libraries use only the public headers below them"
fi
# Kernels are backend-neutral in the runtime (DESIGN.md §5.20): no runtime
# library depends on a simulator target (tests and benchmarks pick the
# simulator as their backend), and no source under runtime/ includes a
# simulator header.
found=$(bazel query "${bazel_flags[@]}" --noshow_progress \
  "labels(deps, attr(testonly, 0, kind(cc_library, //runtime/...))) intersect //device/sim/..." \
  2>/dev/null)
if [[ -n "$found" ]]; then
  echo "layering: runtime libraries depend on the simulator:"
  sed 's/^/  /' <<<"$found"
  status=1
else
  echo "layering: //runtime/... libraries depend on nothing in //device/sim/..."
fi
hits=$(grep -rnE '^[[:space:]]*#[[:space:]]*include[[:space:]]*["<]aclsim/' runtime/ || true)
if [[ -n "$hits" ]]; then
  echo "layering: runtime sources include simulator headers:"
  sed 's/^/  /' <<<"$hits"
  status=1
else
  echo "layering: no source under runtime/ includes aclsim/"
fi
exit $status
