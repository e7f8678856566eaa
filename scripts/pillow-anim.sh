#!/usr/bin/env bash
# pillow-anim.sh - prepares Pillow as the independent reader of the animated pictures that
# render::output writes (crates/mdlx/tests/render_output.rs: GIF, APNG and WebP opened by
# Pillow, frame count, durations, size and pixels compared).
#
#   eval "$(scripts/pillow-anim.sh)"   prints `export MDLX_PILLOW_PYTHON=PATH`
#
# Makes (or reuses) the same venv as scripts/pillow-oracle.sh: Pillow under $PILLOW_DIR
# (default /tmp/mdlx-pillow), the version the texture corpus was checked with. Needs python3
# with venv and the PyPI registry; Pillow's wheels carry libwebp, which is checked.
# Prints the variable assignment on stdout; everything else goes to stderr.
#
# Without MDLX_PILLOW_PYTHON the test skips the Pillow part with a message, except under CI
# (`CI` set), where it fails.
set -euo pipefail

base="${PILLOW_DIR:-/tmp/mdlx-pillow}"
venv="$base/venv"
version="13.0.0"

if ! "$venv/bin/python" -c "import PIL" 2>/dev/null; then
    echo "pillow-anim: installing Pillow $version into $venv" >&2
    rm -rf "$venv"
    mkdir -p "$base"
    python3 -m venv "$venv" >&2
    "$venv/bin/pip" install -q "Pillow==$version" >&2 || "$venv/bin/pip" install -q Pillow >&2
fi
"$venv/bin/python" - >&2 <<'PY'
import PIL
from PIL import features
if not features.check("webp"):
    raise SystemExit(f"pillow-anim: Pillow {PIL.__version__} was built without WebP")
print(f"pillow-anim: Pillow {PIL.__version__} with WebP")
PY
echo "export MDLX_PILLOW_PYTHON=$venv/bin/python"
