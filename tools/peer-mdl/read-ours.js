#!/usr/bin/env node
// read-ours.js - do the peer libraries read the MDL we write, and read it as they read
// the MDX it came from? The measuring instrument of crates/mdlx/tests/peer_reads_our_mdl.rs.
//
// Usage:
//   node tools/peer-mdl/read-ours.js PEER_NODE_DIR LIST_FILE OUT_JSONL [BYTES_DIR]
//
// PEER_NODE_DIR is the folder whose node_modules holds mdx-m3-viewer and war3-model (made
// by ../shared/peers/SETUP.sh; scripts/peer-mdl.sh). LIST_FILE has one line per model,
// `ORIGINAL.mdx<TAB>OURS.mdl`; further tab-separated columns name more MDL files of the
// same model (other writer variants), each judged like the first, so that the work on the
// original is done once. An ORIGINAL of `-` makes an evidence line: the tool only reads
// the MDL (someone else's, to show it fails on a construct there too), and the row says
// {file: '-', ours, tool, evidence: true, reads_ours, ours_error?, ours_error_in?}.
//
// For each line and each tool (m3v: mdx-m3-viewer, w3m: war3-model), three MDX files are
// made with the tool, all in memory:
//   A  the tool's MDX from the original MDX       (load MDX, save MDX)
//   B  the tool's MDX from our MDL                 (load MDL, save MDX)
//   C  the tool's MDX from its own MDL of the original (load MDX, save MDL, load that MDL,
//      save MDX): when B differs from A the same way C does, the tool loses the thing on
//      its own MDL too, so the difference is the tool's, not our text's.
// MDL text is decoded as each tool decodes strings: UTF-8 for m3v, latin1 (bytes 1:1 to
// char codes) for w3m; C's text goes through the same encoding as a file would.
//
// One JSON line per (line, MDL column, tool) goes to OUT_JSONL, in no particular order:
//   {file, ours, tool, reads_mdx, mdx_error?, reads_ours, ours_error?, ours_error_in?,
//    own_error?,
//    equal (A==B), own_equal (A==C), b_equals_c (B==C),
//    first_diff?: {offset, chunk, chunks}        A vs B, when both exist and differ
//    own_first_diff?: {offset, chunk, chunks}    A vs C, likewise,
//    a_mdx?, b_mdx?, c_mdx?}
// With BYTES_DIR, the MDX files of a row whose B differs from A are written there
// (`TOOL/LINE.A.mdx`, `TOOL/LINE.C.mdx`, `TOOL/LINE.B<column>.mdx`) and named in the row,
// so that the differences can be looked at field by field (peer_reads_our_mdl.rs reads
// them with our reader).
// `offset` is the first differing byte, `chunk` the tag of the top-level chunk of A
// holding it (of B past A's end; `MDLX` for the magic, `?` outside any chunk) and
// `chunks` the sorted tags whose bytes differ: the n-th chunk of a tag in A against the
// n-th in B, a tag missing on one side counting as differing. When the tool does not
// read the original MDX, nothing else is tried (reads_ours false, no error).
// `ours_error_in` is the keyword of the statement being read when the error names a
// position (war3-model's syntax errors): the last line before it that starts with a word.
//
// Each tool runs in its own worker thread (both at once). Every step (A, C, each B) is
// timed on its own: one that takes longer than PEER_FILE_TIMEOUT_S seconds (default 30)
// or exhausts the worker's heap (PEER_WORKER_HEAP_MB, default 2048) fails with a
// `timeout`/`worker died` error, the worker is thrown away and a new one goes on with the
// next step (war3-model's MDL parser can loop forever). Exit status 0 unless the
// arguments are wrong (2) or a tool cannot be loaded at all (1).
'use strict';

const fs = require('fs');
const path = require('path');
const { isMainThread, parentPort, workerData } = require('worker_threads');
const { TOOLS, oneLine, runSteps } = require('./peers');

const FILE_TIMEOUT_S = Number(process.env.PEER_FILE_TIMEOUT_S || 30);
const WORKER_HEAP_MB = Number(process.env.PEER_WORKER_HEAP_MB || 2048);

// ------------------------------------------------------------------ worker --

// For an error that names a place in the text (war3-model: `SyntaxError, near POS`),
// the keyword that opens the last line before it that starts with a word: the statement
// or block being read (e.g. `SkinWeights` for an error among its numbers).
function where(text, e) {
  const m = /near (\d+)/.exec(e && e.message ? e.message : '');
  if (!m) return undefined;
  const before = text.slice(0, Number(m[1]));
  let last;
  for (const k of before.matchAll(/^[ \t]*([A-Za-z][A-Za-z0-9]*)/gm)) last = k[1];
  return last;
}

// One step: {i, kind: 'A' | 'C' | 'B', path}. Returns {bytes} or {error, where?}.
function step(T, s) {
  try {
    const buf = fs.readFileSync(s.path);
    let out;
    if (s.kind === 'A') out = T.saveMdx(T.loadMdx(buf));
    else if (s.kind === 'B') {
      const text = buf.toString(T.encoding);
      try {
        out = T.saveMdx(T.loadMdl(text));
      } catch (e) {
        return { error: oneLine(e), where: where(text, e) };
      }
    }
    else {
      const text = T.saveMdl(T.loadMdx(buf));
      if (typeof text !== 'string') throw new Error(`MDL writer returned ${typeof text}`);
      out = T.saveMdx(T.loadMdl(Buffer.from(text, T.encoding).toString(T.encoding)));
    }
    if (!(out instanceof Uint8Array)) throw new Error(`MDX writer returned ${typeof out}`);
    return { bytes: out };
  } catch (e) {
    return { error: oneLine(e) };
  }
}

function workerMain() {
  const { tool, peerDir, steps, start, failed } = workerData;
  const T = TOOLS[tool](peerDir);
  const noMdx = new Set(failed); // lines whose original the tool does not read
  for (let k = start; k < steps.length; k++) {
    parentPort.postMessage({ k, phase: 'start' });
    const s = steps[k];
    const r = s.kind !== 'A' && noMdx.has(s.i) ? { error: 'not tried' } : step(T, s);
    if (s.kind === 'A' && r.error) noMdx.add(s.i);
    parentPort.postMessage({ k, phase: 'done', r }, r.bytes ? [r.bytes.buffer] : []);
  }
}

// -------------------------------------------------------------- comparing --

// Top-level chunks of an MDX: [{tag, start, end}] (end clipped to the data); the magic is
// the chunk `MDLX` of 4 bytes.
function chunks(b) {
  const out = [];
  if (b.length < 4) return out;
  out.push({ tag: 'MDLX', start: 0, end: 4 });
  let p = 4;
  while (p + 8 <= b.length) {
    const tag = Buffer.from(b.subarray(p, p + 4)).toString('latin1');
    const size = b[p + 4] | (b[p + 5] << 8) | (b[p + 6] << 16) | (b[p + 7] << 24);
    const end = Math.min(b.length, p + 8 + (size >>> 0));
    out.push({ tag, start: p, end });
    p = end;
  }
  return out;
}

function equalBytes(a, b) {
  return a.length === b.length && Buffer.compare(Buffer.from(a.buffer, a.byteOffset, a.length), Buffer.from(b.buffer, b.byteOffset, b.length)) === 0;
}

// {offset, chunk, chunks} for two different MDX files.
function diff(a, b) {
  const n = Math.min(a.length, b.length);
  let offset = n;
  for (let i = 0; i < n; i++) {
    if (a[i] !== b[i]) {
      offset = i;
      break;
    }
  }
  const ca = chunks(a);
  const cb = chunks(b);
  const holder = (cs, at) => cs.find((c) => at >= c.start && at < c.end);
  const h = holder(ca, offset) || holder(cb, offset);
  // The n-th chunk of each tag against the n-th of that tag on the other side.
  const byTag = (cs, bytes) => {
    const m = new Map();
    for (const c of cs) {
      if (!m.has(c.tag)) m.set(c.tag, []);
      m.get(c.tag).push(bytes.subarray(c.start, c.end));
    }
    return m;
  };
  const ta = byTag(ca, a);
  const tb = byTag(cb, b);
  const differ = new Set();
  for (const tag of new Set([...ta.keys(), ...tb.keys()])) {
    const xa = ta.get(tag) || [];
    const xb = tb.get(tag) || [];
    if (xa.length !== xb.length || xa.some((x, k) => !equalBytes(x, xb[k]))) differ.add(tag);
  }
  return { offset, chunk: h ? h.tag : '?', chunks: [...differ].sort() };
}

// -------------------------------------------------------------------- main --

// Runs `steps` with `tool` (see peers.js); calls onResult(k, r) once per step, in order.
async function runTool(tool, peerDir, steps, onResult) {
  const failed = []; // lines whose A failed, for the workers that come after
  await runSteps({
    script: __filename,
    tool,
    count: steps.length,
    data: { peerDir, steps, failed },
    timeoutS: FILE_TIMEOUT_S,
    heapMb: WORKER_HEAP_MB,
    label: 'read-ours',
    onResult(k, r) {
      if (steps[k].kind === 'A' && r.error) failed.push(steps[k].i);
      onResult(k, r);
    },
  });
}

// The steps of one tool: per line A, then C and every B (not tried when A failed).
async function judge(tool, peerDir, lines, out, bytesDir) {
  const kept = new Set(); // A and C serve every MDL column of a line: written once
  const keep = (i, name, bytes) => {
    const p = path.join(bytesDir, tool, `${i}.${name}.mdx`);
    if (!kept.has(p)) fs.writeFileSync(p, bytes);
    kept.add(p);
    return p;
  };
  if (bytesDir) fs.mkdirSync(path.join(bytesDir, tool), { recursive: true });
  const steps = [];
  for (let i = 0; i < lines.length; i++) {
    const [orig, ...ours] = lines[i];
    if (orig !== '-') {
      steps.push({ i, kind: 'A', path: orig });
      steps.push({ i, kind: 'C', path: orig });
    }
    ours.forEach((p, j) => steps.push({ i, kind: 'B', j, path: p }));
  }
  const res = new Map(); // i -> {A, C, B: []}
  let rows = 0;
  const emit = (i) => {
    const r = res.get(i);
    const [orig, ...ours] = lines[i];
    ours.forEach((p, j) => {
      const row = { file: orig, ours: p, tool };
      if (orig === '-') {
        // An evidence line: only whether the tool reads the MDL, and its error.
        row.evidence = true;
        row.reads_ours = !!r.B[j].bytes;
        if (!r.B[j].bytes) row.ours_error = r.B[j].error;
        if (r.B[j].where) row.ours_error_in = r.B[j].where;
        out.write(JSON.stringify(row) + '\n');
        rows++;
        return;
      }
      row.reads_mdx = !!r.A.bytes;
      if (!row.reads_mdx) {
        row.mdx_error = r.A.error;
        row.reads_ours = false;
      } else {
        const B = r.B[j];
        row.reads_ours = !!B.bytes;
        if (!B.bytes) row.ours_error = B.error;
        if (B.where) row.ours_error_in = B.where;
        if (!r.C.bytes) row.own_error = r.C.error;
        row.equal = !!B.bytes && equalBytes(r.A.bytes, B.bytes);
        row.own_equal = !!r.C.bytes && equalBytes(r.A.bytes, r.C.bytes);
        row.b_equals_c = !!B.bytes && !!r.C.bytes && equalBytes(B.bytes, r.C.bytes);
        if (B.bytes && !row.equal) {
          row.first_diff = diff(r.A.bytes, B.bytes);
          if (bytesDir) {
            row.a_mdx = keep(i, 'A', r.A.bytes);
            row.b_mdx = keep(i, `B${j}`, B.bytes);
            if (r.C.bytes) row.c_mdx = keep(i, 'C', r.C.bytes);
          }
        }
        if (r.C.bytes && !row.own_equal) row.own_first_diff = diff(r.A.bytes, r.C.bytes);
      }
      out.write(JSON.stringify(row) + '\n');
      rows++;
    });
    res.delete(i);
  };
  await runTool(tool, peerDir, steps, (k, r) => {
    const s = steps[k];
    if (!res.has(s.i)) {
      const none = lines[s.i][0] === '-' ? {} : null;
      res.set(s.i, { A: none, C: none, B: [] });
    }
    const e = res.get(s.i);
    if (s.kind === 'A') e.A = r;
    else if (s.kind === 'C') e.C = r;
    else e.B[s.j] = r;
    const n = lines[s.i].length - 1;
    if (e.A && e.C && e.B.filter(Boolean).length === n) emit(s.i);
  });
  process.stderr.write(`read-ours: ${tool}: ${rows} rows\n`);
}

async function main(argv) {
  if (argv.length !== 3 && argv.length !== 4) {
    process.stderr.write('usage: node read-ours.js PEER_NODE_DIR LIST_FILE OUT_JSONL [BYTES_DIR]\n');
    process.exit(2);
  }
  const [peerDir, listFile, outFile, bytesDir] = argv.map((a) => path.resolve(a));
  const lines = fs
    .readFileSync(listFile, 'utf8')
    .split('\n')
    .filter((l) => l.trim() !== '')
    .map((l) => l.split('\t').map((p) => (p === '-' ? p : path.resolve(path.dirname(listFile), p))));
  for (const l of lines) {
    if (l.length < 2) {
      process.stderr.write(`read-ours: a line of ${listFile} has no MDL column: ${l[0]}\n`);
      process.exit(2);
    }
  }
  const out = fs.createWriteStream(outFile);
  await Promise.all(Object.keys(TOOLS).map((tool) => judge(tool, peerDir, lines, out, bytesDir)));
  await new Promise((r) => out.end(r));
}

if (isMainThread) {
  main(process.argv.slice(2)).catch((e) => {
    process.stderr.write(`read-ours: error: ${oneLine(e)}\n`);
    process.exit(1);
  });
} else {
  workerMain();
}
