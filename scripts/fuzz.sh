#!/usr/bin/env bash
# Runs each fuzz target for SECONDS (default 600) and reports crashes.
#   scripts/fuzz.sh [SECONDS] [TARGET...]
# Targets: frontmatter markdown scanner shell python javascript powershell instructions
# skill_folder (all by default). Needs cargo-fuzz (installed when missing). The stable
# toolchain runs without a sanitizer (panics, assertion failures and stack overflows are
# still found); a nightly toolchain can add one with FUZZ_SANITIZER=address.
#
# Seeds: the project's own skills and fixtures, and, when ../shared/registry-dev is present,
# real scripts and SKILL.md files from it (unpacked into a temporary folder; nothing of it is
# kept in the project). Crashes are kept in fuzz/artifacts/<target>/; each one found should
# become a regression test under tests/ (tests/fuzz_regressions.rs).
set -euo pipefail
cd "$(dirname "$0")/.."
seconds=${1:-600}
shift || true
targets=("$@")
[[ ${#targets[@]} -gt 0 ]] || targets=(frontmatter markdown scanner shell python javascript powershell instructions skill_folder)
command -v cargo-fuzz >/dev/null || cargo install --locked cargo-fuzz

registry=../shared/registry-dev/registry-dev.tar.gz
real=
if [[ -f $registry ]]; then
  real=$(mktemp -d)
  trap 'rm -rf "$real"' EXIT
  tar -xzf "$registry" -C "$real"
  echo "== seeds from $registry"
else
  echo "== $registry not found: seeds from the project's own files only"
fi

# (awk, not head, takes the first lines: head would close the pipe early, and pipefail end the
# script.) Up to COUNT files under the project's and the registry's folders whose names match one of the
# find(1) name patterns given, each under 64 KB, copied into the target's corpus.
seed() {
  local corpus=$1 count=$2
  shift 2
  local names=()
  for pattern in "$@"; do names+=(-o -name "$pattern"); done
  find content tests/fixtures ${real:+"$real"} -type f -size -64k \( -false "${names[@]}" \) 2>/dev/null |
    sort | awk -v n="$count" 'NR <= n' | while read -r file; do
      cp "$file" "$corpus/$(sha1sum "$file" | cut -c1-16)"
    done
}

for target in "${targets[@]}"; do
  corpus=fuzz/corpus/$target
  mkdir -p "$corpus"
  case $target in
    shell) seed "$corpus" 3000 '*.sh' '*.bash' ;;
    python) seed "$corpus" 3000 '*.py' ;;
    javascript) seed "$corpus" 3000 '*.js' '*.mjs' '*.cjs' '*.ts' '*.tsx' ;;
    powershell) seed "$corpus" 3000 '*.ps1' '*.psm1' ;;
    instructions | frontmatter | markdown) seed "$corpus" 3000 'SKILL.md' '*.md' ;;
    scanner) seed "$corpus" 3000 'SKILL.md' '*.sh' '*.py' ;;
    skill_folder)
      # A SKILL.md and the scripts beside it, joined at 0xFF bytes as the target splits them.
      find content tests/fixtures ${real:+"$real"} -name SKILL.md -size -32k 2>/dev/null | sort | awk 'NR <= 2000' |
        while read -r skill; do
          dir=$(dirname "$skill")
          out="$corpus/$(echo "$dir" | sha1sum | cut -c1-16)"
          cat "$skill" >"$out"
          for ext in sh py js ps1; do
            printf '\xff' >>"$out"
            find "$dir" -maxdepth 2 -name "*.$ext" -size -16k | sort | awk 'NR == 1' | xargs -r cat >>"$out"
          done
        done
      ;;
  esac
  echo "== $target for ${seconds}s ($(ls "$corpus" | wc -l) inputs in its corpus)"
  cargo fuzz run "$target" --sanitizer "${FUZZ_SANITIZER:-none}" -O "$corpus" -- \
    -max_total_time="$seconds" -max_len=65536 -timeout=10 -rss_limit_mb=2048 -print_final_stats=1 2>&1 |
    grep -E 'Done|stat::number_of_executed_units|stat::peak_rss|ERROR|panicked|SUMMARY|crash-|timeout-|oom-' | head -n 20 || true
  crashes=$(ls "fuzz/artifacts/$target" 2>/dev/null | wc -l)
  echo "   $target: $crashes crash file(s) in fuzz/artifacts/$target"
done
