# edits.py - edits a modder makes in Blender, as functions the round trip can apply
# between import and export (roundtrip.py: a job's "edits", [{"edit": NAME, ...params}]).
#
# Each takes the scene and keyword parameters, changes the scene, and returns a small
# JSON-able record of what it changed (so a test can check the edit happened at all).
# Names are Blender's names after the glTF import: objects, bones (a glTF joint's node name),
# actions and materials. Vectors are in Blender's space (Z up, metres as imported).
# They work in Blender 3.4, 4.5 and 5.0: actions are "layered" from 4.4 on (slots, layers,
# strips, channel bags) and 5.0 removed the old `action.fcurves`; see `fcurves`.
import bmesh
import bpy
from mathutils import Matrix, Vector

# --- finding things -------------------------------------------------------------------


def armatures(scene):
    return [o for o in scene.objects if o.type == "ARMATURE"]


def armature_with_bone(scene, bone, armature=None):
    """The armature object that has the bone named `bone` (or the one named `armature`)."""
    for arm in armatures(scene):
        if (armature is None or arm.name == armature) and bone in arm.data.bones:
            return arm
    raise KeyError("no armature has a bone named %r (armatures: %s)"
                   % (bone, [a.name for a in armatures(scene)]))


def find_object(scene, name, kind=None):
    obj = scene.objects.get(name)
    if obj is None or (kind and obj.type != kind):
        names = [o.name for o in scene.objects if kind is None or o.type == kind]
        raise KeyError("no %s object named %r (there are %s)" % (kind or "", name, names[:40]))
    return obj


def find_action(name):
    """The action named `name`, or the one an NLA track named `name` holds (the importer
    names each track after the glTF animation, and each action `<track>_<object>` when the
    animation drives several objects)."""
    act = bpy.data.actions.get(name)
    if act is not None:
        return act
    for obj in bpy.data.objects:
        ad = obj.animation_data
        for track in (ad.nla_tracks if ad else []):
            if track.name == name and track.strips and track.strips[0].action:
                return track.strips[0].action
    raise KeyError("no action or NLA track named %r (actions: %s)"
                   % (name, [a.name for a in bpy.data.actions][:40]))


def fcurves(action):
    """Every F-curve of the action, whatever the Blender version."""
    layers = getattr(action, "layers", None)
    if layers is not None and len(layers) > 0:
        out = []
        for layer in layers:
            for strip in layer.strips:
                for bag in strip.channelbags:
                    out.extend(bag.fcurves)
        return out
    return list(getattr(action, "fcurves", []))


def bone_path(bone, channel):
    return 'pose.bones["%s"].%s' % (bone.replace("\\", "\\\\").replace('"', '\\"'), channel)


class ActiveAction:
    """Makes `action` the active action of `obj` (its slot too, from 4.4 on) for the
    duration of a `with`, and puts back what was there."""

    def __init__(self, obj, action):
        self.obj, self.action = obj, action

    def __enter__(self):
        ad = self.obj.animation_data or self.obj.animation_data_create()
        self.saved = (ad.action, getattr(ad, "action_slot", None))
        # An NLA track in tweak mode would take the keys; the importer leaves none.
        ad.action = self.action
        if hasattr(ad, "action_slot") and ad.action_slot is None:
            slots = [s for s in self.action.slots if s.target_id_type in ("OBJECT", "UNSPECIFIED")]
            if slots:
                ad.action_slot = slots[0]
        return ad

    def __exit__(self, *exc):
        ad = self.obj.animation_data
        ad.action = self.saved[0]
        if self.saved[0] is not None and hasattr(ad, "action_slot") and self.saved[1] is not None:
            ad.action_slot = self.saved[1]
        return False


def insert_keys(arm, bone, frame, values):
    """Keys on the active action of `arm` for the pose bone `bone` at `frame`: `values`
    maps a channel (location, rotation_quaternion, scale) to its value, or to None for the
    value the channel has there now."""
    pb = arm.pose.bones[bone]
    bpy.context.scene.frame_set(int(frame))
    for channel, value in values.items():
        if value is not None:
            setattr(pb, channel, value)
        pb.keyframe_insert(data_path=channel, frame=frame, group=bone)
    return sorted(values)


# --- the edits ------------------------------------------------------------------------


def move_bone_keys(scene, action, bone, frames=0.0, offset=None, channel="location"):
    """Moves the keys of `bone` in `action`: every key `frames` later (all channels), and
    `offset` (a vector) added to every key of `channel`."""
    act = find_action(action)
    prefix = bone_path(bone, "")
    moved = 0
    for fc in fcurves(act):
        if not fc.data_path.startswith(prefix):
            continue
        add = 0.0
        if offset is not None and fc.data_path == bone_path(bone, channel):
            add = float(offset[fc.array_index])
        for kp in fc.keyframe_points:
            for attr in ("co", "handle_left", "handle_right"):
                p = getattr(kp, attr)
                setattr(kp, attr, (p[0] + frames, p[1] + add))
            moved += 1
        fc.update()
    if moved == 0:
        raise KeyError("action %r has no keys for bone %r" % (act.name, bone))
    return {"action": act.name, "keys": moved}


def add_key(scene, action, bone, frame, location=None, rotation_quaternion=None, scale=None,
            channels=("location", "rotation_quaternion", "scale")):
    """Adds a key to `bone` in `action` at `frame` on each of `channels`: the value given,
    or the curve's own value there (a key that changes nothing until it is moved)."""
    act = find_action(action)
    arm = armature_with_bone(scene, bone)
    given = {"location": location, "rotation_quaternion": rotation_quaternion, "scale": scale}
    with ActiveAction(arm, act):
        done = insert_keys(arm, bone, frame, {c: given[c] for c in channels})
    return {"action": act.name, "bone": bone, "frame": frame, "channels": done}


def add_bone(scene, name, parent, head, tail, mesh=None, vertices=(), weight=1.0,
             exclusive=True):
    """Adds the bone `name` under `parent` (head and tail in the armature's space) and
    weights `vertices` (indices of the mesh object `mesh`, default: every mesh the
    armature deforms, first one) to it; `exclusive` removes those vertices from every
    other group first, so they follow the new bone alone."""
    arm = armature_with_bone(scene, parent)
    view_layer = bpy.context.view_layer
    view_layer.objects.active = arm
    arm.select_set(True)
    bpy.ops.object.mode_set(mode="EDIT")
    try:
        eb = arm.data.edit_bones.new(name)
        eb.head, eb.tail = Vector(head), Vector(tail)
        eb.parent = arm.data.edit_bones[parent]
        new_name = eb.name
    finally:
        bpy.ops.object.mode_set(mode="OBJECT")
    if mesh is None:
        meshes = [o for o in scene.objects if o.type == "MESH" and o.find_armature() == arm]
        if not meshes:
            raise KeyError("no mesh is deformed by %r" % arm.name)
        obj = meshes[0]
    else:
        obj = find_object(scene, mesh, "MESH")
    idx = [int(i) for i in vertices]
    if exclusive:
        for g in obj.vertex_groups:
            g.remove(idx)
    group = obj.vertex_groups.new(name=new_name)
    group.add(idx, float(weight), "REPLACE")
    return {"armature": arm.name, "bone": new_name, "mesh": obj.name, "vertices": len(idx)}


def delete_vertices(scene, mesh, vertices=None, axis=None, above=None):
    """Deletes vertices of the mesh object `mesh` (and their faces): those listed, or those
    whose coordinate on `axis` (0, 1, 2) is above `above` (object space)."""
    obj = find_object(scene, mesh, "MESH")
    bm = bmesh.new()
    bm.from_mesh(obj.data)
    bm.verts.ensure_lookup_table()
    if vertices is not None:
        doomed = [bm.verts[int(i)] for i in vertices]
    else:
        doomed = [v for v in bm.verts if v.co[int(axis)] > float(above)]
    bmesh.ops.delete(bm, geom=doomed, context="VERTS")
    bm.to_mesh(obj.data)
    bm.free()
    obj.data.update()
    return {"mesh": obj.name, "deleted": len(doomed), "left": len(obj.data.vertices)}


def move_vertex(scene, mesh, index, offset):
    """Moves vertex `index` of the mesh object `mesh` by `offset` (object space, rest)."""
    obj = find_object(scene, mesh, "MESH")
    v = obj.data.vertices[int(index)]
    v.co = v.co + Vector(offset)
    obj.data.update()
    return {"mesh": obj.name, "index": int(index), "co": list(v.co)}


def add_empty(scene, name, bone, location=(0.0, 0.0, 0.0), props=None, armature=None):
    """Adds an empty named `name` parented to `bone`, at the bone's head plus `location`
    (world space, rest), with the custom properties `props`."""
    arm = armature_with_bone(scene, bone, armature)
    obj = bpy.data.objects.new(name, None)
    (arm.users_collection[0] if arm.users_collection else scene.collection).objects.link(obj)
    obj.parent = arm
    obj.parent_type = "BONE"
    obj.parent_bone = bone
    bpy.context.view_layer.update()
    head = arm.matrix_world @ arm.pose.bones[bone].head
    obj.matrix_world = Matrix.Translation(head + Vector(location))
    for k, v in (props or {}).items():
        obj[k] = v
    return {"empty": obj.name, "bone": bone, "world": list(obj.matrix_world.translation)}


def rename_action(scene, old, new):
    """Renames the action `old` (or the one the NLA track `old` holds) to `new`, and the
    NLA tracks named `old` that hold it."""
    act = find_action(old)
    was = act.name
    act.name = new
    tracks = 0
    for obj in bpy.data.objects:
        ad = obj.animation_data
        for track in (ad.nla_tracks if ad else []):
            if track.name == old and any(s.action == act for s in track.strips):
                track.name = new
                tracks += 1
    return {"action": was, "now": act.name, "tracks": tracks}


def add_action(scene, name, bone, keys, armature=None):
    """A new action `name` with keys for `bone`: `keys` is a list of {"frame", and any of
    "location", "rotation_quaternion", "scale"}. It is stashed in an NLA track of its name
    (muted), as the importer stashes every animation, so every exporter mode finds it."""
    arm = armature_with_bone(scene, bone, armature)
    act = bpy.data.actions.new(name)
    with ActiveAction(arm, act):
        for k in keys:
            insert_keys(arm, bone, k["frame"], {c: k[c] for c in
                                                ("location", "rotation_quaternion", "scale") if c in k})
    ad = arm.animation_data
    track = ad.nla_tracks.new()
    track.name = name
    start = min(k["frame"] for k in keys)
    strip = track.strips.new(name, int(start), act)
    track.mute = True
    return {"action": act.name, "keys": len(keys), "strip": [strip.frame_start, strip.frame_end]}


def upstream_images(socket):
    """Image texture nodes feeding `socket`, nearest first."""
    seen, queue, out = set(), [socket], []
    while queue:
        s = queue.pop(0)
        for link in s.links:
            node = link.from_node
            if node.name in seen:
                continue
            seen.add(node.name)
            if node.type == "TEX_IMAGE":
                out.append(node)
            queue.extend(i for i in node.inputs if i.is_linked)
    return out


def replace_image(scene, material, name, path=None, size=(8, 8), color=(0.0, 0.5, 1.0, 1.0)):
    """Gives the base colour of `material` a new image named `name`: the PNG at `path`,
    or a new `size` image of `color` (packed into the file as PNG)."""
    mat = bpy.data.materials.get(material)
    if mat is None or not mat.use_nodes:
        raise KeyError("no node material named %r (there are %s)"
                       % (material, [m.name for m in bpy.data.materials][:40]))
    bsdf = next((n for n in mat.node_tree.nodes if n.type == "BSDF_PRINCIPLED"), None)
    if bsdf is not None:
        nodes = upstream_images(bsdf.inputs["Base Color"]) or upstream_images(bsdf.inputs["Alpha"])
    else:
        # An unlit material (KHR_materials_unlit): the importer makes it of emission, with
        # the base colour image its only image.
        nodes = [n for n in mat.node_tree.nodes if n.type == "TEX_IMAGE"]
    if not nodes:
        raise KeyError("material %r has no image on its base colour" % material)
    if path:
        img = bpy.data.images.load(path)
        img.name = name
    else:
        img = bpy.data.images.new(name, int(size[0]), int(size[1]), alpha=True)
        img.pixels[:] = list(color) * (int(size[0]) * int(size[1]))
        img.file_format = "PNG"
        img.pack()
    old = nodes[0].image.name if nodes[0].image else None
    nodes[0].image = img
    return {"material": mat.name, "old": old, "new": img.name}


EDITS = {f.__name__: f for f in (move_bone_keys, add_key, add_bone, delete_vertices,
                                 move_vertex, add_empty, rename_action, add_action,
                                 replace_image)}
