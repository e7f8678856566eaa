#!/usr/bin/env bash
# render-pictures.sh - regenerates the pictures of `mdlx render` under docs/render/ that the
# README shows: a turntable GIF, a contact sheet of corpus models, and ten side-by-side
# pictures of ours (left) and mdx-m3-viewer's (right) from the render_vs_m3v test.
#
#   scripts/render-pictures.sh
#
# Models and textures come from ../shared/corpus (textures linked into a temporary folder
# under the names the models give them, from the texture MANIFEST's `referenced_by`); or,
# when MDLX_RENDER_CORPUS and MDLX_RENDER_TEXTURES are set, from those two folders (a folder
# of MDX and a flat folder of textures). Corpus files are never copied into the repository.
# Needs what scripts/m3v-render.sh needs (Node.js, Chromium) for the side-by-side pictures.
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
out="$root/docs/render"
say() { printf 'render-pictures: %s\n' "$*" >&2; }
die() { say "error: $*"; exit 1; }

(cd "$root" && cargo build --release -p mdlx-cli) || die "cargo build failed"
target="${CARGO_TARGET_DIR:-$root/target}"
[[ "$target" == /* ]] || target="$root/$target"
mdlx="$target/release/mdlx"

tmp="$(mktemp -d "${TMPDIR:-/tmp}/mdlx-render-pictures.XXXXXX")"
trap 'rm -rf "$tmp"' EXIT

if [[ -n "${MDLX_RENDER_CORPUS:-}" && -n "${MDLX_RENDER_TEXTURES:-}" ]]; then
  models="$MDLX_RENDER_CORPUS"
  textures="$MDLX_RENDER_TEXTURES"
else
  corpus="$root/../shared/corpus"
  [[ -f "$corpus/textures/MANIFEST.tsv" ]] || die "no corpus at $corpus"
  models="$corpus/mdx"
  textures="$tmp/textures"
  mkdir -p "$textures"
  awk -F'\t' 'NR == 1 { for (i = 1; i <= NF; i++) col[$i] = i; next }
    { n = split($col["referenced_by"], refs, ";")
      for (j = 1; j <= n; j++) { split(refs[j], part, "|"); k = split(part[2], seg, /[\\\/]/)
        name = seg[k]; file = $col["local_file"]
        # A .tif the model names is the .dds the game reads (and the corpus holds).
        if (tolower(name) ~ /\.tiff?$/ && match(file, /\.[A-Za-z0-9]+$/))
          sub(/\.[Tt][Ii][Ff][Ff]?$/, substr(file, RSTART), name)
        if (k > 0) print name "\t" file } }' "$corpus/textures/MANIFEST.tsv" |
    while IFS=$'\t' read -r name file; do
      [[ -e "$textures/$name" ]] || ln -s "$corpus/textures/$file" "$textures/$name"
    done
fi

mkdir -p "$out"
# The turntable: a textured hero with a glowing ring, 36 frames at 15 fps.
"$mdlx" render "$models/mashlol__wc3-orpg__map.w3x__Magna_Aegwynn.mdx" "$out/turntable.gif" \
  --textures "$textures" --size 240 --frames 36 --fps 15 --quiet
# The contact sheet: every 20th model of the corpus, 4 columns of thumbnails.
mkdir -p "$tmp/sheet"
ls "$models" | awk 'NR % 20 == 7' | head -24 | while read -r f; do
  ln -s "$models/$f" "$tmp/sheet/$f"
done
"$mdlx" render "$tmp/sheet" "$out/contact-sheet.png" --textures "$textures" --size 160 \
  --columns 6 --quiet || say "some models of the sheet could not be drawn (see above)"
# Ten side by side with mdx-m3-viewer.
eval "$("$root/scripts/m3v-render.sh")"
rm -rf "$out/vs-m3v"
MDLX_RENDER_DOCS="$out/vs-m3v" MDLX_RENDER_PICK="${MDLX_RENDER_PICK:-GuardianLordaeron,DivineShield,Enchantress__Fireshield,Orb__lightgreen,Hero_Arcanist,HFMRock_Cove.mdx,SpearmanWC1v2,war3mapImported__Kain.mdx,FrostAura,citywallcorneralt}" \
  MDLX_RENDER_CORPUS="${MDLX_RENDER_CORPUS:-}" MDLX_RENDER_TEXTURES="${MDLX_RENDER_TEXTURES:-}" \
  cargo test -p war3-mdlx --test render_vs_m3v -- --nocapture > "$tmp/vs.log" 2>&1 || true
grep -E "render_vs_m3v|within|ours " "$tmp/vs.log" >&2 || true
ls "$out" "$out/vs-m3v" >&2
