#!/usr/bin/env bash
# Builds a catalog of a folder of real skills with the release binary and prints what became of
# them: SKILL.md files, skill pages, skills left out with their reasons, panics, warnings per
# kind, build seconds, peak memory and the site's size by kind of file. Fails on a panic, a build that does not exit 0, or a
# skill that has neither a page nor an error line saying why.
#
#   scripts/corpus-check.sh [DIR]
#
# DIR holds one folder per repository, as OWNER/REPO or as OWNER--REPO. Without DIR, the real
# registry ../shared/registry-dev is unpacked into a temporary folder and built; when it is not
# there, the script says so and exits 0 (the project never needs it).
set -euo pipefail
cd "$(dirname "$0")/.."
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

if [[ $# -ge 1 ]]; then
  corpus=$(cd "$1" && pwd)
else
  registry=../shared/registry-dev/registry-dev.tar.gz
  if [[ ! -f $registry ]]; then
    echo "corpus check skipped: no DIR given and $registry is not there"
    exit 0
  fi
  tar -xzf "$registry" -C "$work"
  corpus=$work/registry
  echo "corpus: $registry"
fi

# One [[sources]] table per repository folder: OWNER--REPO at the top, else OWNER/REPO.
{
  echo 'title = "Corpus check"'
  shopt -s nullglob
  for repo in "$corpus"/*/; do
    repo=${repo%/}
    base=$(basename "$repo")
    if [[ $base == *--* ]]; then
      printf '[[sources]]\npath = "%s"\nrepo = "%s/%s"\n' "$repo" "${base%%--*}" "${base#*--}"
    else
      for sub in "$repo"/*/; do
        sub=${sub%/}
        printf '[[sources]]\npath = "%s"\nrepo = "%s/%s"\n' "$sub" "$base" "$(basename "$sub")"
      done
    fi
  done
} >"$work/catalog.toml"

cargo build --release --locked --quiet
# Skills as discovery finds them: folders with a SKILL.md (or skill.md), outside the folders
# it skips.
skill_files=$(find "$corpus" \( -name .git -o -name node_modules -o -name target -o -name .venv -o -name __pycache__ \) -prune \
  -o \( -name SKILL.md -o -name skill.md \) -printf '%h\n' | sort -u | wc -l)
set +e
/usr/bin/time -f '%e %M' -o "$work/time" ./target/release/catalog -v build --root "$work" --out "$work/site" 2>"$work/stderr"
status=$?
set -e
read -r seconds peak_kb <"$work/time" || true
# Skills with a page and skills left out, as the site's API counts them.
pages=$(grep -o '"count":[0-9]*' "$work/site/api/skills.json" 2>/dev/null | head -n 1 | cut -d: -f2)
left_out=$(grep -o '"left_out":[0-9]*' "$work/site/api/skills.json" 2>/dev/null | head -n 1 | cut -d: -f2)
pages=${pages:-0}
left_out=${left_out:-0}
errors=$(grep -cE '(SKILL|skill)\.md(:[0-9]+)?: error: ' "$work/stderr" || true)
warnings=$(grep -c ': warning: ' "$work/stderr" || true)
panics=$(grep -c 'panicked' "$work/stderr" || true)
echo "SKILL.md files:   $skill_files"
echo "skill pages:      $pages"
echo "skills left out:  $left_out ($errors SKILL.md error lines)"
echo "panics:           $panics"
echo "warnings:         $warnings"
echo "exit status:      $status"
echo "build seconds:    ${seconds:-?}"
echo "peak memory:      $(( ${peak_kb:-0} / 1024 )) MiB"
sed -n '/^site by kind of file:/,/largest file:/p' "$work/stderr"
echo "left out, by reason:"
grep ': error: ' "$work/stderr" | sed -E 's/^[^:]+:([0-9]+:)? error: //; s/\(column [0-9]+\)//; s/[0-9]+ bytes/N bytes/' |
  sort | uniq -c | sort -rn | head -n 15 || true
echo "warnings, by kind:"
grep ': warning: ' "$work/stderr" | sed -E 's/^[^:]+:([0-9]+:)? warning: //; s/`[^`]*`/`X`/g; s/"[^"]*"/"X"/g; s/[0-9]+/N/g; s/(its page address).*/\1 is taken by another skill: numbered/' |
  cut -c1-100 | sort | uniq -c | sort -rn | head -n 20 || true
if ((panics > 0)); then
  echo "PANIC:"
  grep -m 3 -A 2 panicked "$work/stderr"
  exit 1
fi
# Every skill has a page or one error saying why not.
if ((pages + left_out != skill_files || left_out != errors)); then
  echo "MISMATCH: $pages pages + $left_out left out != $skill_files skills, or $errors error lines"
  exit 1
fi
[[ $status -eq 0 ]]
