#!/usr/bin/env node
// convert-all.js - MDX -> MDL with the peer libraries, for the peer MDL check.
//
// Usage:
//   node tools/peer-mdl/convert-all.js PEER_NODE_DIR MDX_DIR OUT_DIR
//   e.g. node tools/peer-mdl/convert-all.js /tmp/peers/node ../shared/corpus/mdx /tmp/mdl-out
//
// PEER_NODE_DIR is the folder whose node_modules holds mdx-m3-viewer and war3-model
// (made by ../shared/peers/SETUP.sh). Every *.mdx directly in MDX_DIR is loaded with
// each tool and saved as MDL:
//   m3v  mdx-m3-viewer: new Model(); loadMdx(bytes); saveMdl()  -> OUT_DIR/m3v/NAME.mdl (UTF-8)
//   w3m  war3-model:    parseMDX(arrayBuffer); generateMDL(m)    -> OUT_DIR/w3m/NAME.mdl (latin1)
// (NAME is the file name without `.mdx`.) The encodings are the ones each library uses
// for strings: mdx-m3-viewer decodes MDX strings as UTF-8, war3-model maps bytes 1:1 to
// char codes. Files a tool cannot load or convert are listed, one per line with the error
// (NAME.mdx<TAB>error), in OUT_DIR/<tool>/skipped.txt; a summary goes to stderr.
//
// Each tool runs in its own worker thread (both at once), converting every file in turn;
// a file that takes longer than PEER_FILE_TIMEOUT_S seconds (default 60) or exhausts the
// worker's heap (PEER_WORKER_HEAP_MB, default 2048) is skipped, the worker is thrown away
// and a new one resumes at the next file. Exit status: 0 unless a tool could not be
// loaded at all or the arguments are wrong (2).
'use strict';

const fs = require('fs');
const path = require('path');
const { Worker, isMainThread, parentPort, workerData } = require('worker_threads');

const FILE_TIMEOUT_S = Number(process.env.PEER_FILE_TIMEOUT_S || 60);
const WORKER_HEAP_MB = Number(process.env.PEER_WORKER_HEAP_MB || 2048);

// tool -> (peerDir) -> { encoding, convert(Buffer) -> string }
const TOOLS = {
  m3v(peerDir) {
    const p = require.resolve('mdx-m3-viewer/dist/cjs/parsers/mdlx/model', { paths: [peerDir] });
    const Model = require(p).default;
    return {
      encoding: 'utf8',
      convert(buf) {
        const m = new Model();
        m.loadMdx(new Uint8Array(buf.buffer, buf.byteOffset, buf.byteLength));
        return m.saveMdl();
      },
    };
  },
  w3m(peerDir) {
    const w = require(require.resolve('war3-model', { paths: [peerDir] }));
    return {
      encoding: 'latin1',
      convert(buf) {
        const ab = buf.buffer.slice(buf.byteOffset, buf.byteOffset + buf.byteLength);
        return w.generateMDL(w.parseMDX(ab));
      },
    };
  },
};

function oneLine(err) {
  const s = err && err.message ? err.message : String(err);
  return (err && err.name && err.name !== 'Error' ? err.name + ': ' : '') + s.replace(/\s+/g, ' ').trim();
}

// ------------------------------------------------------------------ worker --

function workerMain() {
  const { tool, peerDir, mdxDir, outDir, files, start } = workerData;
  const T = TOOLS[tool](peerDir);
  for (let i = start; i < files.length; i++) {
    parentPort.postMessage({ i, phase: 'start' });
    let error = null;
    try {
      const text = T.convert(fs.readFileSync(path.join(mdxDir, files[i])));
      if (typeof text !== 'string') throw new Error(`MDL writer returned ${typeof text}`);
      const name = files[i].replace(/\.mdx$/i, '.mdl');
      fs.writeFileSync(path.join(outDir, name), Buffer.from(text, T.encoding));
    } catch (e) {
      error = oneLine(e);
    }
    parentPort.postMessage({ i, phase: 'done', error });
  }
}

// -------------------------------------------------------------------- main --

// Converts `files` with `tool`, restarting the worker after a hang or crash.
async function runTool(tool, peerDir, mdxDir, outDir, files) {
  const skipped = [];
  let ok = 0;
  let next = 0;
  while (next < files.length) {
    const start = next;
    next = await new Promise((resolve) => {
      const w = new Worker(__filename, {
        workerData: { tool, peerDir, mdxDir, outDir, files, start },
        resourceLimits: { maxOldGenerationSizeMb: WORKER_HEAP_MB },
      });
      let pending = null;
      let lastDone = start - 1;
      let timer = null;
      let settled = false;
      const settle = (n) => {
        if (!settled) {
          settled = true;
          clearTimeout(timer);
          resolve(n);
        }
      };
      const giveUp = (why) => {
        const i = pending !== null ? pending : lastDone + 1;
        if (i >= files.length) return settle(files.length);
        if (i === start && pending === null) {
          // The worker died before converting anything: the tool itself does not load.
          process.stderr.write(`convert-all: ${tool}: ${why}\n`);
          process.exitCode = 1;
          return settle(files.length);
        }
        skipped.push(`${files[i]}\t${why}`);
        settle(i + 1);
      };
      w.on('message', (m) => {
        if (settled) return;
        if (m.phase === 'start') {
          pending = m.i;
          clearTimeout(timer);
          timer = setTimeout(() => {
            giveUp(`timeout: no result after ${FILE_TIMEOUT_S}s`);
            w.terminate();
          }, FILE_TIMEOUT_S * 1000);
        } else {
          clearTimeout(timer);
          pending = null;
          lastDone = m.i;
          if (m.error === null) ok++;
          else skipped.push(`${files[m.i]}\t${m.error}`);
        }
      });
      w.on('error', (e) => giveUp(`worker died: ${oneLine(e)}`));
      w.on('exit', (code) => {
        if (settled) return;
        if (pending !== null || lastDone + 1 < files.length) giveUp(`worker exited with code ${code}`);
        else settle(files.length);
      });
    });
  }
  skipped.sort();
  fs.writeFileSync(path.join(outDir, 'skipped.txt'), skipped.map((s) => s + '\n').join(''));
  process.stderr.write(`convert-all: ${tool}: ${ok} converted, ${skipped.length} skipped\n`);
}

async function main(argv) {
  if (argv.length !== 3) {
    process.stderr.write('usage: node convert-all.js PEER_NODE_DIR MDX_DIR OUT_DIR\n');
    process.exit(2);
  }
  const [peerDir, mdxDir, outRoot] = argv.map((a) => path.resolve(a));
  const files = fs
    .readdirSync(mdxDir, { withFileTypes: true })
    .filter((e) => (e.isFile() || e.isSymbolicLink()) && /\.mdx$/i.test(e.name))
    .map((e) => e.name)
    .sort();
  await Promise.all(
    Object.keys(TOOLS).map((tool) => {
      const outDir = path.join(outRoot, tool);
      fs.mkdirSync(outDir, { recursive: true });
      return runTool(tool, peerDir, mdxDir, outDir, files);
    }),
  );
}

if (isMainThread) {
  main(process.argv.slice(2)).catch((e) => {
    process.stderr.write(`convert-all: error: ${oneLine(e)}\n`);
    process.exit(1);
  });
} else {
  workerMain();
}
