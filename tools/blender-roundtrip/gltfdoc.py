# gltfdoc.py - reads and writes .glb files with the standard library only (for the
# survey scripts beside it; they run in any Python 3, no Blender, no numpy).
import json
import struct

COMPONENTS = {5120: "b", 5121: "B", 5122: "h", 5123: "H", 5125: "I", 5126: "f"}
SIZES = {"SCALAR": 1, "VEC2": 2, "VEC3": 3, "VEC4": 4, "MAT2": 4, "MAT3": 9, "MAT4": 16}


def read_glb(path):
    data = open(path, "rb").read()
    magic, version, length = struct.unpack_from("<4sII", data, 0)
    if magic != b"glTF":
        raise ValueError("%s: not a GLB file" % path)
    off, doc, binary = 12, None, b""
    while off < length:
        clen, ctype = struct.unpack_from("<I4s", data, off)
        chunk = data[off + 8: off + 8 + clen]
        if ctype == b"JSON":
            doc = json.loads(chunk.decode("utf-8"))
        elif ctype == b"BIN\x00":
            binary = chunk
        off += 8 + clen
    return doc, binary


def write_glb(path, doc, binary):
    j = json.dumps(doc, ensure_ascii=False, separators=(",", ":")).encode("utf-8")
    j += b" " * (-len(j) % 4)
    b = binary + b"\x00" * (-len(binary) % 4)
    total = 12 + 8 + len(j) + (8 + len(b) if b else 0)
    out = struct.pack("<4sII", b"glTF", 2, total) + struct.pack("<I4s", len(j), b"JSON") + j
    if b:
        out += struct.pack("<I4s", len(b), b"BIN\x00") + b
    with open(path, "wb") as f:
        f.write(out)


def accessor(doc, binary, index):
    """The accessor's values as a list of tuples (normalized integers are not scaled)."""
    acc = doc["accessors"][index]
    n, comps = acc["count"], SIZES[acc["type"]]
    fmt = COMPONENTS[acc["componentType"]]
    if "bufferView" not in acc:
        return [(0,) * comps] * n
    view = doc["bufferViews"][acc["bufferView"]]
    base = view.get("byteOffset", 0) + acc.get("byteOffset", 0)
    size = struct.calcsize("<" + fmt)
    stride = view.get("byteStride") or size * comps
    return [struct.unpack_from("<%d%s" % (comps, fmt), binary, base + i * stride) for i in range(n)]
