#!/usr/bin/env bash
# Builds a catalog of a folder of real-world skills and prints how many got a page and how many
# a diagnostic. Usage: scripts/corpus-check.sh CORPUS_DIR
# CORPUS_DIR holds one folder per repository as OWNER/REPO (e.g. ../shared/corpus).
set -euo pipefail
corpus=$(cd "${1:?usage: $0 CORPUS_DIR}" && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
{
  echo 'title = "Corpus check"'
  for repo in "$corpus"/*/*/; do
    repo=${repo%/}
    echo "[[sources]]"
    echo "path = \"$repo\""
    echo "repo = \"$(basename "$(dirname "$repo")")/$(basename "$repo")\""
  done
} > "$work/catalog.toml"
cargo build --release --quiet
skill_files=$(find "$corpus" -iname 'skill.md' -not -path '*/node_modules/*' | wc -l)
start=$(date +%s.%N)
set +e
./target/release/catalog build --root "$work" -v 2> "$work/stderr"
status=$?
set -e
end=$(date +%s.%N)
pages=$(find "$work/public" -mindepth 4 -maxdepth 4 -name index.html | wc -l)
errors=$(grep -c ': error: ' "$work/stderr" || true)
warnings=$(grep -c ': warning: ' "$work/stderr" || true)
echo "SKILL.md files:   $skill_files"
echo "skill pages:      $pages"
echo "skills left out:  $errors (each with an error line)"
echo "warnings:         $warnings"
echo "exit status:      $status"
printf 'wall time:        %.2fs\n' "$(echo "$end - $start" | bc)"
echo "errors by message:"
grep ': error: ' "$work/stderr" | sed -E 's/^[^:]+:([0-9]+:)? error: //; s/\(column [0-9]+\)//; s/[0-9]+ bytes/N bytes/' | sort | uniq -c | sort -rn | head -15
grep -q panicked "$work/stderr" && { echo "PANIC"; exit 1; }
[[ $status -eq 0 ]]
