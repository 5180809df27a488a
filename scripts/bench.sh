#!/usr/bin/env bash
# Build benchmarks on generated catalogs. Prints, for each size: clean build wall time and peak
# RSS, no-op rebuild, one-skill edit rebuild, pages per second; and Hugo rendering the same
# SKILL.md files as plain content pages, with the ratio; and `catalog serve` rebuilding after a
# one-skill edit, from the write to the rebuilt site (its 50 ms wait for quiet included).
#
#   scripts/bench.sh [SIZES...]        default: registry 1000 10000 60000
#
# "registry" is the real registry ../shared/registry-dev (6,796 skills), when it is there.
# Each size also prints the site's bytes and files against GitHub Pages' limits, bytes per kind
# of file and the largest file.
#
# Corpora are generated once into target/bench/ (deterministic, seed 1). Installs Debian's
# `hugo` when it is missing and the machine allows it; without it the Hugo column says so.
#
# Earlier outputs are moved aside, not deleted, until every figure is taken: ext4 without a
# journal skips inodes freed in the last minutes when it allocates new ones, reading the inode
# table to tell, so a build just after deleting a 117,000-file site spent most of its system
# time there. Start the script a few minutes after any large delete for the same reason.
set -euo pipefail
cd "$(dirname "$0")/.."
sizes=("$@")
[[ ${#sizes[@]} -gt 0 ]] || sizes=(registry 1000 10000 60000)

cargo build --release --quiet --example gen-corpus
cargo build --release --quiet
catalog=$PWD/target/release/catalog
mkdir -p target/bench
trash=$(mktemp -d target/bench/trash.XXXXXX)
# Moves paths aside (a rename frees no inode); they are deleted when the script ends.
set_aside() {
  local path
  for path in "$@"; do
    [[ -e $path ]] && mv "$path" "$(mktemp -d "$trash/XXXXXX")/"
  done
  return 0
}
trap 'rm -rf "$trash"' EXIT

if ! command -v hugo >/dev/null 2>&1 && [[ $(id -u) -eq 0 ]] && command -v apt-get >/dev/null; then
  (apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq hugo) >/dev/null 2>&1 || true
fi

# Runs a command, prints "seconds peak_kb system_seconds"; its stderr is kept in
# target/bench/stderr.txt.
measure() {
  /usr/bin/time -f "%e %M %S" -o target/bench/time.txt "$@" >/dev/null 2>target/bench/stderr.txt
  cat target/bench/time.txt
}

# The site's size as the clean build (-v) measured it: bytes and files against the host's
# limits, each kind of file, and the largest file.
size_report() {
  local n=$1 site=$2
  local bytes files
  bytes=$(find "$site" -type f -printf '%s\n' | awk '{ n += $1 } END { printf "%d", n }')
  files=$(find "$site" -type f | wc -l)
  printf '\n%s skills: site %.1f MB in %s files (budget: 1000 MB and 200000 files; %.1f%% and %.1f%% used)\n' \
    "$n" "$(echo "$bytes / 1000000" | bc -l)" "$files" "$(echo "$bytes / 10000000" | bc -l)" "$(echo "$files / 2000" | bc -l)"
  sed -n '/^site by kind of file:/,/largest file:/p' target/bench/stderr.txt | tail -n +2
}

# The real registry ../shared/registry-dev, unpacked as the corpus "registry": one source per
# OWNER--REPO folder, under repos/ as the generated corpora have it.
registry_corpus() {
  local corpus=$1 tarball=../shared/registry-dev/registry-dev.tar.gz repo base
  if [[ ! -f $tarball ]]; then
    echo "registry: skipped, $tarball is not there" >&2
    return 1
  fi
  mkdir -p "$corpus"
  tar -xzf "$tarball" -C "$corpus" && mv "$corpus/registry" "$corpus/repos"
  {
    echo 'title = "Registry"'
    for repo in "$corpus"/repos/*--*/; do
      repo=${repo%/}; base=$(basename "$repo")
      printf '[[sources]]\npath = "repos/%s"\nrepo = "%s/%s"\n' "$base" "${base%%--*}" "${base#*--}"
    done
  } >"$corpus/catalog.toml"
}

hugo_site() {
  local corpus=$1 site=$2
  set_aside "$site" && mkdir -p "$site/content" "$site/layouts/_default"
  printf 'baseURL = "https://example.github.io/bench/"\ndisableKinds = ["taxonomy", "term", "RSS", "sitemap"]\n' > "$site/hugo.toml"
  printf '<!doctype html><title>{{ .Title }}</title><main>{{ .Content }}</main>\n' > "$site/layouts/_default/single.html"
  printf '<!doctype html><title>{{ .Title }}</title>\n' > "$site/layouts/_default/list.html"
  # The same Markdown bodies, with a plain front matter Hugo can read, written by one process
  # (a shell loop spawns three a file: 20 minutes at 60,000). Hugo reads `{{<` and `{{%` as its
  # shortcodes, which real skills quote (template languages): a space keeps them text. A file
  # without frontmatter is all body.
  python3 - "$corpus/repos" "$site/content" <<'PY'
import os, re, sys
repos, content = sys.argv[1], sys.argv[2]
for folder, _, files in os.walk(repos):
    if "SKILL.md" not in files:
        continue
    with open(os.path.join(folder, "SKILL.md"), encoding="utf-8", errors="replace") as f:
        lines = f.read().split("\n")
    if lines and lines[0].rstrip("\r") == "---":
        close = next((i for i, l in enumerate(lines[1:], 1) if l.rstrip("\r") == "---"), None)
        lines = lines[close + 1:] if close is not None else []
    body = re.sub(r"\{\{([<%])", r"{ {\1", "\n".join(lines))
    out = os.path.join(content, os.path.relpath(folder, repos) + ".md")
    os.makedirs(os.path.dirname(out), exist_ok=True)
    title = os.path.basename(folder).replace('"', "'")
    with open(out, "w", encoding="utf-8") as f:
        f.write(f'---\ntitle: "{title}"\n---\n{body}')
PY
}

# Starts `catalog serve` on a corpus, edits three skills one after the other, and prints the
# seconds from each write until serve has rebuilt the site.
serve_edits() {
  local corpus=$1 log=target/bench/serve.log pid n
  "$catalog" serve "$corpus" --port 0 >/dev/null 2>"$log" &
  pid=$!
  until grep -q '^Watching' "$log"; do
    kill -0 "$pid" 2>/dev/null || { echo "n/a"; return; }
    sleep 0.2
  done
  for n in 3 4 5; do
    local skill before start
    skill=$(find "$corpus/repos" -name SKILL.md | sort | sed -n ${n}p)
    before=$(grep -c '^built' "$log")
    start=$(date +%s.%N)
    printf '\nEdited for the benchmark.\n' >> "$skill"
    until [[ $(grep -c '^built' "$log") -gt $before ]]; do sleep 0.01; done
    printf '%.2f ' "$(echo "$(date +%s.%N) - $start" | bc)"
  done
  kill "$pid"; wait "$pid" 2>/dev/null || true
}

printf '%-7s %10s %10s %10s %10s %10s %10s %10s %10s %8s %12s\n' skills clean_s sys_s peak_MB noop_s edit_s edit2_s pages/s hugo_s ratio serve_edit_s
declare -A rows
sizes_out=()
for n in "${sizes[@]}"; do
  corpus=target/bench/corpus-$n
  if [[ $n == registry ]]; then
    [[ -f $corpus/catalog.toml ]] || registry_corpus "$corpus" || continue
  else
    [[ -f $corpus/catalog.toml ]] || ./target/release/examples/gen-corpus --skills "$n" --seed 1 "$corpus" >/dev/null
  fi
  set_aside "$corpus/public" "$corpus"/.public.* "$corpus/.catalog"
  read -r clean peak sys < <(measure "$catalog" -v build --root "$corpus")
  sizes_out+=("$(size_report "$n" "$corpus/public")")
  pages=$(find "$corpus/public" -name index.html | wc -l)
  read -r noop _ < <(measure "$catalog" build --root "$corpus" -q)
  skill=$(find "$corpus/repos" -name SKILL.md | sort | sed -n 1p)
  printf '\nEdited for the benchmark.\n' >> "$skill"
  read -r edit _ < <(measure "$catalog" build --root "$corpus" -q)
  skill=$(find "$corpus/repos" -name SKILL.md | sort | sed -n 2p)
  printf '\nEdited for the benchmark.\n' >> "$skill"
  read -r edit2 _ < <(measure "$catalog" build --root "$corpus" -q)
  hugo_s="n/a"; ratio="n/a"
  if command -v hugo >/dev/null 2>&1; then
    hugo_site "$corpus" "target/bench/hugo-$n"
    read -r hugo_s _ < <(measure hugo --source "target/bench/hugo-$n" --quiet)
    ratio=$(echo "scale=2; $hugo_s / $clean" | bc)
  fi
  rows[$n]=$(printf '%-7s %10s %10s %10s %10s %10s %10s %10s %10s %8s' "$n" "$clean" "$sys" "$((peak / 1024))" "$noop" "$edit" \
    "$edit2" "$(echo "$pages / $clean" | bc)" "$hugo_s" "$ratio")
done
# serve last, once every build figure is taken: its copy of the site needs the room that the
# outputs set aside hold (4 GB at 60,000 skills), and deleting them now slows nothing measured.
for n in "${sizes[@]}"; do
  corpus=target/bench/corpus-$n
  rm -rf "${trash:?}"/* "$corpus/public" "$corpus"/.public.* "target/bench/hugo-$n" "$corpus/.catalog/serve"
  printf '%s %12s\n' "${rows[$n]}" "$(serve_edits "$corpus")"
done
printf '%s\n' "${sizes_out[@]}"
echo
echo "sys_s = the clean build's system (kernel) CPU seconds: writing files, and memory pages new to the process."
echo "ratio = Hugo time / catalog clean build time (above 1: catalog is faster)."
echo "serve_edit_s = three one-skill edits while catalog serve runs, each from the write to the rebuilt site."
