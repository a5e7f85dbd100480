#!/usr/bin/env bash
# Every citation of the design chapters points at a section that exists.
#
# Code and docs cite the design by number: "DESIGN.md §4.15", or a list that
# starts with it ("DESIGN.md §4.3, §5.7"). The sections are the numbered
# headings of docs/design/*.md ("# 4. Snapshot", "## 4.15 ...",
# "### 5.3.1 ..."); inside those chapters a bare "§4.14" is a citation too.
# Prints each dangling citation with its file and line, and exits 1 if any.
#   bash tools/check_design_citations.sh      (from the repository root)
set -euo pipefail
cd "$(dirname "$0")/.."

sections=$(grep -hoE '^#{1,3} [0-9]+(\.[0-9]+)*' docs/design/*.md |
  sed -E 's/^#+ //' | sort -u)
if [[ -z $sections ]]; then
  echo "design citations: no numbered sections under docs/design/" >&2
  exit 1
fi

declare -A known=()
while read -r s; do known[$s]=1; done <<<"$sections"

# file:line:citation-list for every "DESIGN.md §..." in tracked text files,
# and for every bare "§N.M" inside the chapters and the map.
cites=$( (git grep -nIoE 'DESIGN\.md §?[0-9]+(\.[0-9]+)*((, | and | or |–|-)§[0-9]+(\.[0-9]+)*)*' -- \
  ':!docs/design/' ':!DESIGN.md' || true
  git grep -nIoE '§[0-9]+(\.[0-9]+)*' -- 'docs/design/*.md' DESIGN.md || true))

bad=0
count=0
while IFS= read -r hit; do
  [[ -n $hit ]] || continue
  where=${hit%:*}
  text=${hit##*:}
  for n in $(sed -E 's/^DESIGN\.md //' <<<"$text" | grep -oE '§?[0-9]+(\.[0-9]+)*' | tr -d '§'); do
    count=$((count + 1))
    if [[ -z ${known[$n]:-} ]]; then
      echo "design citations: $where cites §$n, which no chapter has"
      bad=1
    fi
  done
done <<<"$cites"

if ((bad)); then
  echo "design citations: dangling citations above (sections: docs/design/*.md)" >&2
  exit 1
fi
echo "design citations: all $count resolve (${#known[@]} sections)"
