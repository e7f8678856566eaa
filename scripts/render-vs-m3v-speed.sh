#!/usr/bin/env bash
# render-vs-m3v-speed.sh - thumbnails of every corpus MDX (256x256, textures found, PNG
# encoded) by `mdlx::render` on two threads and by mdx-m3-viewer in headless Chromium, timed
# in one run (the test thumbnails_of_the_corpus_beside_mdx_m3_viewer in
# crates/mdlx/tests/render_vs_m3v.rs, built in release). MDLX_RENDER_CORPUS and
# MDLX_RENDER_TEXTURES may name a folder of MDX and a flat texture folder instead of
# ../shared/corpus.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
eval "$("$root/scripts/m3v-render.sh")"
cd "$root"
MDLX_RENDER_SPEED=1 cargo test --release -p war3-mdlx --test render_vs_m3v thumbnails_of_the_corpus -- --nocapture 2>&1 |
  grep -E "render speed|test result|panicked"
