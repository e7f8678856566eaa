#!/usr/bin/env bash
# bench-textures.sh - texture decoding and BLP encoding speed, mdlx beside Pillow, in one run
# on the same files.
#
#   bash scripts/bench-textures.sh [DIR] [REPEAT]     (default ../shared/corpus/textures, 3)
#
# 1. Pillow (the venv of scripts/pillow-oracle.sh) opens every .blp/.dds/.tga under DIR;
#    the files it decodes are linked into a temporary folder, so both tools time exactly
#    the same files.
# 2. `mdlx bench` (release build) times level-0 decoding and BLP1 encoding of them.
# 3. Pillow times `Image.open(...).convert("RGBA")` and, for encoding, what it can write of
#    BLP: a paletted BLP1 of level 0 only (`quantize(256)` then `save(format="BLP",
#    blp_version="BLP1")`, one pass over the files of at most 256 px: the whole corpus takes
#    Pillow over ten minutes); mdlx writes every mip level, so its encode figure does more.
# Prints both tools' lines and a table of MB/s with the ratio mdlx / Pillow.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
dir="${1:-$root/../shared/corpus/textures}"
repeat="${2:-3}"
eval "$("$root/scripts/pillow-oracle.sh")" >/dev/null
py="${PILLOW_DIR:-/tmp/mdlx-pillow}/venv/bin/python"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT

"$py" - "$dir" "$work/files" <<'PY'
import os, sys
from PIL import Image
src, out = sys.argv[1], sys.argv[2]
os.makedirs(out)
for root, _, names in os.walk(src):
    for n in sorted(names):
        if n.lower().rsplit(".", 1)[-1] not in ("blp", "dds", "tga"):
            continue
        p = os.path.join(root, n)
        try:
            with Image.open(p) as im:
                im.convert("RGBA")
        except Exception:
            continue
        os.symlink(os.path.abspath(p), os.path.join(out, n))
PY

(cd "$root" && cargo build --release -q -p mdlx-cli)
"$root/target/release/mdlx" bench "$work/files" "$repeat" 2>/dev/null | grep -E '^(# bench|TEX|BLP)' | tee "$work/mdlx.txt"

"$py" - "$work/files" "$repeat" <<'PY' | tee "$work/pillow.txt"
import io, os, sys, time
import PIL
from PIL import Image
d, repeat = sys.argv[1], int(sys.argv[2])
files = [open(os.path.join(d, n), "rb").read() for n in sorted(os.listdir(d))]
images = [Image.open(io.BytesIO(b)).convert("RGBA") for b in files]
total = sum(len(b) for b in files) * repeat
rgba = sum(im.width * im.height * 4 for im in images) * repeat
print(f"# bench peer=pillow lib=Pillow@{PIL.__version__} files={len(files)} repeat={repeat}")
t0 = time.perf_counter()
for _ in range(repeat):
    for b in files:
        Image.open(io.BytesIO(b)).convert("RGBA")
t = time.perf_counter() - t0
print(f"TEX decode bytes={total} seconds={t:.4f} MB/s={total / 1e6 / t:.2f} rgba_MB/s={rgba / 1e6 / t:.2f}")
# One pass over the images of at most 256 px a side: Pillow's BLP writer on the whole
# corpus takes over ten minutes. Compare with `mdlx bench` on a folder of such files.
small = [im for im in images if max(im.width, im.height) <= 256]
rgba = sum(im.width * im.height * 4 for im in small)
t0 = time.perf_counter()
out = 0
for _ in range(1):
    for im in small:
        f = io.BytesIO()
        im.quantize(256).save(f, format="BLP", blp_version="BLP1")
        out += f.tell()
t = time.perf_counter() - t0
print(f"BLP encode palette-level0 files={len(small)} (<= 256 px) rgba_bytes={rgba} seconds={t:.4f} rgba_MB/s={rgba / 1e6 / t:.2f} out_bytes={out}")
PY

mbs() { grep -E "^$2" "$1" | grep -oE "$3=[0-9.]+" | cut -d= -f2; }
m_dec="$(mbs "$work/mdlx.txt" "TEX decode" "MB/s")"
p_dec="$(mbs "$work/pillow.txt" "TEX decode" "MB/s")"
m_pal="$(mbs "$work/mdlx.txt" "BLP encode palette" "rgba_MB/s")"
m_jpg="$(mbs "$work/mdlx.txt" "BLP encode jpeg80" "rgba_MB/s")"
p_pal="$(mbs "$work/pillow.txt" "BLP encode palette-level0" "rgba_MB/s")"
echo
printf '%-44s %10s %10s %8s\n' "what (same files)" "mdlx MB/s" "Pillow" "ratio"
printf '%-44s %10s %10s %8.2f\n' "decode level 0 (file bytes)" "$m_dec" "$p_dec" "$(awk -v a="$m_dec" -v b="$p_dec" 'BEGIN { print a / b }')"
printf '%-44s %10s %10s %8s\n' "BLP1 palette encode (RGBA bytes in)" "$m_pal" "$p_pal" "-"
printf '%-44s %10s %10s %8s\n' "BLP1 JPEG q80 encode (RGBA bytes in)" "$m_jpg" "-" "-"
echo "(mdlx encodes every mip level of every file; Pillow writes level 0 only, of the files of"
echo " at most 256 px, and cannot write JPEG BLP: the encode figures are not the same files)"
