#!/usr/bin/env bash
# blender-judge.sh - prepares the Blender that tools/blender-judge/pose.py runs in: the
# judge that plays exported glTF animations in Blender's own glTF importer (the tool
# modders use) and reports the evaluated vertex positions.
#
#   eval "$(scripts/blender-judge.sh)"   prints `export MDLX_BLENDER=/usr/bin/blender`
#
# 1. Uses `blender` from PATH (or $MDLX_BLENDER when set). When there is none, installs
#    the Debian packages blender and python3-numpy with apt-get (needs root and the
#    Debian archive; runs `apt-get update` only when the first install fails). Blender
#    3.4's glTF importer needs numpy, so python3-numpy is installed the same way when
#    Blender is there but the check below cannot import numpy.
# 2. Checks that `blender -b --factory-startup --python-expr` imports a small glTF from
#    ../shared/gltf-samples (BoxAnimated: two meshes, one animation). Says what failed
#    on stderr, and exits 1, when it does not.
# 3. Prints the variable assignment on stdout; everything else goes to stderr.
#
# Then: $MDLX_BLENDER -b --factory-startup --python tools/blender-judge/pose.py -- REQ OUT
# (tools/blender-judge/README.md). scripts/test-blender-judge.sh checks the judge itself.
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
sample="$root/../shared/gltf-samples/BoxAnimated/BoxAnimated.gltf"

die() { echo "blender-judge: $*" >&2; exit 1; }

apt_install() {
    if ! command -v apt-get >/dev/null; then
        die "no apt-get to install $* with; install them by hand (Debian: blender python3-numpy)"
    fi
    if [[ "$(id -u)" != 0 ]]; then
        die "installing $* needs root (apt-get); run as root or install them by hand"
    fi
    echo "blender-judge: installing $* with apt-get" >&2
    export DEBIAN_FRONTEND=noninteractive
    if ! apt-get install -y --no-install-recommends "$@" >&2; then
        echo "blender-judge: install failed; running apt-get update and trying again" >&2
        apt-get update >&2 || die "apt-get update failed"
        apt-get install -y --no-install-recommends "$@" >&2 || die "apt-get install $* failed"
    fi
}

blender="${MDLX_BLENDER:-}"
if [[ -z "$blender" ]]; then
    blender="$(command -v blender || true)"
    if [[ -z "$blender" ]]; then
        apt_install blender python3-numpy
        blender="$(command -v blender || true)"
        [[ -n "$blender" ]] || die "apt-get installed blender but there is no blender on PATH"
    fi
fi
[[ -x "$blender" ]] || die "MDLX_BLENDER=$blender is not an executable"
[[ -f "$sample" ]] || die "missing test sample $sample"

# The same numpy handling as pose.py: Debian's Blender takes sys.prefix from the first
# python3 on PATH (pyenv, venv), and then misses the Debian dist-packages.
check_py='
import sys, warnings
try:
    import numpy
except ImportError:
    v = "%d.%d" % sys.version_info[:2]
    sys.path += ["/usr/lib/python3/dist-packages", "/usr/lib/python%s/dist-packages" % v,
                 "/usr/local/lib/python%s/dist-packages" % v]
    try:
        import numpy
    except ImportError:
        print("MDLX_CHECK no-numpy"); raise
with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    if not hasattr(numpy, "bool"):
        numpy.bool = bool
import bpy
bpy.ops.wm.read_factory_settings(use_empty=True)
r = bpy.ops.import_scene.gltf(filepath=sys.argv[sys.argv.index("--") + 1])
meshes = [o.name for o in bpy.context.scene.objects if o.type == "MESH"]
assert "FINISHED" in r and len(meshes) == 2 and bpy.data.actions, (r, meshes)
print("MDLX_CHECK ok", bpy.app.version_string, "numpy", numpy.__version__)
'

check() {
    local out
    out="$(timeout 300 "$blender" -b --factory-startup --python-exit-code 3 \
        --python-expr "$check_py" -- "$sample" 2>&1)" || true
    if grep -q "^MDLX_CHECK ok" <<<"$out"; then
        echo "blender-judge: $(grep "^MDLX_CHECK ok" <<<"$out" | cut -d' ' -f3-) imports glTF" >&2
        return 0
    fi
    last_out="$out"
    grep -q "^MDLX_CHECK no-numpy" <<<"$out" && return 2
    return 1
}

last_out=""
status=0
check || status=$?
if [[ $status == 2 ]]; then
    apt_install python3-numpy
    status=0
    check || status=$?
fi
if [[ $status != 0 ]]; then
    echo "$last_out" | tail -n 25 >&2
    die "$blender cannot import $sample with its glTF importer (output above)"
fi
echo "export MDLX_BLENDER=$blender"
