"""Conversions through the bindings: versions, Reforged to classic, Milkshape, glTF."""

import json
import struct

import mdlx
import pytest
from conftest import GLTF_SAMPLES, corpus_files, need, smallest


def glb_json(data: bytes) -> dict:
    """The JSON chunk of a GLB, read by hand from the glTF 2.0 container layout."""
    magic, version, length = struct.unpack_from("<4sII", data, 0)
    assert (magic, version, length) == (b"glTF", 2, len(data))
    chunk_len, chunk_type = struct.unpack_from("<I4s", data, 12)
    assert chunk_type == b"JSON"
    return json.loads(data[20:20 + chunk_len])


def test_to_version_and_back():
    model = mdlx.read(smallest("mdx", "800")).model
    up = model.to_version(1000)
    assert up.model.version == 1000 and model.version == 800
    down = up.model.to_version(800)
    assert down.model.version == 800
    assert [s.name for s in down.model.sequences] == [s.name for s in model.sequences]
    with pytest.raises(mdlx.MdlxError):
        model.to_version(777)


@pytest.mark.parametrize("version", ["1000", "1100"])
def test_to_classic(version):
    files = [p for p in corpus_files("mdx", version) if p.stat().st_size < 400_000]
    path = max(files, key=lambda p: p.stat().st_size)
    model = mdlx.read(path).model
    c = model.to_classic()
    assert c.model.version == 800
    assert c.skin_error is not None and c.skin_error >= 0.0
    assert all(isinstance(l, mdlx.Loss) and str(l) for l in c.losses)
    # The result is a classic model the library writes and reads back.
    again = mdlx.read(c.model.to_bytes("mdx")).model
    assert again.version == 800
    assert [s.interval for s in again.sequences] == [s.interval for s in model.sequences]
    print(f"\n{path.name}: to classic, skin error {c.skin_error:.4g}, {len(c.losses)} losses")


def test_milkshape_in_and_out(tmp_path):
    path = corpus_files("ms3d_ascii")[0]
    loaded = mdlx.read(path)
    assert loaded.format == "ms3d" and loaded.model.version == 800
    text = path.read_text(errors="replace")
    meshes = int(text.split("Meshes:")[1].split()[0])
    assert loaded.model.geoset_count == meshes
    out = loaded.model.export("ms3d")
    back = mdlx.read(out.data)
    assert back.model.geoset_count == loaded.model.geoset_count


def test_gltf_out_matches_the_model():
    path = smallest("mdx", "1100")
    model = mdlx.read(path).model
    out = mdlx.to_gltf(model)
    doc = glb_json(out.data)
    assert [a["name"] for a in doc.get("animations", [])] == [s.name for s in model.sequences]
    names = {n.get("name") for n in doc["nodes"]}
    assert {n.name for n in model.nodes} <= names
    text = model.to_gltf(binary=False)
    assert json.loads(text.data)["asset"]["version"] == "2.0"


@pytest.mark.parametrize("version", ["800", "1000", "1100"])
def test_gltf_round_trip_keeps_sequences(version):
    # The smallest model with a sequence (a model without one is given a Stand).
    files = sorted(corpus_files("mdx", version), key=lambda p: p.stat().st_size)
    model = next(m for m in (mdlx.read(p).model for p in files) if m.sequences)
    glb = model.to_gltf().data
    back = mdlx.from_gltf(glb, version=int(version))
    assert back.model.version == int(version)
    got = [(s.name, s.interval, s.looping) for s in back.model.sequences]
    want = [(s.name, s.interval, s.looping) for s in model.sequences]
    assert got == want
    assert back.skin_error is not None and back.scale is not None
    # read() tells a glb by its content and imports it too.
    assert mdlx.read(glb).format == "gltf"


def test_gltf_in_from_khronos_samples(tmp_path):
    box = need(GLTF_SAMPLES / "BoxAnimated" / "BoxAnimated.gltf")
    c = mdlx.from_gltf(box, version=1000)
    assert c.model.version == 1000
    doc = json.loads(box.read_text())
    assert len(c.model.sequences) == len(doc["animations"])
    # A .gltf with an external buffer and an external PNG texture.
    cube = need(GLTF_SAMPLES / "AnimatedCube" / "AnimatedCube.gltf")
    c = mdlx.from_gltf(cube)
    assert len(c.textures) == 1
    t = c.textures[0]
    assert t.path.startswith("war3mapImported\\") and t.file.startswith("war3mapImported/")
    assert t.data[:4] == b"BLP1"
    # Written with the model: the texture lands beside it, where the model names it.
    c.model.write(tmp_path / "cube.mdx", textures=c.textures)
    assert (tmp_path / t.file).read_bytes() == t.data
    assert [x.path for x in mdlx.read(tmp_path / "cube.mdx").model.textures] == [t.path]
    # From bytes, its external files have no folder to be read from, unless one is given.
    with pytest.raises(mdlx.MdlxError):
        mdlx.from_gltf(cube.read_bytes())
    assert len(mdlx.from_gltf(cube.read_bytes(), base=cube.parent).textures) == 1
