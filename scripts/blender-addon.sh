#!/usr/bin/env bash
# blender-addon.sh - builds the Blender add-on (blender/io_scene_mdlx) from the Python wheel
# of the bindings, in the two forms Blender installs:
#
#   scripts/blender-addon.sh [WHEEL] [OUT_DIR]
#       WHEEL    default $MDLX_WHEEL, else what scripts/python-wheel.sh builds in release
#                mode (optimized, for users: a few minutes more than the tests' dev wheel)
#       OUT_DIR  default target/blender-addon
#
# 1. OUT_DIR/io_scene_mdlx-VERSION-classic.zip: a classic add-on (Blender 3.x and 4.x,
#    Edit > Preferences > Add-ons > Install...): the folder io_scene_mdlx with the library
#    (the wheel's `mdlx` package, its compiled module included) inside it.
# 2. OUT_DIR/io_scene_mdlx-VERSION-extension.zip: a Blender 4.2+ extension (Get
#    Extensions > Install from Disk...): blender_manifest.toml naming the wheel, which is
#    inside under wheels/; Blender installs it.
#
# Prints `export MDLX_ADDON_CLASSIC=...` and `export MDLX_ADDON_EXTENSION=...`; everything
# else goes to stderr.
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
wheel="${1:-${MDLX_WHEEL:-}}"
if [[ -z "$wheel" ]]; then
    eval "$(MDLX_PY_PROFILE="${MDLX_PY_PROFILE:-release}" "$root/scripts/python-wheel.sh")"
    wheel="$MDLX_WHEEL"
fi
out="${2:-$root/target/blender-addon}"
[[ -f "$wheel" ]] || { echo "blender-addon: no wheel at $wheel" >&2; exit 1; }
mkdir -p "$out"

python3 - "$root/blender/io_scene_mdlx" "$wheel" "$out" <<'PY'
import os, re, sys, zipfile

src, wheel, out = sys.argv[1:4]
version = re.search(r'^version = "([^"]+)"', open(os.path.join(src, "blender_manifest.toml")).read(), re.M)[1]
files = sorted(f for f in os.listdir(src) if f.endswith(".py"))

def write(path, entries):
    tmp = path + ".tmp"
    with zipfile.ZipFile(tmp, "w", zipfile.ZIP_DEFLATED) as z:
        for name, data in entries:
            z.writestr(name, data)
    os.replace(tmp, path)
    print(f"blender-addon: {path} ({os.path.getsize(path)} bytes)", file=sys.stderr)

code = [(f, open(os.path.join(src, f), "rb").read()) for f in files]
with zipfile.ZipFile(wheel) as w:
    package = [(n, w.read(n)) for n in w.namelist() if n.startswith("mdlx/")]
assert any(n.startswith("mdlx/_mdlx") for n, _ in package), "the wheel has no compiled module"

classic = os.path.join(out, f"io_scene_mdlx-{version}-classic.zip")
write(classic, [(f"io_scene_mdlx/{n}", d) for n, d in code + package])

name = os.path.basename(wheel)
manifest = open(os.path.join(src, "blender_manifest.toml")).read().replace("WHEEL_FILE", name)
extension = os.path.join(out, f"io_scene_mdlx-{version}-extension.zip")
write(extension, code + [("blender_manifest.toml", manifest.encode()),
                         (f"wheels/{name}", open(wheel, "rb").read())])
print(f"export MDLX_ADDON_CLASSIC={classic}")
print(f"export MDLX_ADDON_EXTENSION={extension}")
PY
