// test-judges.mjs - tests validate.mjs and pose.mjs by running them as the Rust tests
// will (child processes, JSON lines), against expectations that do not come from the
// judges themselves:
//  - validate.mjs: the validator results recorded in the samples' MANIFEST.tsv.
//  - pose.mjs: vertex positions computed here in plain JavaScript from each glTF's own
//    accessor data (node TRS, STEP/LINEAR/CUBICSPLINE sampling, skinning as the glTF
//    spec defines it), without three.js; and small glTF files written here to pin down
//    LoopOnce at the clip's end, hiding by scale 0, several primitives, bad input.
//
//   node tools/gltf-judges/test-judges.mjs SAMPLES_DIR      (MDLX_GLTF_JUDGES set)
//
// Prints `test NAME ... ok|FAILED` per case and a libtest-style `test result:` line;
// exit status 1 when a case failed. Run by scripts/test-gltf-judges.sh.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
const samples = resolve(process.argv[2] || '');
const work = mkdtempSync(join(tmpdir(), 'mdlx-gltf-judges-test.'));

// ---- running the judges ------------------------------------------------------------------

function runJudge(script, arg) {
  const out = execFileSync(process.execPath, [join(here, script), arg], {
    encoding: 'utf8',
    maxBuffer: 1 << 30,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  return out.trim() === '' ? [] : out.trim().split('\n').map((l) => JSON.parse(l));
}
function validate(files) {
  const list = join(work, 'list.txt');
  writeFileSync(list, files.join('\n') + '\n');
  return runJudge('validate.mjs', list);
}
function pose(jobs) {
  const req = join(work, 'request.json');
  writeFileSync(req, JSON.stringify({ jobs }));
  return runJudge('pose.mjs', req);
}
const decode = (b64) => {
  const b = Buffer.from(b64, 'base64');
  const out = new Float32Array(b.length / 4);
  for (let i = 0; i < out.length; i++) out[i] = b.readFloatLE(i * 4);
  return out;
};

// ---- an independent glTF reader and evaluator (plain JS, float64) --------------------------

const COMPONENTS = { SCALAR: 1, VEC2: 2, VEC3: 3, VEC4: 4, MAT2: 4, MAT3: 9, MAT4: 16 };
const TYPES = {
  5120: ['getInt8', 1, (c) => Math.max(c / 127, -1)],
  5121: ['getUint8', 1, (c) => c / 255],
  5122: ['getInt16', 2, (c) => Math.max(c / 32767, -1)],
  5123: ['getUint16', 2, (c) => c / 65535],
  5125: ['getUint32', 4, null],
  5126: ['getFloat32', 4, null],
};

function loadFile(file) {
  const bytes = readFileSync(file);
  let json, bin = null;
  if (bytes.readUInt32LE(0) === 0x46546c67) {
    const jl = bytes.readUInt32LE(12);
    json = JSON.parse(bytes.subarray(20, 20 + jl).toString('utf8'));
    if (20 + jl + 8 <= bytes.length) bin = bytes.subarray(28 + jl, 28 + jl + bytes.readUInt32LE(20 + jl));
  } else json = JSON.parse(bytes.toString('utf8'));
  const buffers = (json.buffers || []).map((b) =>
    b.uri === undefined ? bin
      : b.uri.startsWith('data:') ? Buffer.from(b.uri.slice(b.uri.indexOf(',') + 1), 'base64')
        : readFileSync(resolve(dirname(file), decodeURIComponent(b.uri))));
  return { json, buffers };
}

// The accessor's elements as arrays of numbers (normalized integers as floats).
function accessor(g, index) {
  const a = g.json.accessors[index];
  const n = COMPONENTS[a.type];
  const [get, size, norm] = TYPES[a.componentType];
  const readFrom = (bvIndex, offset, count, comps, stride0) => {
    const bv = g.json.bufferViews[bvIndex];
    const buf = g.buffers[bv.buffer];
    const dv = new DataView(buf.buffer, buf.byteOffset + (bv.byteOffset || 0) + offset);
    const stride = stride0 || bv.byteStride || comps * size;
    return (i, c) => dv[get](i * stride + c * size, true);
  };
  const out = [];
  const read = a.bufferView !== undefined ? readFrom(a.bufferView, a.byteOffset || 0, a.count, n) : () => 0;
  for (let i = 0; i < a.count; i++) {
    const e = [];
    for (let c = 0; c < n; c++) {
      const v = read(i, c);
      e.push(a.normalized && norm ? norm(v) : v);
    }
    out.push(e);
  }
  if (a.sparse) {
    const s = a.sparse;
    const [iget, isize] = TYPES[s.indices.componentType];
    const ibv = g.json.bufferViews[s.indices.bufferView];
    const ibuf = g.buffers[ibv.buffer];
    const idv = new DataView(ibuf.buffer, ibuf.byteOffset + (ibv.byteOffset || 0) + (s.indices.byteOffset || 0));
    const vread = readFrom(s.values.bufferView, s.values.byteOffset || 0, s.count, n, n * size);
    for (let k = 0; k < s.count; k++) {
      const i = idv[iget](k * isize, true);
      out[i] = [];
      for (let c = 0; c < n; c++) out[i].push(a.normalized && norm ? norm(vread(k, c)) : vread(k, c));
    }
  }
  return out;
}

// 4x4 column-major matrices.
const mul = (a, b) => {
  const r = new Array(16).fill(0);
  for (let c = 0; c < 4; c++) for (let row = 0; row < 4; row++)
    for (let k = 0; k < 4; k++) r[c * 4 + row] += a[k * 4 + row] * b[c * 4 + k];
  return r;
};
const IDENTITY = [1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1];
function compose(t, q, s) {
  const [x, y, z, w] = q;
  return [
    (1 - 2 * (y * y + z * z)) * s[0], 2 * (x * y + z * w) * s[0], 2 * (x * z - y * w) * s[0], 0,
    2 * (x * y - z * w) * s[1], (1 - 2 * (x * x + z * z)) * s[1], 2 * (y * z + x * w) * s[1], 0,
    2 * (x * z + y * w) * s[2], 2 * (y * z - x * w) * s[2], (1 - 2 * (x * x + y * y)) * s[2], 0,
    t[0], t[1], t[2], 1,
  ];
}
const apply = (m, p) => [0, 1, 2].map((r) => m[r] * p[0] + m[4 + r] * p[1] + m[8 + r] * p[2] + m[12 + r]);
const normalize = (q) => { const l = Math.hypot(...q); return q.map((v) => v / l); };
function slerp(a, b, t) {
  let d = a[0] * b[0] + a[1] * b[1] + a[2] * b[2] + a[3] * b[3];
  if (d < 0) { b = b.map((v) => -v); d = -d; }
  if (d > 0.9995) return normalize(a.map((v, i) => v + (b[i] - v) * t));
  const th = Math.acos(d), s = Math.sin(th);
  const wa = Math.sin((1 - t) * th) / s, wb = Math.sin(t * th) / s;
  return a.map((v, i) => v * wa + b[i] * wb);
}

// The value of an animation sampler at time t (clamped to its first/last key).
function sample(g, samplerDef, path, t) {
  const times = accessor(g, samplerDef.input).map((e) => e[0]);
  const values = accessor(g, samplerDef.output);
  const interp = samplerDef.interpolation || 'LINEAR';
  const cubic = interp === 'CUBICSPLINE';
  const val = (k) => (cubic ? values[3 * k + 1] : values[k]);
  const last = times.length - 1;
  if (t <= times[0]) return val(0);
  if (t >= times[last]) return val(last);
  let k = 0;
  while (times[k + 1] <= t) k++;
  const td = times[k + 1] - times[k];
  const u = (t - times[k]) / td;
  if (interp === 'STEP') return val(k);
  if (!cubic) {
    if (path === 'rotation') return slerp(val(k), val(k + 1), u);
    return val(k).map((v, i) => v + (val(k + 1)[i] - v) * u);
  }
  const p0 = values[3 * k + 1], b0 = values[3 * k + 2], a1 = values[3 * (k + 1)], p1 = values[3 * (k + 1) + 1];
  const u2 = u * u, u3 = u2 * u;
  const r = p0.map((_, i) =>
    (2 * u3 - 3 * u2 + 1) * p0[i] + (u3 - 2 * u2 + u) * td * b0[i] + (-2 * u3 + 3 * u2) * p1[i] + (u3 - u2) * td * a1[i]);
  return path === 'rotation' ? normalize(r) : r;
}

function animDuration(g, anim) {
  let d = 0;
  for (const s of anim.samplers) { const ts = accessor(g, s.input); d = Math.max(d, ts[ts.length - 1][0]); }
  return d;
}

// World matrices of every node with animation `anim` (or none) at time t.
function worldMatrices(g, anim, t) {
  const nodes = g.json.nodes || [];
  const trs = nodes.map((n) => ({ t: n.translation || [0, 0, 0], r: n.rotation || [0, 0, 0, 1], s: n.scale || [1, 1, 1] }));
  if (anim) for (const ch of anim.channels) {
    if (ch.target.node === undefined || !['translation', 'rotation', 'scale'].includes(ch.target.path)) continue;
    trs[ch.target.node][ch.target.path[0]] = sample(g, anim.samplers[ch.sampler], ch.target.path, t);
  }
  const local = nodes.map((n, i) => (n.matrix && !anim ? n.matrix : n.matrix ? n.matrix : compose(trs[i].t, trs[i].r, trs[i].s)));
  const parent = [];
  nodes.forEach((n, i) => (n.children || []).forEach((c) => (parent[c] = i)));
  const world = [];
  const get = (i) => world[i] || (world[i] = parent[i] === undefined ? local[i] : mul(get(parent[i]), local[i]));
  return nodes.map((_, i) => get(i));
}

// Expected world positions of primitive p of the mesh of node `node` (skinned as the spec
// says: the joints' world matrices times the inverse bind matrices; the node's own
// transform is ignored).
function expectedPositions(g, world, node, p) {
  const n = g.json.nodes[node];
  const prim = g.json.meshes[n.mesh].primitives[p];
  const pos = accessor(g, prim.attributes.POSITION);
  if (n.skin === undefined) return pos.map((v) => apply(world[node], v));
  const skin = g.json.skins[n.skin];
  const ibm = skin.inverseBindMatrices !== undefined ? accessor(g, skin.inverseBindMatrices) : skin.joints.map(() => IDENTITY);
  const jm = skin.joints.map((j, k) => mul(world[j], ibm[k]));
  const sets = [];
  for (let s = 0; prim.attributes[`JOINTS_${s}`] !== undefined; s++)
    sets.push([accessor(g, prim.attributes[`JOINTS_${s}`]), accessor(g, prim.attributes[`WEIGHTS_${s}`])]);
  return pos.map((v, i) => {
    const r = [0, 0, 0];
    for (const [js, ws] of sets) for (let c = 0; c < 4; c++) {
      const w = ws[i][c];
      if (w === 0) continue;
      const q = apply(jm[js[i][c]], v);
      for (let a = 0; a < 3; a++) r[a] += w * q[a];
    }
    return r;
  });
}

// ---- the test cases ------------------------------------------------------------------------

const results = [];
function test(name, f) {
  try {
    f();
    results.push([name, null]);
    console.log(`test ${name} ... ok`);
  } catch (e) {
    results.push([name, e]);
    console.log(`test ${name} ... FAILED`);
    console.log(`  ${String(e && e.stack ? e.stack : e).split('\n').slice(0, 4).join('\n  ')}`);
  }
}
function check(cond, msg) { if (!cond) throw new Error(msg); }

function maxDiff(got, want) {
  let worst = 0, extent = 1;
  want.forEach((v) => v.forEach((c) => (extent = Math.max(extent, Math.abs(c)))));
  want.forEach((v, i) => v.forEach((c, a) => (worst = Math.max(worst, Math.abs(got[3 * i + a] - c)))));
  return worst / extent;
}

// validate.mjs against MANIFEST.tsv (errors, warnings, and the codes of both).
test('validate_samples_match_manifest', () => {
  const rows = readFileSync(join(samples, 'MANIFEST.tsv'), 'utf8').trim().split('\n').map((l) => l.split('\t'));
  const head = rows.shift();
  const col = (r, name) => r[head.indexOf(name)];
  const expected = new Map();
  for (const r of rows) {
    const files = col(r, 'files').split(';').filter((f) => /\.(glb|gltf)$/.test(f));
    for (const f of files) expected.set(join(samples, f), { errors: +col(r, 'validator_errors'), warnings: +col(r, 'validator_warnings'), codes: col(r, 'validator_codes') });
  }
  check(expected.size >= 40, `only ${expected.size} model files in MANIFEST.tsv`);
  const files = [...expected.keys()];
  const t0 = Date.now();
  const lines = validate(files);
  check(lines.length === files.length, `${lines.length} lines for ${files.length} files`);
  const bad = [];
  lines.forEach((l, i) => {
    check(l.file === files[i], `line ${i} is for ${l.file}, not ${files[i]}`);
    const e = expected.get(l.file);
    const codes = Object.entries(l.codes).filter(([, c]) => c.severity <= 1).map(([k, c]) => `${k}x${c.count}`).sort().join(',') || '-';
    const want = e.codes.split(',').sort().join(',');
    if (l.fatal || l.errors !== e.errors || l.warnings !== e.warnings || (want.includes('x') && codes !== want)) {
      bad.push(`${l.file}: got ${l.fatal || `${l.errors} errors ${l.warnings} warnings ${codes}`}, MANIFEST says ${e.errors}/${e.warnings} ${e.codes}`);
    }
  });
  check(bad.length === 0, bad.join('\n'));
  const multi = lines.find((l) => l.file.endsWith('SimpleSkin-multi-joint-set.gltf'));
  check(multi.first_errors.length === 5 && multi.first_errors[0].startsWith('ACCESSOR_JOINTS_INDEX_DUPLICATE at /'), `first_errors: ${JSON.stringify(multi.first_errors)}`);
  check(Date.now() - t0 < 20000, `validating ${files.length} files took ${Date.now() - t0} ms`);
});

test('validate_unreadable_and_broken_files', () => {
  writeFileSync(join(work, 'garbage.glb'), 'not a glb');
  writeFileSync(join(work, 'extern.gltf'), JSON.stringify({ asset: { version: '2.0' }, buffers: [{ uri: 'missing%20file.bin', byteLength: 4 }] }));
  const lines = validate([join(work, 'nope.glb'), join(work, 'garbage.glb'), join(work, 'extern.gltf')]);
  check(lines.length === 3, `${lines.length} lines`);
  check(typeof lines[0].fatal === 'string' && /ENOENT/.test(lines[0].fatal), `missing file: ${JSON.stringify(lines[0])}`);
  check(lines[1].errors >= 1 && Object.keys(lines[1].codes).some((c) => c.startsWith('GLB_')), `garbage: ${JSON.stringify(lines[1])}`);
  check(lines[2].codes.IO_ERROR && /missing file\.bin/.test(lines[2].first_errors[0]), `missing buffer: ${JSON.stringify(lines[2])}`);
});

// pose.mjs against the independent evaluator, for every clip of the animated samples, at
// the start, a middle time, the end (duration) and after the end.
const POSE_FILES = ['SimpleSkin/SimpleSkin.gltf', 'RiggedSimple/RiggedSimple.glb', 'CesiumMan/CesiumMan.glb', 'Fox/Fox.glb',
  'BoxAnimated/BoxAnimated.gltf', 'InterpolationTest/InterpolationTest.gltf'];
const TOLERANCE = 2e-5; // of the largest coordinate (float32 output)

for (const rel of POSE_FILES) {
  test(`pose_matches_hand_evaluation_${rel.split('/')[0]}`, () => {
    const file = join(samples, rel);
    const g = loadFile(file);
    const anims = g.json.animations || [];
    const req = [];
    anims.forEach((a, i) => {
      const d = animDuration(g, a);
      for (const t of [0, d * 0.37, d * 0.5 + 0.0123, d, d + 1]) req.push({ animation: i, time: t });
    });
    req.push({ animation: null });
    const [line] = pose([{ file, samples: req }]);
    check(line.error === null, `error: ${line.error}`);
    check(line.animations.length === anims.length, `${line.animations.length} animations, the file has ${anims.length}`);
    anims.forEach((a, i) => {
      const d = animDuration(g, a);
      check(Math.abs(line.animations[i].duration - d) < 1e-6, `animation ${i}: duration ${line.animations[i].duration}, the samplers end at ${d}`);
    });
    let endDiffersFromStart = 0;
    line.samples.forEach((s, k) => {
      const anim = s.animation === null ? null : anims[s.animation];
      const world = worldMatrices(g, anim, s.time ?? 0);
      check(s.meshes.length > 0, `sample ${k}: no meshes`);
      for (const m of s.meshes) {
        const want = expectedPositions(g, world, m.node, m.primitive ?? 0);
        const got = decode(m.positions);
        check(got.length === want.length * 3, `node ${m.node}: ${got.length / 3} vertices, the accessor has ${want.length}`);
        const diff = maxDiff(got, want);
        check(diff < TOLERANCE, `sample ${k} (animation ${s.animation} t=${s.time}) node ${m.node} primitive ${m.primitive ?? 0}: off by ${diff.toExponential(2)} of the extent`);
        check(m.visible === true, `node ${m.node} not visible`);
        check(m.skinned === (g.json.nodes[m.node].skin !== undefined), `node ${m.node}: skinned ${m.skinned}`);
        // The end of a clip must not be its start (a wrap to t=0 would pass the check above
        // only when both are equal).
        if (anim && s.time === animDuration(g, anim)) {
          const start = expectedPositions(g, worldMatrices(g, anim, 0), m.node, m.primitive ?? 0);
          if (maxDiff(got, start) > 1e-3) endDiffersFromStart++;
        }
      }
    });
    // Looping clips (SimpleSkin, RiggedSimple, Fox) end where they start; InterpolationTest's
    // and BoxAnimated's do not, so there a wrap to t=0 at t=duration would fail.
    if (/InterpolationTest|BoxAnimated/.test(rel)) check(endDiffersFromStart > 0, 'no clip ends in a pose other than its start: the end-of-clip check proved nothing');
  });
}

// A small glTF of our own: node 0 skinned mesh (joints 1, 2), node 3 plain mesh, node 4 a
// mesh of two primitives. Animation 0: STEP scale of nodes 0 and 3 to 0 at t=1 (how the
// exporter hides a geoset). Animation 1: LINEAR translation of joint 2 from x=0 to x=5 over
// [0, 2]: its end (t=2) must give x=5, not the start.
function writeOwnGltf() {
  const f = [];
  const view = (arr) => { const off = f.length * 4; f.push(...arr); return { off, len: arr.length * 4 }; };
  const pos = view([0, 0, 0, 1, 0, 0, 0, 1, 0]);
  const joints = (() => { const off = f.length * 4; f.push(0, 0, 0); return { off, len: 12 }; })(); // 3 x u8vec4 = 12 bytes of zeros... set below
  const weights = view([1, 0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0]);
  const ibm = view([...IDENTITY, ...IDENTITY]);
  const t01 = view([0, 1]);
  const s10 = view([1, 1, 1, 0, 0, 0]);
  const t02 = view([0, 2]);
  const x05 = view([0, 0, 0, 5, 0, 0]);
  const bytes = Buffer.from(new Float32Array(f).buffer);
  bytes.set([0, 0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0], joints.off); // vertex 0 -> joint 0, 1 and 2 -> joint 1
  const bvs = [];
  const acc = [];
  const add = (v, componentType, count, type, extra = {}) => {
    bvs.push({ buffer: 0, byteOffset: v.off, byteLength: v.len });
    acc.push({ bufferView: bvs.length - 1, componentType, count, type, ...extra });
    return acc.length - 1;
  };
  const P = add(pos, 5126, 3, 'VEC3', { min: [0, 0, 0], max: [1, 1, 0] });
  const J = add(joints, 5121, 3, 'VEC4');
  const W = add(weights, 5126, 3, 'VEC4');
  const IBM = add(ibm, 5126, 2, 'MAT4');
  const T01 = add(t01, 5126, 2, 'SCALAR', { min: [0], max: [1] });
  const S10 = add(s10, 5126, 2, 'VEC3');
  const T02 = add(t02, 5126, 2, 'SCALAR', { min: [0], max: [2] });
  const X05 = add(x05, 5126, 2, 'VEC3');
  const json = {
    asset: { version: '2.0' }, scene: 0, scenes: [{ nodes: [0, 1, 3, 4] }],
    nodes: [
      { name: 'skinned', mesh: 0, skin: 0 },
      { name: 'root', children: [2] },
      { name: 'tip', translation: [0, 0, 0] },
      { name: 'plain', mesh: 1, translation: [0, 0, 3] },
      { name: 'two', mesh: 2, translation: [0, 0, 6] },
    ],
    skins: [{ joints: [1, 2], inverseBindMatrices: IBM }],
    meshes: [
      { primitives: [{ attributes: { POSITION: P, JOINTS_0: J, WEIGHTS_0: W } }] },
      { primitives: [{ attributes: { POSITION: P } }] },
      { primitives: [{ attributes: { POSITION: P } }, { attributes: { POSITION: P } }] },
    ],
    animations: [
      { name: 'hide', samplers: [{ input: T01, output: S10, interpolation: 'STEP' }],
        channels: [{ sampler: 0, target: { node: 0, path: 'scale' } }, { sampler: 0, target: { node: 3, path: 'scale' } }] },
      { name: 'move', samplers: [{ input: T02, output: X05 }], channels: [{ sampler: 0, target: { node: 2, path: 'translation' } }] },
    ],
    buffers: [{ byteLength: bytes.length }],
    bufferViews: bvs,
    accessors: acc,
  };
  // Written as .gltf with the buffer beside it (pose.mjs must read external buffers).
  json.buffers[0].uri = 'own%20data.bin';
  writeFileSync(join(work, 'own data.bin'), bytes);
  writeFileSync(join(work, 'own.gltf'), JSON.stringify(json));
  return join(work, 'own.gltf');
}

test('pose_own_file_end_of_clip_hiding_and_primitives', () => {
  const file = writeOwnGltf();
  const [line] = pose([{ file, samples: [
    { animation: 0, time: 0.5 }, { animation: 0, time: 1 }, { animation: 0, time: 7 },
    { animation: 1, time: 2 }, { animation: 1, time: 1 }, { animation: 1, time: 0 }, { animation: 0, time: 0.5 }] }]);
  check(line.error === null, `error: ${line.error}`);
  check(JSON.stringify(line.animations) === '[{"name":"hide","duration":1},{"name":"move","duration":2}]', `animations ${JSON.stringify(line.animations)}`);
  const by = (s) => Object.fromEntries(s.meshes.map((m) => [`${m.name}${m.primitive !== undefined ? '/' + m.primitive : ''}`, m]));
  const [shown, hidden, after, end, mid, start, again] = line.samples.map(by);
  check(Object.keys(shown).join(' ') === 'skinned plain two/0 two/1', `mesh entries ${Object.keys(shown)}`);
  check(shown.skinned.visible && shown.plain.visible && shown['two/0'].visible, 'visible before the STEP key');
  check(!hidden.skinned.visible && !hidden.plain.visible, 'hidden at the STEP key (t = duration)');
  check(!after.skinned.visible && !after.plain.visible, 'hidden after the end');
  check(again.skinned.visible && again.plain.visible, 'a later sample at t=0.5 shows them again (no state kept between samples)');
  // The skinned vertices at scale 0: three.js collapses the mesh (bindMatrixInverse =
  // inverse of a singular matrixWorld = all zeros), so they are NaN or all at one point.
  const sk = decode(hidden.skinned.positions);
  const collapsed = sk.every(Number.isNaN) || sk.every((v, i) => v === sk[i % 3]);
  check(collapsed, `skinned mesh at scale 0 did not collapse: ${[...sk]}`);
  const pl = decode(hidden.plain.positions);
  check(pl.every((v, i) => v === [0, 0, 3][i % 3]), `plain mesh at scale 0: ${[...pl]}`);
  // Vertices 1 and 2 follow joint 'tip': x + 5 at t=2 (the end), x + 2.5 at t=1, x at t=0.
  const x = (s) => decode(s.skinned.positions)[3];
  check(x(end) === 6 && x(mid) === 3.5 && x(start) === 1, `tip vertex x at t=2,1,0: ${x(end)}, ${x(mid)}, ${x(start)}`);
});

// Found with this file: the validator warns about animating the scale of a skinned mesh
// node (the spec says the node's transform does not affect a skinned mesh), so an
// exporter that hides skinned geosets that way gets this warning.
test('validate_warns_on_animated_skinned_mesh_node', () => {
  const [l] = validate([writeOwnGltf()]);
  check(l.errors === 0, `errors: ${l.first_errors}`);
  check(l.codes.ANIMATION_CHANNEL_TARGET_NODE_SKIN && l.codes.ANIMATION_CHANNEL_TARGET_NODE_SKIN.count === 1, `codes ${JSON.stringify(l.codes)}`);
});

test('pose_bad_jobs_do_not_stop_the_run', () => {
  writeFileSync(join(work, 'garbage.glb'), 'glTF but not really');
  const good = join(samples, 'SimpleSkin/SimpleSkin.gltf');
  const lines = pose([
    { file: join(work, 'nope.glb'), samples: [] },
    { file: join(work, 'garbage.glb'), samples: [{ animation: 0, time: 0 }] },
    { file: good, samples: [{ animation: 3, time: 0 }] },
    { file: good, samples: [{ animation: 0, time: 1 }] },
    { samples: [] },
  ]);
  check(lines.length === 5, `${lines.length} lines for 5 jobs`);
  check(/ENOENT/.test(lines[0].error), `missing: ${lines[0].error}`);
  check(typeof lines[1].error === 'string', `garbage: ${JSON.stringify(lines[1])}`);
  check(/no animation 3 \(the file has 1\)/.test(lines[2].error) && lines[2].animations.length === 1, `bad index: ${JSON.stringify(lines[2])}`);
  check(lines[3].error === null && lines[3].samples[0].meshes.length === 1, `good job after bad ones: ${lines[3].error}`);
  check(typeof lines[4].error === 'string', `job without file: ${JSON.stringify(lines[4])}`);
});

test('pose_many_jobs_one_process', () => {
  const files = ['SimpleSkin/SimpleSkin.gltf', 'RiggedSimple/RiggedSimple.glb', 'BoxAnimated/BoxAnimated.gltf'].map((f) => join(samples, f));
  const jobs = [];
  for (let i = 0; i < 150; i++) jobs.push({ file: files[i % 3], samples: [{ animation: 0, time: (i % 7) * 0.1 }] });
  const t0 = Date.now();
  const lines = pose(jobs);
  check(lines.length === 150 && lines.every((l) => l.error === null), 'every job answered without error');
  check(Date.now() - t0 < 20000, `150 jobs took ${Date.now() - t0} ms`);
});

if (!process.env.KEEP) rmSync(work, { recursive: true, force: true });
const failed = results.filter(([, e]) => e).length;
console.log(`test result: ${failed ? 'FAILED' : 'ok'}. ${results.length - failed} passed; ${failed} failed; 0 ignored; 0 measured; 0 filtered out`);
process.exit(failed ? 1 : 0);
