# compare_glb.py - what a round trip through Blender did to a .glb: the file that went in
# against the file that came back, as JSON facts (the evidence behind README.md).
#
#   python3 compare_glb.py IN.glb OUT.glb [--keys]      prints one JSON object
#
# Nodes are matched by name (Blender keeps names; see the README for when it does not).
import json
import sys

from gltfdoc import accessor, read_glb


def roles(doc):
    """Each node's role: joint, mesh, skinned-mesh, camera, light, other."""
    joints = {j for s in doc.get("skins", []) for j in s["joints"]}
    out = []
    for i, n in enumerate(doc.get("nodes", [])):
        r = []
        if i in joints:
            r.append("joint")
        if "mesh" in n:
            r.append("skinned-mesh" if "skin" in n else "mesh")
        if "camera" in n:
            r.append("camera")
        if "KHR_lights_punctual" in n.get("extensions", {}):
            r.append("light")
        out.append("+".join(r) or "other")
    return out


def parents(doc):
    p = {}
    for i, n in enumerate(doc.get("nodes", [])):
        for c in n.get("children", []):
            p[c] = i
    return p


def node_name(doc, i):
    return doc["nodes"][i].get("name") if i is not None else None


def extras_places(doc):
    """(place kind, name, extras) for every object that has extras."""
    out = []
    if "extras" in doc.get("asset", {}):
        out.append(("asset", None, doc["asset"]["extras"]))
    r = roles(doc)
    lists = [("scene", "scenes"), ("mesh", "meshes"), ("material", "materials"),
             ("animation", "animations"), ("camera", "cameras"), ("skin", "skins"),
             ("image", "images"), ("texture", "textures")]
    for i, n in enumerate(doc.get("nodes", [])):
        if "extras" in n:
            out.append(("node:" + r[i], n.get("name"), n["extras"]))
    for kind, key in lists:
        for o in doc.get(key, []):
            if "extras" in o:
                out.append((kind, o.get("name"), o["extras"]))
    for light in doc.get("extensions", {}).get("KHR_lights_punctual", {}).get("lights", []):
        if "extras" in light:
            out.append(("light", light.get("name"), light["extras"]))
    return out


def key_times(doc, binary, anim):
    """target (node name, path) -> (interpolation, key times)."""
    out = {}
    for ch in anim["channels"]:
        s = anim["samplers"][ch["sampler"]]
        t = ch["target"]
        times = [v[0] for v in accessor(doc, binary, s["input"])]
        out[(node_name(doc, t.get("node")), t["path"])] = (s.get("interpolation", "LINEAR"), times)
    return out


def summary(doc, binary):
    r = roles(doc)
    p = parents(doc)
    counts = {}
    for x in r:
        counts[x] = counts.get(x, 0) + 1
    meshes = []
    for m in doc.get("meshes", []):
        prims = []
        for pr in m["primitives"]:
            prims.append({"vertices": doc["accessors"][pr["attributes"]["POSITION"]]["count"],
                          "indices": doc["accessors"][pr["indices"]]["count"] if "indices" in pr else None,
                          "attributes": sorted(pr["attributes"]),
                          "material": pr.get("material"), "mode": pr.get("mode", 4)})
        meshes.append({"name": m.get("name"), "primitives": prims})
    anims = []
    for a in doc.get("animations", []):
        kt = key_times(doc, binary, a)
        end = max((t[-1] for _, t in kt.values() if t), default=0.0)
        start = min((t[0] for _, t in kt.values() if t), default=0.0)
        anims.append({"name": a.get("name"), "channels": len(a["channels"]), "start": start,
                      "end": end, "interpolations": sorted({i for i, _ in kt.values()}),
                      "keys": sum(len(t) for _, t in kt.values())})
    return {
        "scenes": [{"name": s.get("name"), "roots": [node_name(doc, i) for i in s.get("nodes", [])]}
                   for s in doc.get("scenes", [])],
        "nodes": len(doc.get("nodes", [])), "roles": counts,
        "names": [n.get("name") for n in doc.get("nodes", [])],
        "parents": {node_name(doc, c): node_name(doc, q) for c, q in p.items()},
        "skins": [{"name": s.get("name"), "joints": len(s["joints"]),
                   "skeleton": node_name(doc, s.get("skeleton"))} for s in doc.get("skins", [])],
        "meshes": meshes,
        "materials": [{"name": m.get("name"), "alphaMode": m.get("alphaMode", "OPAQUE"),
                       "doubleSided": m.get("doubleSided", False),
                       "extensions": sorted(m.get("extensions", {}))} for m in doc.get("materials", [])],
        "images": [{"name": i.get("name"), "mimeType": i.get("mimeType"), "uri": i.get("uri")}
                   for i in doc.get("images", [])],
        "animations": anims,
        "cameras": [c.get("name") for c in doc.get("cameras", [])],
        "lights": [(light.get("name"), light.get("type")) for light in
                   doc.get("extensions", {}).get("KHR_lights_punctual", {}).get("lights", [])],
        "extensionsUsed": doc.get("extensionsUsed", []),
    }


def compare(a_path, b_path, keys=False):
    a, abin = read_glb(a_path)
    b, bbin = read_glb(b_path)
    sa, sb = summary(a, abin), summary(b, bbin)
    an, bn = set(sa["names"]), set(sb["names"])
    ra, rb = roles(a), roles(b)
    role_b = {n.get("name"): rb[i] for i, n in enumerate(b.get("nodes", []))}
    role_changes = {}
    for i, n in enumerate(a.get("nodes", [])):
        nb = role_b.get(n.get("name"))
        if nb is not None and nb != ra[i]:
            k = "%s -> %s" % (ra[i], nb)
            role_changes[k] = role_changes.get(k, 0) + 1
    reparented = [n for n in sa["parents"] if n in bn and sb["parents"].get(n) != sa["parents"][n]]
    # Extras: where each place kind's extras came back, by name.
    ea = extras_places(a)
    eb = {}
    for kind, name, ex in extras_places(b):
        eb.setdefault(json.dumps(ex, sort_keys=True), []).append(kind)
    extras = {}
    for kind, name, ex in ea:
        back = eb.get(json.dumps(ex, sort_keys=True))
        k = extras.setdefault(kind, {"in": 0, "same": 0, "came_back_as": {}})
        k["in"] += 1
        if back:
            k["same"] += 1
            for w in set(back):
                k["came_back_as"][w] = k["came_back_as"].get(w, 0) + 1
    out = {"in": {k: v for k, v in sa.items() if k not in ("names", "parents")},
           "out": {k: v for k, v in sb.items() if k not in ("names", "parents")},
           "nodes_lost": sorted(an - bn, key=str)[:20], "nodes_lost_count": len(an - bn),
           "nodes_added": sorted(bn - an, key=str)[:20], "nodes_added_count": len(bn - an),
           "role_changes": role_changes, "reparented": reparented[:20],
           "reparented_count": len(reparented), "extras": extras,
           "animation_order_in": [x["name"] for x in sa["animations"]],
           "animation_order_out": [x["name"] for x in sb["animations"]]}
    if keys:
        out["key_times"] = key_time_report(a, abin, b, bbin)
    return out


def key_time_report(a, abin, b, bbin):
    """Per animation (by name): channels matched by (node name, path); how many keep their
    key times exactly, within 1 ms, and the largest difference."""
    byname = {x.get("name"): x for x in b.get("animations", [])}
    rep = {}
    for anim in a.get("animations", []):
        other = byname.get(anim.get("name"))
        if other is None:
            continue
        ka, kb = key_times(a, abin, anim), key_times(b, bbin, other)
        same = near = matched = 0
        worst, counts = 0.0, []
        for k, (interp, ta) in ka.items():
            if k not in kb:
                continue
            matched += 1
            tb = kb[k][1]
            counts.append((len(ta), len(tb), interp, kb[k][0]))
            if ta == tb:
                same += 1
            # every source key time has a key within 1 ms?
            d = max((min(abs(x - y) for y in tb) for x in ta), default=0.0) if tb else float("inf")
            worst = max(worst, d)
            if d <= 0.0005:
                near += 1
        rep[anim.get("name")] = {"channels_in": len(ka), "channels_out": len(kb),
                                 "matched": matched, "times_identical": same,
                                 "every_key_within_0.5ms": near, "worst_key_s": worst,
                                 "sample_counts": counts[:3]}
    return rep


if __name__ == "__main__":
    args = [x for x in sys.argv[1:] if not x.startswith("--")]
    print(json.dumps(compare(args[0], args[1], keys="--keys" in sys.argv), indent=1))
