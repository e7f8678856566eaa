#!/usr/bin/env node
// png-stats.mjs - facts about render.mjs's pictures, for scripts/test-gltf-shots.sh:
//   node png-stats.mjs A.png            -> JSON: size, distinct colours, how much differs from
//                                          the background, where, and how many pixels are
//                                          clearly blue or green (texture colours, not grey light)
//   node png-stats.mjs A.png B.png      -> JSON: share of pixels that differ between the two
// Reads only what Chromium's screenshots are: 8-bit RGB or RGBA, not interlaced.
import fs from 'node:fs';
import zlib from 'node:zlib';

function readPng(file) {
  const buf = fs.readFileSync(file);
  if (buf.toString('latin1', 1, 4) !== 'PNG') throw new Error(`${file}: not a PNG`);
  let pos = 8, width, height, channels;
  const idat = [];
  while (pos < buf.length) {
    const len = buf.readUInt32BE(pos);
    const type = buf.toString('latin1', pos + 4, pos + 8);
    const data = buf.subarray(pos + 8, pos + 8 + len);
    if (type === 'IHDR') {
      width = data.readUInt32BE(0); height = data.readUInt32BE(4);
      const depth = data[8], colour = data[9], interlace = data[12];
      if (depth !== 8 || (colour !== 2 && colour !== 6) || interlace !== 0) {
        throw new Error(`${file}: only 8-bit RGB/RGBA non-interlaced PNGs are read here`);
      }
      channels = colour === 6 ? 4 : 3;
    } else if (type === 'IDAT') idat.push(data);
    else if (type === 'IEND') break;
    pos += 12 + len;
  }
  const raw = zlib.inflateSync(Buffer.concat(idat));
  const stride = width * channels;
  const px = Buffer.alloc(height * stride);
  // Undo the per-row filters (PNG spec: None, Sub, Up, Average, Paeth).
  for (let y = 0; y < height; y++) {
    const filter = raw[y * (stride + 1)];
    const src = raw.subarray(y * (stride + 1) + 1, (y + 1) * (stride + 1));
    const row = y * stride;
    for (let i = 0; i < stride; i++) {
      const a = i >= channels ? px[row + i - channels] : 0;
      const b = y > 0 ? px[row - stride + i] : 0;
      const c = y > 0 && i >= channels ? px[row - stride + i - channels] : 0;
      let pred = 0;
      if (filter === 1) pred = a;
      else if (filter === 2) pred = b;
      else if (filter === 3) pred = (a + b) >> 1;
      else if (filter === 4) {
        const p = a + b - c, pa = Math.abs(p - a), pb = Math.abs(p - b), pc = Math.abs(p - c);
        pred = pa <= pb && pa <= pc ? a : pb <= pc ? b : c;
      }
      px[row + i] = (src[i] + pred) & 255;
    }
  }
  return { width, height, channels, px };
}

const [fileA, fileB] = process.argv.slice(2);
const A = readPng(fileA);
const at = (img, i) => [img.px[i * img.channels], img.px[i * img.channels + 1], img.px[i * img.channels + 2]];
const n = A.width * A.height;

if (fileB) {
  const B = readPng(fileB);
  if (B.width !== A.width || B.height !== A.height) throw new Error('the pictures differ in size');
  let differ = 0;
  for (let i = 0; i < n; i++) {
    const [r1, g1, b1] = at(A, i), [r2, g2, b2] = at(B, i);
    if (Math.abs(r1 - r2) + Math.abs(g1 - g2) + Math.abs(b1 - b2) > 24) differ++;
  }
  console.log(JSON.stringify({ differ: differ / n }));
} else {
  const bg = at(A, 0); // the corner: the background, when the model is framed with a margin
  const colours = new Set();
  let model = 0, blue = 0, green = 0, x0 = A.width, x1 = -1, y0 = A.height, y1 = -1;
  for (let i = 0; i < n; i++) {
    const [r, g, b] = at(A, i);
    colours.add((r << 16) | (g << 8) | b);
    if (Math.abs(r - bg[0]) + Math.abs(g - bg[1]) + Math.abs(b - bg[2]) <= 6) continue;
    model++;
    const x = i % A.width, y = Math.floor(i / A.width);
    x0 = Math.min(x0, x); x1 = Math.max(x1, x); y0 = Math.min(y0, y); y1 = Math.max(y1, y);
    if (b > r + 40 && b > g + 10) blue++;
    if (g > r + 30 && g > b + 30) green++;
  }
  console.log(JSON.stringify({
    width: A.width, height: A.height, background: bg, colours: colours.size,
    model: model / n, blue: blue / n, green: green / n,
    // The part of the picture that is not background, as fractions of its width and height.
    extent: model ? [x0 / A.width, y0 / A.height, (x1 + 1) / A.width, (y1 + 1) / A.height] : null,
  }));
}
