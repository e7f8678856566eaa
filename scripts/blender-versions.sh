#!/usr/bin/env bash
# blender-versions.sh - prepares the three Blenders the round trip through Blender runs in
# (tools/blender-roundtrip, crates/mdlx/tests/blender_roundtrip.rs):
#
#   eval "$(scripts/blender-versions.sh)"   prints
#     export MDLX_BLENDER=/usr/bin/blender          Blender 3.4 (Debian), the binary
#     export MDLX_BPY45=.../bpy45/bin/python        a Python with the PyPI bpy 4.5.x
#     export MDLX_BPY50=.../bpy50/bin/python        a Python with the PyPI bpy 5.0.x
#
# 1. MDLX_BLENDER: scripts/blender-judge.sh (Debian's blender, installed with apt-get when
#    missing; it checks that a glTF imports).
# 2. MDLX_BPY45 / MDLX_BPY50: when set, that interpreter is used as it is (e.g. a venv
#    made by hand: MDLX_BPY45=/opt/bpy45/bin/python). Otherwise a venv under
#    ${MDLX_BPY_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/mdlx} (bpy45, bpy50) is reused when
#    it has the right bpy, else made with Python 3.11 (the only Python the bpy wheels are
#    built for; $MDLX_PYTHON311, else python3.11, else python3 when it is 3.11) and
#    `pip install bpy==...` from PyPI (a 360 MB download, about 950 MB installed, each;
#    no pip cache kept).
# 3. Each is checked by importing a glTF sample and exporting it again with the stock
#    glTF add-on. What failed is said on stderr; the exit status is 1 when any of the
#    three cannot be prepared (the assignments of those that could are still printed).
set -uo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
sample="$root/../shared/gltf-samples/BoxAnimated/BoxAnimated.gltf"
cache="${MDLX_BPY_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/mdlx}"
BPY45_VERSION="${MDLX_BPY45_VERSION:-4.5.15}"
BPY50_VERSION="${MDLX_BPY50_VERSION:-5.0.1}"

say() { echo "blender-versions: $*" >&2; }
failed=0

# The check: the stock importer then the stock exporter, in a fresh empty scene.
check_py='
import sys, tempfile, os
import bpy
want = sys.argv[-1]
bpy.ops.wm.read_factory_settings(use_empty=True)
r = bpy.ops.import_scene.gltf(filepath=sys.argv[-2])
assert "FINISHED" in r, r
out = os.path.join(tempfile.mkdtemp(), "check.glb")
r = bpy.ops.export_scene.gltf(filepath=out, export_format="GLB")
assert "FINISHED" in r and os.path.getsize(out) > 0, r
got = "%d.%d" % bpy.app.version[:2]
assert got == want, "bpy is %s, not %s" % (got, want)
print("MDLX_CHECK ok", bpy.app.version_string)
'

# check_bpy PYTHON MAJOR.MINOR: 0 when PYTHON imports bpy of that version and round-trips
# the sample.
check_bpy() {
    local out
    out="$(cd /tmp && timeout 600 "$1" -c "$check_py" "$sample" "$2" 2>&1)" || true
    if grep -q "^MDLX_CHECK ok" <<<"$out"; then
        say "$1: Blender $(grep "^MDLX_CHECK ok" <<<"$out" | cut -d' ' -f3-) imports and exports glTF"
        return 0
    fi
    last_out="$out"
    return 1
}

python311() {
    local p
    for p in "${MDLX_PYTHON311:-}" python3.11 python3; do
        [[ -n "$p" ]] || continue
        if command -v "$p" >/dev/null && "$p" -c 'import sys, venv; assert sys.version_info[:2] == (3, 11)' 2>/dev/null; then
            command -v "$p"
            return 0
        fi
    done
    return 1
}

# prepare_bpy VAR MAJOR.MINOR VERSION DIR: prints `export VAR=...` when it worked.
prepare_bpy() {
    local var="$1" series="$2" version="$3" dir="$4" py
    local given="${!var:-}"
    last_out=""
    if [[ -n "$given" ]]; then
        if check_bpy "$given" "$series"; then
            echo "export $var=$given"
            return 0
        fi
        echo "$last_out" | tail -n 15 >&2
        say "$var=$given does not run Blender $series's glTF add-on (output above)"
        return 1
    fi
    py="$dir/bin/python"
    if [[ -x "$py" ]] && check_bpy "$py" "$series"; then
        echo "export $var=$py"
        return 0
    fi
    local base
    if ! base="$(python311)"; then
        say "no Python 3.11 to make $dir with (set MDLX_PYTHON311, or $var to a Python with bpy $series)"
        return 1
    fi
    say "making $dir (bpy==$version from PyPI, a few hundred MB)"
    rm -rf "$dir"
    mkdir -p "$(dirname "$dir")"
    local t0=$SECONDS
    if ! "$base" -m venv "$dir" >&2; then
        say "$base -m venv $dir failed"
        return 1
    fi
    if ! "$dir/bin/python" -m pip install --disable-pip-version-check --no-cache-dir -q "bpy==$version" >&2; then
        say "pip install bpy==$version into $dir failed"
        rm -rf "$dir"
        return 1
    fi
    say "installed bpy $version in $((SECONDS - t0)) s"
    if check_bpy "$py" "$series"; then
        echo "export $var=$py"
        return 0
    fi
    echo "$last_out" | tail -n 15 >&2
    say "bpy $version in $dir does not import and export glTF (output above)"
    return 1
}

[[ -f "$sample" ]] || { say "missing test sample $sample"; exit 1; }

if ! "$root/scripts/blender-judge.sh"; then
    say "Blender 3.4 (scripts/blender-judge.sh) could not be prepared"
    failed=1
fi
prepare_bpy MDLX_BPY45 4.5 "$BPY45_VERSION" "$cache/bpy45" || failed=1
prepare_bpy MDLX_BPY50 5.0 "$BPY50_VERSION" "$cache/bpy50" || failed=1
exit "$failed"
