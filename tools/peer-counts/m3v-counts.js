#!/usr/bin/env node
// m3v-counts.js - per-file element counts of MDX models as read by mdx-m3-viewer.
//
// Loads every *.mdx file in a directory (sorted by file name) with the
// mdx-m3-viewer MDLX parser and prints one TSV row of counts per file
// (header line first) to stdout. These serve as reference numbers for
// checking our own Rust parser. Files the parser rejects are left out of
// the TSV and reported on stderr as "skip NAME: error".
//
// Usage:
//   node m3v-counts.js PEER_DIR MDX_DIR > out.tsv
//   e.g. node m3v-counts.js /tmp/peers/node ../shared/corpus/mdx > out.tsv
// PEER_DIR is the folder whose node_modules holds mdx-m3-viewer.
'use strict';

const fs = require('fs');
const path = require('path');

if (process.argv.length !== 4) {
  process.stderr.write('usage: node m3v-counts.js PEER_DIR MDX_DIR > out.tsv\n');
  process.exit(2);
}
const peerDir = path.resolve(process.argv[2]);
const mdxDir = path.resolve(process.argv[3]);

const modPath = require.resolve('mdx-m3-viewer/dist/cjs/parsers/mdlx/model', {
  paths: [peerDir],
});
const Model = require(modPath).default;

const sum = (arr, f) => arr.reduce((n, x) => n + f(x), 0);

// [column name, function(model) -> number]
const COLUMNS = [
  ['version', (m) => m.version],
  ['sequences', (m) => m.sequences.length],
  ['global_sequences', (m) => m.globalSequences.length],
  ['textures', (m) => m.textures.length],
  ['materials', (m) => m.materials.length],
  ['layers', (m) => sum(m.materials, (mat) => mat.layers.length)],
  ['geosets', (m) => m.geosets.length],
  ['vertices', (m) => sum(m.geosets, (g) => g.vertices.length / 3)],
  ['face_indices', (m) => sum(m.geosets, (g) => g.faces.length)],
  ['uv_sets', (m) => sum(m.geosets, (g) => g.uvSets.length)],
  ['bones', (m) => m.bones.length],
  ['helpers', (m) => m.helpers.length],
  ['lights', (m) => m.lights.length],
  ['attachments', (m) => m.attachments.length],
  ['pivots', (m) => m.pivotPoints.length],
  ['particle_emitters', (m) => m.particleEmitters.length],
  ['particle_emitters2', (m) => m.particleEmitters2.length],
  ['ribbon_emitters', (m) => m.ribbonEmitters.length],
  ['popcorn_emitters', (m) => m.particleEmittersPopcorn.length],
  ['event_objects', (m) => m.eventObjects.length],
  ['cameras', (m) => m.cameras.length],
  ['collision_shapes', (m) => m.collisionShapes.length],
  ['texture_animations', (m) => m.textureAnimations.length],
  ['geoset_animations', (m) => m.geosetAnimations.length],
];

const files = fs
  .readdirSync(mdxDir)
  .filter((f) => f.toLowerCase().endsWith('.mdx'))
  .sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));

const out = [['file', ...COLUMNS.map((c) => c[0])].join('\t')];
let skipped = 0;
for (const name of files) {
  try {
    const buf = fs.readFileSync(path.join(mdxDir, name));
    const model = new Model();
    model.load(new Uint8Array(buf.buffer, buf.byteOffset, buf.byteLength));
    out.push([name, ...COLUMNS.map(([, f]) => f(model))].join('\t'));
  } catch (e) {
    skipped++;
    const msg = String((e && e.message) || e).replace(/\s+/g, ' ');
    process.stderr.write(`skip ${name}: ${msg}\n`);
  }
}
process.stdout.write(out.join('\n') + '\n');
process.stderr.write(`${files.length} files, ${out.length - 1} listed, ${skipped} skipped\n`);
