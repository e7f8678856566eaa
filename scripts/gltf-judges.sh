#!/usr/bin/env bash
# gltf-judges.sh - installs the independent judges of the glTF files that mdlx exports:
# the Khronos glTF-Validator and three.js (versions pinned in
# tools/gltf-judges/package-lock.json), for the scripts tools/gltf-judges/*.mjs.
#
#   eval "$(scripts/gltf-judges.sh)"     prints `export MDLX_GLTF_JUDGES=/tmp/mdlx-gltf-judges`
#
# Then, from anywhere (the scripts stay in the repository and load the packages from
# $MDLX_GLTF_JUDGES/node_modules; see tools/gltf-judges/deps.mjs):
#
#   node tools/gltf-judges/validate.mjs LIST_FILE
#       LIST_FILE: one .glb/.gltf path per line. One JSON line per file on stdout:
#       {"file","errors","warnings","infos","hints","codes":{CODE:{"severity","count"}},
#        "first_errors":[...]} or {"file","fatal"}. Format details at the top of the script.
#   node tools/gltf-judges/pose.mjs REQUEST.json
#       REQUEST: {"jobs":[{"file":"/abs/x.glb","samples":[{"animation":0,"time":0.25}]}]}.
#       One JSON line per job: {"file","error","animations":[{"name","duration"}],
#       "samples":[{"animation","time","meshes":[{"node","name","visible","positions",...}]}],
#       "warnings"}; positions are base64 little-endian float32 xyz in world space.
#
# 1. Checks the install in $GLTF_JUDGES_DIR (default /tmp/mdlx-gltf-judges): it was made
#    from the repository's package-lock.json, node imports three (and its GLTFLoader) and
#    gltf-validator from its node_modules, the validator finds 0 errors in a tiny glTF and
#    three.js loads and animates it to the expected positions. Says which part is broken.
# 2. When the check fails (or there is no install yet), runs `npm ci` of tools/gltf-judges
#    afresh in a temporary folder beside the install (needs npm and the npm registry, a
#    few seconds), checks that one the same way, and only then renames it into place: an
#    install that is interrupted or fails never looks complete.
# 3. Prints the variable assignment on stdout; everything else goes to stderr.
#
# Runs that share a GLTF_JUDGES_DIR take turns (a lock file beside it, GLTF_JUDGES_DIR.lock).
# Exit status 1, with the reason on stderr, when no working install can be made.
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
pkg="$root/tools/gltf-judges"

say() { printf 'gltf-judges: %s\n' "$*" >&2; }
die() { say "error: $*"; exit 1; }

[ $# -eq 0 ] || die "unknown argument '$1' (usage: scripts/gltf-judges.sh; GLTF_JUDGES_DIR overrides the folder)"
for tool in node npm; do
  command -v "$tool" >/dev/null ||
    die "$tool not found: the glTF judges need Node.js (v20 or later) and npm"
done
for f in package.json package-lock.json; do
  [ -f "$pkg/$f" ] || die "$pkg/$f is missing"
done

# An absolute folder: the scripts and node work from absolute paths.
dir="${GLTF_JUDGES_DIR:-/tmp/mdlx-gltf-judges}"
dir="${dir%/}"
[ -n "$dir" ] || die "GLTF_JUDGES_DIR must name a folder other than /"
mkdir -p "$(dirname "$dir")"
dir="$(cd "$(dirname "$dir")" && pwd)/$(basename "$dir")"

# Temporary paths removed on exit, whatever happens.
cleanup_paths=()
cleanup() { [ ${#cleanup_paths[@]} -eq 0 ] || rm -rf "${cleanup_paths[@]}"; }
trap cleanup EXIT

# One run at a time per folder (other worktrees may share /tmp/mdlx-gltf-judges).
if command -v flock >/dev/null; then
  exec 9>"$dir.lock"
  if ! flock -n 9; then
    say "waiting for another gltf-judges.sh using $dir (lock $dir.lock)"
    flock 9
  fi
fi

limited() {
  if command -v timeout >/dev/null; then timeout 120 "$@"; else "$@"; fi
}

# The smoke test of an install, in plain ESM importing the packages by path (not through
# tools/gltf-judges/*.mjs, so that a mistake there is not blamed on the install). A
# one-triangle glTF with a LINEAR translation of its node from x=0 (t=0) to x=2 (t=1):
# the validator must report 0 errors, and three.js at t=1 (LoopOnce, the end of the
# clip) must place vertex 1 (1,0,0) at x=3.
smoke_js='
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
const dir = process.argv[1];
const step = (what, f) => { try { return f(); } catch (e) { throw new Error(`${what}: ${e.message}`); } };
const threePkg = join(dir, "node_modules/three");
const entry = step("reading three/package.json", () => JSON.parse(readFileSync(join(threePkg, "package.json"), "utf8")).exports["."].import);
let THREE, GLTFLoader, validator;
try { THREE = await import(pathToFileURL(join(threePkg, entry)).href); } catch (e) { throw new Error(`importing three: ${e.message}`); }
try { ({ GLTFLoader } = await import(pathToFileURL(join(threePkg, "examples/jsm/loaders/GLTFLoader.js")).href)); } catch (e) { throw new Error(`importing three/examples/jsm/loaders/GLTFLoader.js: ${e.message}`); }
validator = step("loading gltf-validator", () => createRequire(join(dir, "package.json"))("gltf-validator"));
// positions (3 x vec3), times (0, 1), translations (0,0,0) (2,0,0)
const f = new Float32Array([0,0,0, 1,0,0, 0,1,0, 0,1, 0,0,0, 2,0,0]);
const bin = Buffer.from(f.buffer);
const gltf = {
  asset: { version: "2.0" }, scene: 0, scenes: [{ nodes: [0] }], nodes: [{ mesh: 0 }],
  meshes: [{ primitives: [{ attributes: { POSITION: 0 } }] }],
  buffers: [{ byteLength: bin.length }],
  bufferViews: [{ buffer: 0, byteLength: 36, target: 34962 }, { buffer: 0, byteOffset: 36, byteLength: 32 }],
  accessors: [
    { bufferView: 0, componentType: 5126, count: 3, type: "VEC3", min: [0,0,0], max: [1,1,0] },
    { bufferView: 1, componentType: 5126, count: 2, type: "SCALAR", min: [0], max: [1] },
    { bufferView: 1, byteOffset: 8, componentType: 5126, count: 2, type: "VEC3" }],
  animations: [{ channels: [{ sampler: 0, target: { node: 0, path: "translation" } }],
                 samplers: [{ input: 1, output: 2 }] }],
};
// As a GLB in memory: the three.js loader fetches data: URIs with browser APIs (ProgressEvent)
// that Node lacks, so pose.mjs hands it GLBs too.
let json = Buffer.from(JSON.stringify(gltf));
json = Buffer.concat([json, Buffer.alloc((4 - json.length % 4) % 4, 0x20)]);
const head = Buffer.alloc(20); head.writeUInt32LE(0x46546c67, 0); head.writeUInt32LE(2, 4);
head.writeUInt32LE(20 + json.length + 8 + bin.length, 8); head.writeUInt32LE(json.length, 12); head.writeUInt32LE(0x4e4f534a, 16);
const binHead = Buffer.alloc(8); binHead.writeUInt32LE(bin.length, 0); binHead.writeUInt32LE(0x004e4942, 4);
const glb = new Uint8Array(Buffer.concat([head, json, binHead, bin]));
const report = await validator.validateBytes(glb, { maxIssues: 0, writeTimestamp: false });
if (report.issues.numErrors !== 0) throw new Error(`gltf-validator reports ${report.issues.numErrors} errors in the smoke-test glTF: ${report.issues.messages.map((m) => m.code).join(", ")}`);
const loaded = await new Promise((res, rej) => new GLTFLoader().parse(glb.slice().buffer, "", res, rej)).catch((e) => { throw new Error(`GLTFLoader.parse: ${e && e.message ? e.message : e}`); });
if (!(loaded.scene instanceof THREE.Group)) throw new Error("GLTFLoader and three are two different copies of three (scene is not a THREE.Group)");
const mixer = new THREE.AnimationMixer(loaded.scene);
const action = mixer.clipAction(loaded.animations[0]);
action.setLoop(THREE.LoopOnce, 1); action.clampWhenFinished = true; action.play();
mixer.setTime(1);
loaded.scene.updateMatrixWorld(true);
let mesh = null; loaded.scene.traverse((o) => { if (o.isMesh) mesh = o; });
const v = mesh.getVertexPosition(1, new THREE.Vector3()).applyMatrix4(mesh.matrixWorld);
if (Math.abs(v.x - 3) > 1e-6 || Math.abs(v.y) > 1e-6 || Math.abs(v.z) > 1e-6) throw new Error(`three.js posed the smoke-test triangle wrongly: vertex 1 at (${v.x}, ${v.y}, ${v.z}), expected (3, 0, 0)`);
process.stdout.write(`three ${THREE.REVISION}, gltf-validator ${validator.version()}\n`);
'

# judges_problem DIR: prints what is wrong with the install in DIR and fails, or prints
# the versions and succeeds when it works.
judges_problem() {
  local d="$1" p out
  [ -d "$d" ] || { echo "$d does not exist"; return 1; }
  [ -f "$d/package-lock.json" ] || { echo "$d/package-lock.json is missing"; return 1; }
  cmp -s "$d/package-lock.json" "$pkg/package-lock.json" ||
    { echo "$d was installed from another package-lock.json than $pkg/package-lock.json (the pinned versions changed)"; return 1; }
  for p in three gltf-validator; do
    [ -f "$d/node_modules/$p/package.json" ] ||
      { echo "$d/node_modules/$p is missing or empty (npm ci did not finish)"; return 1; }
  done
  if ! out="$(cd "$d" && limited node --input-type=module -e "$smoke_js" "$d" 2>&1 </dev/null)"; then
    # The message line of the exception, not the source line node quotes above it.
    echo "the smoke test fails: $(printf '%s\n' "$out" | grep -m1 -E '^[A-Za-z]*Error( \[[A-Z_]+\])?: ' ||
      printf '%s\n' "$out" | grep -m1 -E 'Error|error' || printf '%s' "$out" | head -n 1)"
    return 1
  fi
  printf '%s' "$out"
}

# install_judges: npm ci into a fresh temporary folder beside $dir, checks it, and renames
# it to $dir (replacing a broken install).
install_judges() {
  local tmp="$dir.new.$$" log="$dir.new.$$.log" problem
  if [ -e "$dir" ] && [ -n "$(ls -A "$dir")" ] &&
    [ ! -e "$dir/node_modules" ] && [ ! -e "$dir/package-lock.json" ]; then
    die "$dir is not a glTF judges install (no node_modules/ or package-lock.json in it) and is not empty: not replacing it; set GLTF_JUDGES_DIR to another folder"
  fi
  rm -rf "$dir".new.* "$dir".old.* # left by interrupted runs (we hold the lock)
  cleanup_paths+=("$tmp" "$log")
  mkdir -p "$tmp"
  cp "$pkg/package.json" "$pkg/package-lock.json" "$tmp/"
  say "installing $(cd "$pkg" && node -p 'Object.entries(require("./package.json").dependencies).map(([k, v]) => k + " " + v).join(", ")') with npm ci into $tmp"
  if ! (cd "$tmp" && limited npm ci --no-audit --no-fund --ignore-scripts) >"$log" 2>&1 </dev/null; then
    grep -v -E '^npm error +at ' "$log" | tail -n 12 | sed 's/^/  npm: /' >&2
    die "npm ci of $pkg failed ($(grep -m1 -iE 'npm (err|error)' "$log" || tail -n 1 "$log")); $dir was not changed"
  fi
  if ! problem="$(judges_problem "$tmp")"; then
    die "npm ci finished but the new install does not work: $problem; $dir was not changed"
  fi
  if [ -e "$dir" ]; then
    mv "$dir" "$dir.old.$$"
    cleanup_paths+=("$dir.old.$$")
  fi
  mv "$tmp" "$dir"
  say "installed into $dir ($problem)"
}

if [ ! -e "$dir" ]; then
  say "no glTF judges in $dir yet"
  install_judges
elif ! problem="$(judges_problem "$dir")"; then
  say "the glTF judges in $dir are broken: $problem"
  say "reinstalling them from scratch"
  install_judges
else
  say "glTF judges in $dir work ($problem)"
fi

printf 'export MDLX_GLTF_JUDGES=%q\n' "$dir"
