#!/usr/bin/env node
// sanity.js - mdx-m3-viewer's sanity tester over MDX files, as JSON lines, for the check
// comparison (crates/mdlx/tests/check_vs_m3v.rs).
//
// Usage:
//   node tools/peer-sanity/sanity.js PEER_NODE_DIR FILE.mdx...
//   e.g. node tools/peer-sanity/sanity.js /tmp/mdlx-peers/node ../shared/corpus/mdx/A.mdx
//
// PEER_NODE_DIR is the folder whose node_modules holds mdx-m3-viewer (made by
// ../shared/peers/SETUP.sh; scripts/peer-mdl.sh installs it). Each file is read with
// mdx-m3-viewer's MDX parser (parsers/mdlx/model: new Model(); loadMdx(bytes)) and tested
// with its sanity tester (utils/mdlx/sanitytest/sanitytest: sanityTest(model)), whose
// result is a tree of nodes (`Bone 3 - "Hand Right"` > `Rotation`) with leaves
// {type: 'error'|'severe'|'warning'|'unused', message}. Printed on stdout, one JSON
// object a line, for each file (FILE as given):
//   {"file", "object", "kind", "index", "type", "message"}  one per leaf: `object` is the
//       chain of node names from the top, joined with " > " ("" for the model itself);
//       `kind` and `index` are the type word and the number that start the top node's
//       name ("Bone", 3), null when the top node has none (the model's "Extent") or the
//       finding is about the model.
//   {"file", "object", "kind", "index", "type": "unused", "message": "Not used",
//    "synthetic": true}  one per top-level object that nothing references: the tester
//       counts these in its `unused` total but gives them no leaf.
//   {"file", "done": true, "findings": N}  after the file's findings.
//   {"file", "error"}  instead, when the parser or the tester throws.
// Exit status: 0 unless mdx-m3-viewer cannot be loaded or the arguments are wrong (2).
'use strict';

const fs = require('fs');
const path = require('path');

function oneLine(err) {
  const s = err && err.message ? err.message : String(err);
  return (err && err.name && err.name !== 'Error' ? err.name + ': ' : '') + s.replace(/\s+/g, ' ').trim();
}

function load(peerDir, module) {
  return require(require.resolve(module, { paths: [peerDir] })).default;
}

// The type word and number that start a top-level node's name: `Bone 3 - "x"` -> Bone, 3.
function recordOf(name) {
  const m = /^([A-Za-z0-9]+) (\d+)(?: - |$)/.exec(name);
  return m ? { kind: m[1], index: Number(m[2]) } : { kind: null, index: null };
}

// Appends one finding object per leaf below `node` to `out`; `chain` holds the names of
// the nodes above it (the root's empty name excluded).
function flatten(node, chain, top, out) {
  for (const child of node.nodes) {
    if (child.type === 'node') {
      const under = chain.concat([child.name]);
      const rec = chain.length === 0 ? recordOf(child.name) : top;
      if (chain.length === 0 && child.uses === 0) {
        out.push({ object: child.name, ...rec, type: 'unused', message: 'Not used', synthetic: true });
      }
      flatten(child, under, rec, out);
    } else {
      out.push({ object: chain.join(' > '), ...top, type: child.type, message: child.message });
    }
  }
}

function main(argv) {
  if (argv.length < 1) {
    process.stderr.write('usage: node sanity.js PEER_NODE_DIR FILE.mdx...\n');
    process.exit(2);
  }
  const peerDir = path.resolve(argv[0]);
  let Model, sanityTest;
  try {
    Model = load(peerDir, 'mdx-m3-viewer/dist/cjs/parsers/mdlx/model');
    sanityTest = load(peerDir, 'mdx-m3-viewer/dist/cjs/utils/mdlx/sanitytest/sanitytest');
  } catch (e) {
    process.stderr.write(`sanity.js: cannot load mdx-m3-viewer from ${peerDir}: ${oneLine(e)}\n`);
    process.exit(2);
  }
  const print = (o) => process.stdout.write(JSON.stringify(o) + '\n');
  for (const file of argv.slice(1)) {
    let found;
    try {
      const buf = fs.readFileSync(file);
      const model = new Model();
      model.loadMdx(new Uint8Array(buf.buffer, buf.byteOffset, buf.byteLength));
      found = [];
      flatten(sanityTest(model), [], { kind: null, index: null }, found);
    } catch (e) {
      print({ file, error: oneLine(e) });
      continue;
    }
    for (const f of found) print({ file, ...f });
    print({ file, done: true, findings: found.length });
  }
}

main(process.argv.slice(2));
