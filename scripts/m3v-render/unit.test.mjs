// unit.test.mjs - tests of the parts of render.mjs that need no browser: texture lookup
// and the checks of JOBS.json. Run: node --test scripts/m3v-render/unit.test.mjs
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import test from 'node:test';
import { TextureResolver } from './textures.mjs';
import { validateJobs, UsageError } from './jobs.mjs';

function tree(files) {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'm3v-render-test-'));
  for (const f of files) {
    fs.mkdirSync(path.join(root, path.dirname(f)), { recursive: true });
    fs.writeFileSync(path.join(root, f), f);
  }
  return root;
}

test('texture paths resolve without regard to case or slash direction', () => {
  const a = tree(['TEXTURES/Foo.BLP', 'textures/sub/Bar.blp', 'Baz.blp']);
  const r = new TextureResolver();
  const set = r.setOf([a]);
  assert.equal(r.resolve(set, 'Textures\\Foo.blp'), path.join(a, 'TEXTURES/Foo.BLP'));
  assert.equal(r.resolve(set, 'textures/foo.blp'), path.join(a, 'TEXTURES/Foo.BLP'));
  assert.equal(r.resolve(set, 'Textures\\Sub\\BAR.blp'), path.join(a, 'textures/sub/Bar.blp'));
  // The bare file name directly in the folder.
  assert.equal(r.resolve(set, 'ReplaceableTextures\\Somewhere\\baz.BLP'), path.join(a, 'Baz.blp'));
  assert.equal(r.resolve(set, 'Textures\\Missing.blp'), null);
  // A folder is not a texture, and no path leaves the folder.
  assert.equal(r.resolve(set, 'Textures'), null);
  assert.equal(r.resolve(set, '..\\Baz.blp'), null);
  fs.rmSync(a, { recursive: true });
});

test('the whole path in any folder wins over a bare name, folders in the order given', () => {
  const a = tree(['Foo.blp']);
  const b = tree(['Textures/Foo.blp']);
  const c = tree(['Textures/Foo.blp']);
  const r = new TextureResolver();
  assert.equal(r.resolve(r.setOf([a, b, c]), 'Textures\\Foo.blp'), path.join(b, 'Textures/Foo.blp'));
  assert.equal(r.resolve(r.setOf([c, b]), 'Textures\\Foo.blp'), path.join(c, 'Textures/Foo.blp'));
  assert.equal(r.resolve(r.setOf([a, b]), 'Other\\Foo.blp'), path.join(a, 'Foo.blp'));
  assert.equal(r.setOf([a, b]), r.setOf([a, b]));
  assert.notEqual(r.setOf([a, b]), r.setOf([b, a]));
  for (const d of [a, b, c]) fs.rmSync(d, { recursive: true });
});

const camera = { eye: [100, 0, 50], target: [0, 0, 50], up: [0, 0, 1], fov_y: 0.7854, near: 1, far: 1000 };
const job = (extra) => ({ model: '/m/x.mdx', out: '/o/x.png', textures: ['/t'], camera, sequence: 0, time_ms: 10, team_color: 0, ...extra });

test('jobs get their defaults and keep their values', () => {
  const b = validateJobs({ width: 64, height: 32, jobs: [job({}), { model: '/m/y.mdx', out: '/o/y.png', camera }] });
  assert.deepEqual([b.width, b.height, b.antialias, b.lenient, b.background], [64, 32, true, false, [0, 0, 0, 0]]);
  assert.equal(b.step_ms, 1000 / 60);
  assert.deepEqual([b.jobs[0].sequence, b.jobs[0].time_ms, b.jobs[0].seed], [0, 10, 1]);
  assert.deepEqual([b.jobs[1].sequence, b.jobs[1].time_ms, b.jobs[1].team_color, b.jobs[1].textures], [null, 0, 0, []]);
});

test('a bad job is marked with the reason, the others stay', () => {
  const b = validateJobs({
    width: 8, height: 8,
    jobs: [job({ time_ms: -5 }), job({ model: 'relative.mdx' }), job({ camera: { ...camera, eye: camera.target } }), job({})],
  });
  assert.match(b.jobs[0].invalid, /jobs\[0\]\.time_ms/);
  assert.match(b.jobs[1].invalid, /jobs\[1\]\.model/);
  assert.match(b.jobs[2].invalid, /same point/);
  assert.equal(b.jobs[3].invalid, undefined);
});

test('a bad batch is a usage error', () => {
  assert.throws(() => validateJobs({ width: 0, height: 8, jobs: [] }), UsageError);
  assert.throws(() => validateJobs({ width: 8, height: 8 }), UsageError);
  assert.throws(() => validateJobs({ width: 8, height: 8, jobs: [], background: [0, 0, 0] }), UsageError);
});
