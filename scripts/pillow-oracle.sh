#!/usr/bin/env bash
# pillow-oracle.sh - prepares the independent pixels that crates/mdlx/tests/textures_corpus.rs
# compares its texture decoding with: every file in ../shared/corpus/textures as Pillow
# decodes it (`Image.open(f).convert('RGBA')`), saved as NAME.png, or NAME.err holding
# Pillow's error.
#
#   eval "$(scripts/pillow-oracle.sh)"   prints `export MDLX_PILLOW_PNG=DIR`
#
# 1. Makes a venv with Pillow (the version the corpus MANIFEST was checked with) under
#    $PILLOW_DIR (default /tmp/mdlx-pillow), unless one that imports is already there.
#    Needs python3 with venv and the PyPI registry.
# 2. Writes DIR/NAME.png (or .err) for each corpus texture, unless DIR is complete and
#    newer than this script (about 30 s on two cores).
# 3. Prints the variable assignment on stdout; everything else goes to stderr.
#
# Without MDLX_PILLOW_PNG the test skips the Pillow comparison with a message, except
# under CI (`CI` set), where it fails.
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
corpus="$root/../shared/corpus/textures"
base="${PILLOW_DIR:-/tmp/mdlx-pillow}"
venv="$base/venv"
out="$base/png"
version="13.0.0"

if ! "$venv/bin/python" -c "import PIL" 2>/dev/null; then
    echo "pillow-oracle: installing Pillow $version into $venv" >&2
    rm -rf "$venv"
    python3 -m venv "$venv" >&2
    "$venv/bin/pip" install -q "Pillow==$version" >&2 || "$venv/bin/pip" install -q Pillow >&2
fi

stamp="$out/.complete"
if [[ ! -f "$stamp" || "$stamp" -ot "${BASH_SOURCE[0]}" ]]; then
    echo "pillow-oracle: decoding $corpus with Pillow into $out" >&2
    rm -rf "$out.tmp"
    mkdir -p "$out.tmp"
    "$venv/bin/python" - "$corpus" "$out.tmp" >&2 <<'PY'
import os, sys
from PIL import Image
corpus, out = sys.argv[1], sys.argv[2]
names = [l.split("\t")[0] for l in open(os.path.join(corpus, "MANIFEST.tsv")).read().splitlines()[1:]]
for name in names:
    try:
        with Image.open(os.path.join(corpus, name)) as im:
            im.convert("RGBA").save(os.path.join(out, name + ".png"), compress_level=1)
    except Exception as e:
        with open(os.path.join(out, name + ".err"), "w") as f:
            f.write(f"{type(e).__name__}: {e}\n")
print(f"pillow-oracle: {len(names)} files, Pillow {Image.__version__ if hasattr(Image, '__version__') else ''}")
PY
    touch "$out.tmp/.complete"
    rm -rf "$out"
    mv "$out.tmp" "$out"
fi
echo "export MDLX_PILLOW_PNG=$out"
