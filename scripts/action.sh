#!/usr/bin/env bash
# The steps of the catalog GitHub Action (action.yml at the repository's root), one subcommand a
# step, so that tests/action.rs runs on a developer's machine the very steps a runner runs.
#
#   action.sh install  the release binary for this runner, checked against its .sha256, into
#                      $CATALOG_HOME/bin; says `compile=true` when the release has none
#   action.sh compile  cargo install --locked: from the action's own folder (this repository at
#                      the ref the workflow names), or from git at INPUT_VERSION when it differs
#   action.sh build    catalog build; `site` is the folder to upload to Pages, checked against
#                      the host's limits first
#   action.sh check    catalog check --format sarif; `sarif` is the report to upload
#
# Inputs come as environment variables (action.yml passes them; a workflow expression is never
# pasted into the script): INPUT_ROOT, INPUT_BASE_URL, PAGES_BASE_URL, INPUT_VERSION,
# INPUT_STRICT, INPUT_MAX_BYTES, INPUT_MAX_FILES, INPUT_FAIL_ON, INPUT_SARIF, ACTION_REPOSITORY,
# ACTION_REF, and the runner's own GITHUB_ACTION_PATH, GITHUB_SERVER_URL, GITHUB_OUTPUT,
# GITHUB_PATH, RUNNER_OS, RUNNER_ARCH.
# CATALOG_RELEASES_URL replaces "$GITHUB_SERVER_URL/$ACTION_REPOSITORY/releases/download".
set -euo pipefail

home="${CATALOG_HOME:-$HOME/.cache/catalog-action}"

# github.action_repository and github.action_ref come empty in some runners' composite steps;
# the folder the runner unpacked the action into, .../_actions/OWNER/REPO/REF, names them too.
if [ -z "${ACTION_REPOSITORY:-}" ]; then
  case "${GITHUB_ACTION_PATH//\\//}" in
    */_actions/*/*/*)
      rest="${GITHUB_ACTION_PATH//\\//}"
      rest="${rest#*/_actions/}"
      ACTION_REPOSITORY="${rest%%/*}/$(echo "${rest#*/}" | cut -d/ -f1)"
      ACTION_REF="${rest#*/*/}"
      ;;
  esac
fi
exe="catalog"
[ "${RUNNER_OS:-}" = "Windows" ] && exe="catalog.exe"
bin="$home/bin/$exe"

die() {
  echo "::error::$*" >&2
  exit 2
}

# `name=value` for the steps after this one.
output() {
  echo "$1=$2" >>"${GITHUB_OUTPUT:-/dev/null}"
}

# The release tag to install: INPUT_VERSION ("0.2.0" or "v0.2.0"), else the ref the workflow
# names the action by (empty for a local action, `uses: ./`).
release_tag() {
  local version="${INPUT_VERSION:-}"
  [ -n "$version" ] || version="${ACTION_REF:-}"
  case "$version" in
    [0-9]*) version="v$version" ;;
  esac
  echo "$version"
}

# The Rust target the release workflow names this runner's asset after.
runner_target() {
  case "${RUNNER_OS:-$(uname -s)}/${RUNNER_ARCH:-$(uname -m)}" in
    Linux/X64 | Linux/x86_64) echo x86_64-unknown-linux-gnu ;;
    Linux/ARM64 | Linux/aarch64) echo aarch64-unknown-linux-gnu ;;
    macOS/X64 | Darwin/x86_64) echo x86_64-apple-darwin ;;
    macOS/ARM64 | Darwin/arm64) echo aarch64-apple-darwin ;;
    Windows/X64) echo x86_64-pc-windows-msvc ;;
    *) echo "" ;;
  esac
}

sha256_of() {
  if command -v sha256sum >/dev/null 2>&1; then
    sha256sum "$1" | cut -d' ' -f1
  else
    shasum -a 256 "$1" | cut -d' ' -f1
  fi
}

install_release() {
  local tag target asset base work expected actual
  case "${INPUT_MODE:-build}" in
    build | check) ;;
    *) die "mode is '${INPUT_MODE}': build or check" ;;
  esac
  tag="$(release_tag)"
  target="$(runner_target)"
  # The cache key of a compiled tool: the lock file fixes every dependency's version.
  output cache-key "$(sha256_of "${GITHUB_ACTION_PATH:?}/Cargo.lock" | cut -c1-16)"
  if [ -z "$tag" ] || [ -z "$target" ] || [ -z "${ACTION_REPOSITORY:-}${CATALOG_RELEASES_URL:-}" ]; then
    echo "no release binary to look for (tag '${tag}', runner '${target:-unknown}'): compiling"
    output compile true
    return
  fi
  asset="catalog-$target.tar.gz"
  [ "$RUNNER_OS" = "Windows" ] && asset="catalog-$target.zip"
  base="${CATALOG_RELEASES_URL:-${GITHUB_SERVER_URL:-https://github.com}/$ACTION_REPOSITORY/releases/download}"
  work="$(mktemp -d)"
  if ! curl -fsSL --retry 3 -o "$work/$asset" "$base/$tag/$asset" ||
    ! curl -fsSL --retry 3 -o "$work/$asset.sha256" "$base/$tag/$asset.sha256"; then
    echo "release $tag has no $asset: compiling"
    rm -rf "$work"
    output compile true
    return
  fi
  expected="$(cut -d' ' -f1 <"$work/$asset.sha256")"
  actual="$(sha256_of "$work/$asset")"
  # A mismatch is never worked around by compiling: the download is not what was released.
  [ "$expected" = "$actual" ] || die "$asset: checksum $actual, but the release says $expected"
  mkdir -p "$home/bin"
  case "$asset" in
    *.zip) unzip -o -q "$work/$asset" -d "$work/unpacked" ;;
    *) mkdir -p "$work/unpacked" && tar -xzf "$work/$asset" -C "$work/unpacked" ;;
  esac
  [ -f "$work/unpacked/$exe" ] || die "$asset holds no $exe"
  mv -f "$work/unpacked/$exe" "$bin"
  chmod +x "$bin"
  rm -rf "$work"
  echo "installed catalog $tag ($target) from the release"
  finish_install
}

compile() {
  command -v cargo >/dev/null 2>&1 || die "no release binary for this runner, and no cargo to compile one (install Rust first)"
  local tag from
  tag="$(release_tag)"
  export CARGO_TARGET_DIR="${CARGO_TARGET_DIR:-$home/target}"
  # `catalog init` writes workflows that name the action it was installed by.
  if [ -n "${ACTION_REPOSITORY:-}" ] && [ -n "${ACTION_REF:-}" ]; then
    export CATALOG_ACTION="$ACTION_REPOSITORY@$ACTION_REF"
  fi
  if [ -n "${INPUT_VERSION:-}" ] && [ "$tag" != "${ACTION_REF:-}" ]; then
    [ -n "${ACTION_REPOSITORY:-}" ] || die "version $tag: the action's repository is not known"
    from="${GITHUB_SERVER_URL:-https://github.com}/$ACTION_REPOSITORY"
    echo "compiling catalog $tag from $from"
    export CATALOG_ACTION="${ACTION_REPOSITORY}@$tag"
    cargo install --locked --force --root "$home" --git "$from" --tag "$tag" catalog
  else
    # The action's folder is this repository at the ref the workflow names.
    echo "compiling catalog from ${GITHUB_ACTION_PATH:?}"
    cargo install --locked --force --root "$home" --path "$GITHUB_ACTION_PATH"
  fi
  finish_install
}

finish_install() {
  "$bin" --version
  output bin "$bin"
  echo "$home/bin" >>"${GITHUB_PATH:-/dev/null}"
}

# Pages reports its address without the final slash, which base_url needs.
base_url() {
  local url="${INPUT_BASE_URL:-}"
  [ -n "$url" ] || url="${PAGES_BASE_URL:-}"
  [ -z "$url" ] || [ "${url%/}/" = "$url" ] || url="$url/"
  echo "$url"
}

build() {
  local root="${INPUT_ROOT:-.}" url
  local args=(build --root "$root")
  url="$(base_url)"
  [ -z "$url" ] || args+=(--base-url "$url")
  [ "${INPUT_STRICT:-false}" != "true" ] || args+=(--strict)
  "$bin" "${args[@]}"
  output site "${root%/}/public"
  fits_host "${root%/}/public"
}

# A site past the host's limit fails here, before its upload, with what to do: GitHub Pages
# publishes up to 1 GB (INPUT_MAX_BYTES) and GitLab Pages up to 200,000 files (INPUT_MAX_FILES).
fits_host() {
  local site=$1 max_bytes="${INPUT_MAX_BYTES:-1000000000}" max_files="${INPUT_MAX_FILES:-200000}" bytes files
  # wc -c, not find -printf: the macOS runner's find has no -printf.
  bytes=$(find "$site" -type f -exec wc -c {} + | awk '$2 != "total" { n += $1 } END { printf "%d", n }')
  files=$(find "$site" -type f | wc -l | tr -d ' ')
  echo "site: $bytes bytes in $files files (the host takes $max_bytes bytes and $max_files files)"
  if [ "$bytes" -gt "$max_bytes" ] || [ "$files" -gt "$max_files" ]; then
    die "the site is $bytes bytes in $files files, past the host's $max_bytes bytes or $max_files files; \
its largest parts are in the build's warning above. Turn off what the catalog does not need \
(skill_index = false under [publish] in catalog.toml drops the archives), split the catalog, \
or deploy to a host without the limit (README: Deploying)"
  fi
}

check() {
  local root="${INPUT_ROOT:-.}" sarif="${INPUT_SARIF:-catalog.sarif}" status=0
  # Findings as text in the log, then the report, written even when findings fail the check
  # so that it can still be uploaded.
  "$bin" check "$root" --fail-on none
  "$bin" check "$root" --format sarif -o "$sarif" --fail-on "${INPUT_FAIL_ON:-high}" || status=$?
  [ -f "$sarif" ] || die "catalog check wrote no $sarif"
  output sarif "$sarif"
  return "$status"
}

case "${1:-}" in
  install) install_release ;;
  compile) compile ;;
  build) build ;;
  check) check ;;
  *) die "usage: action.sh install|compile|build|check" ;;
esac
