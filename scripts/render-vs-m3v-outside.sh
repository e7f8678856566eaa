#!/usr/bin/env bash
# render-vs-m3v-outside.sh - the render_vs_m3v comparison on models that are not in the
# shared corpus: every MDX inside the maps of ../shared/archives whose bytes no corpus MDX
# has, with the textures those maps carry (flattened into one folder).
#
#   scripts/render-vs-m3v-outside.sh
#
# Prints the comparison's table and summary. Needs what scripts/m3v-render.sh needs.
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
shared="$root/../shared"
say() { printf 'render-vs-m3v-outside: %s\n' "$*" >&2; }
die() { say "error: $*"; exit 1; }
[[ -d "$shared/archives" && -d "$shared/corpus/mdx" ]] || die "no ../shared beside the repository"

(cd "$root" && cargo build --release -p mdlx-cli) || die "cargo build failed"
target="${CARGO_TARGET_DIR:-$root/target}"
[[ "$target" == /* ]] || target="$root/$target"
mdlx="$target/release/mdlx"

tmp="$(mktemp -d "${TMPDIR:-/tmp}/mdlx-outside.XXXXXX")"
trap 'rm -rf "$tmp"' EXIT
mkdir -p "$tmp/x" "$tmp/mdx" "$tmp/tex"
sha256sum "$shared"/corpus/mdx/* | cut -c1-64 | sort -u > "$tmp/corpus.sha"
for a in "$shared"/archives/*.w3m "$shared"/archives/*.w3x; do
  n="$(basename "$a" | tr '+ ' '__')"
  "$mdlx" extract -q "$a" "$tmp/x/$n" '*.mdx' '*.blp' '*.dds' '*.tga' 2>/dev/null || true
done
find "$tmp/x" -type f -iname '*.mdx' | while read -r f; do
  sum="$(sha256sum "$f" | cut -c1-64)"
  grep -q "$sum" "$tmp/corpus.sha" && continue
  rel="${f#"$tmp/x/"}"
  cp "$f" "$tmp/mdx/${rel//\//_}"
done
find "$tmp/x" -type f \( -iname '*.blp' -o -iname '*.dds' -o -iname '*.tga' \) | while read -r f; do
  b="$(basename "$f")"
  [[ -e "$tmp/tex/$b" ]] || cp "$f" "$tmp/tex/$b"
done
say "$(ls "$tmp/mdx" | wc -l) models not in the corpus, $(ls "$tmp/tex" | wc -l) textures"
eval "$("$root/scripts/m3v-render.sh")"
cd "$root"
MDLX_RENDER_CORPUS="$tmp/mdx" MDLX_RENDER_TEXTURES="$tmp/tex" \
  cargo test -q -p war3-mdlx --test render_vs_m3v pictures_agree -- --nocapture 2>/dev/null
