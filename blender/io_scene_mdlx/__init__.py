"""Warcraft III models (.mdx, .mdl) in Blender, through the `mdlx` library.

File > Import > Warcraft III (.mdx, .mdl): the model is read by mdlx, exported as glTF with
its textures found (the model's folder, or the map it is in, and a texture folder of your
choice) and brought in by Blender's own glTF importer; the scene then runs at 1000 frames a
second, so that every key of the model (in milliseconds) falls on a frame.

File > Export > Warcraft III (.mdx, .mdl): Blender's own glTF exporter writes the scene
(with custom properties, where the model's data rides), mdlx imports it as a model of the
version chosen (by default the one it was imported from) and writes MDX or MDL by the
extension, whole or not at all.

What a conversion could not carry is listed in Blender's report area (Info editor);
errors are Blender errors with the library's message (byte offset, chunk, line:column).
"""

bl_info = {
    "name": "Warcraft III models (mdlx)",
    "author": "the mdlx authors",
    "version": (0, 1, 0),
    "blender": (3, 4, 0),
    "location": "File > Import > Warcraft III (.mdx, .mdl); File > Export > Warcraft III (.mdx, .mdl)",
    "description": "Import and export Warcraft III models (MDX, MDL) through mdlx and glTF",
    "category": "Import-Export",
}

if "operators" in locals():
    import importlib

    importlib.reload(operators)  # noqa: F821 (reloading the add-on in Blender)
else:
    from . import operators


def register():
    operators.register()


def unregister():
    operators.unregister()
