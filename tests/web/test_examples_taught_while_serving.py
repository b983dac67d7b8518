"""Examples taught with ``dicelens teach --data DIR`` while the server runs on DIR (trial 6):
the running controller reads with the adaptation the CLI wrote at the next throw, and
GET /api/examples shows its counts and status, without a restart."""

from __future__ import annotations

import json
import logging

import cv2
import numpy as np
import pytest

from device.cli import main
from device.controller import Controller
from device.presets import build_presets
from tests.device.controller_fakes import HEIGHT, WIDTH
from vision import adapt
from vision.reading import TrayReading
from web import create_app


@pytest.fixture
def controller(history, clock):
    """The real controller with the default readers (the data folder's adaptation when used)."""
    made = Controller(build_presets(), history, clock=clock, refit_seconds=3600)
    yield made
    made.close()


@pytest.fixture
def client(controller):
    return create_app(controller, {"TESTING": True, "SECRET_KEY": "t"}).test_client()


@pytest.fixture
def layers(monkeypatch):
    """The adaptations the live reader reads with (``adapt.read``'s), the shipped reader's reads as None."""
    seen: list[adapt.Adaptation | None] = []
    monkeypatch.setattr(adapt, "read", lambda image, adaptation, principal_color=None:
                        seen.append(adaptation) or TrayReading(dice=[], size=(WIDTH, HEIGHT)))
    return seen


def test_an_adaptation_saved_by_another_process_is_read_at_the_next_throw(controller, client, history, layers,
                                                                        caplog):
    image = np.zeros((HEIGHT, WIDTH, 3), np.uint8)
    controller.readers["pips"](image, None)
    assert layers == [] and client.get("/api/examples").get_json()["adaptation"] is None
    adapt.Adaptation(family="pips", used=True, examples={"d6-pips": {"3": 2}}, photos=2).save(history.folder)
    controller.readers["pips"](image, None)
    assert [layer.used for layer in layers] == [True]
    shown = client.get("/api/examples").get_json()["adaptation"]
    assert (shown["used"], shown["examples"]) == (True, 2)
    adapt.Adaptation(family="pips", used=False, why="fewer than two labelled photos").save(history.folder)
    controller.readers["pips"](image, None)
    assert len(layers) == 1  # not used any more: the shipped reader read it
    assert client.get("/api/examples").get_json()["adaptation"]["used"] is False
    (history.folder / adapt.FILE).write_text("{damaged")
    with caplog.at_level(logging.WARNING):
        controller.readers["pips"](image, None)
    assert len(layers) == 1 and "the table's adaptation is not used" in caplog.text
    assert client.get("/api/examples").get_json()["adaptation"] is None


@pytest.mark.slow  # dicelens teach fits a layer over real photos
def test_dice_taught_from_the_cli_into_the_servers_folder_are_shown_and_read_with(controller, client, history,
                                                                                 real_photos, tmp_path, capsys,
                                                                                 monkeypatch):
    # a table whose dice show 7 - v where the networks learned v: a layer the rule uses
    source = "real-dice/byler-tray-d6"
    folder = real_photos.folder(source)
    entries = [dict(entry, file=str(folder / entry["file"]),
                    dice=[dict(d, value=7 - d["value"]) for d in entry["dice"]])
               for entry in list(real_photos.labels(source).values())[:8]]
    labels = tmp_path / "labels.json"
    labels.write_text(json.dumps({"images": entries}))
    before = client.get("/api/examples").get_json()
    assert before["counts"] == {} and before["adaptation"] is None
    assert main(["teach", str(labels), "--data", str(history.folder), "--who", "Ana"]) == 0, capsys.readouterr().err
    taught = json.loads(capsys.readouterr().out)
    assert taught["used"]
    listed = client.get("/api/examples").get_json()
    assert listed["counts"] == {"d6-pips": taught["examples"]} and len(listed["examples"]) == taught["examples"]
    assert (listed["adaptation"]["used"], listed["adaptation"]["examples"]) == (True, taught["examples"])
    seen, read_with = [], adapt.read
    monkeypatch.setattr(adapt, "read", lambda *args, **kwargs: seen.append(args[1]) or read_with(*args, **kwargs))
    controller.readers["pips"](cv2.imread(str(folder / list(real_photos.labels(source))[9])), None)
    assert len(seen) == 1 and seen[0].used  # the layer the CLI wrote read the throw
