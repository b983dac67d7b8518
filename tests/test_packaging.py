"""The four packages import from this repository and are all listed in pyproject."""

import importlib
import tomllib
from pathlib import Path

import pytest
import setuptools

ROOT = Path(__file__).resolve().parents[1]
PACKAGES = ("rules", "vision", "device", "web")


@pytest.mark.parametrize("name", PACKAGES)
def test_package_imports_from_this_repository(name):
    module = importlib.import_module(name)
    assert Path(module.__file__).resolve().parent == ROOT / name


def test_pyproject_finds_every_package_and_nothing_else():
    # A non-editable install (the Pi's venv) ships only the packages setuptools finds.
    find = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["setuptools"]["packages"]["find"]
    found = set(setuptools.find_namespace_packages(str(ROOT), include=find["include"]))
    on_disk = {
        ".".join(init.parent.relative_to(ROOT).parts)
        for package in PACKAGES
        for init in ROOT.glob(f"{package}/**/__init__.py")
    }
    assert on_disk <= found
    assert {name.split(".")[0] for name in found} == set(PACKAGES)


def test_rules_needs_neither_numpy_nor_opencv():
    # DESIGN.md: rules imports nothing of ours and needs neither numpy nor OpenCV.
    for path in (ROOT / "rules").glob("*.py"):
        text = path.read_text()
        for banned in ("import numpy", "import cv2", "from vision", "from device", "from web"):
            assert banned not in text, f"{path.name} has {banned!r}"
