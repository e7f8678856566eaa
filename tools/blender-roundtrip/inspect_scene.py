# inspect_scene.py - what Blender holds after a glTF import, as JSON (a round-trip job's
# "inspect": true). For the survey in README.md: objects and their parents, bones, custom
# properties (with their types as Blender keeps them), actions and their frame ranges,
# NLA tracks, materials and images, the scene's frame rate and range.
import bpy


def plain(v):
    """A custom property value as JSON."""
    if hasattr(v, "to_dict"):
        return {k: plain(x) for k, x in v.to_dict().items()}
    if hasattr(v, "to_list"):
        return [plain(x) for x in v.to_list()]
    if isinstance(v, dict):
        return {k: plain(x) for k, x in v.items()}
    if isinstance(v, (list, tuple)):
        return [plain(x) for x in v]
    if isinstance(v, (int, float, str, bool)) or v is None:
        return v
    return repr(v)


def props(idblock):
    out = {}
    for k in idblock.keys():
        if k.startswith("_RNA_UI") or k == "cycles":
            continue
        v = idblock[k]
        out[k] = {"type": type(v).__name__, "value": plain(v)}
    return out


def action_record(act):
    from edits import fcurves
    fcs = fcurves(act)
    rec = {"name": act.name, "frame_range": list(act.frame_range), "fcurves": len(fcs),
           "keys": sum(len(fc.keyframe_points) for fc in fcs), "props": props(act)}
    if hasattr(act, "slots"):
        rec["slots"] = [s.identifier for s in act.slots]
    interp = sorted({kp.interpolation for fc in fcs for kp in fc.keyframe_points})
    rec["interpolation"] = interp
    return rec


def inspect(scene):
    objects = []
    for o in scene.objects:
        rec = {"name": o.name, "type": o.type, "parent": o.parent.name if o.parent else None,
               "parent_type": o.parent_type, "parent_bone": o.parent_bone or None,
               "props": props(o), "data": o.data.name if o.data else None}
        if o.data is not None:
            rec["data_props"] = props(o.data)
        ad = o.animation_data
        if ad:
            rec["action"] = ad.action.name if ad.action else None
            rec["nla"] = [{"track": t.name, "mute": t.mute,
                           "strips": [[s.name, s.action.name if s.action else None,
                                       s.frame_start, s.frame_end] for s in t.strips]}
                          for t in ad.nla_tracks]
        if o.type == "ARMATURE":
            rec["bones"] = [{"name": b.name, "parent": b.parent.name if b.parent else None,
                             "props": props(b),
                             "pose_props": props(o.pose.bones[b.name])}
                            for b in o.data.bones]
        if o.type == "MESH":
            m = o.data
            rec["mesh"] = {"vertices": len(m.vertices), "polygons": len(m.polygons),
                           "materials": [s.material.name if s.material else None
                                         for s in o.material_slots],
                           "vertex_groups": len(o.vertex_groups),
                           "uv_layers": [u.name for u in m.uv_layers],
                           "attributes": sorted(a.name for a in m.attributes)}
        objects.append(rec)
    return {
        "fps": scene.render.fps, "fps_base": scene.render.fps_base,
        "frame_start": scene.frame_start, "frame_end": scene.frame_end,
        "scene_props": props(scene),
        "collections": [c.name for c in bpy.data.collections],
        "objects": objects,
        "actions": [action_record(a) for a in bpy.data.actions],
        "materials": [{"name": m.name, "props": props(m), "users": m.users}
                      for m in bpy.data.materials],
        "images": [{"name": i.name, "filepath": i.filepath, "packed": i.packed_file is not None,
                    "size": list(i.size), "format": i.file_format} for i in bpy.data.images],
        "cameras": [{"name": c.name, "props": props(c)} for c in bpy.data.cameras],
        "lights": [{"name": light.name, "type": light.type, "props": props(light)}
                   for light in bpy.data.lights],
    }
