#!/usr/bin/env bash
# Measures the safety scanner on a development set of malicious skills and on benign ones.
#
# Usage: scripts/scanner-eval.sh [DEV_DIR] [CORPUS_DIR]
#   DEV_DIR     malicious packages: archives/*.tar.gz and labels.csv
#               (source,archive,path_in_archive,categories); default ../shared/scanner-dev
#   CORPUS_DIR  benign skills, one OWNER/REPO folder each; default ../shared/corpus
#
# Prints, per source and per attack category, how many packages fail (a high or critical
# finding) and how many are flagged (failed or notes); then how many benign skills fail: the
# corpus, the project's own catalog (content/) and the negative scan fixtures.
# EVAL_LIST=1 also lists every malicious package that passed or only got notes.
#
# The packages are hostile: they are unpacked into a fresh temporary folder, read by the
# scanner only (never executed), and deleted on exit. .catalogignore files in them are ignored.
set -euo pipefail
cd "$(dirname "$0")/.."
dev=${1:-../shared/scanner-dev}
corpus=${2:-../shared/corpus}
if [[ ! -f "$dev/labels.csv" || ! -d "$dev/archives" ]]; then
  echo "scanner-eval: no development set at $dev (labels.csv and archives/ needed); nothing measured"
  exit 0
fi
cargo build --release --quiet
bin=$PWD/target/release/catalog
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
results=$work/results.tsv
: > "$results"

verdict_of() { # JSON report on stdin -> worst verdict of its skills, or "error"
  python3 -c '
import json, sys
try:
    skills = json.load(sys.stdin)["skills"]
except Exception:
    print("error"); sys.exit()
order = {"passed": 0, "notes": 1, "failed": 2}
print(max((s["verdict"] for s in skills), key=order.get, default="error"))'
}

for archive in "$dev"/archives/*.tar.gz; do
  name=$(basename "$archive")
  unpacked=$(mktemp -d "$work/pkg.XXXXXX")
  tar -xzf "$archive" -C "$unpacked" --no-same-owner --no-same-permissions
  while IFS=, read -r source arch path categories; do
    [[ "$arch" == "$name" ]] || continue
    verdict=$("$bin" check --no-ignore --fail-on none --format json "$unpacked/$path" 2>/dev/null | verdict_of || true)
    printf '%s\t%s\t%s\t%s\n' "$source" "$path" "${verdict:-error}" "$categories" >> "$results"
  done < <(tail -n +2 "$dev/labels.csv")
  rm -rf "$unpacked"
done

benign=$work/benign.tsv
: > "$benign"
count_benign() { # label, paths... -> one line: label, skills, failed, notes
  local label=$1
  shift
  "$bin" check --no-ignore --fail-on none --format json "$@" 2>/dev/null | python3 -c '
import json, sys
skills = json.load(sys.stdin)["skills"]
failed = [s for s in skills if s["verdict"] == "failed"]
notes = sum(s["verdict"] == "notes" for s in skills)
print(f"{sys.argv[1]}\t{len(skills)}\t{len(failed)}\t{notes}")
for s in failed:
    worst = [f for f in s["findings"] if f["severity"] in ("high", "critical") and not f["suppressed"]]
    for f in worst[:3]:
        where = "{}:{} {}: {}".format(f["file"], f["line"], f["rule"], f["matched"][:100])
        print("#\t" + where)
' "$label" >> "$benign"
}
if [[ -d "$corpus" ]]; then
  count_benign "corpus ($corpus)" "$corpus"
else
  echo "scanner-eval: no benign corpus at $corpus; only the project's fixtures are counted"
fi
count_benign "project catalog (content/)" content
count_benign "negative fixtures" tests/fixtures/scan/negative/*

python3 - "$results" "$benign" <<'EOF'
import sys
from collections import defaultdict

rows = [line.rstrip("\n").split("\t") for line in open(sys.argv[1])]
def table(title, key_of):
    groups = defaultdict(list)
    for source, path, verdict, cats in rows:
        for key in key_of(source, cats):
            groups[key].append(verdict)
    print(f"\n{title:<44} {'pkgs':>5} {'failed':>13} {'flagged':>13} {'errors':>6}")
    for key in sorted(groups, key=lambda k: (k == "ALL", k)):
        v = groups[key]
        n = len(v)
        failed = sum(x == "failed" for x in v)
        flagged = sum(x in ("failed", "notes") for x in v)
        errors = sum(x == "error" for x in v)
        print(f"{key:<44} {n:>5} {failed:>5} {100*failed/n:>6.1f}% {flagged:>5} {100*flagged/n:>6.1f}% {errors:>6}")
table("malicious, per source", lambda s, c: [s, "ALL"])
table("malicious, per attack category", lambda s, c: [x.strip() for x in c.split(";") if x.strip()] + ["ALL"])
print(f"\n{'benign':<44} {'skills':>6} {'failed':>13} {'notes':>6}")
for line in open(sys.argv[2]):
    parts = line.rstrip("\n").split("\t")
    if parts[0] == "#":
        continue
    label, n, failed, notes = parts[0], int(parts[1]), int(parts[2]), int(parts[3])
    print(f"{label[:44]:<44} {n:>6} {failed:>5} {100*failed/max(n,1):>6.2f}% {notes:>6}")
EOF
if [[ -n "${EVAL_LIST:-}" ]]; then
  echo
  echo "malicious packages not failed:"
  awk -F'\t' '$3 != "failed" { print $3 "\t" $1 "/" $2 "\t" $4 }' "$results"
  echo
  echo "benign skills failed:"
  grep '^#' "$benign" | cut -f2
fi
