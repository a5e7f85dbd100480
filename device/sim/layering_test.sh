#!/bin/bash
# Asserts that a genquery result (one label per line) names no label starting
# with any of the given prefixes.
#   layering_test.sh DEPS_FILE FORBIDDEN_PREFIX...
set -uo pipefail
deps_file="$1"
shift
if [[ ! -s "${deps_file}" ]]; then
  echo "FAIL: ${deps_file} is empty"
  exit 1
fi
status=0
for prefix in "$@"; do
  if grep -q -- "^${prefix}" "${deps_file}"; then
    echo "FAIL: the closure reaches ${prefix}:"
    grep "^${prefix}" "${deps_file}"
    status=1
  fi
done
[[ ${status} -eq 0 ]] && echo "PASS: $(wc -l <"${deps_file}") labels checked"
exit ${status}
