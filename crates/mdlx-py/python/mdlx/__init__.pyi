"""Type stubs of the ``mdlx`` package (the compiled module ``mdlx._mdlx``)."""

import os
import pathlib
from typing import Any, Iterable, Literal, Sequence as _Seq

__version__: str

_Path = str | os.PathLike[str]
_Source = _Path | bytes | bytearray
_Rgb = tuple[int, int, int]
_Vec3 = tuple[float, float, float]

class MdlxError(ValueError):
    """Every error of the package: the library's message, and where when it says."""

    offset: int | None
    """A byte offset in the input (MDX, glTF binary, MPQ archive)."""
    chunk: list[str]
    """The MDX chunk and record path, outermost first (``["GEOS", "Geoset[3]", "VRTX"]``)."""
    line: int | None
    """The line (MDL: of the first error; Milkshape)."""
    column: int | None
    """The column of the first MDL error, in characters."""
    json_path: str | None
    """glTF: the JSON path of the object at fault (``accessors[3]``)."""
    member: str | None
    """An archive: the file inside it."""
    file: str | None
    """The file read, when it was given as a path."""
    diagnostics: list[tuple[int, int, str, str]]
    """MDL: every diagnostic as (line, column, severity, message)."""

class Loss:
    """Something a conversion could not carry, or carried only approximately."""

    place: str
    what: str

class Diagnostic:
    """A warning of the MDL reader."""

    line: int
    column: int
    severity: Literal["warning", "error"]
    message: str

class TextureFile:
    """A texture file (BLP) a conversion made, to write beside the model."""

    path: str
    """The path the model names (``war3mapImported\\Fox.blp``)."""
    file: str
    """The file relative to the model's folder, ``/``-separated."""
    data: bytes

class Sequence:
    name: str
    interval: tuple[int, int]
    """Start and end on the model's timeline, in milliseconds."""
    flags: int
    looping: bool
    rarity: float
    move_speed: float
    length: int

class Texture:
    path: str
    replaceable_id: int
    flags: int

class Node:
    name: str
    kind: Literal[
        "bones",
        "lights",
        "helpers",
        "attachments",
        "particle_emitters",
        "particle_emitters2",
        "popcorn_emitters",
        "ribbon_emitters",
        "event_objects",
        "collision_shapes",
    ]
    object_id: int
    parent_id: int
    flags: int
    pivot: _Vec3 | None

class Finding:
    """One problem ``Model.check`` found; ``str()`` is the line ``mdlx check`` prints."""

    rule: str
    severity: Literal["error", "warning", "info"]
    path: str
    name: str | None
    message: str
    offset: int | None
    """Where the record starts in the MDX the model was read from."""
    line: int | None
    """Or its line and column in the MDL."""
    column: int | None
    text: str

class Written:
    """A model as bytes of some format."""

    data: bytes
    losses: list[Loss]
    missing_textures: list[tuple[str, str]]
    """glTF: textures not embedded, as (the model's path, why)."""

class Converted:
    """A conversion's result."""

    model: Model
    losses: list[Loss]
    notes: list[Loss]
    textures: list[TextureFile]
    skin_error: float | None
    rotation_error: float | None
    scale: float | None

class Loaded:
    """What ``read`` gives: the model and what came with it."""

    model: Model
    source: str
    """For people: ``MDX, version 800 (classic)``."""
    format: Literal["mdx", "mdx-alpha", "mdl", "ms3d", "gltf"]
    version: int | None
    warnings: list[Diagnostic]
    losses: list[Loss]
    notes: list[Loss]
    textures: list[TextureFile]

class Model:
    """A Warcraft III model held by the library; immutable."""

    @property
    def version(self) -> int: ...
    @property
    def family(self) -> Literal["classic", "reforged"]: ...
    @property
    def name(self) -> str: ...
    @property
    def sequences(self) -> list[Sequence]: ...
    @property
    def global_sequences(self) -> list[int]: ...
    @property
    def textures(self) -> list[Texture]: ...
    @property
    def nodes(self) -> list[Node]: ...
    @property
    def node_counts(self) -> dict[str, int]: ...
    @property
    def geoset_count(self) -> int: ...
    @property
    def material_count(self) -> int: ...
    @property
    def camera_count(self) -> int: ...
    @property
    def extent(self) -> tuple[_Vec3, _Vec3, float]: ...
    def counts(self) -> dict[str, int]: ...
    def export(
        self,
        format: str = "mdx",
        *,
        version: int | None = None,
        standard_mdl: bool = False,
        texture_dirs: Iterable[_Path] = (),
        team_color: _Rgb | None = None,
        linear: bool = True,
    ) -> Written: ...
    def to_bytes(
        self, format: str = "mdx", *, version: int | None = None, standard_mdl: bool = False
    ) -> bytes: ...
    def write(
        self,
        path: _Path,
        *,
        format: str | None = None,
        version: int | None = None,
        standard_mdl: bool = False,
        textures: _Seq[TextureFile] = (),
        texture_dirs: Iterable[_Path] = (),
    ) -> list[Loss]: ...
    def to_version(self, version: int) -> Converted: ...
    def to_classic(
        self, *, lod: int | None = None, texture_dirs: Iterable[_Path] = ()
    ) -> Converted: ...
    def to_gltf(
        self,
        *,
        texture_dirs: Iterable[_Path] = (),
        binary: bool = True,
        team_color: _Rgb | None = None,
        linear: bool = True,
    ) -> Written: ...
    def classify(self) -> tuple[str, str]: ...
    def check(
        self, *, kind: str | None = None, texture_dirs: Iterable[_Path] = ()
    ) -> list[Finding]: ...
    def optimize(
        self, *, passes: list[str] | None = None, position_tolerance: float | None = None
    ) -> tuple[Model, dict[str, Any]]: ...
    def render(
        self,
        sequence: str | int | None = None,
        time: float | None = None,
        *,
        width: int = 512,
        height: int = 512,
        texture_dirs: Iterable[_Path] = (),
        yaw: float | None = None,
        pitch: float | None = None,
        team_color: _Rgb | None = None,
        background: tuple[int, int, int, int] | None = None,
        lod: int = 0,
    ) -> bytes: ...

class Entry:
    name: str
    named: bool
    size: int
    stored_size: int
    encrypted: bool

class Archive:
    """An MPQ archive: a map (.w3m, .w3x) or one of the game's (.mpq)."""

    def __init__(self, path: _Path) -> None: ...
    @property
    def path(self) -> pathlib.Path: ...
    def entries(self) -> list[Entry]: ...
    def names(self) -> list[str]: ...
    def read(self, name: str) -> bytes: ...
    def read_model(self, name: str, *, strict: bool = False) -> Loaded: ...
    def __contains__(self, name: str) -> bool: ...
    def __len__(self) -> int: ...

def read(source: _Source, *, strict: bool = False) -> Loaded:
    """Any model format, told by the content; a path may be ``ARCHIVE:MEMBER``."""

def from_gltf(
    source: _Source,
    *,
    version: int = 800,
    texture_path: str | None = None,
    name: str | None = None,
    scale: float | None = None,
    height: float | None = None,
    game_ready: bool = True,
    base: _Path | None = None,
) -> Converted:
    """A glTF 2.0 document imported as a model of ``version``."""

def to_gltf(
    model: Model,
    texture_dirs: Iterable[_Path] = (),
    *,
    binary: bool = True,
    team_color: _Rgb | None = None,
    linear: bool = True,
) -> Written: ...
def write(model: Model, path: _Path, **options: Any) -> list[Loss]: ...
