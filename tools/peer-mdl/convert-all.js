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
// Each tool runs in its own worker thread (both at once, see peers.js), converting every
// file in turn; a file that takes longer than PEER_FILE_TIMEOUT_S seconds (default 60) or
// exhausts the worker's heap (PEER_WORKER_HEAP_MB, default 2048) is skipped, the worker is
// thrown away and a new one resumes at the next file. Exit status: 0 unless a tool could
// not be loaded at all (1) or the arguments are wrong (2).
'use strict';

const fs = require('fs');
const path = require('path');
const { isMainThread, parentPort, workerData } = require('worker_threads');
const { TOOLS, oneLine, runSteps } = require('./peers');

const FILE_TIMEOUT_S = Number(process.env.PEER_FILE_TIMEOUT_S || 60);
const WORKER_HEAP_MB = Number(process.env.PEER_WORKER_HEAP_MB || 2048);

// ------------------------------------------------------------------ worker --

function workerMain() {
  const { tool, peerDir, mdxDir, outDir, files, start } = workerData;
  const T = TOOLS[tool](peerDir);
  for (let k = start; k < files.length; k++) {
    parentPort.postMessage({ k, phase: 'start' });
    let error = null;
    try {
      const text = T.saveMdl(T.loadMdx(fs.readFileSync(path.join(mdxDir, files[k]))));
      if (typeof text !== 'string') throw new Error(`MDL writer returned ${typeof text}`);
      const name = files[k].replace(/\.mdx$/i, '.mdl');
      fs.writeFileSync(path.join(outDir, name), Buffer.from(text, T.encoding));
    } catch (e) {
      error = oneLine(e);
    }
    parentPort.postMessage({ k, phase: 'done', r: { error } });
  }
}

// -------------------------------------------------------------------- main --

async function convertAll(tool, peerDir, mdxDir, outDir, files) {
  const skipped = [];
  let ok = 0;
  await runSteps({
    script: __filename,
    tool,
    count: files.length,
    data: { peerDir, mdxDir, outDir, files },
    timeoutS: FILE_TIMEOUT_S,
    heapMb: WORKER_HEAP_MB,
    label: 'convert-all',
    onResult(k, r) {
      if (r.error) skipped.push(`${files[k]}\t${r.error}`);
      else ok++;
    },
  });
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
      return convertAll(tool, peerDir, mdxDir, outDir, files);
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
