// validate.mjs - runs the Khronos glTF-Validator over many glTF files in one process.
//
//   MDLX_GLTF_JUDGES=/tmp/mdlx-gltf-judges node tools/gltf-judges/validate.mjs LIST_FILE
//
// LIST_FILE holds one path to a .glb or .gltf per line (absolute; a relative one is taken
// from the current folder; blank lines are skipped). For each file, in list order, one
// JSON line on stdout:
//
//   {"file": PATH, "errors": N, "warnings": N, "infos": N, "hints": N,
//    "codes": {"CODE": {"severity": 0-3, "count": N}, ...},
//    "first_errors": ["CODE at /json/pointer: message", ...]}      (at most 5)
//
// or, when the file cannot be read or the validator gives up on it,
//
//   {"file": PATH, "fatal": "message"}
//
// Severity is the validator's: 0 error, 1 warning, 2 info, 3 hint. Every issue is counted
// (maxIssues 0 = unlimited). The format comes from the extension (.glb / .gltf; anything
// else is auto-detected). External resources (buffers, images) are read from beside the
// file; a missing one is an IO_ERROR issue of the validator, not a fatal result.
// Exit status 0 when every file got a line (whatever its errors); 2 on bad usage or when
// the validator cannot be loaded. Messages go to stderr.
import { readFile } from 'node:fs/promises';
import { readFileSync } from 'node:fs';
import { dirname, extname, basename, resolve } from 'node:path';
import { loadValidator } from './deps.mjs';

const MAX_FIRST_ERRORS = 5;

function usage(msg) {
  process.stderr.write(`validate.mjs: ${msg}\nusage: node validate.mjs LIST_FILE (one .glb/.gltf path per line)\n`);
  process.exit(2);
}

function describe(issue) {
  // The pointer of an issue about the whole document (INVALID_JSON) is ''.
  const where = issue.pointer
    ? ` at ${issue.pointer}`
    : issue.offset !== undefined
      ? ` at byte ${issue.offset}`
      : '';
  return `${issue.code}${where}: ${issue.message}`;
}

async function validateOne(validator, file) {
  let bytes;
  try {
    bytes = new Uint8Array(await readFile(file));
  } catch (e) {
    return { file, fatal: `cannot read the file: ${e.message}` };
  }
  const ext = extname(file).toLowerCase();
  const dir = dirname(file);
  const options = {
    uri: basename(file),
    maxIssues: 0, // 0 = unlimited: count every issue
    writeTimestamp: false,
    externalResourceFunction: (uri) => {
      const path = resolve(dir, decodeURIComponent(uri));
      return readFile(path).then(
        (data) => new Uint8Array(data),
        (e) => Promise.reject(`cannot read ${path} (uri '${uri}'): ${e.code || e.message}`),
      );
    },
  };
  if (ext === '.glb') options.format = 'glb';
  else if (ext === '.gltf') options.format = 'gltf';
  let report;
  try {
    report = await validator.validateBytes(bytes, options);
  } catch (e) {
    return { file, fatal: `the validator gave up: ${e && e.message ? e.message : String(e)}` };
  }
  const issues = report.issues || {};
  const codes = {};
  const firstErrors = [];
  for (const m of issues.messages || []) {
    const c = codes[m.code] || (codes[m.code] = { severity: m.severity, count: 0 });
    c.count++;
    if (m.severity === 0 && firstErrors.length < MAX_FIRST_ERRORS) firstErrors.push(describe(m));
  }
  const out = {
    file,
    errors: issues.numErrors ?? 0,
    warnings: issues.numWarnings ?? 0,
    infos: issues.numInfos ?? 0,
    hints: issues.numHints ?? 0,
    codes,
    first_errors: firstErrors,
  };
  if (issues.truncated) out.truncated = true; // never with maxIssues 0; said if it happens
  return out;
}

async function main() {
  const args = process.argv.slice(2);
  if (args.length !== 1) usage(`expected one argument, got ${args.length}`);
  let list;
  try {
    list = readFileSync(args[0], 'utf8');
  } catch (e) {
    usage(`cannot read the list file ${args[0]}: ${e.message}`);
  }
  const files = list
    .split(/\r?\n/)
    .map((l) => l.trim())
    .filter((l) => l !== '')
    .map((l) => resolve(l));
  let validator;
  try {
    validator = loadValidator();
  } catch (e) {
    process.stderr.write(`validate.mjs: ${e.message}\n`);
    process.exit(2);
  }
  for (const file of files) {
    let line;
    try {
      line = await validateOne(validator, file);
    } catch (e) {
      line = { file, fatal: `unexpected failure: ${e && e.stack ? e.stack.split('\n')[0] : String(e)}` };
    }
    // Lines are small; a write each keeps the output streaming and in list order.
    if (!process.stdout.write(JSON.stringify(line) + '\n')) {
      await new Promise((r) => process.stdout.once('drain', r));
    }
  }
}

main().catch((e) => {
  process.stderr.write(`validate.mjs: ${e && e.stack ? e.stack : e}\n`);
  process.exit(2);
});
