"""The web part's app fixtures, around the tests' fake controller (tests/fakes/controller.py);
for the tests over the real controller, its history (SQLite), a fake reader, a clock and
:func:`real_controller`, which makes it."""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager

import pytest
import waitress
from waitress import wasyncore

from device.controller import Controller
from device.history import History
from device.presets import build_presets
from tests.device.controller_fakes import Clock, FakeReader, fakes
from tests.fakes.controller import FakeController
from web import create_app

__all__ = ["FakeController", "csv_lines", "live_server", "running"]


@pytest.fixture
def history(tmp_path):
    """The real history (SQLite) in the data folder ``tmp_path/data``, for the tests over the
    real controller."""
    with History(tmp_path / "data") as history:
        yield history


@pytest.fixture
def reader() -> FakeReader:
    return FakeReader()


@pytest.fixture
def clock() -> Clock:
    return Clock()


@pytest.fixture
def real_controller(history, reader, clock) -> Iterator[Callable[..., Controller]]:
    """Make the real controller over :func:`history`; each one made is closed at the test's end.

    ``real_controller(vision=False, presets=(), camera=None, **options)``:

    :param vision: read with the shipped readers and annotate (OpenCV, onnxruntime) on the
        real clock (``time.monotonic``), as `dicelens serve` does; else with :func:`reader`
        (tests/device/controller_fakes.py) on :func:`clock`.
    :param presets: the config's presets (``build_presets``'s tables), after the built-in ones.
    :param camera: the camera loop's hooks (``Controller.attach_camera``'s keywords), its
        status then ``"ok"``; None: no camera attached.
    :param options: the controller's other keywords (``refit_seconds=3600``).
    """
    made: list[Controller] = []

    def make(*, vision: bool = False, presets: Sequence[dict] = (), camera: dict | None = None,
             **options) -> Controller:
        faked = {} if vision else {**fakes(reader), "clock": clock}
        controller = Controller(build_presets(presets), history, **faked, **options)
        made.append(controller)
        if camera is not None:
            controller.attach_camera(**camera)
            controller.on_status("ok")
        return controller

    yield make
    for controller in made:
        controller.close()


@pytest.fixture
def controller(tmp_path) -> FakeController:
    # A throw settles at once, as the simulated camera's; photos are two small files; a
    # page's queue holds 8 events, so a slow client's dropped ones are soon seen.
    return FakeController(tmp_path, queue_size=8, settles_on_throw=True, draws=False)


@pytest.fixture
def app(controller):
    return create_app(controller, {"TESTING": True, "HEARTBEAT_SECONDS": 0.05, "SECRET_KEY": "test"})


@pytest.fixture
def client(app):
    return app.test_client()


@contextmanager
def running(server) -> Iterator[int]:
    """Run a waitress ``server`` (made on port 0) until the block ends; yields its port.

    The server loop runs in a thread this helper stops and closes itself, so no
    socket is closed under a running loop.
    """
    stop = threading.Event()

    def loop():
        while not stop.is_set():
            wasyncore.loop(timeout=0.05, map=server._map, count=1)

    thread = threading.Thread(target=loop, daemon=True)
    thread.start()
    try:
        yield server.effective_port
    finally:
        stop.set()
        thread.join()
        wasyncore.close_all(server._map)  # streams notice at their next write and end
        server.task_dispatcher.shutdown()


def live_server(app, threads: int = 4):
    """Serve ``app`` with plain waitress on a free loopback port (:func:`running`)."""
    return running(waitress.create_server(app, host="127.0.0.1", port=0, threads=threads))


def csv_lines(client, query: str = "") -> list[dict]:
    """``GET /api/rolls.csv`` (``query``: its filters), each roll's line as ``{column: text}``,
    newest first."""
    head, *rows = client.get(f"/api/rolls.csv{query}").get_data(as_text=True).splitlines()
    return [dict(zip(head.split(","), row.split(","), strict=True)) for row in rows]
