#!/usr/bin/env bash
# m3v-render.sh - installs the independent judge of `mdlx render`: mdx-m3-viewer drawing
# MDX models in headless Chromium (scripts/m3v-render/: render.mjs and its page; versions
# pinned in scripts/m3v-render/package-lock.json), and prints how to run it:
#
#   eval "$(scripts/m3v-render.sh)"   prints `export MDLX_M3V_RENDER=$CACHE/mdlx-m3v-render/m3v-render`
#   "$MDLX_M3V_RENDER" JOBS.json      draws the batch; JOBS.result.json beside it
#
# (JOBS.json and the result: see the top of scripts/m3v-render/render.mjs.)
#
# 1. Chromium: $CHROMIUM (default /usr/bin/chromium); when missing and apt-get is there, it
#    is installed with `apt-get install -y chromium` (root).
# 2. The install folder $M3V_RENDER_DIR (default ${XDG_CACHE_HOME:-$HOME/.cache}/mdlx-m3v-render)
#    holds node_modules from `npm ci` of the committed lock file, a copy of the scripts of
#    scripts/m3v-render/ and the command `m3v-render` that runs them. When its lock file is
#    not the repository's, or its packages are missing, `npm ci` installs afresh into a
#    temporary folder beside it, which is checked and only then renamed into place (an
#    interrupted install never looks complete). Needs node (18 or newer), npm and the npm
#    registry. Changed scripts are copied in without a new npm ci.
# 3. The check, after every install or change (of the packages, the scripts or Chromium's
#    version; about 10 s): self-check.mjs draws examples/cube.mdx from three cameras and
#    compares the pixels with the cube's corners projected by the shared camera convention,
#    checks that time counts from the sequence start (a turning cube) and that team colour
#    is painted as documented. Its report goes to stderr; a failing check fails this script.
# 4. Prints the variable assignment on stdout; everything else goes to stderr.
#
# Runs that share the folder take turns (a lock file beside it). Exit status 1, with the
# reason on stderr, when no working install can be made.
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
src="$root/scripts/m3v-render"
chromium="${CHROMIUM:-/usr/bin/chromium}"
# The files of scripts/m3v-render/ the install runs (tests and the lock file aside).
files=(render.mjs jobs.mjs textures.mjs page.html page.js png.mjs self-check.mjs)

say() { printf 'm3v-render: %s\n' "$*" >&2; }
die() { say "error: $*"; exit 1; }

[ $# -eq 0 ] || die "unknown argument '$1' (usage: scripts/m3v-render.sh; M3V_RENDER_DIR sets the folder, CHROMIUM the browser)"

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
chromium_version="$("$chromium" --version 2>/dev/null | head -n 1)" ||
  die "$chromium does not run ($chromium --version fails)"

# 2. Node packages.
for tool in node npm; do
  command -v "$tool" >/dev/null || die "$tool not found: the judge needs Node.js (18 or newer) and npm"
done
node_major="$(node -p 'process.versions.node.split(".")[0]')"
[ "$node_major" -ge 18 ] || die "Node.js $(node --version) is too old: puppeteer-core needs 18 or newer"
for f in package.json package-lock.json "${files[@]}"; do
  [ -f "$src/$f" ] || die "$src/$f is missing"
done
[ -f "$root/examples/cube.mdx" ] || die "$root/examples/cube.mdx is missing (the self-check draws it)"

dir="${M3V_RENDER_DIR:-${XDG_CACHE_HOME:-$HOME/.cache}/mdlx-m3v-render}"
dir="${dir%/}"
[ -n "$dir" ] || die "M3V_RENDER_DIR must name a folder other than /"
mkdir -p "$(dirname "$dir")"
dir="$(cd "$(dirname "$dir")" && pwd)/$(basename "$dir")"

cleanup_paths=()
cleanup() { [ ${#cleanup_paths[@]} -eq 0 ] || rm -rf "${cleanup_paths[@]}"; }
trap cleanup EXIT

if command -v flock >/dev/null; then
  exec 9>"$dir.lock"
  if ! flock -n 9; then
    say "waiting for another m3v-render.sh using $dir (lock $dir.lock)"
    flock 9
  fi
fi

limited() {
  if command -v timeout >/dev/null; then timeout 300 "$@"; else "$@"; fi
}

# packages_ok DIR: the lock file is the repository's and the packages are there.
packages_ok() {
  local d="$1"
  cmp -s "$d/package-lock.json" "$src/package-lock.json" &&
    [ -f "$d/node_modules/mdx-m3-viewer/dist/umd/viewer.min.js" ] &&
    [ -f "$d/node_modules/puppeteer-core/package.json" ] &&
    (cd "$d" && node -e "require('puppeteer-core')" 2>/dev/null </dev/null)
}

install_packages() {
  local tmp="$dir.new.$$" log="$dir.new.$$.log"
  if [ -e "$dir" ] && [ -n "$(ls -A "$dir")" ] && [ ! -e "$dir/package-lock.json" ]; then
    die "$dir is not an m3v-render install (no package-lock.json in it) and is not empty: not replacing it; set M3V_RENDER_DIR to another folder"
  fi
  rm -rf "$dir".new.* "$dir".old.* # left by interrupted runs (we hold the lock)
  cleanup_paths+=("$tmp" "$log")
  mkdir -p "$tmp"
  cp "$src/package.json" "$src/package-lock.json" "$tmp/"
  say "installing mdx-m3-viewer and puppeteer-core with npm ci into $tmp"
  # --ignore-scripts: nothing here needs an install script (puppeteer-core downloads nothing).
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

# The scripts and the command, refreshed when the repository's differ.
for f in "${files[@]}"; do
  if ! cmp -s "$src/$f" "$dir/$f"; then
    cp "$src/$f" "$dir/$f.tmp.$$"
    mv "$dir/$f.tmp.$$" "$dir/$f"
  fi
done
cmd="$dir/m3v-render"
want_cmd="$(printf '#!/bin/sh\n# Made by scripts/m3v-render.sh: draws the MDX jobs of JOBS.json with mdx-m3-viewer.\nCHROMIUM=%q exec node %q "$@"\n' "$chromium" "$dir/render.mjs")"
if [ ! -x "$cmd" ] || [ "$(cat "$cmd")" != "$want_cmd" ]; then
  printf '%s\n' "$want_cmd" >"$cmd.tmp.$$"
  chmod +x "$cmd.tmp.$$"
  mv "$cmd.tmp.$$" "$cmd"
fi

# 3. The self-check, when anything it depends on changed since it last passed.
stamp="$(cat "$dir/package-lock.json" "${files[@]/#/$dir/}" "$root/examples/cube.mdx" | cksum) $chromium_version"
if [ "$(cat "$dir/.checked" 2>/dev/null)" != "$stamp" ]; then
  rm -f "$dir/.checked"
  say "checking the install: the cube drawn vs. the camera convention, time, team colour ($chromium_version)"
  # Chromium's first start on a fresh machine (right after its install) has failed to
  # launch under puppeteer ("Failed to launch the browser process", seen in CI once) and
  # worked at once after: start it once first, and give the check a second try.
  limited "$chromium" --headless --no-sandbox --disable-gpu --dump-dom about:blank >/dev/null 2>&1 </dev/null || true
  check() { CHROMIUM="$chromium" limited node "$dir/self-check.mjs" "$root/examples/cube.mdx" >&2 </dev/null; }
  if ! check; then
    say "the self-check failed; trying once more"
    check || die "the self-check failed (above): the judge's pictures would not follow the conventions"
  fi
  printf '%s\n' "$stamp" >"$dir/.checked"
fi

printf 'export MDLX_M3V_RENDER=%q\n' "$cmd"
