"""The principal die's colour measured on the table's own die (Settings: "use the die in the
tray"): kept with its name across restarts, refused unless one die is in sight, and the die
nearest it is a throw's principal die even when the light makes the reader name it otherwise
(RULES D6-2a)."""

from __future__ import annotations

import time

import pytest

from device.controller import Controller
from device.history import History
from device.presets import build_presets
from device.roll.settings import NotOneDie
from vision.reading import DieReading, TrayReading
from vision.synthetic import render_tray


class NamedAs:
    """A reader that finds the rendered dice (their true boxes) and names them ``names``: a
    light that fools the namer (a dark blue die named black)."""

    def __init__(self):
        self.trays: dict[int, tuple[list[dict], list[str]]] = {}

    def tray(self, seed: int, colors: list[str], names: list[str] | None = None):
        values = [6, *[2] * (len(colors) - 1)][:len(colors)]
        image, truth = render_tray(seed, count=len(colors), values=values, colors=colors, rotation=False)
        self.trays[id(image)] = (truth, names or colors)
        return image

    def __call__(self, image, principal_color):
        truth, names = self.trays[id(image)]
        dice = [DieReading(t["value"], 6, tuple(t["box"]), (0.0, 0.0), name, 0.9) for t, name in
                zip(truth, names, strict=True)]
        only = [d for d in dice if d.color == principal_color]
        if len(only) == 1:
            only[0].principal = True
        return TrayReading(dice, (image.shape[1], image.shape[0]))


@pytest.fixture
def reader():
    return NamedAs()


def controller(history, reader):
    return Controller(build_presets(), history, reader=reader, numbered_reader=reader)


def test_the_measured_colour_is_kept_with_its_name_across_a_restart(tmp_path, reader):
    with History(tmp_path) as history:
        ctl = controller(history, reader)
        ctl.on_settled(reader.tray(1, ["blue"]), time.monotonic())
        settings = ctl.principal_from_tray()
        assert settings["principal_color"] == "blue"
        assert settings["principal_measured"]["name"] == "blue" and len(settings["principal_measured"]["lab"]) == 3
    with History(tmp_path) as history:
        again = controller(history, reader).settings()
    assert again["principal_color"] == "blue" and again["principal_measured"] == settings["principal_measured"]


def test_a_colour_chosen_by_name_drops_the_measured_one(tmp_path, reader):
    with History(tmp_path) as history:
        ctl = controller(history, reader)
        ctl.on_settled(reader.tray(1, ["blue"]), time.monotonic())
        ctl.principal_from_tray()
        assert ctl.update_settings(principal_color="red")["principal_measured"] is None
    with History(tmp_path) as history:
        assert controller(history, reader).settings()["principal_measured"] is None


@pytest.mark.parametrize(("colors", "said"), [
    (None, "no photo from the camera yet: put the principal die alone in the tray"),
    ([], "no die in sight: put the principal die alone in the tray"),
    (["blue", "white"], "2 dice in sight: leave the principal die alone in the tray"),
])
def test_not_one_die_in_sight_is_refused_and_changes_nothing(tmp_path, reader, colors, said):
    with History(tmp_path) as history:
        ctl = controller(history, reader)
        if colors is not None:
            ctl.on_settled(reader.tray(2, colors), time.monotonic())
        with pytest.raises(NotOneDie) as refused:
            ctl.principal_from_tray()
        assert str(refused.value) == said
        assert ctl.settings()["principal_color"] == "red" and ctl.settings()["principal_measured"] is None


def test_a_throw_s_principal_die_is_the_one_nearest_the_measured_colour(tmp_path, reader):
    with History(tmp_path) as history:
        ctl = controller(history, reader)
        ctl.on_settled(reader.tray(1, ["blue"]), time.monotonic())
        ctl.principal_from_tray()
        ctl.arm("2d6")
        # the blue die named black, as dim light names it: by the name no die is blue
        ctl.on_settled(reader.tray(5, ["blue", "black"], names=["black", "black"]), time.monotonic() + 1)
        roll = ctl.state()["latest_roll"]
    assert [d["principal"] for d in roll["dice"]] == [True, False]
    assert roll["perfect"]  # RULES D6-3: the principal die shows 6
