"""Warcraft III models (MDX binary, MDL text) for Python, by the Rust library ``mdlx``.

>>> import mdlx
>>> loaded = mdlx.read("footman.mdx")            # any format: MDX, MDL, Milkshape, glTF
>>> model = loaded.model
>>> model.version, [s.name for s in model.sequences]
>>> model.write("footman.mdl")                    # by extension, whole or not at all
>>> glb = mdlx.to_gltf(model, texture_dirs=["textures"])
>>> back = mdlx.from_gltf(glb.data, version=800)
>>> [str(f) for f in model.check()]
>>> png = model.render("Stand", 500)

Every error is an :class:`MdlxError` (a ``ValueError``) with the library's message and,
where the library says where, ``offset``, ``chunk``, ``line``, ``column``, ``json_path``.
See the package README for the whole API.
"""

from ._mdlx import (
    Archive,
    Converted,
    Diagnostic,
    Entry,
    Finding,
    Loaded,
    Loss,
    MdlxError,
    Model,
    Node,
    Sequence,
    Texture,
    TextureFile,
    Written,
    __version__,
    from_gltf,
    read,
)

__all__ = [
    "Archive",
    "Converted",
    "Diagnostic",
    "Entry",
    "Finding",
    "Loaded",
    "Loss",
    "MdlxError",
    "Model",
    "Node",
    "Sequence",
    "Texture",
    "TextureFile",
    "Written",
    "__version__",
    "from_gltf",
    "read",
    "to_gltf",
    "write",
]


def to_gltf(model, texture_dirs=(), *, binary=True, team_color=None, linear=True):
    """``model.to_gltf(...)``: the model as glTF 2.0 and what it could not carry."""
    return model.to_gltf(
        texture_dirs=list(texture_dirs), binary=binary, team_color=team_color, linear=linear
    )


def write(model, path, **options):
    """``model.write(path, ...)``: the model written whole or not at all; its losses."""
    return model.write(path, **options)
