#!/usr/bin/env bash
# Generates a corpus that mixes every SKILL.md shape real registries hold (the fixtures of
# tests/fixtures/shapes: strict, lenient frontmatter of every kind, no frontmatter, a
# frontmatter with nothing to read), plus CRLF and BOM copies, and files no reader takes (empty,
# binary, over the size limit), as OWNER/REPO folders for scripts/corpus-check.sh.
# Usage: scripts/gen-shapes.sh OUT_DIR [REPOS]   (REPOS: copies of the set, default 20)
set -euo pipefail
out=${1:?usage: $0 OUT_DIR [REPOS]}
repos=${2:-20}
here=$(cd "$(dirname "$0")/.." && pwd)
shapes="$here/tests/fixtures/shapes/skills"
mkdir -p "$out"
for r in $(seq 1 "$repos"); do
  repo="$out/shapes/repo-$r"
  mkdir -p "$repo/skills"
  cp "$shapes/LICENSE" "$repo/LICENSE"
  for dir in "$shapes"/*/; do
    shape=$(basename "$dir")
    target="$repo/skills/$shape-$r"
    mkdir -p "$target"
    # The same shape under another name, so that names differ across repositories.
    sed "s/^name: $shape\$/name: $shape-$r/" "$dir/SKILL.md" > "$target/SKILL.md"
    # Every third repository: CRLF line endings; every fifth: a byte-order mark.
    if (( r % 3 == 0 )); then sed -i 's/$/\r/' "$target/SKILL.md"; fi
    if (( r % 5 == 0 )); then printf '\xef\xbb\xbf' | cat - "$target/SKILL.md" > "$target/x" && mv "$target/x" "$target/SKILL.md"; fi
  done
  # What no reader takes: each left out with one error.
  mkdir -p "$repo/skills/empty-$r" "$repo/skills/binary-$r"
  : > "$repo/skills/empty-$r/SKILL.md"
  head -c 4096 /dev/urandom > "$repo/skills/binary-$r/SKILL.md"
  if (( r == 1 )); then
    mkdir -p "$repo/skills/oversized-$r"
    { printf -- '---\nname: oversized\ndescription: Over the limit.\n---\n'; head -c 5000000 < <(yes 'Lorem ipsum dolor sit amet.'); } > "$repo/skills/oversized-$r/SKILL.md"
  fi
done
find "$out" -name SKILL.md | wc -l | xargs echo "SKILL.md files written:"
