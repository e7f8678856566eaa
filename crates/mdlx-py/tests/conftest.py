"""Shared fixtures: the corpus and archives in ../shared (read in place, never copied).
Without the shared data the tests that need it are skipped, except under CI (`CI` set),
where they fail."""

import os
import pathlib

import pytest
from corpus import (  # noqa: F401 (the tests import them from here)
    ARCHIVES,
    CORPUS,
    GLTF_SAMPLES,
    REPO,
    corpus_files,
    manifest,
    pick,
    smallest,
    textured_model,
)


def need(path: pathlib.Path) -> pathlib.Path:
    """`path`, or a skip (a failure under CI) when the shared data is not there."""
    if not path.exists():
        if os.environ.get("CI"):
            pytest.fail(f"shared test data missing: {path}")
        pytest.skip(f"shared test data missing: {path}")
    return path


@pytest.fixture(autouse=True)
def shared_data():
    """Every test reads the corpus."""
    need(CORPUS / "MANIFEST.tsv")
