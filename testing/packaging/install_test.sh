#!/usr/bin/env bash
# Runs the installer into a temporary prefix and checks the tree:
#   install_test.sh INSTALL --library=... --headers=... --ascendc-cmake=...
#                   --ascendc-rewrite=... --kernel-operator=... --cli=...
#                   VERSION_PROBE
set -euo pipefail
install="$1"
probe="${@: -1}"
inputs=("${@:2:$#-2}")  # the installer's --options
prefix="$TEST_TMPDIR/prefix"

"$install" "${inputs[@]}" "$prefix"
# Installing again over the tree is fine (files are replaced).
"$install" "${inputs[@]}" "$prefix" >/dev/null
testing/packaging/check_install_tree.sh "$prefix" "$PWD/$probe"

# Bad usage is refused.
if "$install" "${inputs[@]}" >/dev/null 2>&1; then
  echo "FAIL: install without PREFIX succeeded"
  exit 1
fi
if "$install" --library=no/such/lib.so "${inputs[@]:1}" "$TEST_TMPDIR/x" \
  >/dev/null 2>&1; then
  echo "FAIL: install with a missing library succeeded"
  exit 1
fi
echo "install_test: PASS"
