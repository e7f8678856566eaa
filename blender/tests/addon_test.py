"""The add-on tested inside Blender: installed from its zip, then import and export of corpus
models of each version, textures shown, losses reported, bad input refused with the
library's place. Prints libtest-style lines (`test NAME ... ok`, `test result: ...`).

    blender -b --factory-startup --python blender/tests/addon_test.py -- ARGS
    /opt/bpy45/bin/python blender/tests/addon_test.py ARGS        (PyPI bpy)

ARGS: --zip ZIP --mode classic|extension --work DIR
(classic: the add-on zip with the library inside; extension: the Blender 4.2+ extension zip
with the wheel). WORK is a scratch folder; the corpus (../shared) is read in place.
"""

import argparse
import os
import pathlib
import sys
import traceback

# Debian's Blender embeds the system Python but takes sys.prefix from the first python3 on
# PATH: under pyenv or a venv it misses the Debian dist-packages, where numpy is (Blender's
# glTF add-on needs it).
try:
    import numpy  # noqa: F401
except ImportError:
    v = "%d.%d" % sys.version_info[:2]
    sys.path += ["/usr/lib/python3/dist-packages", f"/usr/lib/python{v}/dist-packages"]

import bpy  # noqa: E402

argv = sys.argv[sys.argv.index("--") + 1:] if "--" in sys.argv else sys.argv[1:]
parser = argparse.ArgumentParser()
parser.add_argument("--zip", required=True)
parser.add_argument("--mode", choices=["classic", "extension"], required=True)
parser.add_argument("--work", required=True)
ARGS = parser.parse_args(argv)
WORK = pathlib.Path(ARGS.work)
# The corpus helpers of the bindings' tests (plain Python), reading ../shared in place.
sys.path.insert(0, str(pathlib.Path(__file__).resolve().parents[2] / "crates" / "mdlx-py" / "tests"))
from corpus import pick, textured_model  # noqa: E402
TAG = f"blender {bpy.app.version_string.split()[0]} {ARGS.mode}"
RESULTS = []


def test(fn):
    """Runs `fn` now as one test and records its outcome."""
    name = f"{TAG}: {fn.__name__}"
    try:
        fn()
        RESULTS.append(True)
        print(f"test {name} ... ok", flush=True)
    except Exception:  # noqa: BLE001 - every failure is one failed test
        RESULTS.append(False)
        traceback.print_exc()
        print(f"test {name} ... FAILED", flush=True)
    return fn


def install():
    """The add-on installed and enabled the way a user does it."""
    if ARGS.mode == "classic":
        bpy.ops.preferences.addon_install(filepath=ARGS.zip, overwrite=True)
        bpy.ops.preferences.addon_enable(module="io_scene_mdlx")
    else:
        bpy.ops.extensions.package_install_files(
            filepath=ARGS.zip, repo="user_default", enable_on_install=True)


def addon():
    """The add-on's operators module (its `last_reports`)."""
    for name, mod in sys.modules.items():
        if name.endswith("io_scene_mdlx.operators"):
            return mod
    raise AssertionError("the add-on is not loaded")


def clear():
    """An empty scene at Blender's default frame rate, as a new file would have."""
    for coll in (bpy.data.objects, bpy.data.meshes, bpy.data.armatures, bpy.data.materials,
                 bpy.data.images, bpy.data.actions, bpy.data.cameras, bpy.data.lights):
        for x in list(coll):
            coll.remove(x)
    scene = bpy.context.scene
    for key in ("mdlx_version", "mdlx_source"):
        if key in scene:
            del scene[key]
    scene.render.fps = 24


def shown_images():
    """Images used by an image-texture node of some material, with their pixels loaded."""
    out = []
    for mat in bpy.data.materials:
        if not mat.use_nodes:
            continue
        for node in mat.node_tree.nodes:
            img = getattr(node, "image", None)
            if node.type == "TEX_IMAGE" and img is not None and img.size[0] > 0:
                px = img.pixels[:]
                if any(v < 0.98 for v in px[: 4 * 4096]):
                    out.append(img.name)
    return out


def round_trip(path, textures=None, out_ext=".mdx"):
    """Imports `path` with the add-on, exports it back, reads the result with the bindings."""
    mdlx = addon().mdlx
    clear()
    kw = {"texture_dir": str(textures)} if textures else {}
    assert bpy.ops.import_scene.mdlx(filepath=str(path), **kw) == {"FINISHED"}
    imported = list(addon().last_reports)
    scene = bpy.context.scene
    assert scene.render.fps == 1000, scene.render.fps
    source = mdlx.read(path).model
    assert scene["mdlx_version"] == source.version
    meshes = [o for o in scene.objects if o.type == "MESH"]
    assert meshes, "no mesh imported"
    out = WORK / (path.stem + "-back" + out_ext)
    assert bpy.ops.export_scene.mdlx(filepath=str(out)) == {"FINISHED"}
    exported = list(addon().last_reports)
    back = mdlx.read(out)
    assert back.format == out_ext[1:], back.format
    assert back.model.version == source.version, (back.model.version, source.version)
    assert back.model.geoset_count >= 1
    assert any(level == "INFO" and msg.startswith("wrote ") for level, msg in exported)
    # With no edit in Blender, the model comes back as it was: the same bytes.
    assert any(msg == "back from Blender: nothing changed in the glTF: the model embedded in it, as it was"
               for _, msg in exported), exported
    assert back.model.to_bytes("mdx") == source.to_bytes("mdx"), "the model came back changed"
    if out_ext == ".mdx" and path.suffix.lower() == ".mdx":
        assert out.read_bytes() == path.read_bytes(), "not byte for byte"
    warn = sum(1 for level, _ in imported + exported if level == "WARNING")
    a, b = source, back.model
    print(f"  {path.name}: version {a.version} -> {b.version}; geosets {a.geoset_count} -> "
          f"{b.geoset_count}; nodes {len(a.nodes)} -> {len(b.nodes)}; sequences "
          f"{len(a.sequences)} -> {len(b.sequences)}; materials {a.material_count} -> "
          f"{b.material_count}; {warn} warnings reported", flush=True)
    return imported, exported, back


def expect_blender_error(op, **kw):
    """`op` refused with an error report: Blender raises it as RuntimeError to a script."""
    try:
        op(**kw)
    except RuntimeError as e:
        return str(e)
    raise AssertionError(f"no error from {op}")


def main():
    WORK.mkdir(parents=True, exist_ok=True)

    @test
    def installs_and_registers():
        install()
        assert hasattr(bpy.types, "IMPORT_SCENE_OT_mdlx") or "mdlx" in dir(bpy.ops.import_scene)
        assert "mdlx" in dir(bpy.ops.export_scene)
        mod = addon()
        assert mod.mdlx.read, "the library did not load"
        where = pathlib.Path(mod.mdlx.__file__)
        print(f"  the library loads from {where}", flush=True)

    if not RESULTS[-1]:
        return

    @test
    def import_800_textures_shown_and_back():
        path, textures = textured_model(WORK / "textures")
        imported, _, _ = round_trip(path, textures)
        shown = shown_images()
        assert shown, "no image node of a material has the texture's pixels"
        print(f"  {len(shown)} textures shown: {', '.join(sorted(shown)[:4])}", flush=True)

    @test
    def import_1000_and_back():
        round_trip(pick("mdx", "1000", 300_000))

    @test
    def import_1100_and_back_with_losses_reported():
        imported, exported, _ = round_trip(pick("mdx", "1100", 300_000))
        assert any(level == "WARNING" for level, _ in imported + exported), "no loss reported"

    @test
    def import_mdl_and_export_mdl():
        _, _, back = round_trip(pick("mdl", "800", 200_000), out_ext=".mdl")
        assert back.format == "mdl"

    @test
    def truncated_mdx_is_a_blender_error_with_its_offset():
        src = pick("mdx", "1000", 300_000).read_bytes()
        bad = WORK / "bad" / "cut.mdx"
        bad.parent.mkdir(exist_ok=True)
        bad.write_bytes(src[: len(src) // 2])
        clear()
        msg = expect_blender_error(bpy.ops.import_scene.mdlx, filepath=str(bad))
        assert "offset 0x" in msg and str(bad) in msg, msg
        assert bad.read_bytes() == src[: len(src) // 2]
        assert [p.name for p in bad.parent.iterdir()] == ["cut.mdx"]
        assert not [o for o in bpy.context.scene.objects], "something was imported"
        print(f"  {msg.strip().splitlines()[-1]}", flush=True)

    @test
    def broken_mdl_is_a_blender_error_with_its_line_and_column():
        bad = WORK / "bad" / "broken.mdl"
        bad.write_bytes(b'Version {\n\tFormatVersion 800,\n}\nModel "M" {\n\tBlendTime x,\n}\n')
        msg = expect_blender_error(bpy.ops.import_scene.mdlx, filepath=str(bad))
        assert f"{bad}:5:12" in msg, msg

    @test
    def failed_export_writes_nothing_and_blender_goes_on():
        path = pick("mdx", "800", 100_000)
        clear()
        assert bpy.ops.import_scene.mdlx(filepath=str(path)) == {"FINISHED"}
        target = WORK / "bad" / "keep.mdx"
        target.write_bytes(b"precious")
        msg = expect_blender_error(bpy.ops.export_scene.mdlx,
                                   filepath=str(WORK / "bad" / "no-folder" / "x.mdx"))
        assert "no-folder" in msg, msg
        assert target.read_bytes() == b"precious"
        assert not (WORK / "bad" / "no-folder").exists()
        # Blender keeps running: the same export to a good place works.
        assert bpy.ops.export_scene.mdlx(filepath=str(target)) == {"FINISHED"}
        assert target.read_bytes()[:4] == b"MDLX"


main()
passed, failed = RESULTS.count(True), RESULTS.count(False)
word = "ok" if failed == 0 and passed > 0 else "FAILED"
print(f"test result: {word}. {passed} passed; {failed} failed; 0 ignored; 0 measured; 0 filtered out",
      flush=True)
sys.stdout.flush()
os._exit(0 if word == "ok" else 1)
