#!/usr/bin/env bash
# Packs a release binary the way the GitHub Action looks for it (scripts/action.sh install):
# dist/catalog-TARGET.tar.gz (.zip for Windows) holding the binary and README.md at its top,
# and beside it catalog-TARGET.tar.gz.sha256 in `sha256sum` format.
#   scripts/package.sh TARGET BINARY [OUT_DIR]
set -euo pipefail
target="${1:?usage: package.sh TARGET BINARY [OUT_DIR]}"
binary="${2:?usage: package.sh TARGET BINARY [OUT_DIR]}"
out="${3:-dist}"
root="$(cd "$(dirname "$0")/.." && pwd)"
mkdir -p "$out"
out="$(cd "$out" && pwd)"
stage="$(mktemp -d)"
trap 'rm -rf "$stage"' EXIT
cp "$binary" "$stage/"
cp "$root/README.md" "$stage/"
case "$target" in
  *windows*)
    asset="catalog-$target.zip"
    (cd "$stage" && 7z a -tzip -bd "$out/$asset" . >/dev/null 2>&1 || zip -q -r "$out/$asset" .)
    ;;
  *)
    asset="catalog-$target.tar.gz"
    # Sorted names, no owner: the same binary packs to the same bytes.
    (cd "$stage" && tar --sort=name --owner=0 --group=0 -czf "$out/$asset" * 2>/dev/null ||
      tar -czf "$out/$asset" *)
    ;;
esac
cd "$out"
if command -v sha256sum >/dev/null 2>&1; then
  sha256sum "$asset" >"$asset.sha256"
else
  shasum -a 256 "$asset" >"$asset.sha256"
fi
echo "$out/$asset"
