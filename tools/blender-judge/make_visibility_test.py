# make_visibility_test.py - writes visibility.gltf: the way the exporter hides a geoset
# (STEP scale to 0 on the mesh node), on a skinned mesh and on a plain mesh, plus the
# vertex cases the caller cares about (an unreferenced vertex, two vertices at one
# position) and animations that must not leak into each other (two share a name).
#
#   python3 make_visibility_test.py OUT.gltf
#
# Nodes:  0 skinned_geoset (mesh 0, skin 0)   1 root_joint -> 2 child_joint (y = 1)
#         3 plain_geoset (mesh 1, at x = 3)
# Anims:  0 "hide":  STEP scale 1,0,1 at t = 0,1,2 on nodes 0 and 3; LINEAR rotation of
#                    child_joint 0 -> 90 deg about z over t = 0..2
#         1 "other": LINEAR translation of plain_geoset (3,0,0) -> (3,5,0) over t = 0..1;
#                    child_joint rotation -90 deg (constant)
#         2 "hide":  (same name again) LINEAR translation of root_joint (0,0,0) -> (0,0,2)
#         3 "hide_by_joint": STEP scale 1,0,1 at t = 0,1,2 on root_joint, the ancestor of
#                    every joint of the skin (a way to hide a skinned mesh that Blender
#                    and the spec both honour: all its vertices collapse to one point)
import base64
import json
import math
import struct
import sys


def main(out_path):
    blob = bytearray()
    views, accessors = [], []

    def add(fmt, rows, ctype, typ, target=None, minmax=False):
        while len(blob) % 4:
            blob.append(0)
        off = len(blob)
        for r in rows:
            blob.extend(struct.pack("<" + fmt, *(r if isinstance(r, (tuple, list)) else (r,))))
        view = {"buffer": 0, "byteOffset": off, "byteLength": len(blob) - off}
        if target:
            view["target"] = target
        views.append(view)
        acc = {"bufferView": len(views) - 1, "componentType": ctype, "count": len(rows), "type": typ}
        if minmax:
            cols = list(zip(*[r if isinstance(r, (tuple, list)) else (r,) for r in rows]))
            acc["min"] = [min(c) for c in cols]
            acc["max"] = [max(c) for c in cols]
        accessors.append(acc)
        return len(accessors) - 1

    # mesh 0: a strip of 3 rows of 2 vertices (y = 0, 1, 2), 4 triangles, plus
    # vertex 6 (unreferenced) and vertex 7 (same position as vertex 2, used by the last
    # triangle instead of 2).
    pos0 = [(-0.5, 0, 0), (0.5, 0, 0), (-0.5, 1, 0), (0.5, 1, 0), (-0.5, 2, 0), (0.5, 2, 0),
            (9, 9, 9), (-0.5, 1, 0)]
    idx0 = [0, 1, 3, 0, 3, 2, 2, 3, 5, 7, 5, 4]
    joints0 = [(0, 1, 0, 0)] * 8
    weights0 = [(1, 0, 0, 0), (1, 0, 0, 0), (0.5, 0.5, 0, 0), (0.5, 0.5, 0, 0),
                (0, 1, 0, 0), (0, 1, 0, 0), (1, 0, 0, 0), (0.5, 0.5, 0, 0)]
    a_pos0 = add("3f", pos0, 5126, "VEC3", 34962, True)
    a_idx0 = add("H", idx0, 5123, "SCALAR", 34963)
    a_j0 = add("4B", joints0, 5121, "VEC4", 34962)
    a_w0 = add("4f", weights0, 5126, "VEC4", 34962)
    # mesh 1: a quad
    pos1 = [(-0.5, 0, 0), (0.5, 0, 0), (0.5, 1, 0), (-0.5, 1, 0)]
    a_pos1 = add("3f", pos1, 5126, "VEC3", 34962, True)
    a_idx1 = add("H", [0, 1, 2, 0, 2, 3], 5123, "SCALAR", 34963)
    ibm = [(1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1),
           (1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, -1, 0, 1)]
    a_ibm = add("16f", ibm, 5126, "MAT4")

    s45 = math.sin(math.pi / 4)
    t012 = add("f", [0, 1, 2], 5126, "SCALAR", minmax=True)
    t02 = add("f", [0, 2], 5126, "SCALAR", minmax=True)
    t01 = add("f", [0, 1], 5126, "SCALAR", minmax=True)
    scale_hide = add("3f", [(1, 1, 1), (0, 0, 0), (1, 1, 1)], 5126, "VEC3")
    rot90 = add("4f", [(0, 0, 0, 1), (0, 0, s45, s45)], 5126, "VEC4")
    rotm90 = add("4f", [(0, 0, -s45, s45), (0, 0, -s45, s45)], 5126, "VEC4")
    move_plain = add("3f", [(3, 0, 0), (3, 5, 0)], 5126, "VEC3")
    move_root = add("3f", [(0, 0, 0), (0, 0, 2)], 5126, "VEC3")

    def anim(name, chans):
        samplers, channels = [], []
        for node, path, inp, outp, interp in chans:
            samplers.append({"input": inp, "output": outp, "interpolation": interp})
            channels.append({"sampler": len(samplers) - 1, "target": {"node": node, "path": path}})
        return {"name": name, "samplers": samplers, "channels": channels}

    doc = {
        "asset": {"version": "2.0", "generator": "mdlx blender-judge make_visibility_test.py"},
        "scene": 0,
        "scenes": [{"nodes": [0, 1, 3]}],
        "nodes": [
            {"name": "skinned_geoset", "mesh": 0, "skin": 0},
            {"name": "root_joint", "children": [2]},
            {"name": "child_joint", "translation": [0, 1, 0]},
            {"name": "plain_geoset", "mesh": 1, "translation": [3, 0, 0]},
        ],
        "meshes": [
            {"name": "skinned_mesh", "primitives": [{"attributes": {
                "POSITION": a_pos0, "JOINTS_0": a_j0, "WEIGHTS_0": a_w0}, "indices": a_idx0}]},
            {"name": "plain_mesh", "primitives": [{"attributes": {"POSITION": a_pos1},
                                                   "indices": a_idx1}]},
        ],
        "skins": [{"joints": [1, 2], "inverseBindMatrices": a_ibm}],
        "animations": [
            anim("hide", [(0, "scale", t012, scale_hide, "STEP"),
                          (3, "scale", t012, scale_hide, "STEP"),
                          (2, "rotation", t02, rot90, "LINEAR")]),
            anim("other", [(3, "translation", t01, move_plain, "LINEAR"),
                           (2, "rotation", t01, rotm90, "LINEAR")]),
            anim("hide", [(1, "translation", t01, move_root, "LINEAR")]),
            anim("hide_by_joint", [(1, "scale", t012, scale_hide, "STEP")]),
        ],
        "accessors": accessors,
        "bufferViews": views,
        "buffers": [{"byteLength": len(blob),
                     "uri": "data:application/octet-stream;base64," + base64.b64encode(bytes(blob)).decode()}],
    }
    with open(out_path, "w") as f:
        json.dump(doc, f, indent=1)


if __name__ == "__main__":
    main(sys.argv[1])
