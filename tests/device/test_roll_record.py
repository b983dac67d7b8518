"""The roll's records (device/roll/record.py): what the history keeps and the API sends is
their to_dict(), and from_dict() reads it back unchanged (#18)."""

from __future__ import annotations

import json

from device.controller import Controller
from device.history import History
from device.presets import build_presets
from device.roll.record import Correction, Die, Roll
from rules.phrase import Phrase


def test_a_saved_roll_comes_back_the_same_through_its_record(tmp_path):
    with History(tmp_path) as history:
        controller = Controller(build_presets(), history)
        controller.arm("2d6", "ana")
        controller.enter_dice([6, 2])    # a perfect roll (RULES D6-4): its extra die by hand
        controller.enter_dice([4])
        roll_id = controller.rolls(limit=1)[0]["id"]
        controller.correct(roll_id, 0, value=3, who="bia")  # the extra die made surplus (RULES P-3)
        saved = controller.roll(roll_id)
        record = Roll.from_dict(saved)
        assert record.to_dict() == saved
        assert json.dumps([die.to_dict() for die in record.dice]) == json.dumps(saved["dice"])  # same keys, same order
        assert record.dice[2].surplus and "surplus" in saved["dice"][2] and "surplus" not in saved["dice"][0]
        assert record.corrections == [Correction(0, 6, 3, "bia", saved["corrections"][0]["at"])]
        assert isinstance(record.note, Phrase) and record.note == saved["note"]
        assert history.save(record)["dice"] == saved["dice"]  # the history takes the record itself


def test_a_die_kept_without_its_principal_flag_takes_it_from_its_role():
    die = Die.from_dict({"index": 0, "step": 0, "natural": 5, "value": 5, "role": "principal", "source": "camera"})
    assert die.principal and die.to_dict()["principal"] is True and not die.surplus
