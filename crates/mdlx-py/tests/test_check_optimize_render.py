"""check, optimize and render through the bindings."""

import struct
import zlib

import mdlx
import pytest
from conftest import corpus_files, smallest, textured_model

# A unit with a Stand and no Death sequence: `missing-death-sequence` is an error for a unit.
# Written by hand, so the places (the line of each block) are known without the library.
UNIT_MDL = b"""Version {
\tFormatVersion 800,
}
Model "Footman" {
\tBlendTime 150,
}
Sequences 2 {
\tAnim "Stand" {
\t\tInterval { 0, 1000 },
\t}
\tAnim "Walk" {
\t\tInterval { 2000, 3000 },
\t\tMoveSpeed 270,
\t}
}
Bone "Root" {
\tObjectId 0,
}
PivotPoints 1 {
\t{ 0, 0, 0 },
}
"""


def test_check_finds_a_missing_death_with_its_line():
    model = mdlx.read(UNIT_MDL).model
    findings = model.check(kind="unit")
    rules = {f.rule: f for f in findings}
    assert "missing-death-sequence" in rules, [str(f) for f in findings]
    death = rules["missing-death-sequence"]
    assert death.severity == "error"
    assert "Death" in death.message
    # A finding about the model as a whole is placed at the model header: line 4.
    assert death.line == 4, str(death)
    # As an effect, a missing Death is normal.
    assert "missing-death-sequence" not in {f.rule for f in model.check(kind="effect")}
    with pytest.raises(mdlx.MdlxError, match="no kind"):
        model.check(kind="spaceship")


def test_check_on_corpus_mdx_gives_offsets():
    path = smallest("mdx", "800")
    findings = mdlx.read(path).model.check()
    for f in findings:
        assert f.severity in ("error", "warning", "info")
        assert f.rule and f.message and str(f)
        assert f.offset is None or 0 <= f.offset < path.stat().st_size


def test_optimize_is_smaller_and_reads_back():
    path = sorted(corpus_files("mdx", "800"), key=lambda p: p.stat().st_size)[200]
    model = mdlx.read(path).model
    smaller, report = model.optimize()
    assert report["after"][1] <= report["before"][1]
    assert report["before"][0] == len(model.to_bytes())
    assert report["after"][0] == len(smaller.to_bytes())
    assert report["deviation"]["position"] <= 1 / 2000 + 1e-9
    assert {p["pass"] for p in report["passes"]} <= {"records", "geometry", "keys", "bytes"}
    assert mdlx.read(smaller.to_bytes()).model.to_bytes() == smaller.to_bytes()
    with pytest.raises(mdlx.MdlxError, match="no pass"):
        model.optimize(passes=["everything"])


def png_pixels(data: bytes):
    """Width, height and RGBA rows of an 8-bit RGBA PNG, decoded here from the PNG spec."""
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    pos, idat, width = 8, b"", 0
    while pos < len(data):
        length, kind = struct.unpack_from(">I4s", data, pos)
        body = data[pos + 8:pos + 8 + length]
        if kind == b"IHDR":
            width, height, depth, color = struct.unpack_from(">IIBB", body)
            assert (depth, color) == (8, 6)
        elif kind == b"IDAT":
            idat += body
        pos += 12 + length
    raw, stride, rows, prev = zlib.decompress(idat), width * 4, [], bytearray(width * 4)
    for y in range(height):
        f, line = raw[y * (stride + 1)], bytearray(raw[y * (stride + 1) + 1:(y + 1) * (stride + 1)])
        for i in range(stride):
            a = line[i - 4] if i >= 4 else 0
            b = prev[i]
            c = prev[i - 4] if i >= 4 else 0
            if f == 1:
                line[i] = (line[i] + a) & 255
            elif f == 2:
                line[i] = (line[i] + b) & 255
            elif f == 3:
                line[i] = (line[i] + (a + b) // 2) & 255
            elif f == 4:
                p = a + b - c
                pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
                line[i] = (line[i] + (a if pa <= pb and pa <= pc else b if pb <= pc else c)) & 255
        rows.append(bytes(line))
        prev = line
    return width, height, rows


def test_render_draws_the_model_with_its_textures(tmp_path):
    path, textures = textured_model(tmp_path / "tex")
    model = mdlx.read(path).model
    width, height, rows = png_pixels(model.render(width=64, height=48))
    assert (width, height) == (64, 48)
    drawn = sum(1 for r in rows for i in range(3, len(r), 4) if r[i] > 0)
    assert drawn > 64 * 48 // 50, f"{drawn} pixels drawn"
    # With the textures found, the picture changes (missing textures are drawn white).
    textured = model.render(width=64, height=48, texture_dirs=[textures])
    assert textured != model.render(width=64, height=48)
    # A background fills the empty pixels.
    _, _, rows = png_pixels(model.render(width=16, height=16, background=(10, 20, 30, 255)))
    assert rows[0][:4] == bytes([10, 20, 30, 255])
    with pytest.raises(mdlx.MdlxError, match="no sequence"):
        model.render("NoSuchSequence")
    print(f"\n{path.name}: {drawn} of {width * height} pixels drawn")
