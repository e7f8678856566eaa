"""The shared test data (../shared beside the repository), for the pytest suite and for
the add-on's tests inside Blender (plain Python: no pytest here)."""

import os
import pathlib

REPO = pathlib.Path(__file__).resolve().parents[3]
SHARED = pathlib.Path(os.environ.get("MDLX_SHARED", REPO.parent / "shared"))
CORPUS = SHARED / "corpus"
ARCHIVES = SHARED / "archives"
GLTF_SAMPLES = SHARED / "gltf-samples"


def rows(path: pathlib.Path):
    """The rows of a MANIFEST.tsv as dicts."""
    lines = path.read_text().splitlines()
    head = lines[0].split("\t")
    return [dict(zip(head, line.split("\t"))) for line in lines[1:]]


def manifest():
    """Rows of the corpus MANIFEST.tsv (format, version, size_bytes, local_path...)."""
    return rows(CORPUS / "MANIFEST.tsv")


def corpus_files(fmt: str, version: str | None = None):
    """Corpus files of a format (`mdx`, `mdl`, `ms3d_ascii`) and version, sorted."""
    found = [r for r in manifest() if r["format"] == fmt and version in (None, r["version"])]
    return sorted(CORPUS / r["local_path"] for r in found)


def pick(fmt: str, version: str, limit: int = 1 << 40, least: int = 0):
    """The largest corpus file of a format and version between `least` and `limit` bytes."""
    found = [r for r in manifest() if r["format"] == fmt and r["version"] == version
             and least <= int(r["size_bytes"]) < limit]
    return CORPUS / max(found, key=lambda r: int(r["size_bytes"]))["local_path"]


def smallest(fmt: str, version: str):
    """The smallest corpus file of a format and version (fast tests)."""
    found = [r for r in manifest() if r["format"] == fmt and r["version"] == version]
    return CORPUS / min(found, key=lambda r: int(r["size_bytes"]))["local_path"]


def textured_model(into: pathlib.Path):
    """The smallest v800 MDX over 20 kB whose BLP textures are all in the texture corpus,
    and a folder of links to them under the file names the model gives them (the texture
    MANIFEST's `referenced_by`)."""
    tex = CORPUS / "textures"
    by_model = {}
    for row in rows(tex / "MANIFEST.tsv"):
        for ref in row.get("referenced_by", "").split(";"):
            parts = ref.split("|")
            if len(parts) >= 2 and row["local_file"].lower().endswith(".blp"):
                by_model.setdefault(parts[0], []).append((parts[1], row["local_file"]))
    sizes = {r["local_path"]: int(r["size_bytes"]) for r in manifest()
             if r["format"] == "mdx" and r["version"] == "800"}
    rel = min((m for m in by_model if sizes.get(m, 0) > 20_000), key=lambda m: sizes[m])
    into.mkdir(parents=True, exist_ok=True)
    for game_path, local in by_model[rel]:
        link = into / game_path.replace("\\", "/").rsplit("/", 1)[-1]
        if not link.exists():
            link.symlink_to(tex / local)
    return CORPUS / rel, into
