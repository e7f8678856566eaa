"""The import and export operators, and the menu entries."""

import os
import tempfile

import bpy
from bpy.props import EnumProperty, StringProperty
from bpy_extras.io_utils import ExportHelper, ImportHelper

try:
    # A classic add-on (zip) carries the library inside its folder.
    from . import mdlx
except ImportError:
    # An extension (Blender 4.2+) has it installed from its wheel.
    import mdlx

# What the last import or export reported, as (level, message): the same lines as in
# Blender's report area, for scripts and tests.
last_reports = []

# Each millisecond of the model is one frame: the game's keys fall on frames exactly.
FPS = 1000

VERSIONS = [("AUTO", "As imported", "The version the model was imported from (800 for a new model)")]
VERSIONS += [(str(v), str(v), "Reforged" if v >= 900 else "Classic") for v in [800] + list(range(900, 1900, 100))]


class Reporter:
    """Sends lines to Blender's report area (and `last_reports`)."""

    MAX = 40

    def __init__(self, op):
        self.op = op
        last_reports.clear()

    def __call__(self, level, message):
        last_reports.append((level, message))
        self.op.report({level}, message)

    def losses(self, heading, losses):
        """Every loss as a warning line, at most MAX of them and a count of the rest."""
        for loss in losses[: self.MAX]:
            self("WARNING", f"{heading}: {loss}")
        if len(losses) > self.MAX:
            self("WARNING", f"{heading}: and {len(losses) - self.MAX} more")

    def failed(self, error):
        """An error as Blender's error: the library's message, no traceback."""
        self("ERROR", str(error) or type(error).__name__)
        return {"CANCELLED"}


def numpy_bool_shim():
    """Blender 3.4's glTF add-on uses `numpy.bool`, which numpy 1.24 removed (Debian's
    Blender 3.4 runs with a newer numpy): it is the builtin `bool`."""
    try:
        import warnings

        import numpy

        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            if not hasattr(numpy, "bool"):
                numpy.bool = bool
    except ImportError:
        pass


def operator_options(op, wanted):
    """The options of `wanted` that this Blender's glTF operator has (they change between
    versions)."""
    props = op.get_rna_type().properties.keys()
    return {k: v for k, v in wanted.items() if k in props}


class Reported:
    """An operator whose `run(context, report)` does the work: every failure becomes a
    Blender error report, never a traceback."""

    def execute(self, context):
        report = Reporter(self)
        try:
            return self.run(context, report)
        except Exception as e:  # noqa: BLE001 - every failure is a Blender error
            return report.failed(e)


class ImportMdlx(Reported, bpy.types.Operator, ImportHelper):
    """Import a Warcraft III model (MDX or MDL)"""

    bl_idname = "import_scene.mdlx"
    bl_label = "Import Warcraft III"
    bl_options = {"REGISTER", "UNDO", "PRESET"}

    filename_ext = ".mdx"
    filter_glob: StringProperty(default="*.mdx;*.mdl", options={"HIDDEN"})
    texture_dir: StringProperty(
        name="Texture folder",
        description="Where the model's textures are (besides its own folder): a folder of "
        "textures with their game paths (Textures/Footman.blp), or a map or MPQ archive",
        subtype="DIR_PATH",
        default="",
    )

    def run(self, context, report):
        loaded = mdlx.read(self.filepath)
        for w in loaded.warnings:
            report("WARNING", f"{os.path.basename(self.filepath)}:{w}")
        report.losses("not carried from the file", loaded.losses)
        dirs = [bpy.path.abspath(self.texture_dir)] if self.texture_dir else []
        gltf = loaded.model.to_gltf(texture_dirs=dirs)
        report.losses("not carried to Blender", gltf.losses)
        for path, why in gltf.missing_textures:
            report("WARNING", f"texture {path}: {why}")
        scene = context.scene
        scene.render.fps, scene.render.fps_base = FPS, 1.0
        numpy_bool_shim()
        with tempfile.TemporaryDirectory(prefix="mdlx-") as tmp:
            glb = os.path.join(tmp, os.path.splitext(os.path.basename(self.filepath))[0] + ".glb")
            with open(glb, "wb") as f:
                f.write(gltf.data)
            op = bpy.ops.import_scene.gltf
            result = op(filepath=glb, **operator_options(op, {"import_pack_images": True}))
        if "FINISHED" not in result:
            raise RuntimeError(f"Blender's glTF importer did not finish ({', '.join(result)})")
        self.tidy(scene, loaded)
        model = loaded.model
        report("INFO", f"{loaded.source}: {model.geoset_count} geosets, {len(model.nodes)} nodes, "
                       f"{len(model.sequences)} sequences")
        return {"FINISHED"}

    def tidy(self, scene, loaded):
        """What the importer leaves to do: the frame range of the model's timeline, and
        the version to export at by default."""
        scene["mdlx_version"] = loaded.model.version
        scene["mdlx_source"] = self.filepath
        ends = [s.interval[1] for s in loaded.model.sequences]
        if ends:
            scene.frame_start = 0
            scene.frame_end = max(max(ends) - min(s.interval[0] for s in loaded.model.sequences), 1)


def imported_version(context):
    """The version the scene's model was imported from: the scene's record, else the
    `mdlx` root node's extras (a glTF this library exported), else 800."""
    scene = context.scene
    if "mdlx_version" in scene:
        return int(scene["mdlx_version"])
    for obj in scene.objects:
        data = obj.get("mdlx")
        if data is not None and hasattr(data, "get") and data.get("kind") == "root":
            return int(data.get("version", 800))
    return 800


class ExportMdlx(Reported, bpy.types.Operator, ExportHelper):
    """Export the scene as a Warcraft III model (MDX or MDL, by the extension)"""

    bl_idname = "export_scene.mdlx"
    bl_label = "Export Warcraft III"
    bl_options = {"PRESET"}

    filename_ext = ".mdx"
    filter_glob: StringProperty(default="*.mdx;*.mdl", options={"HIDDEN"})
    version: EnumProperty(name="Version", items=VERSIONS, default="AUTO")

    def check(self, context):
        # Keep .mdl when the user typed it (ExportHelper would add .mdx).
        if self.filepath.lower().endswith(".mdl"):
            return False
        return super().check(context)

    def run(self, context, report):
        path = self.filepath
        if not path.lower().endswith((".mdx", ".mdl")):
            raise ValueError(f"{path}: the extension says what to write, .mdx or .mdl")
        version = imported_version(context) if self.version == "AUTO" else int(self.version)
        with tempfile.TemporaryDirectory(prefix="mdlx-") as tmp:
            glb = os.path.join(tmp, "scene.glb")
            op = bpy.ops.export_scene.gltf
            wanted = {
                "export_format": "GLB",
                "export_extras": True,
                "export_cameras": True,
                "export_lights": True,
                "export_animations": True,
                "export_force_sampling": False,
                "export_all_influences": True,
                "export_apply": False,
                "use_selection": False,
            }
            result = op(filepath=glb, **operator_options(op, wanted))
            if "FINISHED" not in result:
                raise RuntimeError(f"Blender's glTF exporter did not finish ({', '.join(result)})")
            # The glTF import builds 800 and 900 to 1100; later versions convert from 1100.
            built = version if version == 800 or 900 <= version <= 1100 else 1100
            name = os.path.splitext(os.path.basename(path))[0]
            conv = mdlx.from_gltf(glb, version=built, name=name)
        model, lost = conv.model, list(conv.losses)
        # A scene this add-on imported comes back at its source's version (the model rides
        # in the glTF); another version asked for is a conversion.
        if model.version != version:
            up = model.to_version(version)
            model, lost = up.model, lost + list(up.losses)
        report.losses("not carried from Blender", lost)
        for note in conv.notes:
            if note.place == "round trip":
                # A scene this add-on imported: what came back from Blender as it was, or
                # what was edited.
                report("INFO", f"back from Blender: {note.what}")
            else:
                report("INFO", f"made ready for the game: {note}")
        written = model.write(path, textures=conv.textures)
        report.losses("not held by the file", written)
        report("INFO", f"wrote {path}: version {model.version}, {model.geoset_count} geosets, "
                       f"{len(model.nodes)} nodes, {len(model.sequences)} sequences")
        return {"FINISHED"}


def menu_import(self, context):
    self.layout.operator(ImportMdlx.bl_idname, text="Warcraft III (.mdx, .mdl)")


def menu_export(self, context):
    self.layout.operator(ExportMdlx.bl_idname, text="Warcraft III (.mdx, .mdl)")


CLASSES = (ImportMdlx, ExportMdlx)


def register():
    for c in CLASSES:
        bpy.utils.register_class(c)
    bpy.types.TOPBAR_MT_file_import.append(menu_import)
    bpy.types.TOPBAR_MT_file_export.append(menu_export)


def unregister():
    bpy.types.TOPBAR_MT_file_export.remove(menu_export)
    bpy.types.TOPBAR_MT_file_import.remove(menu_import)
    for c in reversed(CLASSES):
        bpy.utils.unregister_class(c)
