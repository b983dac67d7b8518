"""The roll controller's fixtures shared by the controller tests: a fake reader, a clock,
a real history in a temporary folder, and the controller over them; and one real photo
for the CLI tests. (A module's own fixture of the same name, e.g. another clock, takes
precedence there.)"""

from __future__ import annotations

from pathlib import Path

import pytest

from device.controller import Controller
from device.history import History
from device.presets import build_presets

from .controller_fakes import Clock, FakeReader, fakes


@pytest.fixture
def four_ones(real_photos) -> Path:
    """A real photo of four white dice showing 1 (penlington)."""
    return real_photos.photo("real-dice/penlington-desk-d6", "pl-70b4ad8f4b.jpg")


@pytest.fixture
def reader():
    return FakeReader()


@pytest.fixture
def clock():
    return Clock()


@pytest.fixture
def history(tmp_path):
    with History(tmp_path) as history:
        yield history


@pytest.fixture
def controller(history, reader, clock):
    return Controller(build_presets(), history, **fakes(reader), clock=clock)
