#!/usr/bin/env bash
# gltf-shots.sh - PNG pictures of glTF models (.glb, or .gltf with its files beside it) at
# chosen moments of their animations, drawn by three.js in headless Chromium without a GPU.
# For looking at what the glTF exporter writes, and for the pictures under docs/.
#
#   scripts/gltf-shots.sh [OPTIONS] OUT_DIR SPEC...
#   scripts/gltf-shots.sh --prepare          install only (step 1-2 below), draw nothing
#
# SPEC is MODEL[:ANIMATION[:TIMES]]:
#   model.glb                   the pose stored in the file, no animation  -> OUT_DIR/model.png
#   model.glb:Walk              animation "Walk" at its start (time 0)
#   model.glb:2:0.25,0.6        animation index 2 (when no animation is named "2") at 25 %
#                               and 60 % of its duration -> model-NAME-0.25.png, model-NAME-0.6.png
#   model.glb:Walk:1.5s         1.5 seconds into "Walk" (an "s" suffix means seconds)
#   model.glb:*:0.5             every animation, half-way through
# Files are OUT_DIR/<model stem>-<animation name, or animN if unnamed>-<time as written>.png,
# with characters other than letters, digits, '.', '_' and '-' in names replaced by '_'.
# Animation names cannot contain ':'. A time of 1 shows the last frame (the clip is played
# once and held). The path of each PNG written is printed on stdout, one a line.
#
# OPTIONS:
#   --size WxH        picture size, default 640x480
#   --front AXIS      the side of the model to look at: +x (default: Warcraft III models face
#                     +X, which the Z-up to Y-up conversion keeps), -x, +z (glTF's own
#                     convention, as in most Khronos samples) or -z
#   --yaw DEG         turn the view this far from the front towards the model's right (35)
#   --pitch DEG       look down from this many degrees above (20)
# The camera frames the bounding box of the model as posed at that moment; grey background,
# a hemisphere light and one directional light.
#
# Exit status: 0 when every picture was written; 1 when anything failed (a model that is
# missing or does not load, no such animation, WebGL unavailable, an install that fails),
# with a message on stderr; 2 for a bad command line.
#
# 1. Chromium: $CHROMIUM (default /usr/bin/chromium); when missing and apt-get is there, it
#    is installed with `apt-get install -y chromium` (needs root).
# 2. Node packages (tools/gltf-shots/package-lock.json: playwright-core, three) in
#    $GLTF_SHOTS_DIR (default /tmp/mdlx-gltf-shots). When that folder does not hold the same
#    lock file or the packages do not load, `npm ci` installs them afresh into a temporary
#    folder beside it, which is checked and only then renamed into place, so an interrupted
#    install never looks complete. Needs node (v20+), npm and the npm registry. Runs that
#    share the folder take turns (GLTF_SHOTS_DIR.lock).
# 3. Runs tools/gltf-shots/render.mjs with the arguments. Set GLTF_SHOTS_TIMING=1 to see
#    how long each picture took, on stderr.
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
tool="$root/tools/gltf-shots"
base="${GLTF_SHOTS_DIR:-/tmp/mdlx-gltf-shots}"
chromium="${CHROMIUM:-/usr/bin/chromium}"

say() { printf 'gltf-shots: %s\n' "$*" >&2; }
die() { say "error: $*"; exit 1; }

prepare_only=
if [[ "${1:-}" == --prepare ]]; then
  prepare_only=1
  shift
  [[ $# -eq 0 ]] || die "--prepare takes no other arguments"
fi

# 1. Chromium.
if [[ ! -x "$chromium" ]]; then
  if [[ "$chromium" == /usr/bin/chromium ]] && command -v apt-get >/dev/null; then
    say "Chromium missing: apt-get install -y chromium"
    if ! DEBIAN_FRONTEND=noninteractive apt-get install -y chromium >&2; then
      DEBIAN_FRONTEND=noninteractive apt-get update >&2 &&
        DEBIAN_FRONTEND=noninteractive apt-get install -y chromium >&2 ||
        die "could not install chromium with apt-get (root and a Debian/Ubuntu package source are needed)"
    fi
  fi
  [[ -x "$chromium" ]] || die "Chromium not found at $chromium (install it, or point CHROMIUM at it)"
fi

# 2. Node packages.
for t in node npm; do
  command -v "$t" >/dev/null || die "$t not found: the renderer needs Node.js (v20 or newer) and npm"
done

# True when DIR holds our lock file, playwright-core loads from it and three's files that
# the page imports are there (three's package exports do not let node require them).
installed() {
  local dir="$1"
  cmp -s "$dir/package-lock.json" "$tool/package-lock.json" &&
    [[ -f "$dir/node_modules/three/build/three.module.js" &&
       -f "$dir/node_modules/three/examples/jsm/loaders/GLTFLoader.js" ]] &&
    (cd "$dir" && node -e "require('playwright-core')" 2>/dev/null)
}

mkdir -p "$(dirname "$base")"
exec 9>"$base.lock"
if command -v flock >/dev/null; then flock 9; fi
if ! installed "$base"; then
  say "installing playwright-core and three into $base (npm ci)"
  tmp="$(mktemp -d "$base.tmp.XXXXXX")"
  trap 'rm -rf "$tmp"' EXIT
  cp "$tool/package.json" "$tool/package-lock.json" "$tmp/"
  # --ignore-scripts: nothing here needs an install script, and playwright-core's own
  # would try to download a browser.
  (cd "$tmp" && npm ci --ignore-scripts --no-audit --no-fund --loglevel=error >&2) ||
    die "npm ci failed in $tmp (is the npm registry reachable?)"
  installed "$tmp" || die "the packages npm ci installed in $tmp do not load"
  rm -rf "$base"
  mv "$tmp" "$base"
  trap - EXIT
fi
exec 9>&-

[[ -n "$prepare_only" ]] && exit 0

# 3. Draw.
GLTF_SHOTS_PROG="scripts/gltf-shots.sh" GLTF_SHOTS_NODE_MODULES="$base/node_modules" CHROMIUM="$chromium" exec node "$tool/render.mjs" "$@"
