"""Writes the small hostile fixtures of this folder from examples/cube.mdx.

Run from the repository root: python3 crates/mdlx/tests/hostile/make.py
Each fixture changes a few bytes of the cube (or is a small MDL text) to exercise one
hazard; tests/hostile_fixtures.rs reads every file here and compares the outcome with the
`.expected` file beside it. Large inputs (megabytes) are made by the test itself.
"""
import os
import struct

HERE = os.path.dirname(os.path.abspath(__file__))
CUBE = open(os.path.join(HERE, "../../../../examples/cube.mdx"), "rb").read()


def put_u32(data, at, value):
    data = bytearray(data)
    struct.pack_into("<I", data, at, value)
    return bytes(data)


def tag(name, nth=0):
    at = -1
    for _ in range(nth + 1):
        at = CUBE.index(name, at + 1)
    return at


def write(name, data):
    with open(os.path.join(HERE, name), "wb") as f:
        f.write(data)


# --- MDX -------------------------------------------------------------------------------
write("bad_magic.mdx", b"MDLY" + CUBE[4:])
write("count_max_vertices.mdx", put_u32(CUBE, tag(b"VRTX") + 4, 0xFFFFFFFF))
write("count_max_face_indices.mdx", put_u32(CUBE, tag(b"PVTX") + 4, 0xFFFFFFFF))
write("count_max_track_keys.mdx", put_u32(CUBE, tag(b"KGRT") + 4, 0xFFFFFFFF))
write("count_max_matrix_groups.mdx", put_u32(CUBE, tag(b"MTGC") + 4, 0xFFFFFFFF))
# A chunk size far past the end of the file, and one that wraps a 32-bit offset.
write("chunk_size_past_end.mdx", put_u32(CUBE, tag(b"GEOS") + 4, 0x7FFFFFF0))
write("chunk_size_max.mdx", put_u32(CUBE, tag(b"PIVT") + 4, 0xFFFFFFFF))
# Record sizes of zero and inside the record's own header.
write("geoset_size_zero.mdx", put_u32(CUBE, tag(b"GEOS") + 8, 0))
write("geoset_size_inside_header.mdx", put_u32(CUBE, tag(b"GEOS") + 8, 3))
write("material_size_zero.mdx", put_u32(CUBE, tag(b"MTLS") + 8, 0))
write("bone_size_inside_header.mdx", put_u32(CUBE, tag(b"BONE") + 8, 7))
# The file ends inside a chunk header.
write("ends_inside_chunk_header.mdx", CUBE + b"ATCH\x10\x00")
# A chunk that claims to hold itself: the VERS chunk's size covers the rest of the file,
# so the file has no MODL chunk and is refused as incomplete.
write("chunk_swallows_file.mdx", put_u32(CUBE, 8, len(CUBE) - 12))
# NaN and infinities in floats: data, kept bit for bit.
nan_inf = put_u32(CUBE, tag(b"VRTX") + 8, 0x7FC00001)  # a quiet NaN with payload
nan_inf = put_u32(nan_inf, tag(b"VRTX") + 12, 0x7F800000)  # +inf
nan_inf = put_u32(nan_inf, tag(b"VRTX") + 16, 0xFF800000)  # -inf
write("nan_and_infinities.mdx", nan_inf)
# Times at the ends of their ranges: a key at u32::MAX, a sequence ending before it starts,
# a global sequence id no GLBS entry has.
times = put_u32(CUBE, tag(b"KGRT") + 16, 0xFFFFFFFF)
seq = tag(b"SEQS") + 8
times = put_u32(times, seq + 80, 0xFFFFFFFF)  # interval start
times = put_u32(times, seq + 84, 5)  # interval end
times = put_u32(times, tag(b"KGRT") + 12, 0xFFFFFFFE)  # global sequence id
write("times_at_the_limits.mdx", times)
# A sequence name that is not UTF-8 (GBK bytes, as Chinese editors write).
write("non_utf8_name.mdx", CUBE[: seq] + "走路".encode("gbk") + CUBE[seq + 4:])

# --- MDL -------------------------------------------------------------------------------
def mdl(name, text):
    write(name, text if isinstance(text, bytes) else text.encode())


HEAD = 'Version {\n\tFormatVersion 800,\n}\n'
mdl("deep_braces.mdl", HEAD + "Model \"x\" " + "{ " * 70 + "}" * 70 + "\n")
mdl("unclosed_braces.mdl", HEAD + 'Model "x" {\n\tBlendTime 150,\n')
mdl("nan_and_infinities.mdl", HEAD + 'Model "x" {\n\tMinimumExtent { nan, inf, -inf },\n}\n')
mdl("blizzard_infinities.mdl", HEAD + 'Model "x" {\n\tMinimumExtent { 1.#INF, -1.#INF, 1.#IND },\n\tBoundsRadius 1e999,\n}\n')
mdl("time_overflow.mdl", HEAD + 'Sequences 1 {\n\tAnim "Stand" {\n\t\tInterval { 0, 4294967296 },\n\t}\n}\n')
mdl("key_time_overflow.mdl", HEAD + 'PivotPoints 1 {\n\t{ 0, 0, 0 },\n}\nBone "b" {\n\tObjectId 0,\n\tTranslation 1 {\n\t\tLinear,\n\t\t99999999999999999999: { 0, 0, 0 },\n\t}\n}\n')
mdl("count_max.mdl", HEAD + 'Geoset {\n\tVertices 4294967295 {\n\t\t{ 0, 0, 0 },\n\t}\n}\n')
mdl("non_utf8_name.mdl", HEAD.encode() + b'Model "\xff\xfe\xd7\xdf" {\n}\n')
mdl("name_too_long.mdl", HEAD + 'Model "' + "n" * 200 + '" {\n}\n')
mdl("nul_in_file.mdl", HEAD.encode() + b'Model "x" {\n\tBlendTime 1\x00 50,\n}\n')
