"""constraints.txt pins every package dicelens and its tests install, for each Python it
supports, and the venv the tests run in holds exactly those versions."""

from __future__ import annotations

import importlib.metadata
import sys
import tomllib
from pathlib import Path

import pytest
from packaging.markers import default_environment
from packaging.requirements import Requirement
from packaging.specifiers import SpecifierSet
from packaging.utils import canonicalize_name

ROOT = Path(__file__).resolve().parents[1]
PYTHONS = ("3.11", "3.13")  # Raspberry Pi OS Bookworm's and Trixie's


def pins(python: str) -> dict[str, str]:
    """constraints.txt's ``{name: version}`` for ``python`` ("3.11")."""
    environment = default_environment() | {"python_version": python, "python_full_version": f"{python}.0"}
    found: dict[str, str] = {}
    for line in (ROOT / "constraints.txt").read_text().splitlines():
        line = line.split("#", 1)[0].strip()
        if not line:
            continue
        requirement = Requirement(line)
        (specifier,) = requirement.specifier  # one exact version, nothing looser
        assert specifier.operator == "==", line
        if requirement.marker is None or requirement.marker.evaluate(environment):
            name = canonicalize_name(requirement.name)
            assert name not in found, f"{name} pinned twice for Python {python}"
            found[name] = specifier.version
    return found


EXTRAS = ("test", "lint")  # what `make` installs beside dicelens


def installed_closure() -> dict[str, str]:
    """``{name: version}`` of dicelens[test,lint]'s dependencies, and theirs, in this venv."""
    seen: dict[str, str] = {}
    todo = [("dicelens", set(EXTRAS))]
    while todo:
        name, extras = todo.pop()
        for text in importlib.metadata.requires(name) or ():
            requirement = Requirement(text)
            if requirement.marker and not any(requirement.marker.evaluate({"extra": e}) for e in extras | {""}):
                continue
            key = canonicalize_name(requirement.name)
            if key not in seen:
                seen[key] = importlib.metadata.version(key)
                todo.append((key, set(requirement.extras)))
    return seen


def test_the_venv_holds_exactly_the_pinned_versions():
    python = f"{sys.version_info.major}.{sys.version_info.minor}"
    pinned = pins(python)
    installed = installed_closure()
    assert {name: pinned.get(name) for name in installed} == installed


@pytest.mark.parametrize("python", PYTHONS)
def test_every_dependency_is_pinned_within_pyproject_for_each_python(python):
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    pinned = pins(python)
    extras = [text for extra in EXTRAS for text in project["optional-dependencies"][extra]]
    for text in project["dependencies"] + extras:
        requirement = Requirement(text)
        name = canonicalize_name(requirement.name)
        assert name in pinned, f"{name} has no pin for Python {python}"
        assert requirement.specifier.contains(pinned[name]), f"{name}=={pinned[name]} is outside {text!r}"



def test_pyproject_names_the_pythons_pinned_and_tested():
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    named = [c.rsplit(" :: ", 1)[1] for c in project.get("classifiers", [])
             if c.startswith("Programming Language :: Python :: 3.")]
    assert named == list(PYTHONS)
    assert all(SpecifierSet(project["requires-python"]).contains(f"{python}.0") for python in PYTHONS)
