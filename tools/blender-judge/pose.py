# pose.py - Blender-side judge for exported glTF animations.
#
#   blender -b --factory-startup --python tools/blender-judge/pose.py -- REQUEST.json OUT.jsonl
#
# REQUEST.json: {"jobs": [{"file": "/abs/x.glb",
#                          "samples": [{"animation": 0, "time": 0.25}, ...]}, ...]}
#   time is in seconds; animation is an index into the glTF's `animations` array, or
#   null for the rest pose (every object at its glTF node's default TRS, no action).
#
# OUT.jsonl: one JSON object per job, in request order (see README.md beside this file).
# Positions are in Blender's space: Z up. The importer maps glTF (x, y, z) to
# Blender (x, -z, y).
#
# Everything runs in this one Blender process; each job starts from an empty scene
# (factory settings), imports the file with the glTF importer's default options, and
# any error is caught per job (and per sample) so one bad file never stops the run.
import base64
import json
import math
import sys
import time
import traceback

import bpy

try:
    import numpy
except ImportError:
    # Debian's Blender embeds the system Python, but takes sys.prefix from the first
    # python3 on PATH: under pyenv or a venv its sys.path misses the Debian
    # dist-packages, where python3-numpy is (and the glTF importer needs numpy too).
    v = "%d.%d" % sys.version_info[:2]
    for p in ("/usr/lib/python3/dist-packages", "/usr/lib/python%s/dist-packages" % v,
              "/usr/local/lib/python%s/dist-packages" % v):
        if p not in sys.path:
            sys.path.append(p)
    import numpy

# Blender 3.4's glTF importer uses numpy.bool, which numpy 1.24 removed.
import warnings  # noqa: E402
with warnings.catch_warnings():
    warnings.simplefilter("ignore")  # numpy 1.24 warns on the lookup itself
    if not hasattr(numpy, "bool"):
        numpy.bool = bool


# --- hooks into the importer --------------------------------------------------------
#
# The importer does not record which glTF animation made which action: it names
# actions "<track name>_<object name>" and NLA tracks "<track name>", where the track
# name is the animation's name made unique within the file ("Anim_<i>" when unnamed),
# and Blender may add ".001" suffixes or cut names at 63 bytes. So we wrap two of its
# static methods to see, for every glTF animation index, the (owner, action) pairs it
# creates, and the importer's own `gltf` object (vnodes -> Blender objects).

CAPTURE = {"gltf": None, "anims": {}, "snapshot": None}


def install_hooks():
    from io_scene_gltf2.blender.imp import gltf2_blender_animation as anim_mod
    from io_scene_gltf2.blender.imp import gltf2_blender_scene as scene_mod

    anim_cls = anim_mod.BlenderAnimation
    if not getattr(anim_cls, "_judge_hooked", False):
        orig_anim = anim_cls.anim

        def anim(gltf, anim_idx):
            orig_anim(gltf, anim_idx)
            CAPTURE["anims"][anim_idx] = list(getattr(gltf, "needs_stash", []))

        anim_cls.anim = staticmethod(anim)
        anim_cls._judge_hooked = True

    scene_cls = scene_mod.BlenderScene
    if not getattr(scene_cls, "_judge_hooked", False):
        orig_create_animations = scene_cls.create_animations

        def create_animations(gltf):
            # The rest values must be read here, before any action exists: by the time
            # the operator returns, the importer has made animation 0 active and Blender
            # has evaluated it at frame_current (1) and written the result back into the
            # objects' and pose bones' own properties.
            CAPTURE["gltf"] = gltf
            CAPTURE["snapshot"] = snapshot_transforms()
            orig_create_animations(gltf)

        scene_cls.create_animations = staticmethod(create_animations)
        scene_cls._judge_hooked = True


# --- scene state --------------------------------------------------------------------

def b64(arr):
    return base64.b64encode(numpy.ascontiguousarray(arr, dtype="<f4").tobytes()).decode("ascii")


def snapshot_transforms():
    """The TRS of every object and pose bone, and every shape key value, as the importer
    left them (the glTF nodes' default values)."""
    snap = []
    for obj in bpy.data.objects:
        snap.append((obj, "location", tuple(obj.location)))
        snap.append((obj, "rotation_quaternion", tuple(obj.rotation_quaternion)))
        snap.append((obj, "rotation_euler", tuple(obj.rotation_euler)))
        snap.append((obj, "scale", tuple(obj.scale)))
        snap.append((obj, "hide_viewport", obj.hide_viewport))
        snap.append((obj, "hide_render", obj.hide_render))
        if obj.pose is not None:
            for pb in obj.pose.bones:
                snap.append((pb, "location", tuple(pb.location)))
                snap.append((pb, "rotation_quaternion", tuple(pb.rotation_quaternion)))
                snap.append((pb, "rotation_euler", tuple(pb.rotation_euler)))
                snap.append((pb, "scale", tuple(pb.scale)))
    for key in bpy.data.shape_keys:
        for kb in key.key_blocks:
            snap.append((kb, "value", kb.value))
    return snap


def restore_transforms(snap):
    for owner, attr, value in snap:
        setattr(owner, attr, value)


def import_file(path):
    CAPTURE["gltf"] = None
    CAPTURE["anims"] = {}
    CAPTURE["snapshot"] = None
    bpy.ops.wm.read_factory_settings(use_empty=True)
    install_hooks()
    result = bpy.ops.import_scene.gltf(filepath=path)
    if "FINISHED" not in result:
        raise RuntimeError("glTF importer returned %s" % sorted(result))
    return CAPTURE["gltf"]


def animation_table(gltf):
    """For each glTF animation index: its name, track name, duration (seconds, from the
    input accessors' max), and the (owner ID, action) pairs the importer made."""
    out = []
    anims = (gltf.data.animations or []) if gltf is not None else []
    for idx, anim in enumerate(anims):
        pairs = CAPTURE["anims"].get(idx, [])
        duration = 0.0
        for sampler in anim.samplers:
            acc = gltf.data.accessors[sampler.input]
            if acc.max:
                duration = max(duration, float(acc.max[0]))
        # Cross-check against the NLA tracks the importer stashed the actions in.
        track = getattr(anim, "track_name", None)
        nla_ok = True
        for owner, action in pairs:
            ad = owner.animation_data
            strips = [s for t in (ad.nla_tracks if ad else []) if t.name == track for s in t.strips]
            if not any(s.action == action for s in strips):
                nla_ok = False
        out.append({
            "index": idx,
            "name": anim.name,
            "track_name": track,
            "duration": duration,
            "blender_actions": [a.name for _, a in pairs],
            "owners": [o.name for o, _ in pairs],
            "nla_track_matches": nla_ok,
            "_pairs": pairs,
        })
    return out


def mesh_objects(gltf):
    """(object, glTF node index or None, object standing for that glTF node) for every
    mesh object, in glTF node order then name."""
    info = {}
    node_obj = {}
    if gltf is not None:
        for vid, vnode in gltf.vnodes.items():
            obj = getattr(vnode, "blender_object", None)  # bones have none
            if isinstance(vid, int) and obj is not None:
                node_obj[vid] = obj
        for vid, vnode in gltf.vnodes.items():
            obj = getattr(vnode, "blender_object", None)
            if obj is not None and vnode.mesh_node_idx is not None and obj.type == "MESH":
                info[obj.name] = vnode.mesh_node_idx
    objs = [o for o in bpy.context.scene.objects if o.type == "MESH"]
    objs.sort(key=lambda o: (info.get(o.name, 1 << 30), o.name))
    return [(o, info.get(o.name), node_obj.get(info.get(o.name))) for o in objs]


def run_job(job, fps_note):
    t0 = time.time()
    rec = {"file": job.get("file"), "error": None, "import_seconds": None,
           "animations": [], "samples": []}
    try:
        gltf = import_file(job["file"])
    except Exception as e:  # one bad file never stops the run
        rec["error"] = "import failed: %s: %s" % (type(e).__name__, e)
        rec["import_seconds"] = round(time.time() - t0, 4)
        return rec
    rec["import_seconds"] = round(time.time() - t0, 4)

    scene = bpy.context.scene
    # The importer converts key times with scene.render.fps alone (it ignores fps_base):
    # frame = seconds * fps, and the action keys start at frame 0 (not frame_start).
    fps = scene.render.fps
    rec["fps"] = fps
    rec["fps_base"] = scene.render.fps_base

    table = animation_table(gltf)
    rec["animations"] = [{k: v for k, v in a.items() if not k.startswith("_")} for a in table]

    # Every ID any animation drives; anim k's action for each.
    owners = {}
    for a in table:
        for owner, _ in a["_pairs"]:
            owners[owner.as_pointer()] = owner
    for obj in bpy.data.objects:  # also clear what we did not see, e.g. a failed hook
        if obj.animation_data:
            owners[obj.as_pointer()] = obj

    snap = CAPTURE["snapshot"]
    if snap is None:  # no hook ran (importer changed?): the best we have
        snap = snapshot_transforms()
        rec["warning"] = "rest values read after import (may hold animation 0 at frame 1)"
    meshes = mesh_objects(gltf)
    rest = {}
    gltf_nodes = (gltf.data.nodes or []) if gltf is not None else []
    for obj, node_idx, _ in meshes:
        co = numpy.empty(len(obj.data.vertices) * 3, dtype=numpy.float32)
        obj.data.vertices.foreach_get("co", co)
        rest[obj.name] = co

    for sample in job.get("samples", []):
        k = sample.get("animation")
        t = float(sample.get("time", 0.0))
        out = {"animation": k, "time": t, "error": None, "meshes": []}
        rec["samples"].append(out)
        try:
            if k is not None and not (0 <= k < len(table)):
                raise IndexError("animation %r out of range (file has %d)" % (k, len(table)))
            chosen = {}
            if k is not None:
                for owner, action in table[k]["_pairs"]:
                    chosen[owner.as_pointer()] = action
            for ptr, owner in owners.items():
                ad = owner.animation_data
                if ad is None:
                    continue
                ad.action = chosen.get(ptr)
                for track in ad.nla_tracks:  # the importer mutes them; keep it so
                    track.mute = True
            restore_transforms(snap)
            frame = t * fps
            whole = math.floor(frame)
            scene.frame_set(int(whole), subframe=frame - whole)
            out["frame"] = frame

            dg = bpy.context.evaluated_depsgraph_get()
            for obj, node_idx, node_object in meshes:
                ev = obj.evaluated_get(dg)
                mw = numpy.array(ev.matrix_world, dtype=numpy.float64)
                mesh = ev.to_mesh()
                try:
                    n = len(mesh.vertices)
                    co = numpy.empty(n * 3, dtype=numpy.float32)
                    mesh.vertices.foreach_get("co", co)
                finally:
                    ev.to_mesh_clear()
                pts = co.reshape(-1, 3).astype(numpy.float64)
                world = pts @ mw[:3, :3].T + mw[:3, 3]
                extent = float((world.max(0) - world.min(0)).max()) if n else 0.0
                # The job's "max_vertices": a mesh of more vertices gives only vertices
                # k * n // max_vertices (k = 0 .. max_vertices-1), rest and positions alike.
                limit = int(job.get("max_vertices") or 0)
                keep = None
                if 0 < limit < n:
                    keep = [k * n // limit for k in range(limit)]
                    world = world[keep]
                det = float(numpy.linalg.det(mw[:3, :3]))
                hidden = bool(ev.hide_viewport or ev.hide_render)
                entry = {
                    "name": obj.name,
                    "gltf_node": node_idx,
                    "gltf_node_name": gltf_nodes[node_idx].name if node_idx is not None else None,
                    "visible": (not hidden) and abs(det) > 1e-12,
                    "det": det,
                    # largest side of the positions' bounding box: 0 when a mesh is
                    # collapsed to a point (e.g. by a joint scaled to 0)
                    "extent": extent,
                    "rest": b64(rest[obj.name] if keep is None else
                                numpy.asarray(rest[obj.name], dtype=numpy.float32).reshape(-1, 3)[keep].reshape(-1)),
                    "positions": b64(world),
                }
                if len(rest[obj.name]) != 3 * n:
                    entry["error"] = "evaluated mesh has %d vertices, rest %d" % (n, len(rest[obj.name]) // 3)
                # A skinned mesh whose glTF node is animated is moved to a new child of
                # the armature; the node itself stays behind as an empty with the action.
                if node_object is not None and node_object != obj:
                    nev = node_object.evaluated_get(dg)
                    nmw = numpy.array(nev.matrix_world, dtype=numpy.float64)
                    entry["gltf_node_object"] = node_object.name
                    entry["gltf_node_object_det"] = float(numpy.linalg.det(nmw[:3, :3]))
                out["meshes"].append(entry)
        except Exception as e:
            out["error"] = "%s: %s" % (type(e).__name__, e)
    rec["seconds"] = round(time.time() - t0, 4)
    return rec


def main(argv):
    args = argv[argv.index("--") + 1:] if "--" in argv else []
    if len(args) != 2:
        sys.stderr.write("usage: blender -b --factory-startup --python pose.py -- REQUEST.json OUT.jsonl\n")
        return 2
    with open(args[0]) as f:
        request = json.load(f)
    with open(args[1], "w") as out:
        for job in request.get("jobs", []):
            try:
                rec = run_job(job, None)
            except Exception as e:
                rec = {"file": job.get("file"), "error": "judge failed: %s: %s\n%s"
                       % (type(e).__name__, e, traceback.format_exc()),
                       "import_seconds": None, "animations": [], "samples": []}
            out.write(json.dumps(rec) + "\n")
            out.flush()
    return 0


if __name__ == "__main__":
    code = main(sys.argv)
    sys.stdout.flush()
    # Blender keeps running after --python unless told to quit; exit with our status.
    import os
    os._exit(code)
