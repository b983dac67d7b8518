"""What every test may use: the sample of real photos committed in tests/data/.

A user's clone has no datasets beside it, so no test reads them: the tests read the
sample (tests/data/README.md; made by tools/sample_datasets.py), laid out as the datasets
are: ``real-dice/<source>/``, ``real-polyhedral/<source>/``, ``real-d20/<source>/``, each
with its photos, ``labels.json`` and ``LICENSE.txt``.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from hypothesis import settings

SAMPLE = Path(__file__).resolve().parent / "data"
TESTS = Path(__file__).resolve().parent
#: Every test in one of these folders gets its marker (pyproject.toml declares them).
FOLDER_MARKS = {"browser": "browser", "hardware": "hardware"}

# No Hypothesis deadline: on a shared machine one slow example is no failure (a test
# asserts what happens, never how fast; benchmarks/ measure speed).
settings.register_profile("dicelens", deadline=None)
settings.load_profile("dicelens")


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Mark the tests of tests/browser ``browser`` and of tests/hardware ``hardware``."""
    for item in items:
        folder = item.path.relative_to(TESTS).parts[0] if item.path.is_relative_to(TESTS) else None
        if folder in FOLDER_MARKS:
            item.add_marker(FOLDER_MARKS[folder])


class RealPhotos:
    """The sample of real photos: folders of sources and their labels."""

    root = SAMPLE

    def folder(self, source: str) -> Path:
        """A source's folder, e.g. ``folder("real-dice/byler-tray-d6")``."""
        path = SAMPLE / source
        assert (path / "labels.json").is_file(), f"no sample of {source} in tests/data"
        return path

    def labels(self, source: str) -> dict[str, dict]:
        """A source's image entries (labels.json's schema) by file name, in the file's order."""
        data = json.loads((self.folder(source) / "labels.json").read_text())
        return {entry["file"]: entry for entry in data["images"]}

    def photos(self, source: str) -> list[Path]:
        """A source's photos, in the order of its labels."""
        folder = self.folder(source)
        return [folder / name for name in self.labels(source)]

    def photo(self, source: str, name: str) -> Path:
        """One photo of a source, by file name."""
        path = self.folder(source) / name
        assert path.is_file(), f"{name} is not in the sample of {source}"
        return path


@pytest.fixture(scope="session")
def real_photos() -> RealPhotos:
    """The real photos of tests/data (never the full datasets)."""
    return RealPhotos()
