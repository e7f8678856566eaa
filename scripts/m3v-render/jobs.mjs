// jobs.mjs - reads and checks JOBS.json for render.mjs (format described there). A mistake
// in the batch's own fields is a UsageError (exit status 2, before Chromium starts); a
// mistake in one job makes that job {invalid: "reason"}, which render.mjs reports as a
// failed job while the others are drawn.
import path from 'node:path';

/** A mistake in the command line or in JOBS.json (exit status 2). */
export class UsageError extends Error {}

const fail = (msg) => { throw new UsageError(msg); };
const isNum = (v) => typeof v === 'number' && Number.isFinite(v);
const isVec3 = (v) => Array.isArray(v) && v.length === 3 && v.every(isNum);

function checkCamera(c, where) {
  if (!c || typeof c !== 'object') fail(`${where}.camera: missing`);
  for (const k of ['eye', 'target', 'up']) if (!isVec3(c[k])) fail(`${where}.camera.${k}: expected [x, y, z]`);
  if (!isNum(c.fov_y) || c.fov_y <= 0 || c.fov_y >= Math.PI) fail(`${where}.camera.fov_y: radians, between 0 and pi`);
  if (!isNum(c.near) || c.near <= 0) fail(`${where}.camera.near: a positive number`);
  if (!isNum(c.far) || c.far <= c.near) fail(`${where}.camera.far: a number beyond near`);
  const d = c.eye.map((v, i) => c.target[i] - v);
  if (Math.hypot(...d) === 0) fail(`${where}.camera: eye and target are the same point`);
  return { eye: c.eye, target: c.target, up: c.up, fov_y: c.fov_y, near: c.near, far: c.far };
}

function checkJob(j, i) {
  const where = `jobs[${i}]`;
  if (!j || typeof j !== 'object') fail(`${where}: expected an object`);
  if (typeof j.model !== 'string' || !path.isAbsolute(j.model)) fail(`${where}.model: an absolute path`);
  if (typeof j.out !== 'string' || !path.isAbsolute(j.out)) fail(`${where}.out: an absolute path`);
  const textures = j.textures === undefined ? [] : j.textures;
  if (!Array.isArray(textures) || !textures.every((t) => typeof t === 'string' && path.isAbsolute(t))) {
    fail(`${where}.textures: a list of absolute folder paths`);
  }
  const sequence = j.sequence === undefined ? null : j.sequence;
  if (sequence !== null && !(Number.isInteger(sequence) && sequence >= 0)) fail(`${where}.sequence: an index (0, 1, ...) or null`);
  const time = j.time_ms === undefined ? 0 : j.time_ms;
  if (!isNum(time) || time < 0 || time > 3.6e6) fail(`${where}.time_ms: milliseconds, 0 to 3600000`);
  const team = j.team_color === undefined ? 0 : j.team_color;
  if (!Number.isInteger(team) || team < 0 || team > 15) fail(`${where}.team_color: 0 to 15`);
  const seed = j.seed === undefined ? 1 : j.seed;
  if (!Number.isInteger(seed)) fail(`${where}.seed: an integer`);
  return {
    model: j.model, out: j.out, textures, camera: checkCamera(j.camera, where), sequence,
    time_ms: time, team_color: team, seed,
  };
}

/** checkJob, or the job marked invalid with the reason (and what could be read of it). */
function checkOrMark(j, i) {
  try {
    return checkJob(j, i);
  } catch (e) {
    if (!(e instanceof UsageError)) throw e;
    const str = (v) => (typeof v === 'string' ? v : null);
    return { model: str(j && j.model), out: str(j && j.out), invalid: e.message };
  }
}

/** Checks the parsed JOBS.json and fills in the defaults. */
export function validateJobs(raw) {
  if (!raw || typeof raw !== 'object') fail('JOBS.json: expected an object {"width", "height", "jobs"}');
  const { width, height } = raw;
  for (const [k, v] of [['width', width], ['height', height]]) {
    if (!Number.isInteger(v) || v < 1 || v > 4096) fail(`JOBS.json: ${k} must be 1 to 4096`);
  }
  if (!Array.isArray(raw.jobs)) fail('JOBS.json: "jobs" must be a list');
  const step = raw.step_ms === undefined ? 1000 / 60 : raw.step_ms;
  if (!isNum(step) || step <= 0 || step > 1000) fail('JOBS.json: step_ms must be above 0 and at most 1000');
  const timeout = raw.timeout_ms === undefined ? 30000 : raw.timeout_ms;
  if (!Number.isInteger(timeout) || timeout < 1000) fail('JOBS.json: timeout_ms must be an integer of at least 1000');
  const background = raw.background === undefined ? [0, 0, 0, 0] : raw.background;
  if (!Array.isArray(background) || background.length !== 4 || !background.every((v) => Number.isInteger(v) && v >= 0 && v <= 255)) {
    fail('JOBS.json: background must be [r, g, b, a], each 0 to 255');
  }
  return {
    background, width, height, jobs: raw.jobs.map(checkOrMark), step_ms: step, timeout_ms: timeout,
    antialias: raw.antialias === undefined ? true : !!raw.antialias, lenient: !!raw.lenient,
  };
}
