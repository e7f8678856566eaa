#!/usr/bin/env node
// render.mjs - draws a batch of MDX models to PNG files with mdx-m3-viewer in headless
// Chromium: the independent judge of `mdlx render`. Normally installed and named by
// scripts/m3v-render.sh (which prints `export MDLX_M3V_RENDER=...`).
//
//   node render.mjs JOBS.json
//
// JOBS.json:
//   {"width": W, "height": H,
//    "jobs": [{"model": "/abs/x.mdx", "out": "/abs/x.png", "textures": ["/abs/dir", ...],
//              "camera": {"eye": [x,y,z], "target": [x,y,z], "up": [0,0,1],
//                         "fov_y": 0.7854, "near": N, "far": F},
//              "sequence": I or null, "time_ms": T, "team_color": 0}],
//    optional: "antialias": true (WebGL's multisampling, default on),
//              "step_ms": 16.666... (the simulation step), "lenient": false (see below),
//              "timeout_ms": 30000 (per job),
//              "background": [0, 0, 0, 0] (the clear colour, RGBA 0-255)}
//   A job may also carry "seed" (default 1) for the page's random numbers.
//
// Writes each job's PNG (exactly W x H, RGBA, transparent where nothing was drawn) and
// JOBS.result.json beside JOBS.json (JOBS.json -> JOBS.result.json):
//   {"viewer": "mdx-m3-viewer 5.12.0", "gl_renderer", "browser", "total_ms",
//    "jobs": [{"model", "out", "ok", "error", "ms", "missing_textures", "unsupplied",
//              "warnings", "particles"}]}
// A job that fails writes no PNG (an old file at "out" is removed first) and has ok false
// and the reason in "error"; the batch goes on. A job with a bad field (a relative path, no
// camera, a negative time...) fails the same way ("bad job: ..."). Exit status: 0 when
// every job was tried (whatever their results), 1 when the batch could not run (no
// Chromium, a bad page; the result file then lists the jobs not drawn), 2 for a bad command
// line or a JOBS.json whose own fields (width, height, jobs...) are wrong.
//
// What is drawn, and how (see page.js for the details):
//  - one Chromium for the whole batch, one page, one viewer; files come from a loopback HTTP
//    server in this process: the page, the viewer's bundle, each model, and textures;
//  - textures: the path the model names, with '\' or '/', is looked up case-insensitively
//    under each "textures" folder in turn (Textures\Foo.blp -> DIR/Textures/Foo.blp), then
//    its bare file name directly in each folder; a texture found nowhere is listed in
//    "missing_textures" and the viewer draws with its own stand-in, an opaque white texture;
//  - team colour / glow (replaceable ids 1 and 2): generated images, see page.js;
//  - a file mdx-m3-viewer's parser rejects fails the job, unless "lenient" is true: then
//    the viewer draws whatever it read (its own behaviour) and the job lists a warning;
//  - the camera is the shared convention: view = lookAt(eye, target, up) (the viewer's
//    moveToAndFace), projection = perspective(fov_y, W/H, near, far) (gl-matrix's, the
//    OpenGL one);
//  - the sequence starts at its first frame; the viewer's simulation advances in steps of
//    step_ms (the last one shorter) up to time_ms, so particles and ribbons exist; the
//    animation clock is then put exactly on time_ms. After the end of a sequence the
//    viewer loops it, or holds its last frame when the sequence is NonLooping. With
//    "sequence": null the model is drawn unanimated (time_ms is ignored);
//  - the background is cleared to "background", (0,0,0,0) unless given; no light beyond
//    the viewer's own shading (SD layers not unshaded: colour times
//    min(1, max(0, n.l) + 0.7), l the direction to a point light at (0, 0, 10000)). The canvas is not premultiplied: the PNG holds
//    the colour and alpha that the viewer's glBlendFunc factors (the same ones for colour
//    and alpha) leave over the background, e.g. an additive layer over a transparent
//    background adds alpha * alpha to it, a modulate layer leaves alpha 0.
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { validateJobs, UsageError } from './jobs.mjs';
import { TextureResolver } from './textures.mjs';

const here = path.dirname(fileURLToPath(import.meta.url));
const modules = path.resolve(process.env.M3V_RENDER_NODE_MODULES || path.join(here, 'node_modules'));
const chromiumPath = process.env.CHROMIUM || '/usr/bin/chromium';

// Flags every Chromium of this project runs with (as root, no GPU, no network beyond the
// loopback); WebGL without a GPU is ANGLE on SwiftShader.
const CHROMIUM_ARGS = [
  '--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
  '--disable-background-networking', '--disable-component-update', '--disable-sync',
  '--use-angle=swiftshader', '--enable-unsafe-swiftshader',
];

const TYPES = { '.html': 'text/html', '.js': 'text/javascript' };

/** The loopback server: the page, the viewer bundle, /model/INDEX and /tex/SET/PATH. */
function startServer(batch, resolver) {
  const fixed = {
    '/': path.join(here, 'page.html'),
    '/page.js': path.join(here, 'page.js'),
    '/viewer.min.js': path.join(modules, 'mdx-m3-viewer/dist/umd/viewer.min.js'),
  };
  const server = http.createServer((req, res) => {
    const url = new URL(req.url, 'http://x').pathname;
    let file = fixed[url] || null;
    let m;
    if (!file && (m = /^\/model\/(\d+)$/.exec(url)) && batch.jobs[+m[1]]) {
      file = batch.jobs[+m[1]].model;
    } else if (!file && (m = /^\/tex\/(\d+)\/(.+)$/.exec(url))) {
      file = resolver.resolve(+m[1], decodeURIComponent(m[2]));
    }
    if (!file) { res.writeHead(404).end(); return; }
    fs.readFile(file, (err, data) => {
      if (err) { res.writeHead(404).end(); return; }
      res.writeHead(200, {
        'content-type': TYPES[path.extname(file)] || 'application/octet-stream',
        'cache-control': 'no-store',
      });
      res.end(data);
    });
  });
  return new Promise((resolve, reject) => {
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => resolve(server));
  });
}

/** Width and height from a PNG's IHDR chunk. */
function pngSize(buf) {
  if (buf.length < 24 || buf.toString('latin1', 12, 16) !== 'IHDR') return null;
  return [buf.readUInt32BE(16), buf.readUInt32BE(20)];
}

const message = (e) => String((e && e.message) || e).replace(/^Error: /, '').split('\n')[0];

/** One browser page with the viewer ready; `open()` again replaces a broken one. */
class Drawer {
  constructor(browser, base, batch) {
    Object.assign(this, { browser, base, batch, page: null, info: null });
  }

  async open() {
    if (this.page) await this.page.close().catch(() => {});
    const page = await this.browser.newPage();
    page.on('pageerror', (e) => console.error(`m3v-render: page error: ${message(e)}`));
    await page.goto(`${this.base}/`, { waitUntil: 'load' });
    const ready = await page.evaluate(() => typeof window.m3vRender === 'object');
    if (!ready) throw new Error('the page did not start (page.js or the viewer bundle failed to load)');
    const { width, height, antialias } = this.batch;
    this.info = await page.evaluate((o) => window.m3vRender.init(o), { width, height, antialias });
    this.page = page;
  }

  /** Draws job i; resolves to the page's answer or rejects with the reason. */
  async draw(i, texSet) {
    const j = this.batch.jobs[i];
    const request = {
      modelUrl: `${this.base}/model/${i}`, texBase: `${this.base}/tex/${texSet}/`,
      camera: j.camera, sequence: j.sequence, time_ms: j.time_ms, team_color: j.team_color,
      step_ms: this.batch.step_ms, lenient: this.batch.lenient, seed: j.seed, background: this.batch.background,
    };
    let timer;
    const timeout = new Promise((_, reject) => {
      timer = setTimeout(() => reject(new Error(`timed out after ${this.batch.timeout_ms} ms`)), this.batch.timeout_ms);
    });
    try {
      return await Promise.race([this.page.evaluate((r) => window.m3vRender.job(r), request), timeout]);
    } finally {
      clearTimeout(timer);
    }
  }
}

/** Runs one job and returns its entry for the result file. */
async function runJob(drawer, i, resolver) {
  const j = drawer.batch.jobs[i];
  const t0 = Date.now();
  const entry = { model: j.model, out: j.out, ok: false, error: null, ms: 0 };
  if (j.invalid) {
    entry.error = `bad job: ${j.invalid}`;
    if (j.out && path.isAbsolute(j.out)) fs.rmSync(j.out, { force: true });
    return entry;
  }
  fs.rmSync(j.out, { force: true });
  try {
    const r = await drawer.draw(i, resolver.setOf(j.textures));
    const png = Buffer.from(r.png.replace(/^data:image\/png;base64,/, ''), 'base64');
    const size = pngSize(png);
    if (!size || size[0] !== drawer.batch.width || size[1] !== drawer.batch.height) {
      throw new Error(`the canvas gave a ${size ? size.join('x') : 'non-PNG'} picture, not ${drawer.batch.width}x${drawer.batch.height}`);
    }
    fs.mkdirSync(path.dirname(j.out), { recursive: true });
    fs.writeFileSync(j.out, png);
    Object.assign(entry, {
      ok: true, missing_textures: r.missing, unsupplied: r.unsupplied, warnings: r.warnings,
      particles: r.stats.particles,
    });
  } catch (e) {
    entry.error = message(e);
    // A timeout or a crashed page may leave the page unusable: start a fresh one.
    if (/timed out|Target closed|Session closed|crash|detached/i.test(entry.error)) {
      await drawer.open().catch((e2) => { throw new Error(`cannot reopen the page: ${message(e2)}`); });
    }
  }
  entry.ms = Date.now() - t0;
  return entry;
}

async function main() {
  const args = process.argv.slice(2);
  if (args.length !== 1 || args[0].startsWith('-')) throw new UsageError('usage: node render.mjs JOBS.json');
  const jobsPath = path.resolve(args[0]);
  let raw;
  try { raw = JSON.parse(fs.readFileSync(jobsPath, 'utf8')); } catch (e) { throw new UsageError(`${jobsPath}: ${message(e)}`); }
  const batch = validateJobs(raw);
  const resultPath = jobsPath.replace(/(\.json)?$/i, '.result.json');

  const req = createRequire(path.join(modules, 'noop.js'));
  let puppeteer;
  try { puppeteer = req('puppeteer-core'); } catch (e) { throw new Error(`cannot load puppeteer-core from ${modules} (run scripts/m3v-render.sh): ${message(e)}`); }
  const viewerPkg = JSON.parse(fs.readFileSync(path.join(modules, 'mdx-m3-viewer/package.json'), 'utf8'));
  if (!fs.existsSync(chromiumPath)) throw new Error(`Chromium not found at ${chromiumPath} (apt-get install chromium, or set CHROMIUM)`);

  const t0 = Date.now();
  const resolver = new TextureResolver();
  const server = await startServer(batch, resolver);
  const base = `http://127.0.0.1:${server.address().port}`;
  const profile = fs.mkdtempSync(path.join(os.tmpdir(), 'm3v-render-profile-'));
  let browser;
  let drawer;
  const results = [];
  try {
    browser = await puppeteer.launch({
      executablePath: chromiumPath, headless: true, args: [...CHROMIUM_ARGS, `--user-data-dir=${profile}`],
      defaultViewport: { width: batch.width, height: batch.height, deviceScaleFactor: 1 },
      protocolTimeout: Math.max(60000, batch.timeout_ms * 2),
    });
    drawer = new Drawer(browser, base, batch);
    await drawer.open();
    console.error(`m3v-render: mdx-m3-viewer ${viewerPkg.version} on ${drawer.info.glRenderer}; ${batch.jobs.length} job(s)`);
    for (let i = 0; i < batch.jobs.length; i++) {
      const entry = await runJob(drawer, i, resolver);
      results.push(entry);
      if (!entry.ok) console.error(`m3v-render: ${entry.model}: ${entry.error}`);
    }
  } catch (e) {
    // The browser itself failed: the jobs not tried are reported as failed with the reason.
    for (let i = results.length; i < batch.jobs.length; i++) {
      const j = batch.jobs[i];
      results.push({ model: j.model, out: j.out, ok: false, error: `not drawn: ${message(e)}`, ms: 0 });
    }
    throw e;
  } finally {
    const summary = {
      viewer: `mdx-m3-viewer ${viewerPkg.version}`,
      gl_renderer: drawer && drawer.info ? drawer.info.glRenderer : null,
      browser: browser ? await browser.version().catch(() => null) : null,
      width: batch.width, height: batch.height, total_ms: Date.now() - t0, jobs: results,
    };
    fs.writeFileSync(resultPath, JSON.stringify(summary, null, 1) + '\n');
    const failed = results.filter((r) => !r.ok).length;
    console.error(`m3v-render: ${results.length - failed} drawn, ${failed} failed, ${summary.total_ms} ms; results in ${resultPath}`);
    if (browser) await browser.close().catch(() => {});
    server.close();
    fs.rmSync(profile, { recursive: true, force: true, maxRetries: 5, retryDelay: 200 });
  }
}

main().catch((e) => {
  if (e instanceof UsageError) {
    console.error(`m3v-render: ${e.message}`);
    process.exit(2);
  }
  console.error(`m3v-render: error: ${message(e)}`);
  process.exit(1);
});
