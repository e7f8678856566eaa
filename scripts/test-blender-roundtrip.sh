#!/usr/bin/env bash
# test-blender-roundtrip.sh - checks tools/blender-roundtrip itself in every prepared
# Blender (3.4, 4.5, 5.0): CesiumMan from ../shared/gltf-samples goes through roundtrip.py
# with no edit and with each edit of edits.py (a bone's keys moved, a key added, a bone
# added and weighted, vertices deleted, a vertex moved, an empty under a bone, an action
# renamed, a new action, a material's image replaced), one Blender process per version,
# and each output is read back by plain Python (tools/blender-roundtrip/gltfdoc.py) and
# must show its edit. About a minute.
#
#   scripts/test-blender-roundtrip.sh      (prepares the Blenders with blender-versions.sh
#                                           unless MDLX_BLENDER, MDLX_BPY45, MDLX_BPY50 are set)
#
# Prints libtest-like lines and a `test result:` line; exit status 1 when a check failed.
set -uo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
if [[ -z "${MDLX_BLENDER:-}" || -z "${MDLX_BPY45:-}" || -z "${MDLX_BPY50:-}" ]]; then
    if ! assign="$("$root/scripts/blender-versions.sh")"; then
        echo "test blender-versions.sh prepares the Blenders ... FAILED"
        echo "test result: FAILED. 0 passed; 1 failed; 0 ignored; 0 measured; 0 filtered out"
        exit 1
    fi
    eval "$assign"
fi
export MDLX_BLENDER MDLX_BPY45 MDLX_BPY50
work="${WORK_DIR:-$(mktemp -d)}"
[[ -n "${WORK_DIR:-}" ]] || trap 'rm -rf "$work"' EXIT
cd "$root/tools/blender-roundtrip" && python3 selftest.py "$work"
