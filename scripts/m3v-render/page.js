// page.js - the browser half of render.mjs: draws one MDX job at a time with mdx-m3-viewer
// (the global `ModelViewer` of its UMD bundle) and hands back the canvas as a PNG data URL.
//
// render.mjs calls, through puppeteer:
//   m3vRender.init({width, height, antialias})  -> {glRenderer, viewerVersion}
//   m3vRender.job(job)                          -> {png, warnings, missing, unsupplied, stats}
// where job = {modelUrl, texBase, camera, sequence, time_ms, team_color, step_ms, lenient, seed,
// background: [r, g, b, a] 0-255}.
// A job that cannot be drawn rejects with an Error whose message says why.
//
// What the page supplies to the viewer (its path solver):
//  - textures (.blp .tga .dds .png .jpg .jpeg .gif .webp) are fetched from texBase + the
//    path as the model writes it (a .tif as the .dds of the same name, which is what the
//    game reads); the server resolves it against the job's folders;
//  - the team colour and team glow images the viewer asks for
//    (ReplaceableTextures\TeamColor\TeamColorNN, ReplaceableTextures\TeamGlow\TeamGlowNN) are
//    generated here, never read from a folder: team colour = an 8x8 image of the player's
//    colour, opaque; team glow = 64x64, the player's colour in every pixel, alpha
//    round(255 * max(0, 1 - d)) where d is the distance of the pixel centre from the image
//    centre divided by 32 (a radial glow that fades to nothing at the edge);
//  - nothing else: attached models, particle emitter 1's models and event objects' tables
//    (SLK files) and sounds are not supplied, so the viewer draws none of those.
'use strict';

(() => {
  const MV = window.ModelViewer;
  const handlers = MV.viewer.handlers;

  // The classic game's player colours (0 red, 1 blue, ... 11 brown) and four more.
  const TEAM_COLORS = [
    [255, 3, 3], [0, 66, 255], [28, 230, 185], [84, 0, 129], [255, 252, 1], [254, 138, 14],
    [32, 192, 0], [229, 91, 176], [149, 150, 151], [126, 191, 241], [16, 98, 70], [78, 42, 4],
    [155, 0, 0], [0, 0, 195], [0, 234, 255], [190, 0, 254],
  ];
  const IMAGE_EXT = /\.(blp|tga|dds|png|jpe?g|gif|webp)$/i;
  const TEAM_PATH = /^ReplaceableTextures[\\/]Team(Color|Glow)[\\/]Team(?:Color|Glow)(\d+)\.[a-z0-9]+$/i;

  function teamImage(kind, index) {
    const rgb = TEAM_COLORS[index % TEAM_COLORS.length];
    const size = kind === 'color' ? 8 : 64;
    const img = new ImageData(size, size);
    const half = size / 2;
    for (let y = 0; y < size; y++) {
      for (let x = 0; x < size; x++) {
        const o = (y * size + x) * 4;
        img.data[o] = rgb[0]; img.data[o + 1] = rgb[1]; img.data[o + 2] = rgb[2];
        if (kind === 'color') img.data[o + 3] = 255;
        else {
          const d = Math.hypot(x + 0.5 - half, y + 0.5 - half) / half;
          img.data[o + 3] = Math.round(255 * Math.max(0, 1 - d));
        }
      }
    }
    return img;
  }

  // A small seeded generator (mulberry32) that replaces Math.random while a job runs, so
  // that the viewer's particle emission (which draws on Math.random) is the same every run.
  function seeded(seed) {
    let a = seed >>> 0;
    return () => {
      a = (a + 0x6d2b79f5) >>> 0;
      let t = a;
      t = Math.imul(t ^ (t >>> 15), t | 1);
      t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
      return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
    };
  }

  let viewer = null;
  let canvas = null;
  // The job being drawn: where its textures come from and what it has reported so far.
  let current = null;

  function pathSolver(src) {
    if (typeof src !== 'string') return src; // the model itself, handed over already parsed
    const team = TEAM_PATH.exec(src);
    if (team) return teamImage(team[1].toLowerCase() === 'color' ? 'color' : 'glow', +team[2]);
    // Reforged models name `.tif` textures; the game reads the `.dds` of the same name.
    if (/\.tiff?$/i.test(src)) src = src.replace(/\.tiff?$/i, '.dds');
    if (current && IMAGE_EXT.test(src)) return current.texBase + encodeURIComponent(src);
    if (current && src !== '') current.unsupplied.add(src);
    return undefined;
  }

  function init({ width, height, antialias }) {
    canvas = document.getElementById('view');
    canvas.width = width;
    canvas.height = height;
    // premultipliedAlpha false: the canvas keeps the colour and alpha the viewer's blending
    // wrote, and toDataURL hands them over unchanged. preserveDrawingBuffer: read after drawing.
    viewer = new MV.viewer.ModelViewer(canvas, {
      alpha: true, premultipliedAlpha: false, preserveDrawingBuffer: true, antialias: !!antialias,
    });
    viewer.addHandler(handlers.mdx, pathSolver);
    viewer.addHandler(handlers.blp);
    viewer.addHandler(handlers.tga);
    viewer.addHandler(handlers.dds);
    viewer.on('error', (e) => {
      if (!current) return;
      // A table or sound the path solver did not supply (listed in `unsupplied`) is
      // fetched by the viewer anyway, from no address: not news.
      if (/generic resource/.test(e.error) && !e.fetchUrl) return;
      const what = e.fetchUrl && e.fetchUrl.startsWith(current.texBase)
        ? decodeURIComponent(e.fetchUrl.slice(current.texBase.length)) : null;
      if (what && /Failed to fetch/.test(e.error)) current.missing.add(what);
      else current.warnings.push(`${e.error}${what ? `: ${what}` : ''}${e.reason && e.reason.message ? ` (${e.reason.message})` : ''}`);
    });
    const gl = viewer.gl;
    const dbg = gl.getExtension('WEBGL_debug_renderer_info');
    const glRenderer = dbg ? gl.getParameter(dbg.UNMASKED_RENDERER_WEBGL) : gl.getParameter(gl.RENDERER);
    return { glRenderer, viewerVersion: MV.version };
  }

  /** Parses the file strictly (the viewer's own load goes on past errors); null when fine. */
  function strictParse(bytes) {
    const parser = new MV.parsers.mdlx.Model();
    try {
      parser.load(bytes);
      return { parser, error: null };
    } catch (e) {
      return { parser: null, error: String(e && e.message ? e.message : e) };
    }
  }

  /** Advances the instance from the sequence start to time_ms in fixed steps. */
  function simulate(instance, job) {
    const step = job.step_ms;
    let left = job.sequence === null ? 0 : job.time_ms;
    let steps = 0;
    while (left > 1e-9) {
      const dt = Math.min(step, left);
      viewer.update(dt);
      left -= dt;
      steps++;
    }
    if (job.sequence !== null) {
      // The viewer adds up float steps; put the animation clock exactly on time_ms (when it
      // lies inside the sequence, where no wrap-around or clamp happened) and evaluate the
      // nodes there with a zero step, which emits nothing and moves no particle.
      const seq = instance.model.sequences[job.sequence];
      const [start, end] = seq.interval;
      if (job.time_ms < end - start) {
        instance.frame = start + job.time_ms;
        instance.counter = job.time_ms;
      }
    }
    viewer.update(0);
    return steps + 1;
  }

  function draw(scene, background) {
    const gl = viewer.gl;
    gl.disable(gl.SCISSOR_TEST);
    gl.depthMask(true);
    gl.clearColor(background[0] / 255, background[1] / 255, background[2] / 255, background[3] / 255);
    gl.clear(gl.COLOR_BUFFER_BIT | gl.DEPTH_BUFFER_BIT);
    gl.enable(gl.SCISSOR_TEST);
    scene.render(); // scene.alpha is true: it does not clear to opaque black itself
  }

  async function job(j) {
    const realRandom = Math.random;
    current = { texBase: j.texBase, missing: new Set(), unsupplied: new Set(), warnings: [] };
    let scene = null;
    let model = null;
    try {
      Math.random = seeded(j.seed);
      const response = await fetch(j.modelUrl);
      if (!response.ok) throw new Error(`cannot read the model (HTTP ${response.status})`);
      const bytes = new Uint8Array(await response.arrayBuffer());
      const { parser, error } = strictParse(bytes);
      if (error && !j.lenient) throw new Error(`mdx-m3-viewer's parser rejects the file: ${error}`);
      if (error) current.warnings.push(`parser error (drawn anyway, lenient): ${error}`);

      scene = viewer.addScene();
      scene.alpha = true;
      const cam = j.camera;
      scene.camera.perspective(cam.fov_y, canvas.width / canvas.height, cam.near, cam.far);
      scene.camera.moveToAndFace(new Float32Array(cam.eye), new Float32Array(cam.target), new Float32Array(cam.up));

      model = await viewer.load(parser || bytes, pathSolver);
      if (!model) throw new Error(`mdx-m3-viewer cannot load the model: ${current.warnings.join('; ') || 'no reason given'}`);
      await viewer.whenAllLoaded();

      if (j.sequence !== null && !(j.sequence >= 0 && j.sequence < model.sequences.length)) {
        throw new Error(`no sequence ${j.sequence} (the model has ${model.sequences.length})`);
      }
      const instance = model.addInstance();
      // No culling by the file's extents: a judge draws whatever geometry is there.
      instance.isVisible = () => { instance.depth = 0; return true; };
      instance.setTeamColor(j.team_color);
      instance.setSequence(j.sequence === null ? -1 : j.sequence);
      scene.addInstance(instance);
      const updates = simulate(instance, j);
      draw(scene, j.background);
      const png = canvas.toDataURL('image/png');
      return {
        png,
        missing: [...current.missing].sort(),
        unsupplied: [...current.unsupplied].sort(),
        warnings: current.warnings,
        stats: { updates, particles: scene.emittedObjectUpdater.alive, sequences: model.sequences.length },
      };
    } finally {
      Math.random = realRandom;
      if (scene) { scene.clear(); viewer.removeScene(scene); }
      if (model) viewer.unload(model);
      current = null;
    }
  }

  window.m3vRender = { init, job };
})();
