# probe.py - marks a .glb with probes for the survey (README.md), then reads back where
# they went after a round trip through Blender.
#
#   python3 probe.py mark IN.glb OUT.glb      extras probes everywhere + name probes
#   python3 probe.py read MARKED.glb BACK.glb  JSON: where each probe came back, types kept
#
# Every object that can hold extras gets one key per value, "probe_<value name>", and
# "probe_at": "<kind> <index>", merged into the extras it had (the mdlx extras stay, so the
# file is still a model). One key per value because Blender drops a whole top-level key
# when any part of its value cannot be a custom property (a null, say).
# The values cover JSON's types: ints (small, 2^40, negative), floats (0.1, 1e-7, 3.0),
# bools, null, nested objects and lists (of ints, floats, mixed), a 5,000-character string,
# a string with newlines, one with non-ASCII, an empty string, list and object.
# Names: node 1 gets a 70-byte ASCII name, node 2 a 40-byte name of 2-byte characters
# (70 bytes with --long-utf8: Blender 3.4 and 4.5 then fail to import a joint of that name),
# nodes 3 and 4 the same name ("Twin"), and the first mesh and material "Twin" as well.
import json
import sys

from gltfdoc import read_glb, write_glb

VALUES = {
    "int": 7, "big": 2 ** 40, "neg": -3, "zero": 0,
    "float": 0.1, "tiny": 1e-7, "whole_float": 3.0,
    "true": True, "false": False, "null": None,
    "ints": [1, 2, 3], "floats": [0.5, 1.5], "mixed": [1, "a", 2.5, None, True],
    "nested": {"a": [1, {"b": [2, 3]}], "c": {"d": "e"}},
    "list_of_dicts": [{"x": 1}, {"y": 2}], "nested_null": {"a": 1, "b": None},
    "bool_list": [True, False], "float_list_whole": [1.0, 2.0],
    "long": "x" * 5000, "lines": "a\nb\n\tc", "utf8": "Ünïcödé 中文 ✓",
    "empty_str": "", "empty_list": [], "empty_dict": {},
}

LONG_ASCII = "N" * 70
LONG_UTF8 = "é" * 20  # 40 bytes; "é" * 35 (70 bytes) with --long-utf8


def places(doc):
    """(kind, index, object) of everything that can hold extras."""
    out = [("scene", i, s) for i, s in enumerate(doc.get("scenes", []))]
    out += [("node", i, n) for i, n in enumerate(doc.get("nodes", []))]
    for kind, key in (("mesh", "meshes"), ("material", "materials"), ("animation", "animations"),
                      ("camera", "cameras"), ("skin", "skins"), ("image", "images"),
                      ("texture", "textures")):
        out += [(kind, i, o) for i, o in enumerate(doc.get(key, []))]
    lights = doc.get("extensions", {}).get("KHR_lights_punctual", {}).get("lights", [])
    out += [("light", i, o) for i, o in enumerate(lights)]
    return out


def mark(src, dst, long_utf8=False):
    doc, binary = read_glb(src)
    utf8 = "é" * 35 if long_utf8 else LONG_UTF8
    for kind, i, obj in places(doc):
        ex = obj.get("extras")
        if not isinstance(ex, dict):
            ex = {} if ex is None else {"was": ex}
        for k, v in VALUES.items():
            ex["probe_" + k] = v
        ex["probe_at"] = "%s %d" % (kind, i)
        obj["extras"] = ex
    nodes = doc.get("nodes", [])
    renamed = {}
    for i, name in ((1, LONG_ASCII), (2, utf8), (3, "Twin"), (4, "Twin")):
        if i < len(nodes):
            renamed[i] = (nodes[i].get("name"), name)
            nodes[i]["name"] = name
    for key in ("meshes", "materials"):
        if doc.get(key):
            doc[key][0]["name"] = "Twin"
    write_glb(dst, doc, binary)
    print(json.dumps({"renamed": renamed}))


def typed_equal(a, b):
    """Equal with JSON types kept (1 is not 1.0, True is not 1)."""
    if type(a) is not type(b):
        return False
    if isinstance(a, dict):
        return a.keys() == b.keys() and all(typed_equal(a[k], b[k]) for k in a)
    if isinstance(a, list):
        return len(a) == len(b) and all(typed_equal(x, y) for x, y in zip(a, b))
    return a == b


def describe(v):
    if isinstance(v, str) and len(v) > 40:
        return "str(%d chars)" % len(v)
    return "%s %s" % (type(v).__name__, json.dumps(v, ensure_ascii=False)[:60])


def read(marked, back):
    a, _ = read_glb(marked)
    b, _ = read_glb(back)
    sent = {"%s %d" % (k, i): obj for k, i, obj in places(a)}
    found = {}
    for kind, i, obj in places(b):
        ex = obj.get("extras")
        if isinstance(ex, dict) and "probe_at" in ex:
            p = {k[6:]: v for k, v in ex.items() if k.startswith("probe_")}
            found.setdefault(ex["probe_at"], []).append(("%s %d" % (kind, i), p))
    by_kind = {}
    changed = {}
    for at, obj in sent.items():
        kind = at.split()[0]
        if kind == "node":
            n = obj
            kind = "node(%s)" % ("+".join(k for k in ("mesh", "skin", "camera") if k in n)
                                 or ("light" if "KHR_lights_punctual" in n.get("extensions", {}) else "plain"))
        rec = by_kind.setdefault(kind, {"sent": 0, "back": 0, "back_as": {}, "types_kept": 0})
        rec["sent"] += 1
        hits = found.get(at, [])
        if hits:
            rec["back"] += 1
            for where, _ in hits:
                w = where.split()[0]
                rec["back_as"][w] = rec["back_as"].get(w, 0) + 1
            p = hits[0][1]
            if all(typed_equal(VALUES[k], p.get(k, KeyError)) for k in VALUES):
                rec["types_kept"] += 1
            for k in VALUES:
                if not typed_equal(VALUES[k], p.get(k, KeyError)):
                    changed.setdefault(k, {})
                    d = "missing" if k not in p else describe(p[k])
                    changed[k][d] = changed[k].get(d, 0) + 1
    names_b = [n.get("name") for n in b.get("nodes", [])]
    name_report = {}
    for probe in (LONG_ASCII, "é" * 35, LONG_UTF8, "Twin"):
        hits = [n for n in names_b if n and (n == probe or n.startswith(probe[:20]))]
        name_report[probe[:8] + "..(%d bytes)" % len(probe.encode())] = [
            "%s (%d bytes)" % (h[:12] + ".." + h[-6:] if len(h) > 20 else h, len(h.encode())) for h in hits]
    print(json.dumps({"extras": by_kind, "values_changed": changed, "names": name_report,
                      "mesh_names": [m.get("name") for m in b.get("meshes", [])][:5],
                      "material_names": [m.get("name") for m in b.get("materials", [])][:5]},
                     ensure_ascii=False, indent=1))


if __name__ == "__main__":
    if sys.argv[1] == "mark":
        mark(sys.argv[2], sys.argv[3], "--long-utf8" in sys.argv)
    else:
        read(sys.argv[2], sys.argv[3])
