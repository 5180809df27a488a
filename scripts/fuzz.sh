#!/usr/bin/env bash
# Runs each fuzz target for SECONDS (default 600) and stops at the first crash.
#   scripts/fuzz.sh [SECONDS] [TARGET...]        targets: frontmatter markdown scanner
# Needs cargo-fuzz (cargo install cargo-fuzz). The stable toolchain runs without a sanitizer
# (panics and assertion failures are still found); a nightly toolchain can add one with
# FUZZ_SANITIZER=address. Crashes are kept in fuzz/artifacts/<target>/.
set -euo pipefail
cd "$(dirname "$0")/.."
seconds=${1:-600}
shift || true
targets=("$@")
[[ ${#targets[@]} -gt 0 ]] || targets=(frontmatter markdown scanner)
command -v cargo-fuzz >/dev/null || cargo install --locked cargo-fuzz
for target in "${targets[@]}"; do
  corpus=fuzz/corpus/$target
  mkdir -p "$corpus"
  # Seed with the project's own skills and fixtures.
  find content tests/fixtures -type f \( -name '*.md' -o -name '*.sh' -o -name '*.py' \) -size -64k \
    -exec cp -n {} "$corpus/" \; 2>/dev/null || true
  echo "== $target for ${seconds}s"
  cargo fuzz run "$target" --sanitizer "${FUZZ_SANITIZER:-none}" "$corpus" -- \
    -max_total_time="$seconds" -max_len=65536 -timeout=10 -rss_limit_mb=2048 2>&1 | tail -n 4
done
