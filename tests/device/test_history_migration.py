"""A history file an earlier version wrote is brought up to date when it is opened
(device/history_schema.py migrate): its rolls read as today's code would have kept them,
in one transaction, once."""

from __future__ import annotations

import contextlib
import json
import sqlite3

from device.controller import Controller
from device.history import History
from device.history_schema import VERSION
from device.presets import build_presets

from .old_history import CORRECTED, write_old_history


def test_an_old_historys_dice_added_by_a_correction_are_by_hand_not_corrected(tmp_path):
    path = write_old_history(tmp_path)
    with History(tmp_path) as history:
        roll = history.roll(1)
    assert [die["corrected"] for die in roll["dice"]] == CORRECTED
    assert [die["source"] for die in roll["dice"]] == ["camera", "hand", "hand", "hand"]
    with contextlib.closing(sqlite3.connect(path)) as db:  # the file itself, for any reader of it
        assert db.execute("PRAGMA user_version").fetchone()[0] == VERSION
        assert [die["corrected"] for die in json.loads(db.execute("SELECT dice FROM rolls").fetchone()[0])] == CORRECTED
    with History(tmp_path) as history:  # opened again: nothing left to migrate, the roll as it was
        assert history.roll(1) == roll


def test_a_new_history_is_made_at_the_current_version(tmp_path):
    History(tmp_path).close()
    with contextlib.closing(sqlite3.connect(tmp_path / "history.sqlite3")) as db:
        assert db.execute("PRAGMA user_version").fetchone()[0] == VERSION


def test_an_old_history_takes_the_label_column_its_rows_none(tmp_path):
    write_old_history(tmp_path)
    with History(tmp_path) as history:
        assert history.roll(1)["label"] is None  # named as before (web/messages.py roll_label)
        controller = Controller(build_presets([{"name": "mesa", "system": "free", "label": "Mesa livre"}]), history)
        controller.arm("mesa")
        controller.enter_dice([4, 2])
        roll_id = controller.rolls(limit=1)[0]["id"]
    with History(tmp_path) as history:  # after a restart
        assert history.roll(roll_id)["label"] == "Mesa livre" and history.roll(1)["label"] is None
