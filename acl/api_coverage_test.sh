#!/usr/bin/env bash
# The API coverage table (acl/API_COVERAGE.md), the status list
# (acl/api_status.txt), the public headers (their doc comments included), the
# stub files and the symbols exported by libascendcl.so (and by the libraries
# given after the status list: the TDT libraries) must agree, and no
# tracked file of the checkout may cite an issue number; see
# tools/api_coverage.py.
#
# The checkout is found through the status list: its runfile is a link to the
# source file (the test is tagged local, so it sees the source tree, and
# external, so it runs every time: the files it reads are not its inputs).
set -euo pipefail
script="$1"
lib="$2"
status="$3"
shift 3
libraries=(--library "$lib")
for extra in "$@"; do libraries+=(--library "$extra"); done
source_file=$(readlink -f "$status")
repo=$(dirname "$(dirname "$source_file")")
if [[ ! -f "$repo/DESIGN.md" ]]; then
  echo "FAIL: cannot find the checkout from $status (got $repo)" >&2
  exit 1
fi
exec /usr/bin/env python3 "$script" --check "${libraries[@]}" --repo "$repo"
