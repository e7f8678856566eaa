# gltf_ref.py - a small, independent glTF 2.0 evaluator in plain Python (no numpy, no
# Blender), written from the glTF 2.0 specification, for checking what Blender's
# importer does: node TRS animation (STEP, LINEAR with slerp for rotations,
# CUBICSPLINE), world matrices and linear-blend skinning.
#
# Results are in glTF space (Y up); `to_blender` gives Blender's (Z up) coordinates.
#
# rotation="nlerp" models what Blender does with LINEAR rotations instead of the spec's
# slerp: the importer makes adjacent keys share a hemisphere, Blender interpolates the
# four components linearly and normalizes when it builds the matrix.
import base64
import json
import math
import os
import struct

COMPONENT = {5120: ("b", 1), 5121: ("B", 1), 5122: ("h", 2), 5123: ("H", 2),
             5125: ("I", 4), 5126: ("f", 4)}
NORMALIZE = {5120: 127.0, 5121: 255.0, 5122: 32767.0, 5123: 65535.0}
COUNT = {"SCALAR": 1, "VEC2": 2, "VEC3": 3, "VEC4": 4, "MAT2": 4, "MAT3": 9, "MAT4": 16}


def to_blender(p):
    """glTF (x, y, z) -> Blender (x, -z, y)."""
    return (p[0], -p[2], p[1])


class Gltf:
    def __init__(self, path, rotation="slerp"):
        self.path = path
        self.rotation = rotation
        data = open(path, "rb").read()
        self.bin = None
        if data[:4] == b"glTF":
            off = 12
            chunks = []
            while off + 8 <= len(data):
                length, kind = struct.unpack_from("<II", data, off)
                chunks.append((kind, data[off + 8: off + 8 + length]))
                off += 8 + length
            self.json = json.loads(chunks[0][1].decode("utf-8"))
            for kind, body in chunks[1:]:
                if kind == 0x004E4942:
                    self.bin = body
        else:
            self.json = json.loads(data.decode("utf-8"))
        self._buffers = {}
        self.nodes = self.json.get("nodes", [])
        self.parent = {}
        for i, n in enumerate(self.nodes):
            for c in n.get("children", []):
                self.parent[c] = i

    def buffer(self, i):
        if i not in self._buffers:
            b = self.json["buffers"][i]
            uri = b.get("uri")
            if uri is None:
                self._buffers[i] = self.bin
            elif uri.startswith("data:"):
                self._buffers[i] = base64.b64decode(uri.split(",", 1)[1])
            else:
                from urllib.parse import unquote
                with open(os.path.join(os.path.dirname(self.path), unquote(uri)), "rb") as f:
                    self._buffers[i] = f.read()
        return self._buffers[i]

    def accessor(self, i):
        """List of tuples (or of floats for SCALAR). No sparse support."""
        a = self.json["accessors"][i]
        if "sparse" in a:
            raise NotImplementedError("sparse accessor")
        fmt, size = COMPONENT[a["componentType"]]
        n = COUNT[a["type"]]
        bv = self.json["bufferViews"][a["bufferView"]]
        buf = self.buffer(bv["buffer"])
        stride = bv.get("byteStride") or size * n
        base = bv.get("byteOffset", 0) + a.get("byteOffset", 0)
        norm = a.get("normalized") and a["componentType"] in NORMALIZE
        out = []
        for k in range(a["count"]):
            v = struct.unpack_from("<%d%s" % (n, fmt), buf, base + k * stride)
            if norm:
                v = tuple(max(x / NORMALIZE[a["componentType"]], -1.0) for x in v)
            out.append(v[0] if n == 1 else v)
        return out

    # --- animation -------------------------------------------------------------------

    def default_trs(self, node):
        n = self.nodes[node]
        if "matrix" in n:
            return None
        return (tuple(n.get("translation", (0, 0, 0))), tuple(n.get("rotation", (0, 0, 0, 1))),
                tuple(n.get("scale", (1, 1, 1))))

    def local_trs(self, anim, t):
        """{node: [T, R, S]} for the nodes animation `anim` touches, at time t (s)."""
        out = {}
        if anim is None:
            return out
        a = self.json["animations"][anim]
        for ch in a["channels"]:
            path = ch["target"]["path"]
            node = ch["target"].get("node")
            if node is None or path not in ("translation", "rotation", "scale"):
                continue
            s = a["samplers"][ch["sampler"]]
            value = sample(self.accessor(s["input"]), self.accessor(s["output"]),
                           s.get("interpolation", "LINEAR"), t, path == "rotation",
                           self.rotation)
            trs = out.setdefault(node, list(self.default_trs(node)))
            trs[("translation", "rotation", "scale").index(path)] = value
        return out

    def world_matrices(self, anim, t):
        anim_trs = self.local_trs(anim, t)
        local = []
        for i, n in enumerate(self.nodes):
            if i in anim_trs:
                local.append(compose(*anim_trs[i]))
            elif "matrix" in n:
                m = n["matrix"]  # column-major
                local.append([[m[c * 4 + r] for c in range(4)] for r in range(4)])
            else:
                local.append(compose(*self.default_trs(i)))
        world = {}

        def w(i):
            if i not in world:
                p = self.parent.get(i)
                world[i] = local[i] if p is None else matmul(w(p), local[i])
            return world[i]
        return [w(i) for i in range(len(self.nodes))]

    def mesh_positions(self, node, anim, t):
        """World-space glTF positions of node's mesh (all primitives, in order), as
        [(rest_position, world_position)], skinned per the spec (the skinned mesh
        node's own transform is ignored)."""
        worlds = self.world_matrices(anim, t)
        n = self.nodes[node]
        mesh = self.json["meshes"][n["mesh"]]
        out = []
        skin = self.json["skins"][n["skin"]] if "skin" in n else None
        if skin is not None:
            ibm = ([col_major(m) for m in self.accessor(skin["inverseBindMatrices"])]
                   if "inverseBindMatrices" in skin else [identity()] * len(skin["joints"]))
            joint_mats = [matmul(worlds[j], ibm[k]) for k, j in enumerate(skin["joints"])]
        for prim in mesh["primitives"]:
            pos = self.accessor(prim["attributes"]["POSITION"])
            if skin is None:
                out += [(p, transform(worlds[node], p)) for p in pos]
                continue
            sets = []
            k = 0
            while "JOINTS_%d" % k in prim["attributes"]:
                sets.append((self.accessor(prim["attributes"]["JOINTS_%d" % k]),
                             self.accessor(prim["attributes"]["WEIGHTS_%d" % k])))
                k += 1
            for v, p in enumerate(pos):
                acc = [0.0, 0.0, 0.0]
                total = 0.0
                for js, ws in sets:
                    for j, wgt in zip(js[v], ws[v]):
                        if wgt == 0:
                            continue
                        q = transform(joint_mats[j], p)
                        acc = [acc[c] + wgt * q[c] for c in range(3)]
                        total += wgt
                out.append((p, tuple(x / total for x in acc) if total else tuple(p)))
        return out


def sample(times, values, interp, t, is_rot, rotation="slerp"):
    n = len(times)
    if interp == "CUBICSPLINE":
        vals = [values[3 * k + 1] for k in range(n)]
    else:
        vals = values
    if t <= times[0]:
        return norm(vals[0]) if is_rot else vals[0]
    if t >= times[-1]:
        return norm(vals[-1]) if is_rot else vals[-1]
    k = 0
    while times[k + 1] <= t:
        k += 1
    t0, t1 = times[k], times[k + 1]
    u = (t - t0) / (t1 - t0)
    if interp == "STEP":
        return vals[k]
    if interp == "LINEAR":
        if is_rot:
            return (slerp if rotation == "slerp" else nlerp)(vals[k], vals[k + 1], u)
        return tuple(a + (b - a) * u for a, b in zip(vals[k], vals[k + 1]))
    # CUBICSPLINE: p(u) = h00 v0 + h10 d b0 + h01 v1 + h11 d a1
    d = t1 - t0
    b0 = values[3 * k + 2]
    a1 = values[3 * (k + 1)]
    u2, u3 = u * u, u * u * u
    h00, h10, h01, h11 = 2 * u3 - 3 * u2 + 1, u3 - 2 * u2 + u, -2 * u3 + 3 * u2, u3 - u2
    r = tuple(h00 * v0 + h10 * d * bb + h01 * v1 + h11 * d * aa
              for v0, bb, v1, aa in zip(vals[k], b0, vals[k + 1], a1))
    return norm(r) if is_rot else r


def norm(q):
    s = math.sqrt(sum(x * x for x in q)) or 1.0
    return tuple(x / s for x in q)


def slerp(a, b, u):
    dot = sum(x * y for x, y in zip(a, b))
    if dot < 0:
        b, dot = tuple(-x for x in b), -dot
    if dot > 0.9995:
        return norm(tuple(x + (y - x) * u for x, y in zip(a, b)))
    th = math.acos(min(dot, 1.0))
    s = math.sin(th)
    wa, wb = math.sin((1 - u) * th) / s, math.sin(u * th) / s
    return tuple(wa * x + wb * y for x, y in zip(a, b))


def nlerp(a, b, u):
    if sum(x * y for x, y in zip(a, b)) < 0:
        b = tuple(-x for x in b)
    return norm(tuple(x + (y - x) * u for x, y in zip(a, b)))


def identity():
    return [[1.0 if r == c else 0.0 for c in range(4)] for r in range(4)]


def col_major(m):
    return [[m[c * 4 + r] for c in range(4)] for r in range(4)]


def compose(t, r, s):
    x, y, z, w = r
    rot = [[1 - 2 * (y * y + z * z), 2 * (x * y - z * w), 2 * (x * z + y * w)],
           [2 * (x * y + z * w), 1 - 2 * (x * x + z * z), 2 * (y * z - x * w)],
           [2 * (x * z - y * w), 2 * (y * z + x * w), 1 - 2 * (x * x + y * y)]]
    m = identity()
    for row in range(3):
        for c in range(3):
            m[row][c] = rot[row][c] * s[c]
        m[row][3] = t[row]
    return m


def matmul(a, b):
    return [[sum(a[r][k] * b[k][c] for k in range(4)) for c in range(4)] for r in range(4)]


def transform(m, p):
    return tuple(m[r][0] * p[0] + m[r][1] * p[1] + m[r][2] * p[2] + m[r][3] for r in range(3))


def det3(m):
    return (m[0][0] * (m[1][1] * m[2][2] - m[1][2] * m[2][1])
            - m[0][1] * (m[1][0] * m[2][2] - m[1][2] * m[2][0])
            + m[0][2] * (m[1][0] * m[2][1] - m[1][1] * m[2][0]))
