# selftest.py - checks roundtrip.py and every edit of edits.py in each prepared Blender:
# CesiumMan (../shared/gltf-samples: a skinned, animated, textured figure) goes through
# with no edit and with each edit, one job each, one Blender process per version; each
# output is read back here (gltfdoc.py, no Blender) and must show the edit.
#
#   python3 selftest.py [OUTDIR]        MDLX_BLENDER / MDLX_BPY45 / MDLX_BPY50 as set
#
# Prints a line per check and a libtest-style `test result:` line; exit status 1 when a
# check failed.
import json
import math
import os
import sys
import tempfile

from gltfdoc import accessor, read_glb
from survey import blenders

HERE = os.path.dirname(os.path.abspath(__file__))
SAMPLE = os.path.join(HERE, "..", "..", "..", "shared", "gltf-samples", "CesiumMan", "CesiumMan.glb")
BONE = "torso_joint_3"
EDITS = {
    "none": [],
    "move_bone_keys": [{"edit": "move_bone_keys", "action": "Anim_0", "bone": BONE,
                        "offset": [0.0, 0.0, 0.25]}],
    "add_key": [{"edit": "add_key", "action": "Anim_0", "bone": BONE, "frame": 10,
                 "location": [0.0, 0.0, 0.5], "channels": ["location"]}],
    "add_bone": [{"edit": "add_bone", "name": "NewBone", "parent": BONE, "head": [0, 0, 1],
                  "tail": [0, 0, 1.2], "vertices": list(range(10))}],
    "delete_vertices": [{"edit": "delete_vertices", "mesh": "Cesium_Man", "vertices": list(range(100))}],
    "move_vertex": [{"edit": "move_vertex", "mesh": "Cesium_Man", "index": 0, "offset": [0, 0, 7.0]}],
    "add_empty": [{"edit": "add_empty", "name": "Hand Ref", "bone": BONE, "location": [0, 0, 0.1],
                   "props": {"mdlx_kind": "Attachment"}}],
    "rename_action": [{"edit": "rename_action", "old": "Anim_0", "new": "Walk Fast"}],
    "add_action": [{"edit": "add_action", "name": "Spin", "bone": BONE, "keys": [
        {"frame": 1, "rotation_quaternion": [1, 0, 0, 0]},
        {"frame": 13, "rotation_quaternion": [0.7071, 0, 0, 0.7071]}]}],
    "replace_image": [{"edit": "replace_image", "material": "Cesium_Man-effect",
                       "name": "Textures\\New.blp"}],
}


def node(doc, name):
    return next((i for i, n in enumerate(doc["nodes"]) if n.get("name") == name), None)


def channel(doc, binary, anim, node_index, path):
    for ch in anim["channels"]:
        if ch["target"].get("node") == node_index and ch["target"]["path"] == path:
            s = anim["samplers"][ch["sampler"]]
            return accessor(doc, binary, s["input"]), accessor(doc, binary, s["output"])
    return None


def value_at(times, values, t):
    """A LINEAR (or constant) channel's value at time t."""
    ts = [x[0] for x in times]
    if t <= ts[0]:
        return values[0]
    for i in range(1, len(ts)):
        if t <= ts[i]:
            f = (t - ts[i - 1]) / (ts[i] - ts[i - 1])
            return tuple(a + (b - a) * f for a, b in zip(values[i - 1], values[i]))
    return values[-1]


def changes(c0, c1):
    """How far each key of channel c1 is from channel c0 at the same time."""
    if not c0 or not c1:
        return []
    return [math.dist(value_at(*c0, t[0]), v) for t, v in zip(*c1)]


def positions(doc, binary):
    m = doc["meshes"][0]["primitives"][0]
    return accessor(doc, binary, m["attributes"]["POSITION"])


def checks(out, base):
    """name -> (ok, detail) for one Blender's outputs."""
    b, bb = read_glb(base)
    res = {}
    d, db = read_glb(out["move_bone_keys"])
    n = node(d, BONE)
    c0 = channel(b, bb, b["animations"][0], node(b, BONE), "translation")
    c1 = channel(d, db, d["animations"][0], n, "translation")
    moved = changes(c0, c1)
    res["move_bone_keys"] = (bool(moved) and all(abs(m - 0.25) < 1e-3 for m in moved),
                             "translation keys moved by %s" % (sorted(set(round(m, 4) for m in moved))[:4]))
    d, db = read_glb(out["add_key"])
    c1 = channel(d, db, d["animations"][0], node(d, BONE), "translation")
    diff = max(changes(c0, c1), default=0.0)
    res["add_key"] = (diff > 0.1, "largest change of the bone's translation %.3f" % diff)
    d, db = read_glb(out["add_bone"])
    k = node(d, "NewBone")
    skin = d["skins"][0]
    j = skin["joints"].index(k) if k in skin["joints"] else None
    prim = d["meshes"][0]["primitives"][0]
    J = accessor(d, db, prim["attributes"]["JOINTS_0"])
    W = accessor(d, db, prim["attributes"]["WEIGHTS_0"])
    only = sum(1 for js, ws in zip(J, W) if j is not None and any(
        jj == j and w > 0.999 for jj, w in zip(js, ws)))
    res["add_bone"] = (k is not None and j is not None and only >= 10,
                       "node %s, joint %s, %d vertices on it alone" % (k, j, only))
    d, db = read_glb(out["delete_vertices"])
    nb, nd = len(positions(b, bb)), len(positions(d, db))
    res["delete_vertices"] = (nd < nb, "%d vertices -> %d" % (nb, nd))
    d, db = read_glb(out["move_vertex"])
    pb, pd = set(positions(b, bb)), positions(d, db)
    new = [p for p in pd if p not in pb]
    res["move_vertex"] = (len(new) >= 1, "%d vertices at new places" % len(new))
    d, db = read_glb(out["add_empty"])
    e = node(d, "Hand Ref")
    parent = next((i for i, x in enumerate(d["nodes"]) if e in x.get("children", [])), None)
    extras = d["nodes"][e].get("extras", {}) if e is not None else {}
    res["add_empty"] = (e is not None and parent == node(d, BONE) and extras.get("mdlx_kind") == "Attachment",
                        "node %s under %s, extras %s" % (e, parent, extras))
    d, db = read_glb(out["rename_action"])
    names = [a.get("name") for a in d.get("animations", [])]
    res["rename_action"] = (names == ["Walk Fast"], "animations %s" % names)
    d, db = read_glb(out["add_action"])
    names = sorted(a.get("name") for a in d.get("animations", []))
    res["add_action"] = ("Spin" in names and len(names) == 2, "animations %s" % names)
    d, db = read_glb(out["replace_image"])
    imgs = [i.get("name") for i in d.get("images", [])]
    res["replace_image"] = (any(i and i.startswith("Textures\\New") for i in imgs), "images %s" % imgs)
    return res


def main(outdir):
    import subprocess
    passed = failed = 0
    found = blenders()
    if not found:
        print("no Blender prepared (MDLX_BLENDER, MDLX_BPY45, MDLX_BPY50)")
        return 1
    for label, cmd in found.items():
        outs = {e: os.path.join(outdir, "%s.%s.glb" % (label, e)) for e in EDITS}
        req = os.path.join(outdir, "request.%s.json" % label)
        res = os.path.join(outdir, "result.%s.jsonl" % label)
        jobs = [{"input": os.path.abspath(SAMPLE), "output": outs[e], "edits": EDITS[e]} for e in EDITS]
        with open(req, "w") as f:
            json.dump({"jobs": jobs}, f)
        subprocess.run(cmd + [req, res], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        lines = {json.loads(x)["output"]: json.loads(x) for x in open(res)}
        errors = {e: lines.get(outs[e], {}).get("error", "no answer") for e in EDITS}
        if errors["none"]:
            results = {e: (False, "the plain round trip failed: %s" % errors["none"]) for e in EDITS}
        else:
            results = checks(outs, outs["none"])
        for e in EDITS:
            if e == "none":
                continue
            ok, detail = results.get(e, (False, ""))
            if errors[e]:
                ok, detail = False, "error: %s" % errors[e].strip().splitlines()[-1]
            print("test %s %s ... %s (%s)" % (label, e, "ok" if ok else "FAILED", detail))
            passed += ok
            failed += not ok
    print("\ntest result: %s. %d passed; %d failed; 0 ignored; 0 measured; 0 filtered out"
          % ("ok" if failed == 0 else "FAILED", passed, failed))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1] if len(sys.argv) > 1 else tempfile.mkdtemp(prefix="mdlx-edits-")))
