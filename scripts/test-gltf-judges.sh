#!/usr/bin/env bash
# test-gltf-judges.sh - tests the glTF judges (tools/gltf-judges/validate.mjs, pose.mjs) on
# the third-party samples in ../shared/gltf-samples, against expectations of their own:
# the validator results recorded in the samples' MANIFEST.tsv, and vertex positions
# computed in plain JavaScript from each glTF's accessors (no three.js), plus small glTF
# files written by the test (end of a LoopOnce clip, hiding by scale 0, several
# primitives, bad files and requests). A few seconds.
#
#   scripts/test-gltf-judges.sh
#
# Uses the install named by MDLX_GLTF_JUDGES; without it, runs scripts/gltf-judges.sh
# first (which installs or repairs /tmp/mdlx-gltf-judges, or GLTF_JUDGES_DIR).
# Prints one line per case like libtest (`test NAME ... ok`) and a `test result:` line;
# exit status 1 when a case failed or the judges could not be installed.
set -uo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
samples="$root/../shared/gltf-samples"

echo
echo "running scripts/test-gltf-judges.sh (the glTF judges on $samples)"
fail() {
  echo "test-gltf-judges: $*" >&2
  echo "test result: FAILED. 0 passed; 1 failed; 0 ignored; 0 measured; 0 filtered out"
  exit 1
}
[ -f "$samples/MANIFEST.tsv" ] || fail "no glTF samples at $samples (MANIFEST.tsv missing)"
if [ -z "${MDLX_GLTF_JUDGES:-}" ]; then
  env_line="$("$root/scripts/gltf-judges.sh")" || fail "scripts/gltf-judges.sh could not make a working install (see above)"
  eval "$env_line"
fi
export MDLX_GLTF_JUDGES
node "$root/tools/gltf-judges/test-judges.mjs" "$samples"
