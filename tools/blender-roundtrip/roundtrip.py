# roundtrip.py - a glTF file through Blender's own glTF add-on: import, optional edits,
# export, with no other change. Runs in the Blender binary and as a script of the PyPI
# `bpy` module alike:
#
#   blender -b --factory-startup --python roundtrip.py -- REQUEST.json OUT.jsonl
#   $MDLX_BPY45 roundtrip.py REQUEST.json OUT.jsonl
#
# REQUEST.json:
#   {"jobs": [{"input": "/abs/a.glb", "output": "/abs/a.blender.glb",
#              "edits": [{"edit": "rename_action", "old": "Stand", "new": "Stand Two"}],
#              "python": "optional snippet run after the edits, with bpy, scene, edits",
#              "tag": "any JSON, echoed in the output line",
#              "inspect": false,          # report what Blender holds after the import
#              "fps": null,               # scene fps set before the import (default 24)
#              "import_options": {}, "export_options": {}}],   # per-job overrides
#    "import_options": {}, "export_options": {}}               # overrides for every job
#
# OUT.jsonl: one JSON object per job, in request order:
#   {"input", "output", "error": null | "message", "blender": "4.5.15 LTS",
#    "addon": [4, 5, 51], "import_seconds", "edit_seconds", "export_seconds", "seconds",
#    "import_options": {...}, "export_options": {...} (the options actually passed),
#    "edits": [what each edit returned], "inspect": {...} (when asked)}
#
# Each job starts from an empty scene (factory settings), so nothing of one file leaks into
# the next; one Blender process serves the whole batch. The output is written to a
# temporary name beside it and renamed, so it appears whole or not at all; an error in one
# job is reported in its line and the batch goes on. See README.md for the options chosen.
import json
import os
import sys
import time
import traceback

HERE = os.path.dirname(os.path.abspath(__file__))
if HERE not in sys.path:
    sys.path.insert(0, HERE)

try:
    import numpy
except ImportError:
    # Debian's Blender embeds the system Python but takes sys.prefix from the first python3
    # on PATH: under pyenv or a venv its sys.path misses the Debian dist-packages (numpy).
    v = "%d.%d" % sys.version_info[:2]
    for p in ("/usr/lib/python3/dist-packages", "/usr/lib/python%s/dist-packages" % v,
              "/usr/local/lib/python%s/dist-packages" % v):
        if p not in sys.path:
            sys.path.append(p)
    import numpy

import warnings  # noqa: E402
with warnings.catch_warnings():
    # Blender 3.4's glTF importer uses numpy.bool, which numpy 1.24 removed.
    warnings.simplefilter("ignore")
    if not hasattr(numpy, "bool"):
        numpy.bool = bool

import bpy  # noqa: E402

import edits  # noqa: E402

# --- options --------------------------------------------------------------------------
#
# The importer runs with its defaults (what File > Import > glTF 2.0 does); they differ
# between versions (bone_heuristic is TEMPERANCE in 3.4, BLENDER in 4.x/5.0). The exporter
# runs with its defaults too, except for what a modder sending a whole model out must
# switch on (extras, cameras, lights) and what would silently cut the model (3.4 limits
# animations to the scene's playback range by default). Every option passed is listed in
# the output line. README.md says what each controls.

IMPORT_OPTIONS = {}

EXPORT_COMMON = {
    "export_format": "GLB",
    "export_extras": True,          # Custom Properties -> extras (default off)
    "export_cameras": True,         # default off
    "export_lights": True,          # KHR_lights_punctual (default off)
    "export_skins": True,
    "export_all_influences": False,  # at most 4 joints a vertex (the default)
    "export_animations": True,
    "export_frame_range": False,    # 3.4 default True: crops every action to the scene range
    "export_force_sampling": True,  # "Always Sample Animations" (the default)
    "export_frame_step": 1,
    "export_def_bones": False,
    "export_current_frame": False,
    "export_reset_pose_bones": True,
    "export_anim_single_armature": True,
    "export_apply": False,
    "export_yup": True,
    "export_texcoords": True,
    "export_normals": True,
    "export_tangents": False,
    "export_materials": "EXPORT",
    "export_image_format": "AUTO",  # images keep their format (PNG stays PNG)
    "export_keep_originals": False,
    "export_draco_mesh_compression_enable": False,
    "export_morph": True,
    "use_selection": False,
    "use_visible": False,
    "use_renderable": False,
    "use_active_collection": False,
    "check_existing": False,
}

EXPORT_BY_VERSION = {
    # 3.x: every action of an object as its own animation.
    3: {
        "export_nla_strips": True,
        "export_colors": True,
        "export_optimize_animation_size": False,  # the 3.4 default
    },
    # 4.x and 5.x name the same choice export_animation_mode.
    4: {
        "export_animation_mode": "ACTIONS",
        "export_optimize_animation_size": True,   # the 4.x/5.x default
        "export_anim_slide_to_zero": False,
        "export_negative_frame": "SLIDE",
        "export_merge_animation": "ACTION",
        "export_rest_position_armature": True,
        "export_hierarchy_flatten_bones": False,
        "export_armature_object_remove": False,
        "export_leaf_bone": False,
        "export_vertex_color": "MATERIAL",
        "export_use_gltfpack": False,
    },
}


def export_options(overrides):
    major = bpy.app.version[0]
    opts = dict(EXPORT_COMMON)
    opts.update(EXPORT_BY_VERSION[3 if major < 4 else 4])
    opts.update(overrides or {})
    # Keep only what this version's operator has (an override naming another version's
    # option is dropped, and reported as such in the output line).
    known = {p.identifier for p in bpy.ops.export_scene.gltf.get_rna_type().properties}
    return {k: v for k, v in opts.items() if k in known}, sorted(set(opts) - known)


def addon_version():
    try:
        import io_scene_gltf2
        return list(io_scene_gltf2.bl_info.get("version", ()))
    except Exception:  # noqa: BLE001 - only a label
        return None


# --- one job --------------------------------------------------------------------------

def fresh_scene(fps):
    bpy.ops.wm.read_factory_settings(use_empty=True)
    scene = bpy.context.scene
    if fps:
        scene.render.fps = int(fps)
        scene.render.fps_base = 1.0
    return scene


def run_job(job, request):
    rec = {"input": job.get("input"), "output": job.get("output"), "tag": job.get("tag"), "error": None,
           "blender": bpy.app.version_string, "addon": addon_version()}
    t0 = time.time()
    scene = fresh_scene(job.get("fps") or request.get("fps"))
    iopts = dict(IMPORT_OPTIONS)
    iopts.update(request.get("import_options") or {})
    iopts.update(job.get("import_options") or {})
    rec["import_options"] = iopts
    result = bpy.ops.import_scene.gltf(filepath=job["input"], **iopts)
    if "FINISHED" not in result:
        raise RuntimeError("glTF importer returned %s" % sorted(result))
    rec["import_seconds"] = round(time.time() - t0, 4)
    scene = bpy.context.scene
    if job.get("inspect"):
        import inspect_scene
        rec["inspect"] = inspect_scene.inspect(scene)
    t1 = time.time()
    rec["edits"] = []
    for e in job.get("edits") or []:
        e = dict(e)
        name = e.pop("edit")
        fn = edits.EDITS.get(name)
        if fn is None:
            raise ValueError("unknown edit %r (known: %s)" % (name, ", ".join(sorted(edits.EDITS))))
        rec["edits"].append({"edit": name, "result": fn(scene, **e)})
    if job.get("python"):
        exec(compile(job["python"], "<job python>", "exec"),
             {"bpy": bpy, "scene": scene, "edits": edits})
    rec["edit_seconds"] = round(time.time() - t1, 4)
    out = job.get("output")
    if out:
        t2 = time.time()
        overrides = dict(request.get("export_options") or {})
        overrides.update(job.get("export_options") or {})
        opts, dropped = export_options(overrides)
        rec["export_options"] = opts
        if dropped:
            rec["options_not_in_this_version"] = dropped
        # Written beside the output under another name, then renamed: whole or not at all.
        tmp = os.path.join(os.path.dirname(os.path.abspath(out)),
                           ".%s.part%d.glb" % (os.path.basename(out), os.getpid()))
        try:
            result = bpy.ops.export_scene.gltf(filepath=tmp, **opts)
            if "FINISHED" not in result:
                raise RuntimeError("glTF exporter returned %s" % sorted(result))
            os.replace(tmp, out)
        finally:
            if os.path.exists(tmp):
                os.remove(tmp)
        rec["export_seconds"] = round(time.time() - t2, 4)
    rec["seconds"] = round(time.time() - t0, 4)
    return rec


def main(argv):
    args = argv[argv.index("--") + 1:] if "--" in argv else argv[1:]
    if len(args) != 2:
        sys.stderr.write("usage: blender -b --factory-startup --python roundtrip.py -- REQUEST.json OUT.jsonl\n"
                         "       BPY_PYTHON roundtrip.py REQUEST.json OUT.jsonl\n")
        return 2
    with open(args[0]) as f:
        request = json.load(f)
    status = 0
    with open(args[1], "w") as out:
        for job in request.get("jobs", []):
            t0 = time.time()
            try:
                rec = run_job(job, request)
            except Exception as e:  # noqa: BLE001 - reported per job, the batch goes on
                status = 1
                rec = {"input": job.get("input"), "output": job.get("output"),
                       "blender": bpy.app.version_string,
                       "error": "%s: %s" % (type(e).__name__, e),
                       "traceback": traceback.format_exc(),
                       "seconds": round(time.time() - t0, 4)}
            out.write(json.dumps(rec) + "\n")
            out.flush()
    return status


if __name__ == "__main__":
    code = main(sys.argv)
    sys.stdout.flush()
    sys.stderr.flush()
    # The Blender binary keeps running after --python unless told to quit.
    os._exit(code)
