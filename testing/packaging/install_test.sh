#!/usr/bin/env bash
# Runs the installer into a temporary prefix and checks the tree:
#   install_test.sh INSTALL --library=... --headers=... --ascendc-cmake=... VERSION_PROBE
set -euo pipefail
install="$1"
library="$2"
headers="$3"
ascendc="$4"
probe="$5"
prefix="$TEST_TMPDIR/prefix"

"$install" "$library" "$headers" "$ascendc" "$prefix"
# Installing again over the tree is fine (files are replaced).
"$install" "$library" "$headers" "$ascendc" "$prefix" >/dev/null
testing/packaging/check_install_tree.sh "$prefix" "$PWD/$probe"

# Bad usage is refused.
if "$install" "$library" "$headers" "$ascendc" >/dev/null 2>&1; then
  echo "FAIL: install without PREFIX succeeded"
  exit 1
fi
if "$install" --library=no/such/lib.so "$headers" "$ascendc" "$TEST_TMPDIR/x" \
  >/dev/null 2>&1; then
  echo "FAIL: install with a missing library succeeded"
  exit 1
fi
echo "install_test: PASS"
