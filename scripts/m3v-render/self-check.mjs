#!/usr/bin/env node
// self-check.mjs - checks that render.mjs puts the camera where the shared convention says,
// counts time from the sequence start, and paints team colour as documented.
//
//   node self-check.mjs [CUBE.mdx]     (default: examples/cube.mdx of this repository)
//
// The cube model is the box [-32, 32] x [-32, 32] x [0, 64]. For a few cameras (oblique,
// from below, off-centre target, different fields of view and aspect ratios) it draws the
// cube with render.mjs, then projects the eight corners itself: view = lookAt(eye, target,
// up), projection = the OpenGL perspective(fov_y, W/H, near, far), pixel x = (ndc_x + 1) / 2
// * W, y = (1 - ndc_y) / 2 * H (rows top to bottom), all written out here without the
// viewer's or gl-matrix's code. The pixels the viewer covered (alpha >= 128) must match the
// convex hull of the projected corners: intersection over union at least 0.98 and the
// bounding boxes (cut to the picture) within 1.5 px. The same hull mirrored left-right must
// match clearly worse (a mirrored or transposed picture would not pass).
//
// Time: the cube's sequence 1 ("Spin", frames 2000-4000) turns its root bone about +Z by 90
// degrees every 500 ms (linear keys), so at time_ms 125 (counted from the sequence start,
// reached in 16.67 ms steps and a shorter last one) the corners stand turned by 22.5
// degrees. The unturned cube (what a clock counted from frame 0 would show) and the cube
// turned the other way must match clearly worse.
//
// Team colour: a copy of the cube whose texture is replaceable id 1 and whose layer is
// unshaded, drawn with team_color 0 and 1: the middle of each visible face must be exactly
// (255, 3, 3) and (0, 66, 255), opaque.
// Exit status 0 when every case passes.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { execFileSync } from 'node:child_process';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { readPng } from './png.mjs';

const here = path.dirname(fileURLToPath(import.meta.url));
const cube = path.resolve(process.argv[2] || path.join(here, '../../examples/cube.mdx'));
const modules = path.resolve(process.env.M3V_RENDER_NODE_MODULES || path.join(here, 'node_modules'));

const CAMERAS = [
  { name: 'oblique', w: 320, h: 240, eye: [150, -110, 120], target: [0, 0, 32], fov_y: 0.7854 },
  { name: 'below-offcentre', w: 200, h: 300, eye: [-90, -160, -40], target: [10, 5, 40], fov_y: 0.9 },
  { name: 'wide-near', w: 400, h: 160, eye: [70, 95, 150], target: [-8, 12, 20], fov_y: 0.6 },
  { name: 'spin-125ms', w: 320, h: 240, eye: [150, -110, 120], target: [0, 0, 32], fov_y: 0.7854,
    sequence: 1, time_ms: 125, turn: Math.PI / 8, wrongTurns: [0, -Math.PI / 8] },
];
const CORNERS = [];
for (const x of [-32, 32]) for (const y of [-32, 32]) for (const z of [0, 64]) CORNERS.push([x, y, z]);

const sub = (a, b) => a.map((v, i) => v - b[i]);
const dot = (a, b) => a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
const cross = (a, b) => [a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0]];
const norm = (a) => { const l = Math.hypot(...a); return a.map((v) => v / l); };
const turned = (p, a) => [p[0] * Math.cos(a) - p[1] * Math.sin(a), p[0] * Math.sin(a) + p[1] * Math.cos(a), p[2]];

/** Pixel position of world point p (the convention, from first principles). */
function project(cam, w, h, p) {
  const f = norm(sub(cam.target, cam.eye));
  const r = norm(cross(f, cam.up));
  const u = cross(r, f);
  const d = sub(p, cam.eye);
  const [xe, ye, ze] = [dot(r, d), dot(u, d), -dot(f, d)]; // eye space, camera looks down -z
  const t = 1 / Math.tan(cam.fov_y / 2);
  const aspect = w / h;
  const wc = -ze;
  const ndc = [(t / aspect) * xe / wc, t * ye / wc];
  return [((ndc[0] + 1) / 2) * w, ((1 - ndc[1]) / 2) * h];
}

/** Convex hull (monotone chain), counter-clockwise in a y-down frame's sense. */
function hull(points) {
  const p = [...points].sort((a, b) => a[0] - b[0] || a[1] - b[1]);
  const turn = (o, a, b) => (a[0] - o[0]) * (b[1] - o[1]) - (a[1] - o[1]) * (b[0] - o[0]);
  const half = (list) => {
    const out = [];
    for (const q of list) {
      while (out.length >= 2 && turn(out[out.length - 2], out[out.length - 1], q) <= 0) out.pop();
      out.push(q);
    }
    out.pop();
    return out;
  };
  return [...half(p), ...half([...p].reverse())];
}

function inside(poly, x, y) {
  let sign = 0;
  for (let i = 0; i < poly.length; i++) {
    const [ax, ay] = poly[i];
    const [bx, by] = poly[(i + 1) % poly.length];
    const c = (bx - ax) * (y - ay) - (by - ay) * (x - ax);
    if (c !== 0) {
      if (sign === 0) sign = Math.sign(c);
      else if (Math.sign(c) !== sign) return false;
    }
  }
  return true;
}

function compare(png, poly) {
  let both = 0, either = 0;
  const box = [Infinity, -Infinity, Infinity, -Infinity];
  for (let y = 0; y < png.height; y++) {
    for (let x = 0; x < png.width; x++) {
      const drawn = png.rgba[(y * png.width + x) * 4 + 3] >= 128;
      const expected = inside(poly, x + 0.5, y + 0.5);
      if (drawn && expected) both++;
      if (drawn || expected) either++;
      if (drawn) {
        box[0] = Math.min(box[0], x); box[1] = Math.max(box[1], x + 1);
        box[2] = Math.min(box[2], y); box[3] = Math.max(box[3], y + 1);
      }
    }
  }
  return { iou: either ? both / either : 0, box };
}

/** Runs render.mjs on a batch; the pictures, read back. */
function draw(jobs, name) {
  const jobsFile = path.join(tmp, `${name}.json`);
  fs.writeFileSync(jobsFile, JSON.stringify(jobs));
  execFileSync(process.execPath, [path.join(here, 'render.mjs'), jobsFile], { stdio: ['ignore', 'inherit', 'inherit'] });
  return jobs.jobs.map((j) => readPng(fs.readFileSync(j.out)));
}

/** The team colour case: its report lines and whether it passed. */
function teamColourCase() {
  const { default: Parser } = createRequire(path.join(modules, 'noop.js'))('mdx-m3-viewer/dist/cjs/parsers/mdlx/model');
  const model = new Parser();
  model.load(fs.readFileSync(cube));
  model.textures[0].replaceableId = 1;
  model.textures[0].path = '';
  model.materials[0].layers[0].flags |= 1; // unshaded
  const file = path.join(tmp, 'team-cube.mdx');
  fs.writeFileSync(file, model.saveMdx());
  const c = CAMERAS[0];
  const camera = { eye: c.eye, target: c.target, up: [0, 0, 1], fov_y: c.fov_y, near: 1, far: 2000 };
  const want = [[255, 3, 3], [0, 66, 255]];
  const jobs = {
    width: c.w, height: c.h,
    jobs: want.map((_, team) => ({ model: file, out: path.join(tmp, `team${team}.png`), camera, sequence: null, team_color: team })),
  };
  const pngs = draw(jobs, 'team');
  const faces = [[32, 0, 32], [0, -32, 32], [0, 0, 64]].map((p) => project(camera, c.w, c.h, p).map(Math.floor));
  let ok = true;
  const lines = pngs.map((png, team) => {
    const seen = faces.map(([x, y]) => Array.from(png.rgba.slice((y * png.width + x) * 4, (y * png.width + x) * 4 + 4)));
    const good = seen.every((px) => px.join() === [...want[team], 255].join());
    ok &&= good;
    return `${good ? 'ok  ' : 'FAIL'} team colour ${team}: face middles ${seen.map((px) => `(${px.join(', ')})`).join(' ')}, want (${want[team].join(', ')}, 255)`;
  });
  return { ok, lines };
}

const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'm3v-self-check-'));
let failures = 0;
try {
  const results = [];
  for (const c of CAMERAS) {
    const camera = { eye: c.eye, target: c.target, up: [0, 0, 1], fov_y: c.fov_y, near: 1, far: 2000 };
    const job = { model: cube, out: path.join(tmp, `${c.name}.png`), textures: [], camera, sequence: c.sequence ?? null, time_ms: c.time_ms ?? 0 };
    const jobs = { width: c.w, height: c.h, jobs: [job] };
    const png = draw(jobs, c.name)[0];
    const pts = CORNERS.map((p) => project(camera, c.w, c.h, turned(p, c.turn ?? 0)));
    const poly = hull(pts);
    const { iou, box } = compare(png, poly);
    // The best match of a wrong picture: mirrored, or (for the time case) wrongly turned.
    const wrong = [hull(pts.map(([x, y]) => [c.w - x, y]))];
    for (const a of c.wrongTurns ?? []) wrong.push(hull(CORNERS.map((p) => project(camera, c.w, c.h, turned(p, a)))));
    const mirrored = Math.max(...wrong.map((w) => compare(png, w).iou));
    // The projected box, cut to the picture (a camera may leave part of the cube outside).
    const clip = (v, hi) => Math.min(Math.max(v, 0), hi);
    const want = [clip(Math.min(...pts.map((p) => p[0])), c.w), clip(Math.max(...pts.map((p) => p[0])), c.w),
      clip(Math.min(...pts.map((p) => p[1])), c.h), clip(Math.max(...pts.map((p) => p[1])), c.h)];
    const boxErr = Math.max(...box.map((v, i) => Math.abs(v - want[i])));
    const ok = png.width === c.w && png.height === c.h && iou >= 0.98 && boxErr <= 1.5 && mirrored < iou - 0.03;
    if (!ok) failures++;
    results.push(`${ok ? 'ok  ' : 'FAIL'} ${c.name} ${c.w}x${c.h}: IoU ${iou.toFixed(4)} (best wrong picture ${mirrored.toFixed(4)}), `
      + `bbox drawn [${box.join(', ')}] projected [${want.map((v) => v.toFixed(1)).join(', ')}], max diff ${boxErr.toFixed(2)} px`);
  }
  const team = teamColourCase();
  if (!team.ok) failures++;
  results.push(...team.lines);
  console.log(results.join('\n'));
} finally {
  fs.rmSync(tmp, { recursive: true, force: true });
}
process.exit(failures ? 1 : 0);
