#!/usr/bin/env bash
# gltf-import-screenshots.sh - regenerates the pictures under docs/gltf-import/ that the
# README's "glTF import" section shows: two third-party glTF samples imported into
# Warcraft III models and exported back to glTF, each drawn beside its source by
# scripts/gltf-shots.sh (three.js in headless Chromium), at the same moment of the same
# animation.
#
#   scripts/gltf-import-screenshots.sh
#
# 1. Builds the tool: cargo build --release -p mdlx-cli (CARGO_TARGET_DIR is honoured);
#    MDLX=/path/to/mdlx uses that binary instead.
# 2. For each sample below: `mdlx convert SAMPLE.glb NAME.mdx` into a temporary folder
#    (the importer writes the textures, as BLP, beside the model), then
#    `mdlx convert NAME.mdx NAME.glb --textures FOLDER` (the textures found again there).
# 3. Draws the source and the round-tripped .glb at one moment of one animation (by index:
#    the source's animations keep their order as sequences), GLTF_IMPORT_SCREENSHOTS_SIZE
#    (360x270 by default), into docs/gltf-import/NAME-source.png and NAME-mdx.png,
#    replacing the PNG files that were there.
# Needs ../shared/gltf-samples beside the repository, and what scripts/gltf-shots.sh needs
# (Chromium, Node.js 20 with npm; installed on first use). Exit status 0 when every
# picture was written.
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
samples="$root/../shared/gltf-samples"
out="$root/docs/gltf-import"
size="${GLTF_IMPORT_SCREENSHOTS_SIZE:-360x270}"

say() { printf 'gltf-import-screenshots: %s\n' "$*" >&2; }
die() { say "error: $*"; exit 1; }

# picture name | sample file | animation index | moment (fraction of its duration)
#   fox        skinned (24 joints), PNG texture, non-indexed; "Walk" is animation 1
#   cesiumman  skinned (19 joints), JPEG texture inside the GLB, a Z-up root matrix node
models=(
  "fox|Fox/Fox.glb|1|0.3"
  "cesiumman|CesiumMan/CesiumMan.glb|0|0.3"
)

# 1. The tool.
if [[ -n "${MDLX:-}" ]]; then
  mdlx="$MDLX"
  [[ -x "$mdlx" ]] || die "MDLX=$mdlx is not an executable"
else
  (cd "$root" && cargo build --release -p mdlx-cli) || die "cargo build failed"
  target="${CARGO_TARGET_DIR:-$root/target}"
  [[ "$target" == /* ]] || target="$root/$target"
  mdlx="$target/release/mdlx"
  [[ -x "$mdlx" ]] || die "no mdlx at $mdlx after the build"
fi

tmp="$(mktemp -d "${TMPDIR:-/tmp}/mdlx-gltf-import-screenshots.XXXXXX")"
trap 'rm -rf "$tmp"' EXIT

# 2. Import, and export back.
src_specs=() rt_specs=()
for entry in "${models[@]}"; do
  IFS='|' read -r name file anim moment <<<"$entry"
  [[ -f "$samples/$file" ]] || die "sample $file not found in $samples"
  mkdir -p "$tmp/$name"
  "$mdlx" convert "$samples/$file" "$tmp/$name/$name.mdx" || die "mdlx could not import $file"
  "$mdlx" convert "$tmp/$name/$name.mdx" "$tmp/$name-mdx.glb" --textures "$tmp/$name" ||
    die "mdlx could not export $name.mdx back to glTF"
  say "$name: $file -> $name.mdx ($(find "$tmp/$name" -type f ! -name '*.mdx' | wc -l) texture file(s)) -> $name-mdx.glb"
  # Copies under the picture's name, so that the PNG files are named after it.
  cp "$samples/$file" "$tmp/$name-source.${file##*.}"
  src_specs+=("$tmp/$name-source.${file##*.}:$anim:$moment")
  rt_specs+=("$tmp/$name-mdx.glb:$anim:$moment")
done

# 3. Draw (the Khronos samples face +Z, and the round trip keeps their axes), then
#    replace the pictures.
mkdir -p "$tmp/png"
"$root/scripts/gltf-shots.sh" --size "$size" --front +z "$tmp/png" "${src_specs[@]}" "${rt_specs[@]}" \
  >"$tmp/png.list" || die "gltf-shots.sh failed"
mkdir -p "$out"
rm -f "$out"/*.png
for entry in "${models[@]}"; do
  IFS='|' read -r name _ _ _ <<<"$entry"
  for side in source mdx; do
    png="$(grep -m1 "/$name-$side-" "$tmp/png.list")" || die "no picture of $name-$side"
    cp "$png" "$out/$name-$side.png"
  done
done
for f in "$out"/*.png; do
  printf '%s\t%s bytes\n' "${f#"$root"/}" "$(stat -c %s "$f")"
done
