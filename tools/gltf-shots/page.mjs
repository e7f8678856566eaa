// Runs inside headless Chromium (loaded by page.html). render.mjs calls, through
// page.evaluate:
//   gltfShots.load(url)        -> { animations: [{ name, duration }] }   loads one glTF/GLB
//   gltfShots.pose(options)    -> { seconds, box }   poses the loaded model and draws one frame
// The canvas then holds the picture; render.mjs screenshots it.
import * as THREE from 'three';
import { GLTFLoader } from 'three/addons/loaders/GLTFLoader.js';

const canvas = document.getElementById('view');

// Without a usable WebGL 2 context three.js would only log an error; say it plainly instead.
function makeRenderer() {
  const probe = document.createElement('canvas').getContext('webgl2');
  if (!probe) {
    throw new Error('WebGL 2 is unavailable in this Chromium (launch flags: see render.mjs)');
  }
  const renderer = new THREE.WebGLRenderer({ canvas, antialias: true, preserveDrawingBuffer: true });
  renderer.setPixelRatio(1);
  renderer.outputColorSpace = THREE.SRGBColorSpace;
  return renderer;
}

let renderer;
try {
  renderer = makeRenderer();
} catch (e) {
  window.gltfShotsError = e.message; // render.mjs waits for this or for window.gltfShots
  throw e;
}
const gl = renderer.getContext();
const debugInfo = gl.getExtension('WEBGL_debug_renderer_info');
const glRenderer = gl.getParameter(debugInfo ? debugInfo.UNMASKED_RENDERER_WEBGL : gl.RENDERER);

const scene = new THREE.Scene();
scene.background = new THREE.Color(0x808080);
const camera = new THREE.PerspectiveCamera(30, 4 / 3, 0.01, 1000);
// Sky white, ground dark grey: the top of the model is lit more than its underside.
const hemi = new THREE.HemisphereLight(0xffffff, 0x404040, 1.6);
const sun = new THREE.DirectionalLight(0xffffff, 2.2);
scene.add(hemi, sun, sun.target);

let model = null; // { root, clips, mixer }

function disposeModel() {
  if (!model) return;
  scene.remove(model.root);
  model.mixer.stopAllAction();
  model.root.traverse((o) => {
    if (o.geometry) o.geometry.dispose();
    const mats = Array.isArray(o.material) ? o.material : o.material ? [o.material] : [];
    for (const m of mats) {
      for (const v of Object.values(m)) if (v && v.isTexture) v.dispose();
      m.dispose();
    }
  });
  model = null;
}

async function load(url) {
  disposeModel();
  // The loader resolves only after every texture has decoded, so the first render is complete.
  // When it fails, files it asked for may still be coming (a texture after a missing buffer):
  // wait for them, so their errors are told with this model and not the next one.
  const manager = new THREE.LoadingManager();
  const idle = new Promise((resolve) => { manager.onLoad = resolve; });
  let gltf;
  try {
    gltf = await new GLTFLoader(manager).loadAsync(url);
  } finally {
    await Promise.race([idle, new Promise((resolve) => setTimeout(resolve, 10000))]);
  }
  const root = gltf.scene || (gltf.scenes && gltf.scenes[0]);
  if (!root) throw new Error('the file has no scene to show');
  // One frame per pose, framed on the posed vertices: culling by bounds computed for some
  // other pose (skinned meshes keep their first) could only drop parts wrongly.
  root.traverse((o) => { o.frustumCulled = false; });
  scene.add(root);
  model = { root, clips: gltf.animations, mixer: new THREE.AnimationMixer(root) };
  return { animations: gltf.animations.map((c) => ({ name: c.name, duration: c.duration })) };
}

// World-space box of what is drawn now: skinned and morphed vertices where they are after posing.
function currentBox(root) {
  root.updateMatrixWorld(true);
  root.traverse((o) => { if (o.isSkinnedMesh) o.skeleton.update(); });
  const box = new THREE.Box3();
  root.traverse((o) => {
    if (!(o.isMesh || o.isLine || o.isPoints) || !o.visible) return;
    const b = new THREE.Box3().expandByObject(o, true);
    if (!b.isEmpty()) box.union(b);
  });
  return box;
}

const AXES = {
  '+x': new THREE.Vector3(1, 0, 0), '-x': new THREE.Vector3(-1, 0, 0),
  '+z': new THREE.Vector3(0, 0, 1), '-z': new THREE.Vector3(0, 0, -1),
};

// Puts the camera on the side the model faces, turned `yaw` degrees towards the model's
// right and raised `pitch` degrees, at the distance where all eight corners of `box` fit.
function frame(box, front, yawDeg, pitchDeg, aspect) {
  const up = new THREE.Vector3(0, 1, 0);
  const f = AXES[front];
  const right = new THREE.Vector3().crossVectors(f, up);
  const yaw = THREE.MathUtils.degToRad(yawDeg);
  const pitch = THREE.MathUtils.degToRad(pitchDeg);
  const back = new THREE.Vector3()
    .addScaledVector(f, Math.cos(yaw) * Math.cos(pitch))
    .addScaledVector(right, Math.sin(yaw) * Math.cos(pitch))
    .addScaledVector(up, Math.sin(pitch))
    .normalize(); // from the model towards the camera
  const camRight = new THREE.Vector3().crossVectors(up, back).normalize();
  const camUp = new THREE.Vector3().crossVectors(back, camRight);

  camera.aspect = aspect;
  const tanV = Math.tan(THREE.MathUtils.degToRad(camera.fov / 2));
  const tanH = tanV * aspect;
  const corners = [];
  for (let i = 0; i < 8; i++) {
    corners.push(new THREE.Vector3(i & 1 ? box.max.x : box.min.x, i & 2 ? box.max.y : box.min.y, i & 4 ? box.max.z : box.min.z));
  }
  // Distance from `target` at which every corner is inside the view.
  const fit = (target) => {
    let d = 0;
    for (const p of corners) {
      const q = p.clone().sub(target);
      const z = q.dot(back);
      d = Math.max(d, z + Math.abs(q.dot(camRight)) / tanH, z + Math.abs(q.dot(camUp)) / tanV);
    }
    return d;
  };
  // The box's centre does not project to the middle of the picture (the near corners look
  // bigger), so move the aim point sideways until the corners' extent is centred, then refit.
  const center = box.getCenter(new THREE.Vector3());
  let dist = fit(center);
  for (let pass = 0; pass < 3; pass++) {
    let minX = Infinity, maxX = -Infinity, minY = Infinity, maxY = -Infinity;
    for (const p of corners) {
      const q = p.clone().sub(center);
      const depth = dist - q.dot(back);
      const x = q.dot(camRight) / (depth * tanH), y = q.dot(camUp) / (depth * tanV);
      minX = Math.min(minX, x); maxX = Math.max(maxX, x); minY = Math.min(minY, y); maxY = Math.max(maxY, y);
    }
    center.addScaledVector(camRight, ((minX + maxX) / 2) * tanH * dist)
      .addScaledVector(camUp, ((minY + maxY) / 2) * tanV * dist);
    dist = fit(center);
  }
  const radius = box.getSize(new THREE.Vector3()).length() / 2 || 1;
  dist = Math.max(dist * 1.06, radius * 0.1);
  camera.position.copy(center).addScaledVector(back, dist);
  camera.up.copy(up);
  camera.lookAt(center);
  camera.near = Math.max(dist - radius * 2, dist / 1000);
  camera.far = dist + radius * 2;
  camera.updateProjectionMatrix();

  // Key light from above, over the camera's shoulder on the model's right.
  sun.position.copy(center).addScaledVector(back, radius * 4)
    .addScaledVector(up, radius * 4).addScaledVector(camRight, -radius * 2);
  sun.target.position.copy(center);
}

// options: { anim: clip index or null (the pose stored in the file), time: number,
//            unit: 'fraction' (of the clip's duration) or 'seconds', width, height,
//            front: '+x' | '-x' | '+z' | '-z', yaw, pitch (degrees) }
function pose(options) {
  if (!model) throw new Error('no model loaded');
  const { anim, time, unit, width, height, front, yaw, pitch } = options;
  if (!AXES[front]) throw new Error(`front must be one of ${Object.keys(AXES).join(', ')}`);
  renderer.setSize(width, height, true);

  model.mixer.stopAllAction();
  let seconds = null;
  if (anim !== null) {
    const clip = model.clips[anim];
    seconds = unit === 'fraction' ? time * clip.duration : time;
    const action = model.mixer.clipAction(clip);
    action.reset();
    action.setLoop(THREE.LoopOnce, 1);
    action.clampWhenFinished = true;
    action.play();
    model.mixer.setTime(seconds);
  }

  const box = currentBox(model.root);
  if (box.isEmpty()) throw new Error('nothing to show: the scene has no meshes, lines or points');
  frame(box, front, yaw, pitch, width / height);
  renderer.render(scene, camera);
  return { seconds, box: { min: box.min.toArray(), max: box.max.toArray() } };
}

window.gltfShots = { load, pose, glRenderer, threeRevision: THREE.REVISION };
