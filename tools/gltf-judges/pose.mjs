// pose.mjs - poses glTF files with three.js (GLTFLoader + AnimationMixer, in Node, no
// browser) and prints the world-space vertex positions of every mesh at given animation
// times, so that tests can compare an exported animation with what the source model says.
//
//   MDLX_GLTF_JUDGES=/tmp/mdlx-gltf-judges node tools/gltf-judges/pose.mjs REQUEST.json
//
// REQUEST.json:
//   {"jobs": [{"file": "/abs/x.glb", "samples": [{"animation": 0, "time": 0.25}, ...]}, ...]}
// time is in seconds. "animation": null (or left out) poses the file with no animation
// (the nodes' own transforms).
//
// One JSON line per job on stdout, in request order:
//   {"file": PATH, "error": null | "message",
//    "animations": [{"name": glTF name or null, "duration": seconds}, ...],
//    "samples": [{"animation": 0, "time": 0.25,
//                 "meshes": [{"node": glTF node index, "name": glTF node name or null,
//                             "primitive": k            (only when the glTF mesh has more
//                                                        than one primitive),
//                             "skinned": bool, "visible": bool,
//                             "positions": base64 of little-endian float32 x,y,z per
//                                          vertex, world space, in the order of the
//                                          primitive's POSITION accessor}, ...]}, ...],
//    "warnings": [messages three.js printed while loading/posing, at most 20]}
// With "nodes": true in the job, each sample also has "nodes": base64 of little-endian
// float32, 16 per glTF node in node index order: the node's matrixWorld (column-major, as
// three.js stores it; NaN for a node not in the default scene).
// meshes are sorted by node, then primitive. Only triangle meshes (three's Mesh and
// SkinnedMesh) of the default scene are listed; POINTS/LINES primitives are not.
// When "error" is not null, "samples" is [] ("animations" is filled when the file loaded).
// A bad job never stops the run; exit status 2 only on bad usage or when three cannot be
// loaded. Messages go to stderr.
//
// How a sample is taken: all actions stopped and every node reset to its loaded state,
// then only that animation is played on an AnimationMixer of the scene (LoopOnce,
// clampWhenFinished, so time = duration gives the END of the clip and later times stay
// there), mixer.setTime(time), scene.updateMatrixWorld(true). Positions come from
// mesh.getVertexPosition(i) (morph targets, and for a SkinnedMesh the bone transforms)
// then mesh.matrixWorld. "visible": the mesh and all its ancestors have .visible and
// |det(matrixWorld)| > 1e-12 (a node scaled to 0 hides its mesh; for a SkinnedMesh
// three.js then collapses the vertices, as its bindMatrixInverse = inverse(matrixWorld)
// becomes all zeros, and getVertexPosition gives NaN).
// Caveat, checked with a glTF of our own: the glTF spec says a skinned mesh ignores its
// node's transform, and three.js does too while the node's matrix can be inverted. A
// skinned mesh node scaled to 1e-5 (det 1e-15) is drawn at FULL size by three.js (positions
// exactly as at scale 1) yet is reported "visible": false here; only an exact 0 makes
// three.js collapse it. The validator warns ANIMATION_CHANNEL_TARGET_NODE_SKIN for any
// animated TRS of a skinned mesh node, so other viewers may well keep showing it.
//
// Loading without a DOM: images, textures and samplers are removed from the glTF JSON,
// and every material property whose name ends in "Texture" (textures cannot be decoded
// in Node, and do not matter here). All buffers (GLB BIN chunk, data: URIs, files beside
// a .gltf) are read here and merged into one, and the result is handed to
// GLTFLoader.parse as a GLB in memory, so the loader never fetches anything.
import { readFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { loadThree } from './deps.mjs';

const JOB_TIMEOUT_MS = 60_000;
const DET_EPSILON = 1e-12;
const MAX_WARNINGS = 20;

const GLB_MAGIC = 0x46546c67; // 'glTF'
const CHUNK_JSON = 0x4e4f534a;
const CHUNK_BIN = 0x004e4942;

// ---- reading the file ------------------------------------------------------------------

// { json, bin } from the bytes of a .glb or .gltf (by content, not by name).
function parseContainer(bytes) {
  const dv = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  if (bytes.length >= 4 && dv.getUint32(0, true) === GLB_MAGIC) {
    if (bytes.length < 20) throw new Error(`GLB too short (${bytes.length} bytes)`);
    const version = dv.getUint32(4, true);
    if (version !== 2) throw new Error(`GLB version ${version}, not 2`);
    const total = Math.min(dv.getUint32(8, true), bytes.length);
    let json = null;
    let bin = null;
    for (let off = 12; off + 8 <= total; ) {
      const len = dv.getUint32(off, true);
      const type = dv.getUint32(off + 4, true);
      const start = off + 8;
      if (start + len > total) throw new Error(`GLB chunk at byte ${off} runs past the end of the file`);
      const body = bytes.subarray(start, start + len);
      if (type === CHUNK_JSON && json === null) json = new TextDecoder().decode(body);
      else if (type === CHUNK_BIN && bin === null) bin = body;
      off = start + len;
    }
    if (json === null) throw new Error('GLB has no JSON chunk');
    return { json: JSON.parse(json), bin };
  }
  return { json: JSON.parse(new TextDecoder().decode(bytes)), bin: null };
}

function decodeDataUri(uri) {
  const comma = uri.indexOf(',');
  if (comma < 0) throw new Error('malformed data: URI (no comma)');
  const meta = uri.slice(5, comma);
  const data = uri.slice(comma + 1);
  if (/;base64$/i.test(meta)) return new Uint8Array(Buffer.from(data, 'base64'));
  return new Uint8Array(Buffer.from(decodeURIComponent(data), 'latin1'));
}

// The bytes of every buffer, checked against its byteLength.
function readBuffers(json, bin, baseDir) {
  return (json.buffers || []).map((b, i) => {
    let data;
    if (b.uri === undefined) {
      if (i !== 0 || bin === null) throw new Error(`buffer ${i} has no uri and there is no GLB BIN chunk for it`);
      data = bin;
    } else if (b.uri.startsWith('data:')) {
      data = decodeDataUri(b.uri);
    } else {
      const p = resolve(baseDir, decodeURIComponent(b.uri));
      try {
        data = new Uint8Array(readFileSync(p));
      } catch (e) {
        throw new Error(`buffer ${i}: cannot read ${p}: ${e.code || e.message}`);
      }
    }
    if (typeof b.byteLength !== 'number' || data.length < b.byteLength) {
      throw new Error(`buffer ${i}: byteLength ${b.byteLength} but ${data.length} bytes of data`);
    }
    return data.subarray(0, b.byteLength);
  });
}

// Removes everything image-related: Node has no DOM to decode images with.
function stripTextures(json) {
  delete json.images;
  delete json.textures;
  delete json.samplers;
  const strip = (o) => {
    if (Array.isArray(o)) o.forEach(strip);
    else if (o && typeof o === 'object') {
      for (const k of Object.keys(o)) {
        if (k.endsWith('Texture')) delete o[k];
        else strip(o[k]);
      }
    }
  };
  strip(json.materials);
}

// One GLB (ArrayBuffer) holding the JSON and all buffers merged into buffer 0.
function buildGlb(json, buffers) {
  const align = (n, a) => Math.ceil(n / a) * a;
  const bases = [];
  let total = 0;
  for (const b of buffers) {
    total = align(total, 16); // keeps each accessor's alignment within its buffer
    bases.push(total);
    total += b.length;
  }
  total = align(total, 4);
  const merged = new Uint8Array(total);
  buffers.forEach((b, i) => merged.set(b, bases[i]));
  for (const [k, bv] of (json.bufferViews || []).entries()) {
    if (!Number.isInteger(bv.buffer) || bv.buffer < 0 || bv.buffer >= buffers.length) {
      throw new Error(`bufferView ${k} names buffer ${bv.buffer}, which does not exist`);
    }
    bv.byteOffset = (bv.byteOffset || 0) + bases[bv.buffer];
    bv.buffer = 0;
  }
  if (buffers.length > 0) json.buffers = [{ byteLength: total }];
  else delete json.buffers;

  const jsonBytes = new TextEncoder().encode(JSON.stringify(json));
  const jsonLen = align(jsonBytes.length, 4);
  const size = 12 + 8 + jsonLen + (buffers.length > 0 ? 8 + total : 0);
  const out = new ArrayBuffer(size);
  const u8 = new Uint8Array(out);
  const dv = new DataView(out);
  dv.setUint32(0, GLB_MAGIC, true);
  dv.setUint32(4, 2, true);
  dv.setUint32(8, size, true);
  dv.setUint32(12, jsonLen, true);
  dv.setUint32(16, CHUNK_JSON, true);
  u8.set(jsonBytes, 20);
  u8.fill(0x20, 20 + jsonBytes.length, 20 + jsonLen);
  if (buffers.length > 0) {
    const o = 20 + jsonLen;
    dv.setUint32(o, total, true);
    dv.setUint32(o + 4, CHUNK_BIN, true);
    u8.set(merged, o + 8);
  }
  return out;
}

// ---- posing ------------------------------------------------------------------------------

function withTimeout(promise, ms, what) {
  let timer;
  return Promise.race([
    promise,
    new Promise((_, reject) => {
      timer = setTimeout(() => reject(new Error(`${what} took over ${ms / 1000} s`)), ms);
    }),
  ]).finally(() => clearTimeout(timer));
}

function parseGltf(GLTFLoader, glb) {
  return new Promise((res, rej) => {
    try {
      new GLTFLoader().parse(
        glb,
        '',
        res,
        (e) => rej(e instanceof Error ? e : new Error(String(e && e.message ? e.message : e))),
      );
    } catch (e) {
      rej(e);
    }
  });
}

function f32Base64(values) {
  const buf = Buffer.alloc(values.length * 4);
  for (let i = 0; i < values.length; i++) buf.writeFloatLE(values[i], i * 4);
  return buf.toString('base64');
}

// The glTF node index of obj: its own, or (for a primitive of a multi-primitive mesh, or
// a mesh beside a camera/light on one node) that of the nearest ancestor that has one.
function nodeIndexOf(associations, obj) {
  for (let o = obj; o; o = o.parent) {
    const a = associations.get(o);
    if (a && a.nodes !== undefined) return a.nodes;
  }
  return null;
}

function visibleInTree(obj) {
  for (let o = obj; o; o = o.parent) if (!o.visible) return false;
  return true;
}

// With `maxVertices` (the job's "max_vertices"), a mesh of more vertices gives only
// vertices floor(k * count / maxVertices) for k = 0 .. maxVertices-1, in that order.
function meshEntries(THREE, gltf, json, maxVertices) {
  const { scene, parser } = gltf;
  const v = new THREE.Vector3();
  const entries = [];
  scene.traverse((obj) => {
    if (!obj.isMesh) return;
    const node = nodeIndexOf(parser.associations, obj);
    const assoc = parser.associations.get(obj) || {};
    const meshDef = json.meshes && assoc.meshes !== undefined ? json.meshes[assoc.meshes] : undefined;
    const pos = obj.geometry.attributes.position;
    const take = maxVertices > 0 && pos.count > maxVertices ? maxVertices : pos.count;
    const out = new Float32Array(take * 3);
    for (let k = 0; k < take; k++) {
      const i = take === pos.count ? k : Math.floor((k * pos.count) / take);
      obj.getVertexPosition(i, v);
      v.applyMatrix4(obj.matrixWorld);
      out[3 * k] = v.x;
      out[3 * k + 1] = v.y;
      out[3 * k + 2] = v.z;
    }
    const e = { node, name: node !== null && json.nodes[node].name !== undefined ? json.nodes[node].name : null };
    if (meshDef && meshDef.primitives.length > 1) e.primitive = assoc.primitives;
    e.skinned = obj.isSkinnedMesh === true;
    e.visible = visibleInTree(obj) && Math.abs(obj.matrixWorld.determinant()) > DET_EPSILON;
    e.positions = f32Base64(out);
    entries.push(e);
  });
  entries.sort((a, b) => (a.node ?? -1) - (b.node ?? -1) || (a.primitive ?? 0) - (b.primitive ?? 0));
  return entries;
}

// The world matrix of every glTF node, 16 float32 each in node index order (base64); the
// first object the loader made for a node stands for it (a node of several primitives is a
// Group whose children are the primitives, with identity local transforms).
function nodeMatrices(gltf, json) {
  const count = (json.nodes || []).length;
  const out = new Float32Array(16 * count).fill(NaN);
  const seen = new Set();
  gltf.scene.traverse((o) => {
    const a = gltf.parser.associations.get(o);
    if (!a || a.nodes === undefined || seen.has(a.nodes) || a.nodes >= count) return;
    seen.add(a.nodes);
    out.set(o.matrixWorld.elements, 16 * a.nodes);
  });
  return f32Base64(out);
}

// Every object's loaded transform (and morph weights, visibility), to put back before each
// sample: a sample must not depend on the ones before it.
function snapshot(scene) {
  const saved = [];
  scene.traverse((o) => {
    saved.push({
      o,
      p: o.position.clone(),
      q: o.quaternion.clone(),
      s: o.scale.clone(),
      visible: o.visible,
      morph: o.morphTargetInfluences ? o.morphTargetInfluences.slice() : null,
    });
  });
  return () => {
    for (const x of saved) {
      x.o.position.copy(x.p);
      x.o.quaternion.copy(x.q);
      x.o.scale.copy(x.s);
      x.o.visible = x.visible;
      if (x.morph) for (let i = 0; i < x.morph.length; i++) x.o.morphTargetInfluences[i] = x.morph[i];
    }
  };
}

async function runJob(THREE, GLTFLoader, job, warnings) {
  const file = job && typeof job.file === 'string' ? resolve(job.file) : null;
  const result = { file: job && job.file !== undefined ? job.file : null, error: null, animations: [], samples: [] };
  if (file === null) throw Object.assign(new Error('the job has no "file" string'), { result });
  const samples = job.samples === undefined ? [] : job.samples;
  if (!Array.isArray(samples)) throw Object.assign(new Error('"samples" is not an array'), { result });

  const bytes = new Uint8Array(readFileSync(file));
  const { json, bin } = parseContainer(bytes);
  const buffers = readBuffers(json, bin, dirname(file));
  stripTextures(json);
  const glb = buildGlb(json, buffers);
  const gltf = await withTimeout(parseGltf(GLTFLoader, glb), JOB_TIMEOUT_MS, 'GLTFLoader.parse');

  const names = (json.animations || []).map((a) => (a.name !== undefined ? a.name : null));
  result.animations = gltf.animations.map((clip, i) => ({ name: names[i] ?? null, duration: clip.duration }));

  for (const [k, s] of samples.entries()) {
    const a = s ? s.animation : undefined;
    if (a !== null && a !== undefined && !(Number.isInteger(a) && a >= 0 && a < gltf.animations.length)) {
      throw Object.assign(
        new Error(`sample ${k}: no animation ${JSON.stringify(a)} (the file has ${gltf.animations.length})`),
        { result },
      );
    }
    if (!s || typeof s.time !== 'number' || !Number.isFinite(s.time)) {
      if (a !== null && a !== undefined) {
        throw Object.assign(new Error(`sample ${k}: "time" is not a finite number`), { result });
      }
    }
  }

  const { scene } = gltf;
  const restore = snapshot(scene);
  const mixer = new THREE.AnimationMixer(scene);
  const out = [];
  for (const s of samples) {
    mixer.stopAllAction(); // also puts animated properties back (restoreOriginalState)
    restore();
    const a = s.animation ?? null;
    if (a !== null) {
      const action = mixer.clipAction(gltf.animations[a]);
      action.reset();
      action.setLoop(THREE.LoopOnce, 1);
      action.clampWhenFinished = true;
      action.play();
      mixer.setTime(s.time);
    }
    scene.updateMatrixWorld(true);
    const sample = { animation: a, time: s.time ?? null, meshes: meshEntries(THREE, gltf, json, Number(job.max_vertices) || 0) };
    if (job.nodes === true) sample.nodes = nodeMatrices(gltf, json);
    out.push(sample);
  }
  mixer.stopAllAction();
  mixer.uncacheRoot(scene);
  result.samples = out;
  return result;
}

// ---- main --------------------------------------------------------------------------------

function usage(msg) {
  process.stderr.write(`pose.mjs: ${msg}\nusage: node pose.mjs REQUEST.json  ({"jobs":[{"file":...,"samples":[{"animation":0,"time":0.25}]}]})\n`);
  process.exit(2);
}

async function main() {
  const args = process.argv.slice(2);
  if (args.length !== 1) usage(`expected one argument, got ${args.length}`);
  let request;
  try {
    request = JSON.parse(readFileSync(args[0], 'utf8'));
  } catch (e) {
    usage(`cannot read the request ${args[0]}: ${e.message}`);
  }
  if (!request || !Array.isArray(request.jobs)) usage(`${args[0]} has no "jobs" array`);

  let THREE, GLTFLoader;
  try {
    ({ THREE, GLTFLoader } = await loadThree());
  } catch (e) {
    process.stderr.write(`pose.mjs: ${e.message}\n`);
    process.exit(2);
  }

  // stdout carries only the JSON lines: anything three.js logs goes to stderr, and its
  // warnings are also kept in the job's "warnings".
  let warnings = null;
  const toStderr = (...a) => process.stderr.write(a.map(String).join(' ') + '\n');
  console.log = toStderr;
  console.info = toStderr;
  console.warn = (...a) => {
    const msg = a.map(String).join(' ');
    if (warnings && warnings.length < MAX_WARNINGS && !warnings.includes(msg)) warnings.push(msg);
    toStderr(`pose.mjs: ${msg}`);
  };

  for (const job of request.jobs) {
    warnings = [];
    let line;
    try {
      line = await runJob(THREE, GLTFLoader, job, warnings);
    } catch (e) {
      line = e && e.result ? e.result : { file: job && job.file !== undefined ? job.file : null, error: null, animations: [], samples: [] };
      line.error = e && e.message ? e.message : String(e);
      line.samples = [];
    }
    line.warnings = warnings;
    if (!process.stdout.write(JSON.stringify(line) + '\n')) {
      await new Promise((r) => process.stdout.once('drain', r));
    }
  }
}

main().catch((e) => {
  process.stderr.write(`pose.mjs: ${e && e.stack ? e.stack : e}\n`);
  process.exit(2);
});
