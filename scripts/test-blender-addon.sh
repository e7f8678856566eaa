#!/usr/bin/env bash
# test-blender-addon.sh - the Blender add-on (blender/io_scene_mdlx) installed and used
# headless in every Blender there is: Debian's Blender 3.4 as a classic add-on, PyPI's bpy
# 4.5 and 5.0 as a classic add-on and as an extension (blender/tests/addon_test.py: import
# and export of corpus models of versions 800, 1000, 1100 and an MDL, textures shown,
# losses reported, bad input refused with the library's place, nothing written).
#
#   scripts/test-blender-addon.sh        about 15 s a Blender once the wheel is built
#
# The Blenders: MDLX_BLENDER (a `blender` executable), MDLX_BPY45 and MDLX_BPY50 (a Python
# with the `bpy` module), as scripts/blender-versions.sh prints them when it is there;
# else `blender` on PATH and /opt/bpy45, /opt/bpy50. The wheel: MDLX_WHEEL, else
# scripts/python-wheel.sh builds it. Each run prints libtest-style lines and its own
# `test result:` line; a Blender that is missing is one failed test under CI (`CI` set),
# an ignored one otherwise. Exit status 1 when a test failed.
set -uo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
status=0
missing() {
    if [[ -n "${CI:-}" ]]; then
        echo "test $1 is there ... FAILED"
        echo "test result: FAILED. 0 passed; 1 failed; 0 ignored; 0 measured; 0 filtered out"
        status=1
    else
        echo "test $1 is there ... ignored"
        echo "test result: ok. 0 passed; 0 failed; 1 ignored; 0 measured; 0 filtered out"
    fi
}

if [[ -x "$root/scripts/blender-versions.sh" && -z "${MDLX_BPY45:-}" ]]; then
    eval "$("$root/scripts/blender-versions.sh")" || true
fi
blender="${MDLX_BLENDER:-$(command -v blender || true)}"
bpy45="${MDLX_BPY45:-/opt/bpy45/bin/python}"
bpy50="${MDLX_BPY50:-/opt/bpy50/bin/python}"

if [[ -z "${MDLX_WHEEL:-}" ]]; then
    if ! assign="$("$root/scripts/python-wheel.sh")"; then
        echo "test python-wheel.sh builds the wheel ... FAILED"
        echo "test result: FAILED. 0 passed; 1 failed; 0 ignored; 0 measured; 0 filtered out"
        exit 1
    fi
    eval "$assign"
fi
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
eval "$("$root/scripts/blender-addon.sh" "$MDLX_WHEEL" "$work/zips")"

# run NAME MODE ZIP COMMAND...: one run in a fresh user folder (nothing of the machine's
# own Blender settings is read or changed).
run() {
    local name="$1" mode="$2" zip="$3"
    shift 3
    local d="$work/$name-$mode"
    mkdir -p "$d"
    env BLENDER_USER_RESOURCES="$d/user" BLENDER_USER_SCRIPTS="$d/user/scripts" \
        BLENDER_USER_CONFIG="$d/user/config" BLENDER_USER_DATAFILES="$d/user/datafiles" \
        BLENDER_USER_EXTENSIONS="$d/user/extensions" \
        timeout 900 "$@" --zip "$zip" --mode "$mode" --work "$d/work" || status=1
}

test_py="$root/blender/tests/addon_test.py"
if [[ -n "$blender" && -x "$blender" ]]; then
    run blender classic "$MDLX_ADDON_CLASSIC" "$blender" -b --factory-startup --python "$test_py" --
else
    missing "Blender (MDLX_BLENDER)"
fi
for py in "$bpy45" "$bpy50"; do
    if [[ -x "$py" ]] && "$py" -c "import bpy" 2>/dev/null; then
        tag="bpy$("$py" -c "import bpy; print(''.join(map(str, bpy.app.version[:2])))" 2>/dev/null)"
        run "$tag" classic "$MDLX_ADDON_CLASSIC" "$py" "$test_py"
        run "$tag" extension "$MDLX_ADDON_EXTENSION" "$py" "$test_py"
    else
        missing "a Python with bpy at $py"
    fi
done
exit "$status"
