#!/usr/bin/env bash
# The API coverage table (acl/API_COVERAGE.md), the status list
# (acl/api_status.txt), the public headers, the stub file and the symbols
# exported by libascendcl.so must agree; see tools/api_coverage.py.
set -euo pipefail
script="$1"
lib="$2"
exec /usr/bin/env python3 "$script" --check --library "$lib"
