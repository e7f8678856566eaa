"""Archives, and bad input: a clear MdlxError with the library's place, nothing written."""

import mdlx
import pytest
from conftest import ARCHIVES, REPO, need, pick, smallest


def maps():
    return sorted(p for p in need(ARCHIVES).iterdir() if p.suffix.lower() in (".w3m", ".w3x"))


def models_in(archive):
    return [n for n in archive.names() if n.lower().endswith((".mdx", ".mdl"))]


def test_archive_lists_and_reads():
    a = mdlx.Archive(maps()[0])
    names = a.names()
    assert names and len(a) >= len(names)
    # Every map holds its script or its info file.
    assert any(n.lower() in ("war3map.j", "war3map.w3i", "scripts\\war3map.j") for n in names)
    name = next(n for n in names if n.lower() == "war3map.w3i")
    data = a.read(name)
    assert len(data) == next(e.size for e in a.entries() if e.name == name)
    assert name in a and "no such file" not in a
    with pytest.raises(mdlx.MdlxError, match="no file"):
        a.read("no such file")


def test_model_inside_a_map_by_path_and_by_archive():
    found = [(m, n) for m in maps() for n in models_in(mdlx.Archive(m))]
    assert found, "no map in the shared archives holds a model"
    ok = 0
    for path, name in found[:20]:
        a = mdlx.Archive(path)
        by_archive = a.read_model(name)
        by_path = mdlx.read(f"{path}:{name}")
        assert by_archive.model.to_bytes() == by_path.model.to_bytes()
        if by_archive.format == "mdx":
            assert by_archive.model.to_bytes() == a.read(name)
        ok += 1
    print(f"\n{ok} models read from inside maps")


def test_not_an_archive():
    with pytest.raises(mdlx.MdlxError, match="MPQ") as e:
        mdlx.Archive(smallest("mdx", "800"))
    assert e.value.file


def test_truncated_mdx_names_offset_and_chunk(tmp_path):
    src = smallest("mdx", "1000")
    data = src.read_bytes()
    bad = tmp_path / "cut.mdx"
    bad.write_bytes(data[: len(data) * 2 // 3])
    before = bad.read_bytes()
    with pytest.raises(mdlx.MdlxError) as e:
        mdlx.read(bad)
    err = e.value
    assert isinstance(err, ValueError)
    assert str(bad) in str(err) and "offset 0x" in str(err)
    assert err.offset is not None and 0 < err.offset <= len(before)
    assert err.chunk and err.file == str(bad)
    # The same from bytes: the same place, no file named.
    with pytest.raises(mdlx.MdlxError) as e2:
        mdlx.read(before)
    assert e2.value.offset == err.offset and e2.value.file is None
    assert bad.read_bytes() == before
    assert [p.name for p in tmp_path.iterdir()] == ["cut.mdx"]


def test_broken_mdl_names_line_and_column(tmp_path):
    bad = tmp_path / "broken.mdl"
    bad.write_bytes(b'Version {\n\tFormatVersion 800,\n}\nModel "M" {\n\tBlendTime x,\n}\n')
    with pytest.raises(mdlx.MdlxError) as e:
        mdlx.read(bad)
    err = e.value
    assert (err.line, err.column) == (5, 12)
    assert f"{bad}:5:12" in str(err)
    assert err.diagnostics and err.diagnostics[0][:3] == (5, 12, "error")
    assert [p.name for p in tmp_path.iterdir()] == ["broken.mdl"]


def test_not_a_model_and_missing_file(tmp_path):
    with pytest.raises(mdlx.MdlxError, match="looks like a PNG"):
        mdlx.read(b"\x89PNG\r\n\x1a\n" + bytes(32))
    with pytest.raises(mdlx.MdlxError, match="empty"):
        mdlx.read(b"")
    with pytest.raises(mdlx.MdlxError, match="cannot read"):
        mdlx.read(tmp_path / "nothing.mdx")
    with pytest.raises(TypeError):
        mdlx.read(12)


def test_broken_gltf_names_its_json_path():
    import json

    text = mdlx.read(pick("mdx", "800", 100_000)).model.to_gltf(binary=False).data
    doc = json.loads(text)
    doc["accessors"][0]["count"] = 1 << 30  # far more elements than its buffer holds
    with pytest.raises(mdlx.MdlxError) as e:
        mdlx.from_gltf(json.dumps(doc).encode())
    assert e.value.json_path and "accessors[0]" in e.value.json_path, e.value.json_path
    assert e.value.json_path in str(e.value)


def test_a_failed_write_leaves_the_target_as_it_was(tmp_path):
    model = mdlx.read(smallest("mdx", "800")).model
    target = tmp_path / "keep.mdx"
    target.write_bytes(b"precious")
    (tmp_path / "sub").mkdir()
    # A texture whose path would leave the folder is refused before anything is written.
    bad = mdlx.from_gltf(model.to_gltf().data).textures
    with pytest.raises(mdlx.MdlxError):
        model.write(target, format="png")
    assert target.read_bytes() == b"precious"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["keep.mdx", "sub"]
    assert bad == [] or all(t.file for t in bad)


def test_hostile_fixtures_give_the_library_errors_with_their_places():
    # The library's hostile fixtures, each with its reviewed outcome (`NAME.expected`):
    # through the bindings the same error and place, or a model; never a crash.
    hostile = REPO / "crates" / "mdlx" / "tests" / "hostile"
    cases = sorted(p for p in hostile.iterdir() if p.suffix in (".mdx", ".mdl"))
    assert len(cases) > 20
    refused = 0
    for p in cases:
        expected = (hostile / (p.name + ".expected")).read_text()
        try:
            mdlx.read(p)
            outcome = None
        except mdlx.MdlxError as e:
            outcome = str(e)
            refused += 1
        if expected.startswith("ok"):
            # The fragments the MDL codec reads are refused as models (no Model block).
            assert outcome is None or "Model" in outcome, (p.name, outcome)
            continue
        assert outcome is not None, (p.name, expected)
        if p.suffix == ".mdx" and "(at offset" in expected:
            first = expected.splitlines()[0].removeprefix("error: ")
            if "does not start with" not in first:
                assert first in outcome, (p.name, first, outcome)
        for line in expected.splitlines():
            if "--> " in line:
                place = line.split("--> ", 1)[1].rsplit(":", 2)[1:]
                assert f"{p}:{place[0]}:{place[1]}" in outcome, (p.name, place, outcome)
    print(f"\n{len(cases)} hostile inputs: {refused} refused with MdlxError, as their fixtures say")
