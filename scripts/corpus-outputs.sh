#!/usr/bin/env bash
# Every output the tool writes from the shared corpus, in every format, and one line per
# output file with its SHA-256: the evidence that a change which should not change
# behaviour (a refactor) leaves every byte as it was.
#
#   bash scripts/corpus-outputs.sh MDLX_BINARY OUT_DIR
#
# writes OUT_DIR/files/... and OUT_DIR/SHA256SUMS (sorted by path). Compare two runs with
# `diff A/SHA256SUMS B/SHA256SUMS` (no output: byte-identical). Outputs that fail are part
# of the result too: each step's exit status and standard error are kept (paths stripped of
# OUT_DIR, so two runs compare).
set -u
BIN=$(realpath "$1")
OUT=$(realpath -m "$2")
HERE=$(cd "$(dirname "$0")/.." && pwd)
SHARED=$(realpath "${MDLX_SHARED:-$HERE/../shared}")
# Inputs are named relative to the shared folder (the commands run there), so that outputs
# which name their input (OBJ headers, messages) read the same from any checkout.
C=corpus
rm -rf "$OUT"
mkdir -p "$OUT/files" "$OUT/log"

step() { # name, then the command's arguments
    local name=$1
    shift
    ( cd "$SHARED" && "$BIN" "$@" >"$OUT/log/$name.stdout" 2>"$OUT/log/$name.stderr" )
    echo "exit $?" >"$OUT/log/$name.status"
    sed -i "s#$OUT#OUT#g; s#$SHARED#SHARED#g" "$OUT/log/$name.stdout" "$OUT/log/$name.stderr"
    # Folders are converted in parallel: messages come in any order, so their lines are
    # compared sorted.
    LC_ALL=C sort -o "$OUT/log/$name.stderr" "$OUT/log/$name.stderr"
    LC_ALL=C sort -o "$OUT/log/$name.stdout" "$OUT/log/$name.stdout"
}

# Warcraft III MDX: to every output format.
for to in mdl mdx glb gltf obj ms3d; do
    step "mdx-to-$to" convert "$C/mdx" "$OUT/files/mdx-$to" --to "$to" --allow-lossy
done
step mdx-to-alpha1300 convert "$C/mdx" "$OUT/files/mdx-alpha1300" --to alpha1300 --allow-lossy
step mdx-to-1100 convert "$C/mdx" "$OUT/files/mdx-1100" --to mdx --version 1100 --allow-lossy
step mdx-to-800 convert "$C/mdx" "$OUT/files/mdx-800" --to mdx --version 800 --allow-lossy
step mdx-posed-obj convert "$C/mdx" "$OUT/files/mdx-posed-obj" --to obj --sequence 0 --time 100 --allow-lossy
step mdx-linear-glb convert "$C/mdx" "$OUT/files/mdx-linear-glb" --to glb --linear --allow-lossy
# Back from what was written: MDL -> MDX, Milkshape -> MDX.
step mdl-back-to-mdx convert "$OUT/files/mdx-mdl" "$OUT/files/mdl-back-mdx" --to mdx --allow-lossy
# MDL as found.
for to in mdx mdl glb; do
    step "mdl-to-$to" convert "$C/mdl" "$OUT/files/mdl-$to" --to "$to" --allow-lossy
done
# Milkshape as found.
for to in mdx mdl ms3d; do
    step "ms3d-to-$to" convert "$C/ms3d_ascii" "$OUT/files/ms3d-$to" --to "$to" --allow-lossy
done
# glTF samples into models.
for v in 800 1000; do
    step "gltf-to-mdx$v" convert gltf-samples "$OUT/files/gltf-mdx$v" --to mdx --version "$v" --allow-lossy
done
step gltf-to-mdl convert gltf-samples "$OUT/files/gltf-mdl" --to mdl --allow-lossy
# Textures.
step tex-to-png convert "$C/textures" "$OUT/files/tex-png" --to png
step tex-png-to-blp convert "$OUT/files/tex-png" "$OUT/files/tex-blp" --to blp
step tex-png-to-blp-palette convert "$OUT/files/tex-png" "$OUT/files/tex-blp-palette" --to blp --blp-palette
step tex-png-to-tga convert "$OUT/files/tex-png" "$OUT/files/tex-tga" --to tga
step tex-png-to-tga-rle convert "$OUT/files/tex-png" "$OUT/files/tex-tga-rle" --to tga --tga rle
step tex-png-to-dds convert "$OUT/files/tex-png" "$OUT/files/tex-dds" --to dds
step tex-png-to-dds-bc1 convert "$OUT/files/tex-png" "$OUT/files/tex-dds-bc1" --to dds --dds bc1
# Check, as JSON and as text, and info.
for d in mdx mdl ms3d_ascii; do
    ( cd "$SHARED" && "$BIN" check --json "$C/$d" >"$OUT/files/check-$d.json" 2>"$OUT/log/check-$d.stderr" )
    ( cd "$SHARED" && "$BIN" check "$C/$d" >"$OUT/files/check-$d.txt" 2>&1 )
    ( cd "$SHARED" && "$BIN" info "$C/$d" >"$OUT/files/info-$d.txt" 2>&1 )
done
sed -i "s#$OUT#OUT#g; s#$SHARED#SHARED#g" "$OUT"/files/check-* "$OUT"/files/info-* "$OUT"/log/*
for f in "$OUT"/log/check-*.stderr; do LC_ALL=C sort -o "$f" "$f"; done

( cd "$OUT" && find files log -type f -print0 | sort -z | xargs -0 sha256sum ) >"$OUT/SHA256SUMS"
echo "$(find "$OUT/files" -type f | wc -l) output files, $(du -sh "$OUT/files" | cut -f1); sums in $OUT/SHA256SUMS"
