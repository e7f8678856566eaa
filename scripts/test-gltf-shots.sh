#!/usr/bin/env bash
# test-gltf-shots.sh - checks that scripts/gltf-shots.sh still draws real pictures: a broken
# renderer (no WebGL, a blank or grey canvas, textures missing, animation not applied, the
# model out of frame, errors not reported) makes it fail.
#
#   scripts/test-gltf-shots.sh        (about 10 s once installed; installs like gltf-shots.sh)
#
# Uses two third-party samples from ../shared/gltf-samples (GLTF_SAMPLES overrides):
#   BoxTextured.glb      the pose in the file: a large part of the picture is the model, the
#                        picture has many colours, and clearly blue and green pixels (its
#                        embedded PNG texture; the lights and background are grey), inside
#                        the frame with a margin
#   CesiumMan.glb:0:0,0.5  the walk at its start and half-way: the two pictures differ
# and two errors that must give exit status 1: an animation the file does not have, and a
# model file that does not exist. Exit status 0 when all checks pass.
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
samples="${GLTF_SAMPLES:-$root/../shared/gltf-samples}"
stats="$root/tools/gltf-shots/png-stats.mjs"
box="$samples/BoxTextured/BoxTextured.glb"
man="$samples/CesiumMan/CesiumMan.glb"

failed=0
say() { printf 'test-gltf-shots: %s\n' "$*" >&2; }
bad() { say "FAIL: $*"; failed=1; }
ok() { say "ok: $*"; }

for f in "$box" "$man"; do
  [[ -f "$f" ]] || { say "error: sample $f not found (set GLTF_SAMPLES)"; exit 1; }
done

out="$(mktemp -d)"
trap 'rm -rf "$out"' EXIT

if ! "$root/scripts/gltf-shots.sh" "$out" "$box" "$man:0:0,0.5" >"$out/list" 2>"$out/log"; then
  cat "$out/log" >&2
  say "FAIL: gltf-shots.sh failed on the samples"
  exit 1
fi
expected="$out/BoxTextured.png
$out/CesiumMan-animation_0-0.png
$out/CesiumMan-animation_0-0.5.png"
[[ "$(cat "$out/list")" == "$expected" ]] && ok "printed the three paths" ||
  bad "printed $(tr '\n' ' ' <"$out/list") instead of the three expected paths"

# check NAME JS-CONDITION: the condition is evaluated over png-stats' output, as `s`.
check() {
  local what="$1" json="$2" cond="$3"
  if node -e "const s = JSON.parse(process.argv[1]); process.exit(($cond) ? 0 : 1)" "$json"; then
    ok "$what"
  else
    bad "$what: $cond does not hold for $json"
  fi
}

if [[ -f "$out/BoxTextured.png" ]]; then
  s="$(node "$stats" "$out/BoxTextured.png")"
  check "BoxTextured is 640x480" "$s" 's.width === 640 && s.height === 480'
  check "BoxTextured: not blank (model on over 20 % of the picture, over 500 colours)" "$s" 's.model > 0.2 && s.colours > 500'
  check "BoxTextured: its texture shows (blue and green pixels)" "$s" 's.blue > 0.05 && s.green > 0.01'
  check "BoxTextured: framed (inside the picture, at least half its width or height)" "$s" \
    's.extent[0] > 0 && s.extent[1] > 0 && s.extent[2] < 1 && s.extent[3] < 1 && (s.extent[2] - s.extent[0] > 0.5 || s.extent[3] - s.extent[1] > 0.5)'
fi
if [[ -f "$out/CesiumMan-animation_0-0.png" && -f "$out/CesiumMan-animation_0-0.5.png" ]]; then
  s="$(node "$stats" "$out/CesiumMan-animation_0-0.5.png")"
  check "CesiumMan: not blank and textured" "$s" 's.model > 0.03 && s.blue > 0.005'
  d="$(node "$stats" "$out/CesiumMan-animation_0-0.png" "$out/CesiumMan-animation_0-0.5.png")"
  check "CesiumMan: the pose at 0.5 differs from the one at 0" "$d" 's.differ > 0.02'
fi

# Errors: exit status 1 and a message that says what is wrong.
expect_error() {
  local what="$1" pattern="$2"
  shift 2
  local status=0
  "$root/scripts/gltf-shots.sh" "$out/err" "$@" >/dev/null 2>"$out/err.log" || status=$?
  if [[ $status -eq 1 ]] && grep -q "$pattern" "$out/err.log"; then
    ok "$what: exit 1, says '$pattern'"
  else
    bad "$what: exit status $status, stderr: $(cat "$out/err.log")"
  fi
}
expect_error "animation the file lacks" "no animation 'Fly'" "$man:Fly:0.5"
expect_error "missing model" "no such file" "$out/missing.glb"

if [[ $failed -ne 0 ]]; then
  say "FAILED (the pictures were in $out, now removed; rerun scripts/gltf-shots.sh to look at them)"
  exit 1
fi
say "all checks passed"
