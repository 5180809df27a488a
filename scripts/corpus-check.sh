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
# Skills as discovery finds them: folders with a SKILL.md (or skill.md), outside the folders
# it skips.
skill_files=$(find "$corpus" \( -name .git -o -name node_modules -o -name target -o -name .venv -o -name __pycache__ \) -prune \
  -o \( -name SKILL.md -o -name skill.md \) -printf '%h\n' | sort -u | wc -l)
start=$(date +%s.%N)
set +e
./target/release/catalog build --root "$work" -v 2> "$work/stderr"
status=$?
set -e
end=$(date +%s.%N)
# Skills with a page and skills left out, as the site's API counts them.
pages=$(grep -o '"count":[0-9]*' "$work/public/api/skills.json" | head -1 | cut -d: -f2)
left_out=$(grep -o '"left_out":[0-9]*' "$work/public/api/skills.json" | head -1 | cut -d: -f2)
errors=$(grep -cE '(SKILL|skill)\.md(:[0-9]+)?: error: ' "$work/stderr" || true)
warnings=$(grep -c ': warning: ' "$work/stderr" || true)
echo "SKILL.md files:   $skill_files"
echo "skill pages:      $pages"
echo "skills left out:  $left_out ($errors SKILL.md error lines)"
echo "warnings:         $warnings"
echo "exit status:      $status"
printf 'wall time:        %.2fs\n' "$(echo "$end - $start" | bc)"
echo "errors by message:"
grep ': error: ' "$work/stderr" | sed -E 's/^[^:]+:([0-9]+:)? error: //; s/\(column [0-9]+\)//; s/[0-9]+ bytes/N bytes/' | sort | uniq -c | sort -rn | head -15 || true
echo "warnings by message:"
grep ': warning: ' "$work/stderr" | sed -E 's/^[^:]+:([0-9]+:)? warning: //; s/`[^`]*`/`X`/; s/line [0-9]+/line N/' | sort | uniq -c | sort -rn | head -15 || true
grep -q panicked "$work/stderr" && { echo "PANIC"; exit 1; }
# Every skill has a page or one error saying why not.
if (( pages + left_out != skill_files || left_out != errors )); then
  echo "MISMATCH: $pages pages + $left_out left out != $skill_files skills, or $errors error lines"
  exit 1
fi
[[ $status -eq 0 ]]
