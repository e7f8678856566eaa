// deps.mjs - finds the judges' npm packages (three, gltf-validator) in the install that
// scripts/gltf-judges.sh makes, so that validate.mjs and pose.mjs can run from the
// repository (always the current version of the scripts) while the packages live in
// $MDLX_GLTF_JUDGES/node_modules (default /tmp/mdlx-gltf-judges).
//
// Node cannot resolve a bare `import 'three'` from tools/gltf-judges (there is no
// node_modules there), so the entry files are imported by absolute file URL. three's own
// addons (GLTFLoader.js) then import 'three' by name, which Node resolves from their
// location inside the install to the same build/three.module.js: one copy of three, so
// `instanceof` and the loader's classes agree. loadJudgeDeps() checks that.
import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';

export const DEFAULT_DIR = '/tmp/mdlx-gltf-judges';

export function judgesDir() {
  return process.env.MDLX_GLTF_JUDGES || DEFAULT_DIR;
}

function need(dir, rel, what) {
  const p = join(dir, rel);
  if (!existsSync(p)) {
    throw new Error(
      `${what} not found at ${p}: run scripts/gltf-judges.sh (and eval its output, which sets ` +
        `MDLX_GLTF_JUDGES; now ${process.env.MDLX_GLTF_JUDGES ? `'${process.env.MDLX_GLTF_JUDGES}'` : `unset, so ${DEFAULT_DIR}`})`,
    );
  }
  return p;
}

// The entry file of a package's "exports" for ESM import (`import` condition), read from
// its package.json rather than assumed.
function esmEntry(pkgDir, subpath) {
  const pkg = JSON.parse(readFileSync(join(pkgDir, 'package.json'), 'utf8'));
  const exp = pkg.exports && pkg.exports[subpath];
  const target = typeof exp === 'string' ? exp : exp && (exp.import || exp.default);
  if (!target) throw new Error(`${pkgDir}/package.json has no ESM export for '${subpath}'`);
  return join(pkgDir, target);
}

// { THREE, GLTFLoader } from the install.
export async function loadThree(dir = judgesDir()) {
  const threeDir = join(dir, 'node_modules', 'three');
  need(dir, 'node_modules/three/package.json', 'three');
  const THREE = await import(pathToFileURL(esmEntry(threeDir, '.')).href);
  const loaderPath = need(dir, 'node_modules/three/examples/jsm/loaders/GLTFLoader.js', "three's GLTFLoader");
  const { GLTFLoader } = await import(pathToFileURL(loaderPath).href);
  return { THREE, GLTFLoader };
}

// The gltf-validator module (CommonJS: validateBytes, version, ...) from the install.
export function loadValidator(dir = judgesDir()) {
  need(dir, 'node_modules/gltf-validator/package.json', 'gltf-validator');
  const require = createRequire(join(dir, 'package.json'));
  const v = require('gltf-validator');
  if (typeof v.validateBytes !== 'function') {
    throw new Error(`gltf-validator in ${dir}/node_modules has no validateBytes function`);
  }
  return v;
}
