#!/usr/bin/env bash
# view-judge.sh - installs the browser test of `mdlx view`: scripts/view-judge/drive.mjs,
# which drives the page in headless Chromium with puppeteer-core (version pinned in
# scripts/view-judge/package-lock.json), and prints how to run it:
#
#   eval "$(scripts/view-judge.sh)"   prints `export MDLX_VIEW_DRIVER=$CACHE/mdlx-view-judge/view-judge`
#   "$MDLX_VIEW_DRIVER" URL MODEL.mdl  drives the page at URL, editing MODEL.mdl (see drive.mjs)
#
# crates/mdlx-cli/tests/view.rs runs it when MDLX_VIEW_DRIVER is set (and fails under CI
# when it is not).
#
# 1. Chromium: $CHROMIUM (default /usr/bin/chromium); when missing and apt-get is there, it
#    is installed with `apt-get install -y chromium` (root).
# 2. The install folder $VIEW_JUDGE_DIR (default ${XDG_CACHE_HOME:-$HOME/.cache}/mdlx-view-judge)
#    holds node_modules from `npm ci` of the committed lock file, a copy of drive.mjs and the
#    command `view-judge` that runs it. When its lock file is not the repository's, or its
#    packages are missing, `npm ci` installs afresh into a temporary folder beside it, which
#    is checked and only then renamed into place (an interrupted install never looks
#    complete). Needs node (18 or newer), npm and the npm registry. A changed drive.mjs is
#    copied in without a new npm ci.
# 3. Prints the variable assignment on stdout; everything else goes to stderr.
#
# Runs that share the folder take turns (a lock file beside it). Exit status 1, with the
# reason on stderr, when no working install can be made.
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
src="$root/scripts/view-judge"
chromium="${CHROMIUM:-/usr/bin/chromium}"
files=(drive.mjs)

say() { printf 'view-judge: %s\n' "$*" >&2; }
die() { say "error: $*"; exit 1; }

[ $# -eq 0 ] || die "unknown argument '$1' (usage: scripts/view-judge.sh; VIEW_JUDGE_DIR sets the folder, CHROMIUM the browser)"

# 1. Chromium.
if [ ! -x "$chromium" ]; then
  if [ "$chromium" = /usr/bin/chromium ] && command -v apt-get >/dev/null; then
    say "Chromium missing: apt-get install -y chromium"
    if ! DEBIAN_FRONTEND=noninteractive apt-get install -y chromium >&2; then
      { DEBIAN_FRONTEND=noninteractive apt-get update >&2 &&
        DEBIAN_FRONTEND=noninteractive apt-get install -y chromium >&2; } ||
        die "could not install chromium with apt-get (root and a Debian/Ubuntu package source are needed)"
    fi
  fi
  [ -x "$chromium" ] || die "Chromium not found at $chromium (install it, or point CHROMIUM at it)"
fi
"$chromium" --version >/dev/null 2>&1 || die "$chromium does not run ($chromium --version fails)"

# 2. Node packages.
for tool in node npm; do
  command -v "$tool" >/dev/null || die "$tool not found: the test needs Node.js (18 or newer) and npm"
done
node_major="$(node -p 'process.versions.node.split(".")[0]')"
[ "$node_major" -ge 18 ] || die "Node.js $(node --version) is too old: puppeteer-core needs 18 or newer"
for f in package.json package-lock.json "${files[@]}"; do
  [ -f "$src/$f" ] || die "$src/$f is missing"
done

dir="${VIEW_JUDGE_DIR:-${XDG_CACHE_HOME:-$HOME/.cache}/mdlx-view-judge}"
dir="${dir%/}"
[ -n "$dir" ] || die "VIEW_JUDGE_DIR must name a folder other than /"
mkdir -p "$(dirname "$dir")"
dir="$(cd "$(dirname "$dir")" && pwd)/$(basename "$dir")"

cleanup_paths=()
cleanup() { [ ${#cleanup_paths[@]} -eq 0 ] || rm -rf "${cleanup_paths[@]}"; }
trap cleanup EXIT

if command -v flock >/dev/null; then
  exec 9>"$dir.lock"
  if ! flock -n 9; then
    say "waiting for another view-judge.sh using $dir (lock $dir.lock)"
    flock 9
  fi
fi

limited() {
  if command -v timeout >/dev/null; then timeout 300 "$@"; else "$@"; fi
}

# packages_ok DIR: the lock file is the repository's and the packages load.
packages_ok() {
  local d="$1"
  cmp -s "$d/package-lock.json" "$src/package-lock.json" &&
    [ -f "$d/node_modules/puppeteer-core/package.json" ] &&
    (cd "$d" && node -e "require('puppeteer-core')" 2>/dev/null </dev/null)
}

install_packages() {
  local tmp="$dir.new.$$" log="$dir.new.$$.log"
  if [ -e "$dir" ] && [ -n "$(ls -A "$dir")" ] && [ ! -e "$dir/package-lock.json" ]; then
    die "$dir is not a view-judge install (no package-lock.json in it) and is not empty: not replacing it; set VIEW_JUDGE_DIR to another folder"
  fi
  rm -rf "$dir".new.* "$dir".old.* # left by interrupted runs (we hold the lock)
  cleanup_paths+=("$tmp" "$log")
  mkdir -p "$tmp"
  cp "$src/package.json" "$src/package-lock.json" "$tmp/"
  say "installing puppeteer-core with npm ci into $tmp"
  # --ignore-scripts: puppeteer-core needs no install script (it downloads no browser).
  if ! (cd "$tmp" && limited npm ci --no-audit --no-fund --ignore-scripts) >"$log" 2>&1 </dev/null; then
    grep -v -E '^npm error +at ' "$log" | tail -n 12 | sed 's/^/  npm: /' >&2
    die "npm ci of $src failed ($(grep -m1 -iE 'npm (err|error)' "$log" || tail -n 1 "$log")); $dir was not changed"
  fi
  packages_ok "$tmp" || die "npm ci finished but the packages in $tmp do not load; $dir was not changed"
  if [ -e "$dir" ]; then
    mv "$dir" "$dir.old.$$"
    cleanup_paths+=("$dir.old.$$")
  fi
  mv "$tmp" "$dir"
  say "installed into $dir"
}

packages_ok "$dir" || install_packages

for f in "${files[@]}"; do
  if ! cmp -s "$src/$f" "$dir/$f"; then
    cp "$src/$f" "$dir/$f.tmp.$$"
    mv "$dir/$f.tmp.$$" "$dir/$f"
  fi
done
cmd="$dir/view-judge"
want_cmd="$(printf '#!/bin/sh\n# Made by scripts/view-judge.sh: drives the page of mdlx view (URL MODEL.mdl).\nCHROMIUM=%q exec node %q "$@"\n' "$chromium" "$dir/drive.mjs")"
if [ ! -x "$cmd" ] || [ "$(cat "$cmd")" != "$want_cmd" ]; then
  printf '%s\n' "$want_cmd" >"$cmd.tmp.$$"
  chmod +x "$cmd.tmp.$$"
  mv "$cmd.tmp.$$" "$cmd"
fi

printf 'export MDLX_VIEW_DRIVER=%q\n' "$cmd"
