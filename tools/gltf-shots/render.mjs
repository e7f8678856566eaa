#!/usr/bin/env node
// render.mjs - PNG pictures of glTF models at chosen moments of their animations, drawn by
// three.js in headless Chromium. Normally started by scripts/gltf-shots.sh, which installs
// the dependencies and documents the command line; run directly:
//
//   GLTF_SHOTS_NODE_MODULES=/tmp/mdlx-gltf-shots/node_modules \
//     node tools/gltf-shots/render.mjs [OPTIONS] OUT_DIR SPEC...
//
// SPEC is MODEL[:ANIMATION[:TIMES]] (see scripts/gltf-shots.sh). How it works: a small HTTP
// server on 127.0.0.1 (random port) hands out page.html, page.mjs, the three.js modules and
// the models' folders; Chromium opens the page, which loads each model with GLTFLoader and
// draws one frame per requested moment; each canvas is saved as a PNG, whose path is printed
// on stdout. Anything wrong gives a message on stderr and exit status 1 (2 for a bad command
// line).
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';

const here = path.dirname(fileURLToPath(import.meta.url));
const modules = path.resolve(process.env.GLTF_SHOTS_NODE_MODULES || path.join(here, 'node_modules'));
const chromiumPath = process.env.CHROMIUM || '/usr/bin/chromium';

// Launch flags. The network ones keep Chromium from calling out (this network refuses it).
// WebGL: with --disable-gpu, Chromium 148 gives WebGL only on ANGLE's SwiftShader (software
// Vulkan) backend, which --use-angle=swiftshader selects; --enable-unsafe-swiftshader allows
// falling back to it (Playwright passes that one by default too).
const CHROMIUM_ARGS = [
  '--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
  '--disable-background-networking', '--disable-component-update', '--disable-sync',
  '--use-angle=swiftshader', '--enable-unsafe-swiftshader',
];

const USAGE = `usage: ${process.env.GLTF_SHOTS_PROG || 'render.mjs'} [--size WxH] [--front +x|-x|+z|-z] [--yaw DEG] [--pitch DEG] OUT_DIR MODEL[:ANIMATION[:TIMES]]...`;

class UsageError extends Error {}
const fail = (msg) => { throw new UsageError(msg); };

function parseArgs(argv) {
  const opts = { width: 640, height: 480, front: '+x', yaw: 35, pitch: 20 };
  const rest = [];
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    const value = () => (i + 1 < argv.length ? argv[++i] : fail(`${a} needs a value`));
    if (a === '--size') {
      const m = /^(\d+)x(\d+)$/.exec(value());
      if (!m || +m[1] < 16 || +m[2] < 16 || +m[1] > 4096 || +m[2] > 4096) fail('--size takes WxH, 16 to 4096 each, e.g. 640x480');
      opts.width = +m[1]; opts.height = +m[2];
    } else if (a === '--front') {
      opts.front = value().toLowerCase();
      if (!['+x', '-x', '+z', '-z'].includes(opts.front)) fail('--front takes +x, -x, +z or -z');
    } else if (a === '--yaw' || a === '--pitch') {
      const v = Number(value());
      if (!Number.isFinite(v) || Math.abs(v) > 89) fail(`${a} takes degrees between -89 and 89`);
      opts[a.slice(2)] = v;
    } else if (a === '-h' || a === '--help') {
      console.log(USAGE); process.exit(0);
    } else if (a.startsWith('--')) {
      fail(`unknown option ${a}`);
    } else rest.push(a);
  }
  if (rest.length < 2) fail('give an output folder and at least one model');
  return { opts, outDir: rest[0], specs: rest.slice(1).map(parseSpec) };
}

// MODEL[:ANIMATION[:TIMES]]; the model is the part up to the first ".glb" / ".gltf" that a
// colon or the end follows, so folders with colons work but animation names must not hold one.
function parseSpec(text) {
  const m = /^(.+?\.(?:glb|gltf))(?::([^:]*))?(?::([^:]*))?$/i.exec(text);
  if (!m) fail(`'${text}': expected MODEL.glb[:ANIMATION[:TIMES]] (the model must end in .glb or .gltf)`);
  const [, model, anim, times] = m;
  if (anim === undefined || anim === '') {
    if (times) fail(`'${text}': times need an animation`);
    return { text, model, anim: null, times: [] };
  }
  const parsed = (times === undefined || times === '' ? '0' : times).split(',').map((t) => {
    const tm = /^(\d+(?:\.\d+)?|\.\d+)(s?)$/.exec(t.trim());
    if (!tm) fail(`'${text}': bad time '${t}' (a fraction of the animation like 0.25, or seconds like 1.5s)`);
    const value = Number(tm[1]);
    if (!tm[2] && value > 1) fail(`'${text}': time ${t} is past the end (fractions run 0 to 1; write ${t}s for seconds)`);
    return { label: t.trim(), value, unit: tm[2] ? 'seconds' : 'fraction' };
  });
  return { text, model, anim, times: parsed };
}

const TYPES = {
  '.html': 'text/html', '.mjs': 'text/javascript', '.js': 'text/javascript',
  '.glb': 'model/gltf-binary', '.gltf': 'model/gltf+json', '.bin': 'application/octet-stream',
  '.png': 'image/png', '.jpg': 'image/jpeg', '.jpeg': 'image/jpeg', '.webp': 'image/webp',
  '.ktx2': 'image/ktx2',
};

// Serves only: the page, three's files, and the folders of the given models (/m/INDEX/...).
function startServer(modelDirs) {
  const roots = { '/three/': path.join(modules, 'three') };
  modelDirs.forEach((d, i) => { roots[`/m/${i}/`] = d; });
  const fixed = { '/': path.join(here, 'page.html'), '/page.mjs': path.join(here, 'page.mjs') };
  const server = http.createServer((req, res) => {
    let file = null;
    const url = decodeURIComponent(new URL(req.url, 'http://x').pathname);
    if (fixed[url]) file = fixed[url];
    else {
      for (const [prefix, dir] of Object.entries(roots)) {
        if (!url.startsWith(prefix)) continue;
        const f = path.resolve(dir, '.' + url.slice(prefix.length - 1));
        if (f.startsWith(dir + path.sep)) file = f;
      }
    }
    if (!file) { res.writeHead(404).end(); return; }
    fs.readFile(file, (err, data) => {
      if (err) { res.writeHead(404).end(); return; }
      res.writeHead(200, { 'content-type': TYPES[path.extname(file).toLowerCase()] || 'application/octet-stream' });
      res.end(data);
    });
  });
  return new Promise((resolve, reject) => {
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => resolve(server));
  });
}

const safe = (s) => s.replace(/[^A-Za-z0-9._-]+/g, '_');

// page.evaluate errors carry Playwright's prefix and the page's stack; keep the message.
const pageMessage = (e) => String(e.message || e).replace(/^page\.evaluate: (Error: )?/, '').split('\n')[0];

async function main() {
  const { opts, outDir, specs } = parseArgs(process.argv.slice(2));
  for (const s of specs) {
    if (!fs.existsSync(s.model)) throw new Error(`${s.model}: no such file`);
    if (!fs.statSync(s.model).isFile()) throw new Error(`${s.model}: not a file`);
  }
  for (const f of [path.join(modules, 'playwright-core'), path.join(modules, 'three')]) {
    if (!fs.existsSync(f)) throw new Error(`${f} is missing: install with scripts/gltf-shots.sh (or set GLTF_SHOTS_NODE_MODULES)`);
  }
  if (!fs.existsSync(chromiumPath)) throw new Error(`Chromium not found at ${chromiumPath} (apt-get install chromium, or set CHROMIUM)`);
  fs.mkdirSync(outDir, { recursive: true });

  const modelDirs = [...new Set(specs.map((s) => path.dirname(path.resolve(s.model))))];
  const server = await startServer(modelDirs);
  const base = `http://127.0.0.1:${server.address().port}`;
  const { chromium } = createRequire(path.join(modules, 'noop.js'))('playwright-core');
  const profile = fs.mkdtempSync(path.join(os.tmpdir(), 'gltf-shots-profile-'));
  let context;
  let failures = 0;
  let pageErrors = 0;
  try {
    context = await chromium.launchPersistentContext(profile, {
      executablePath: chromiumPath, headless: true, args: CHROMIUM_ARGS,
      viewport: { width: opts.width, height: opts.height }, deviceScaleFactor: 1,
    });
    const page = context.pages()[0] || await context.newPage();
    page.on('console', (m) => {
      // SwiftShader's "GPU stall due to ReadPixels" notes come with every screenshot: not news.
      if (/GL Driver Message .*Performance/.test(m.text())) return;
      // The response handler below names the file instead.
      if (/^Failed to load resource/.test(m.text())) return;
      if (m.type() === 'error' || m.type() === 'warning') console.error(`gltf-shots: page ${m.type()}: ${m.text()}`);
      // GLTFLoader reports a texture it cannot decode and goes on without it: a picture
      // without its texture would mislead, so it counts as a failure.
      if (m.type() === 'error') pageErrors++;
    });
    page.on('pageerror', (e) => { console.error(`gltf-shots: page error: ${e.message}`); pageErrors++; });
    page.on('response', (r) => {
      if (r.status() < 400) return;
      const p = decodeURIComponent(new URL(r.url()).pathname);
      const m = /^\/m\/(\d+)\/(.*)$/.exec(p);
      const file = m ? path.join(modelDirs[+m[1]], m[2]) : p;
      console.error(`gltf-shots: ${file}: HTTP ${r.status()} (a file the model names is missing?)`);
    });
    await page.goto(`${base}/`);
    await page.waitForFunction(() => window.gltfShots || window.gltfShotsError, null, { timeout: 30000 });
    const startError = await page.evaluate(() => window.gltfShotsError || null);
    if (startError) throw new Error(startError);
    const info = await page.evaluate(() => [window.gltfShots.glRenderer, window.gltfShots.threeRevision]);
    console.error(`gltf-shots: three.js r${info[1]} on ${info[0]}`);

    for (const spec of specs) {
      const t0 = Date.now();
      const errorsBefore = pageErrors;
      const dirIndex = modelDirs.indexOf(path.dirname(path.resolve(spec.model)));
      const url = `${base}/m/${dirIndex}/${encodeURIComponent(path.basename(spec.model))}`;
      let loaded;
      try {
        loaded = await page.evaluate((u) => window.gltfShots.load(u), url);
      } catch (e) {
        console.error(`gltf-shots: ${spec.model}: cannot load: ${pageMessage(e)}`);
        failures++; continue;
      }
      const anims = loaded.animations;
      const list = anims.length
        ? anims.map((a, i) => `${i} '${a.name}' (${a.duration.toFixed(3)} s)`).join(', ')
        : 'none';
      // Which clips: none (the file's own pose), all ('*'), an index or a name.
      let chosen;
      if (spec.anim === null) chosen = [null];
      else if (spec.anim === '*') chosen = anims.map((_, i) => i);
      else {
        let i = anims.findIndex((a) => a.name === spec.anim);
        if (i < 0 && /^\d+$/.test(spec.anim) && +spec.anim < anims.length) i = +spec.anim;
        if (i < 0) {
          console.error(`gltf-shots: ${spec.model}: no animation '${spec.anim}'; the file has: ${list}`);
          failures++; continue;
        }
        chosen = [i];
      }
      if (chosen.length === 0) {
        console.error(`gltf-shots: ${spec.model}: '*' asks for every animation, but the file has none`);
        failures++; continue;
      }
      const stem = safe(path.basename(spec.model).replace(/\.(glb|gltf)$/i, ''));
      for (const a of chosen) {
        const times = a === null ? [{ label: null, value: 0, unit: 'seconds' }] : spec.times;
        const animLabel = a === null ? null : safe(anims[a].name || `anim${a}`);
        for (const t of times) {
          const name = a === null ? `${stem}.png` : `${stem}-${animLabel}-${t.label}.png`;
          const out = path.join(outDir, name);
          try {
            const t1 = Date.now();
            await page.evaluate((o) => window.gltfShots.pose(o), {
              anim: a, time: t.value, unit: t.unit,
              width: opts.width, height: opts.height, front: opts.front, yaw: opts.yaw, pitch: opts.pitch,
            });
            await page.locator('#view').screenshot({ path: out, animations: 'disabled' });
            console.log(out);
            if (process.env.GLTF_SHOTS_TIMING) console.error(`gltf-shots: ${name}: ${Date.now() - t1} ms`);
          } catch (e) {
            console.error(`gltf-shots: ${spec.model}: ${name}: ${pageMessage(e)}`);
            failures++;
          }
        }
      }
      if (pageErrors > errorsBefore) {
        console.error(`gltf-shots: ${spec.model}: the page reported errors (above); its pictures may be wrong`);
        failures++;
      }
      if (process.env.GLTF_SHOTS_TIMING) console.error(`gltf-shots: ${spec.model}: ${Date.now() - t0} ms with loading`);
    }
  } finally {
    if (context) await context.close().catch(() => {});
    server.close();
    fs.rmSync(profile, { recursive: true, force: true, maxRetries: 5, retryDelay: 200 });
  }
  if (failures) throw new Error(`${failures} picture(s) or model(s) failed`);
}

main().catch((e) => {
  if (e instanceof UsageError) {
    console.error(`gltf-shots: ${e.message}\n${USAGE}`);
    process.exit(2);
  }
  console.error(`gltf-shots: error: ${String(e.message || e).split('\n')[0]}`);
  process.exit(1);
});
