"""A history an earlier version wrote (tests/device/old_history.py), read over the web once
the device has opened it: the dice its corrections added are by hand, not corrected (the
rolls API, the CSV and JSON exports, /api/dice-stats), and its roll, kept with no label, is
named as before ("Free roll", in each language)."""

from __future__ import annotations

import json

import pytest

from device.controller import Controller
from device.history import History
from device.presets import build_presets
from tests.device.old_history import CORRECTED, write_old_history
from web import create_app

from .conftest import csv_lines

#: lang → the free roll's label as that page words it.
FREE = {"en": "Free roll", "pt_BR": "Rolagem livre", "es": "Tirada libre"}


@pytest.fixture
def old(tmp_path):
    """The app over the real controller and the old history, holding one free roll."""
    write_old_history(tmp_path)
    with History(tmp_path) as history:
        yield create_app(Controller(build_presets(), history), {"TESTING": True, "SECRET_KEY": "t"}).test_client()


def test_its_dice_a_correction_added_are_by_hand_everywhere(old):
    """The old roll: the camera's 3 corrected to 4, a 5 tapped in, a 6 tapped in then
    corrected to 2, a 6 tapped in then marked the principal die."""
    assert [d["corrected"] for d in old.get("/api/rolls").get_json()["rolls"][0]["dice"]] == CORRECTED
    assert [d["corrected"] for d in old.get("/api/rolls/1").get_json()["dice"]] == CORRECTED
    [exported] = json.loads(old.get("/api/rolls.json").get_data(as_text=True))
    assert [d["corrected"] for d in exported["dice"]] == CORRECTED
    [line] = csv_lines(old)
    assert line["sources"] == "camera hand hand hand" and line["corrected"] == "1 3"
    [pips] = [k for k in old.get("/api/dice-stats").get_json()["kinds"] if k["kind"] == "d6-pips"]
    assert (pips["read"], pips["corrected"], pips["by_hand"]) == (1, 1, 3)


@pytest.mark.parametrize("lang", FREE)
def test_its_roll_kept_with_no_label_is_named_as_before(old, lang):
    [roll] = old.get(f"/api/rolls?lang={lang}").get_json()["rolls"]
    assert roll["label"] == "Free roll" and roll["label_text"] == FREE[lang]  # as the exports name it
    assert old.get(f"/api/rolls/1?lang={lang}").get_json()["label"] == "Free roll"
    assert f"<strong>{FREE[lang]}" in old.get(f"/history?lang={lang}").get_data(as_text=True)
    assert [line["label"] for line in csv_lines(old)] == ["Free roll"]
    assert json.loads(old.get("/api/rolls.json").get_data(as_text=True))[0]["label"] == "Free roll"


@pytest.mark.parametrize(("roll", "label"), [
    ({"system": "free", "preset": "free", "result": {"label": "3D6"}}, "Free roll"),
    ({"system": "d6", "preset": "2d6", "result": {"label": "2D6"}}, "2D6"),
    ({"system": "d6", "preset": "mine", "result": None, "spec": {"count": 2, "kind": "D3", "modifier": 1}}, "2D3+1"),
    ({"system": "pool", "preset": "p", "result": None, "spec": {"size": 5}}, "pool 5 · difficulty 1"),
])
def test_an_old_roll_kept_with_no_label_is_named_alike_by_the_api_and_the_exports(roll, label):
    """One place names it (web.messages.roll_label): the API's ``label`` (shown_roll) and the
    CSV's ``label`` column agree for every kind of old roll, none of them null."""
    from web.export import CSV_COLUMNS, csv_row
    from web.messages import shown_roll

    kept = {"id": 1, "seq": 1, "label": None, "note": None, "dice": [], "corrections": [], **roll}
    app = create_app(None, {"TESTING": True, "SECRET_KEY": "t"})
    with app.test_request_context("/?lang=pt_BR"):
        shown = shown_roll(kept)
    assert shown["label"] == label == csv_row(kept)[CSV_COLUMNS.index("label")]
