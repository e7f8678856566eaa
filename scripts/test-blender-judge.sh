#!/usr/bin/env bash
# test-blender-judge.sh - checks the Blender judge (tools/blender-judge/pose.py) against
# an independent evaluation of the same glTF files (tools/blender-judge/gltf_ref.py, plain
# Python written from the glTF 2.0 spec; no Blender, no numpy).
#
#   scripts/test-blender-judge.sh          about 3 s once Blender is installed
#
# 1. scripts/blender-judge.sh finds (or installs) Blender and checks its glTF importer.
# 2. tools/blender-judge/selftest.py runs pose.py once, in one Blender, over SimpleSkin,
#    RiggedSimple, CesiumMan, BoxAnimated and InterpolationTest from ../shared/gltf-samples,
#    a generated visibility.gltf (a mesh hidden by a STEP scale to 0, skinned and not) and
#    a missing file, and compares every evaluated vertex, in Blender's Z-up space, with the
#    reference: skinning, node hierarchies, STEP/LINEAR tracks, the end time giving the
#    last keyframe, no animation leaking into another, rest pose, visibility, vertex
#    order and count. Blender interpolates LINEAR rotations component-wise (nlerp), not
#    with the spec's slerp, so the reference does the same; the distance from slerp is
#    printed. CUBICSPLINE clips are printed only: Blender drops their tangents.
#
# Prints libtest-like lines (`test NAME ... ok`) and a `test result:` line. Exit status 1
# when a check failed or Blender is unusable. WORK_DIR (default a temporary folder, removed
# afterwards) keeps the request and Blender's output.
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
if ! assign="$("$root/scripts/blender-judge.sh")"; then
    echo "test blender-judge.sh finds a working Blender ... FAILED"
    echo "test result: FAILED. 0 passed; 1 failed; 0 ignored; 0 measured; 0 filtered out"
    exit 1
fi
eval "$assign"

work="${WORK_DIR:-}"
if [[ -z "$work" ]]; then
    work="$(mktemp -d)"
    trap 'rm -rf "$work"' EXIT
fi
python3 "$root/tools/blender-judge/selftest.py" "$MDLX_BLENDER" "$root/../shared/gltf-samples" "$work"
