# facts.py - details of one round trip the survey (README.md) quotes: node order, skins
# and inverse bind matrices, weights, vertex and triangle order, interpolations, images.
#
#   python3 facts.py IN.glb OUT.glb
import json
import sys

from compare_glb import key_times, roles
from gltfdoc import accessor, read_glb


def mat_diff(a, b):
    return max(abs(x - y) for x, y in zip(a, b))


def main(a_path, b_path):
    a, ab = read_glb(a_path)
    b, bb = read_glb(b_path)
    out = {}
    na = [n.get("name") for n in a["nodes"]]
    nb = [n.get("name") for n in b["nodes"]]
    common = [n for n in na if n in set(nb)]
    order_b = [n for n in nb if n in set(na)]
    out["node_order_kept"] = common == order_b
    # Inverse bind matrices by joint name (the first skin naming the joint).
    ibm_a = {}
    for s in a.get("skins", []):
        mats = accessor(a, ab, s["inverseBindMatrices"]) if "inverseBindMatrices" in s else []
        for j, m in zip(s["joints"], mats):
            ibm_a.setdefault(na[j], m)
    worst, n = 0.0, 0
    for s in b.get("skins", []):
        mats = accessor(b, bb, s["inverseBindMatrices"]) if "inverseBindMatrices" in s else []
        for j, m in zip(s["joints"], mats):
            if nb[j] in ibm_a:
                worst = max(worst, mat_diff(ibm_a[nb[j]], m))
                n += 1
    out["ibm_compared"], out["ibm_worst_abs_diff"] = n, worst
    out["joint_order_in_first_skin"] = [na[j] for j in a["skins"][0]["joints"][:5]] if a.get("skins") else []
    out["joint_order_out"] = [nb[j] for j in b["skins"][0]["joints"][:5]] if b.get("skins") else []
    # Meshes by name: vertex order, triangle order, weights.
    mb = {m.get("name"): m for m in b.get("meshes", [])}
    meshes = []
    for m in a.get("meshes", []):
        o = mb.get(m.get("name"))
        if not o:
            meshes.append({"name": m.get("name"), "lost": True})
            continue
        pa, pb = m["primitives"][0], o["primitives"][0]
        A = accessor(a, ab, pa["attributes"]["POSITION"])
        B = accessor(b, bb, pb["attributes"]["POSITION"])
        same_prefix = 0
        for x, y in zip(A, B):
            if max(abs(x[k] - y[k]) for k in range(3)) > 1e-4:
                break
            same_prefix += 1
        ia = [t[0] for t in accessor(a, ab, pa["indices"])]
        ib = [t[0] for t in accessor(b, bb, pb["indices"])]
        rec = {"name": m.get("name"), "primitives": [len(m["primitives"]), len(o["primitives"])],
               "vertices": [len(A), len(B)], "same_position_prefix": same_prefix,
               "indices": [len(ia), len(ib)], "indices_equal": ia == ib,
               "attributes": [sorted(pa["attributes"]), sorted(pb["attributes"])]}
        if "WEIGHTS_0" in pb["attributes"]:
            acc = b["accessors"][pb["attributes"]["WEIGHTS_0"]]
            W = accessor(b, bb, pb["attributes"]["WEIGHTS_0"])
            sums = [sum(w) for w in W]
            rec["weights_out"] = {"componentType": acc["componentType"],
                                  "sum_min": min(sums), "sum_max": max(sums),
                                  "sets": sum(1 for k in pb["attributes"] if k.startswith("WEIGHTS_"))}
            rec["weight_sets_in"] = sum(1 for k in pa["attributes"] if k.startswith("WEIGHTS_"))
        meshes.append(rec)
    out["meshes"] = meshes
    # Interpolations in and out, by channel (node name, path).
    interp = {}
    ba = {x.get("name"): x for x in b.get("animations", [])}
    for anim in a.get("animations", []):
        other = ba.get(anim.get("name"))
        if not other:
            continue
        ka, kb = key_times(a, ab, anim), key_times(b, bb, other)
        for k, (i, _) in ka.items():
            if k in kb:
                pair = "%s -> %s" % (i, kb[k][0])
                interp[pair] = interp.get(pair, 0) + 1
        added = [k for k in kb if k not in ka]
        interp.setdefault("channels added (out, not in)", 0)
        interp["channels added (out, not in)"] += len(added)
    out["interpolation"] = interp
    out["images"] = [[i.get("name"), i.get("mimeType"), "uri" in i] for i in a.get("images", [])], \
        [[i.get("name"), i.get("mimeType"), "uri" in i] for i in b.get("images", [])]
    out["materials"] = [[m.get("name"), m.get("alphaMode", "OPAQUE"), m.get("alphaCutoff"),
                         m.get("doubleSided", False), sorted(m.get("extensions", {}))]
                        for m in a.get("materials", [])], \
        [[m.get("name"), m.get("alphaMode", "OPAQUE"), m.get("alphaCutoff"),
          m.get("doubleSided", False), sorted(m.get("extensions", {}))] for m in b.get("materials", [])]
    out["roles_out_other"] = [nb[i] for i, r in enumerate(roles(b)) if r == "other"]
    print(json.dumps(out, indent=1))


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2])
