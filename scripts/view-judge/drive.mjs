// drive.mjs URL MODEL.mdl - drives the page of `mdlx view` in headless Chromium, as a person
// would, and checks what it shows (the test of crates/mdlx-cli/tests/view.rs; installed by
// scripts/view-judge.sh). MODEL.mdl must be the file the server follows, a copy of
// examples/cube.mdx converted to MDL (two sequences, Stand and Spin; Spin turns the cube
// about Z by 90 degrees every 500 ms). The file is edited, broken and restored on the way.
//
// The checks, in order:
//  1. the page loads and shows a picture that is not blank (pixels differ from the
//     background the server names);
//  2. the sequence list reads Stand, Spin;
//  3. "Spin" picked, at 250 ms (the cube turned 45 degrees) the picture differs from 0 ms;
//     dragging the picture orbits, the wheel zooms in (more of the picture is the cube),
//     the wireframe box draws;
//  4. playing, frames keep coming, one at a time (the count and the times are reported);
//     paused again at 250 ms the picture is the same as before (frames are deterministic);
//  5. an edit on disk (a geoset animation colour added) reloads the page and changes the
//     picture's colour;
//  6. an edit that breaks the file shows the error banner with the reader's file:line:col,
//     and the picture stays the last good one;
//  7. the file restored, the banner goes away.
// Prints one JSON object on stdout ({ ok, checks, timings }); exit status 1 when a check
// fails (the reason on stderr and in the JSON). CHROMIUM names the browser
// (default /usr/bin/chromium).

import fs from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import puppeteer from "puppeteer-core";

const [url, mdl] = process.argv.slice(2);
if (!url || !mdl) {
  console.error("usage: drive.mjs URL MODEL.mdl");
  process.exit(2);
}
const WAIT = Number(process.env.MDLX_VIEW_WAIT_MS || 60000);
const checks = [];
const result = { ok: false, checks, timings: {} };

function check(name, ok, detail) {
  checks.push({ name, ok: !!ok, detail });
  if (!ok) throw new Error(`${name}: ${JSON.stringify(detail)}`);
}

const profile = await fs.mkdtemp(path.join(os.tmpdir(), "mdlx-view-judge-"));
const browser = await puppeteer.launch({
  executablePath: process.env.CHROMIUM || "/usr/bin/chromium",
  headless: true,
  userDataDir: profile,
  args: ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
    "--disable-background-networking", "--disable-component-update", "--disable-sync"],
});

try {
  const page = await browser.newPage();
  await page.setViewport({ width: 1280, height: 900 });
  const errors = [];
  page.on("pageerror", (e) => errors.push(String(e)));

  // The frame on screen: its request's parameters, and the page's frame count.
  const shown = () => page.evaluate(() => {
    const img = document.getElementById("frame");
    return { url: img.dataset.url || "", frames: Number(img.dataset.frames || 0),
      modelRevision: Number(img.dataset.modelRevision || 0) };
  });
  // Waits until a frame whose request has `want` (name -> value) has loaded, after `after`
  // frames.
  async function frameWith(want, after = 0) {
    await page.waitForFunction((want, after) => {
      const img = document.getElementById("frame");
      if (!img.dataset.url || Number(img.dataset.frames) <= after || !img.complete) return false;
      const q = new URLSearchParams(img.dataset.url.split("?")[1]);
      return Object.entries(want).every(([k, v]) => q.get(k) === String(v));
    }, { timeout: WAIT, polling: 50 }, want, after);
    return shown();
  }
  // Keeps the picture's pixels under `name` in the page; returns how many differ from the
  // background and their mean colour.
  const snap = (name) => page.evaluate((name) => {
    const img = document.getElementById("frame");
    const c = document.createElement("canvas");
    c.width = img.naturalWidth;
    c.height = img.naturalHeight;
    const g = c.getContext("2d");
    g.drawImage(img, 0, 0);
    const d = g.getImageData(0, 0, c.width, c.height).data;
    (window.__snaps ||= {})[name] = d;
    const bg = window.mdlxView.model().background;
    let n = 0;
    const sum = [0, 0, 0];
    for (let i = 0; i < d.length; i += 4) {
      if (Math.abs(d[i] - bg[0]) + Math.abs(d[i + 1] - bg[1]) + Math.abs(d[i + 2] - bg[2]) > 12) {
        n++;
        for (let k = 0; k < 3; k++) sum[k] += d[i + k];
      }
    }
    return { width: c.width, height: c.height, notBackground: n, mean: sum.map((s) => Math.round(s / Math.max(1, n))) };
  }, name);
  // Pixels whose colour differs by more than 24 (sum over R, G, B) between two snaps.
  const diff = (a, b) => page.evaluate((a, b) => {
    const [x, y] = [window.__snaps[a], window.__snaps[b]];
    if (x.length !== y.length) return -1;
    let n = 0;
    for (let i = 0; i < x.length; i += 4) {
      if (Math.abs(x[i] - y[i]) + Math.abs(x[i + 1] - y[i + 1]) + Math.abs(x[i + 2] - y[i + 2]) > 24) n++;
    }
    return n;
  }, a, b);
  // Waits until no frame has come for 400 ms (paused, the last change has been drawn).
  async function settle() {
    for (;;) {
      const before = await shown();
      await new Promise((r) => setTimeout(r, 400));
      const now = await shown();
      const busy = await page.evaluate(() => window.mdlxView.busy());
      if (now.frames === before.frames && !busy) return now;
    }
  }
  const setTime = (ms) => page.evaluate((ms) => {
    const s = document.getElementById("time");
    s.value = String(ms);
    s.dispatchEvent(new Event("input", { bubbles: true }));
  }, ms);
  const playing = () => page.evaluate(() => window.mdlxView.view.playing);

  // 1. Loads, shows the model.
  const t0 = Date.now();
  await page.goto(url, { waitUntil: "load" });
  await frameWith({});
  result.timings.firstFrameMs = Date.now() - t0;
  if (await playing()) await page.click("#play");
  let f = await shown();
  await setTime(0);
  await frameWith({ t: 0, ss: 2 }, f.frames);
  const a = await snap("stand");
  check("the picture is not blank", a.notBackground > a.width * a.height * 0.02, a);

  // 2. The sequences.
  const names = await page.$$eval("#sequences [data-name]", (els) => els.map((e) => e.dataset.name));
  check("the sequence list reads Stand, Spin", JSON.stringify(names) === '["Stand","Spin"]', names);

  // 3. Spin, turned.
  f = await shown();
  await page.click('#sequences [data-name="Spin"]');
  await frameWith({ seq: 1, t: 0 }, f.frames);
  await snap("spin0");
  f = await shown();
  await setTime(250);
  await frameWith({ seq: 1, t: 250 }, f.frames);
  const b = await snap("spin250");
  const turned = await diff("spin0", "spin250");
  check("Spin at 250 ms (turned 45 degrees) differs from 0 ms", turned > b.width * b.height * 0.01, { turned, b });

  // 3b. The camera and the guides: a drag turns the view, the wheel zooms, the wireframe
  // draws; "Reset camera" and the box unticked give the first picture back.
  const box = await (await page.$("#frame")).boundingBox();
  const [cx, cy] = [box.x + box.width / 2, box.y + box.height / 2];
  f = await shown();
  await page.mouse.move(cx, cy);
  await page.mouse.down();
  await page.mouse.move(cx + 60, cy + 20, { steps: 4 });
  await page.mouse.up();
  await page.waitForFunction(() => !document.getElementById("frame").dataset.url.includes("yaw=35.0&"),
    { timeout: WAIT, polling: 50 });
  f = await settle();
  await snap("dragged");
  const dragged = await diff("spin250", "dragged");
  check("dragging orbits the camera", dragged > 0 && !f.url.includes("yaw=35.0&"), { dragged, url: f.url });
  await page.click("#reset");
  await page.mouse.move(cx, cy);
  await page.mouse.wheel({ deltaY: -400 });
  await page.waitForFunction(() => !document.getElementById("frame").dataset.url.includes("zoom=1.000"),
    { timeout: WAIT, polling: 50 });
  await settle();
  const zoomedIn = await page.evaluate(() => window.mdlxView.view.zoom);
  const bigger = (await snap("zoomed")).notBackground;
  check("the wheel zooms in", zoomedIn > 1 && bigger > b.notBackground, { zoomedIn, bigger, before: b.notBackground });
  await page.click("#reset");
  f = await shown();
  await page.click("#wire");
  await frameWith({ seq: 1, t: 250, wire: 1, yaw: "35.0", zoom: "1.000" }, f.frames);
  await snap("wire");
  const wired = await diff("spin250", "wire");
  check("the wireframe box draws", wired > 100, { wired });
  await page.click("#wire");

  // 4. Playing: frames one at a time; the count over 3 s and what they took.
  await page.click("#play");
  const before = (await shown()).frames;
  const started = Date.now();
  await new Promise((r) => setTimeout(r, 3000));
  const during = await page.evaluate(() => window.mdlxView.stats.times.slice());
  const after = (await shown()).frames;
  const seconds = (Date.now() - started) / 1000;
  const recent = during.slice(-(after - before));
  const median = (xs) => { const s = xs.slice().sort((p, q) => p - q); return s.length ? s[Math.floor(s.length / 2)] : 0; };
  result.timings.playing = {
    frames: after - before, seconds, framesPerSecond: (after - before) / seconds,
    medianRenderMs: median(recent.map((t) => t.render)),
    medianEncodeMs: median(recent.map((t) => t.encode)),
    medianRoundTripMs: median(recent.map((t) => t.roundTrip)),
  };
  check("playing, frames keep coming", after - before >= 3, result.timings.playing);
  await page.click("#play");
  f = await shown();
  await setTime(250);
  await frameWith({ seq: 1, t: 250, ss: 2 }, f.frames);
  await snap("spin250again");
  const same = await diff("spin250", "spin250again");
  check("the same moment draws the same picture", same === 0, { same });

  // 5. An edit on disk: a geoset animation colour.
  const good = await fs.readFile(mdl, "utf8");
  const rev0 = (await shown()).modelRevision;
  const edited = good.replace('Bone "Root" {', 'GeosetAnim {\n\tstatic Color { 0.2, 0.4, 1 },\n\tGeosetId 0,\n}\nBone "Root" {');
  check("the edit applies to the file", edited !== good, {});
  const tEdit = Date.now();
  await fs.writeFile(mdl, edited);
  await page.waitForFunction((r) => Number(document.getElementById("frame").dataset.modelRevision) > r,
    { timeout: WAIT, polling: 50 }, rev0);
  result.timings.editToNewPictureMs = Date.now() - tEdit;
  const c = await snap("edited");
  const recoloured = await diff("spin250", "edited");
  const shift = c.mean.reduce((s, m, k) => s + Math.abs(m - b.mean[k]), 0);
  check("the edit shows: the picture changed colour", recoloured > b.notBackground * 0.5 && shift > 60,
    { recoloured, before: b.mean, after: c.mean });

  // 6. A broken file: the banner, and the last good picture.
  const rev1 = (await shown()).modelRevision;
  const revSeen = await page.evaluate(() => Number(document.body.dataset.revision));
  const broken = edited.replace("FilterMode None,", "FilterMode Nonsense,");
  check("the break applies to the file", broken !== edited, {});
  // The frame count before the break: the page asks for a frame when the error arrives,
  // and that frame may come before the banner is read (counting after it raced).
  f = await shown();
  await fs.writeFile(mdl, broken);
  await page.waitForFunction((r) => Number(document.body.dataset.revision) > r && !document.getElementById("error").hidden,
    { timeout: WAIT, polling: 50 }, revSeen);
  const banner = await page.evaluate(() => ({
    at: document.getElementById("error-at").textContent,
    message: document.getElementById("error-message").textContent,
  }));
  const base = path.basename(mdl);
  check("the error banner names file:line:col", banner.at.includes(base) && /:\d+:\d+/.test(banner.at), banner);
  await frameWith({ seq: 1, t: 250 }, f.frames);
  const d = await shown();
  await snap("broken");
  const kept = await diff("edited", "broken");
  check("the last good picture stays", kept === 0 && d.modelRevision === rev1, { kept, modelRevision: d.modelRevision, rev1 });

  // 7. Restored.
  await fs.writeFile(mdl, edited);
  await page.waitForFunction(() => document.getElementById("error").hidden, { timeout: WAIT, polling: 50 });
  check("the banner goes once the file reads again", true, {});
  check("no script errors on the page", errors.length === 0, errors);
  result.ok = true;
} catch (e) {
  result.error = String(e && e.message ? e.message : e);
  console.error("view-judge: " + result.error);
} finally {
  await browser.close().catch(() => {});
  await fs.rm(profile, { recursive: true, force: true }).catch(() => {});
}
console.log(JSON.stringify(result));
process.exit(result.ok ? 0 : 1);
