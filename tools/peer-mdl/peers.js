// peers.js - what convert-all.js and read-ours.js share: loading each peer library the
// same way, and running a tool's steps in a worker thread that is replaced when a step
// hangs or kills it (war3-model's MDL parser can loop forever; a huge model can exhaust
// the heap).
'use strict';

const { Worker } = require('worker_threads');

// tool -> (peerDir) -> { encoding, loadMdx(Buffer), loadMdl(string), saveMdx(m), saveMdl(m) }.
// `encoding` is how the tool decodes MDL text: UTF-8 for m3v, latin1 (bytes 1:1 to char
// codes) for w3m.
const TOOLS = {
  m3v(peerDir) {
    const p = require.resolve('mdx-m3-viewer/dist/cjs/parsers/mdlx/model', { paths: [peerDir] });
    const Model = require(p).default;
    return {
      encoding: 'utf8',
      loadMdx(buf) {
        const m = new Model();
        m.loadMdx(new Uint8Array(buf.buffer, buf.byteOffset, buf.byteLength));
        return m;
      },
      loadMdl(text) {
        const m = new Model();
        m.loadMdl(text);
        return m;
      },
      saveMdx: (m) => m.saveMdx(),
      saveMdl: (m) => m.saveMdl(),
    };
  },
  w3m(peerDir) {
    const w = require(require.resolve('war3-model', { paths: [peerDir] }));
    return {
      encoding: 'latin1',
      loadMdx: (buf) => w.parseMDX(buf.buffer.slice(buf.byteOffset, buf.byteOffset + buf.byteLength)),
      loadMdl: (text) => w.parseMDL(text),
      saveMdx: (m) => new Uint8Array(w.generateMDX(m)),
      saveMdl: (m) => w.generateMDL(m),
    };
  },
};

// An error as one line, with its type when it is not a plain Error.
function oneLine(err) {
  const s = err && err.message ? err.message : String(err);
  return (err && err.name && err.name !== 'Error' ? err.name + ': ' : '') + s.replace(/\s+/g, ' ').trim();
}

// Runs steps 0..count-1 of `tool` in workers started from `script` with workerData
// `{...data, tool, start}`. The worker posts `{k, phase: 'start'}` before step k and
// `{k, phase: 'done', r}` after it (transferring r.bytes' buffer, if any). onResult(k, r) is
// called once per step, in order; a step that takes longer than `timeoutS` or kills the
// worker gets `{error: why}` and a new worker goes on with the next step. When the very
// first step of a worker fails before starting (the tool cannot be loaded), every step
// left gets `{error: 'tool not loaded: why'}` and the exit code is set to 1.
async function runSteps({ script, tool, count, data, timeoutS, heapMb, label, onResult }) {
  let next = 0;
  while (next < count) {
    const start = next;
    next = await new Promise((resolve) => {
      const w = new Worker(script, {
        workerData: { ...data, tool, start },
        resourceLimits: { maxOldGenerationSizeMb: heapMb },
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
        const k = pending !== null ? pending : lastDone + 1;
        if (k >= count) return settle(count);
        if (k === start && pending === null) {
          process.stderr.write(`${label}: ${tool}: ${why}\n`);
          process.exitCode = 1;
          for (let j = k; j < count; j++) onResult(j, { error: `tool not loaded: ${why}` });
          return settle(count);
        }
        onResult(k, { error: why });
        settle(k + 1);
      };
      w.on('message', (m) => {
        if (settled) return;
        if (m.phase === 'start') {
          pending = m.k;
          clearTimeout(timer);
          timer = setTimeout(() => {
            giveUp(`timeout: no result after ${timeoutS}s`);
            w.terminate();
          }, timeoutS * 1000);
        } else {
          clearTimeout(timer);
          pending = null;
          lastDone = m.k;
          onResult(m.k, m.r);
        }
      });
      w.on('error', (e) => giveUp(`worker died: ${oneLine(e)}`));
      w.on('exit', (code) => {
        if (settled) return;
        if (pending !== null || lastDone + 1 < count) giveUp(`worker exited with code ${code}`);
        else settle(count);
      });
    });
  }
}

module.exports = { TOOLS, oneLine, runSteps };
