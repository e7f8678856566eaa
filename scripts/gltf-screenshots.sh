#!/usr/bin/env bash
# gltf-screenshots.sh - regenerates the pictures under docs/gltf/ that the README shows:
# four corpus models exported to glTF by `mdlx convert X.mdx X.glb`, each drawn at two
# moments of one sequence by scripts/gltf-shots.sh (three.js in headless Chromium).
#
#   scripts/gltf-screenshots.sh            -> docs/gltf/
#   scripts/gltf-screenshots.sh hd-to-sd   -> docs/hd-to-sd/
#
# hd-to-sd: three Reforged corpus models drawn as they are (NAME-hd-...) and after
# `mdlx convert X.mdx X-sd.mdx --version 800 --textures DIR` (NAME-sd-...), the classic
# model with the BLP textures the conversion wrote beside it, both exported to glTF the
# same way, at the same moments.
#
# 1. Builds the tool: cargo build --release -p mdlx-cli (CARGO_TARGET_DIR is honoured), or
#    uses the binary $MDLX_BIN names.
# 2. For each model below, makes a temporary folder that mirrors the Warcraft III paths its
#    textures have in the model (Textures/Foo.blp -> a symbolic link to the corpus file),
#    from the `referenced_by` column of ../shared/corpus/textures/MANIFEST.tsv, and exports
#    the model with `--textures` pointing at it. Corpus files are never copied.
#    Textures the texture corpus does not hold (the game's own files, mostly particle
#    textures) stay missing; mdlx lists them on stderr.
# 3. Draws each .glb at two moments (fractions of the sequence) into docs/gltf/, 480x360,
#    replacing the PNG files that were there.
# Needs ../shared/corpus beside the repository, and what scripts/gltf-shots.sh needs
# (Chromium, Node.js 20 with npm; installed on first use). Exit status 0 when every
# picture was written.
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
corpus="$root/../shared/corpus"
set_name="${1:-gltf}"
case "$set_name" in
gltf | hd-to-sd) ;;
*) echo "gltf-screenshots: unknown picture set '$set_name' (gltf or hd-to-sd)" >&2; exit 2 ;;
esac
out="$root/docs/$set_name"
size="${GLTF_SCREENSHOTS_SIZE:-480x360}"

say() { printf 'gltf-screenshots: %s\n' "$*" >&2; }
die() { say "error: $*"; exit 1; }

[[ -f "$corpus/textures/MANIFEST.tsv" ]] || die "no texture corpus at $corpus/textures"

# picture name | corpus file | sequence | moments | extra convert options
#   rousch     a walking unit: skinned (v800 vertex groups), four textures, "Walk"
#   blob       a Reforged model (version 1000): diffuse, normal, ORM and emissive textures
#   wasserrad  a doodad, a water wheel whose "stand" turns it once in 12 s (12 paddles:
#              0.04 of a turn is half a paddle, so the two moments differ)
#   orcbowman  team colour: a texture blended over a replaceable-id-1 layer, baked in blue
models=(
  "rousch|mdx/Bergi-bear__OrcWinter__map.w3x__Rousch.mdx|Walk|0.25,0.6|"
  "blob|mdx/TaylorMouse__warcraft_III_reforged_tools__Documentation__Tutorial__Resources__blob.mdx|Walk|0.25,0.6|"
  "wasserrad|mdx/Bergi-bear__shipwreckers__map.w3x__Wasserrad.MDX|stand|0,0.04|"
  "orcbowman|mdx/nazarpunk__wc3-map-edemium-legacy__map__war3mapImported__OrcBowman.mdx|Attack - 1|0.25,0.6|--team-color 0042FF"
)
# hd-to-sd: Reforged models whose textures the texture corpus holds (some of them)
#   blob       version 1000, HD material (diffuse, normal, ORM, emissive), walking
#   kain       version 1000, a unit, walking
#   snakeurn   version 1000 (HD.w3mod), a doodad with an attack
if [[ "$set_name" == hd-to-sd ]]; then
  models=(
    "blob|mdx/TaylorMouse__warcraft_III_reforged_tools__Documentation__Tutorial__Resources__blob.mdx|Walk|0.3|"
    "kain|mdx/Bergi-bear__BloodOmen__map.w3x__war3mapImported__Kain.mdx|Walk|0.3|"
    "snakeurn|mdx/Bergi-bear__roguelike__map.w3x___HD.w3mod__snakeurn.mdx|Attack 1|0.4|"
  )
fi

# 1. The tool ($MDLX_BIN when set: an mdlx binary already built).
if [[ -n "${MDLX_BIN:-}" ]]; then
  mdlx="$MDLX_BIN"
else
  (cd "$root" && cargo build --release -p mdlx-cli) || die "cargo build failed"
  target="${CARGO_TARGET_DIR:-$root/target}"
  [[ "$target" == /* ]] || target="$root/$target"
  mdlx="$target/release/mdlx"
fi
[[ -x "$mdlx" ]] || die "no mdlx at $mdlx"

tmp="$(mktemp -d "${TMPDIR:-/tmp}/mdlx-gltf-screenshots.XXXXXX")"
trap 'rm -rf "$tmp"' EXIT

# Prints "WARCRAFT_PATH<TAB>CORPUS_FILE" for every texture of corpus model $1 that the
# texture corpus holds.
textures_of() {
  awk -F'\t' -v model="$1" '
    NR == 1 { for (i = 1; i <= NF; i++) col[$i] = i; next }
    {
      n = split($col["referenced_by"], refs, ";")
      for (j = 1; j <= n; j++) {
        split(refs[j], part, "|")
        if (part[1] == model) print part[2] "\t" $col["local_file"]
      }
    }' "$corpus/textures/MANIFEST.tsv"
}

# 2. Export.
specs=()
for entry in "${models[@]}"; do
  IFS='|' read -r name file sequence times extra <<<"$entry"
  [[ -f "$corpus/$file" ]] || die "corpus model $file not found"
  texdir="$tmp/textures-$name"
  mkdir -p "$texdir"
  while IFS=$'\t' read -r wpath local; do
    rel="${wpath//\\//}"
    mkdir -p "$texdir/$(dirname "$rel")"
    ln -sfn "$corpus/textures/$local" "$texdir/$rel"
  done < <(textures_of "$file")
  say "$name: $file ($(find "$texdir" -type l | wc -l) texture(s) from the corpus)"
  if [[ "$set_name" == hd-to-sd ]]; then
    # The original, and the classic model with its textures written beside it.
    mkdir -p "$tmp/sd-$name"
    "$mdlx" convert "$corpus/$file" "$tmp/sd-$name/$name.mdx" --version 800 --textures "$texdir" ||
      die "mdlx convert --version 800 failed for $file"
    "$mdlx" convert "$corpus/$file" "$tmp/$name-hd.glb" --textures "$texdir" ||
      die "mdlx convert failed for $file"
    "$mdlx" convert "$tmp/sd-$name/$name.mdx" "$tmp/$name-sd.glb" ||
      die "mdlx convert failed for the classic $name"
    specs+=("$tmp/$name-hd.glb:$sequence:$times" "$tmp/$name-sd.glb:$sequence:$times")
    continue
  fi
  # shellcheck disable=SC2086 # $extra is a list of options
  "$mdlx" convert "$corpus/$file" "$tmp/$name.glb" --textures "$texdir" $extra ||
    die "mdlx convert failed for $file"
  specs+=("$tmp/$name.glb:$sequence:$times")
done

# 3. Draw, then replace the pictures.
mkdir -p "$tmp/png"
"$root/scripts/gltf-shots.sh" --size "$size" "$tmp/png" "${specs[@]}" >/dev/null ||
  die "gltf-shots.sh failed"
mkdir -p "$out"
rm -f "$out"/*.png
cp "$tmp/png"/*.png "$out/"
for f in "$out"/*.png; do
  printf '%s\t%s bytes\n' "${f#"$root"/}" "$(stat -c %s "$f")"
done
